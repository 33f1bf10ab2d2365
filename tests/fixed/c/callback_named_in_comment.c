/* A handler that reads a request and answers in two pieces is called again for the next
   request only where it is registered: its name used as a value in code (kept in a table of
   handlers), not named in a comment or a string. */
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

typedef void (*handler_fn)(int sd);

/* answer replies to one request; it is kept in no table. */
static void answer(int sd)
{
    char request[100];
    int n = (int)recv(sd, request, sizeof request, 0);
    send(sd, "+OK ", 4, 0);
    send(sd, request, n, 0);
}

static void answer_registered(int sd)
{
    char request[100];
    int n = (int)recv(sd, request, sizeof request, 0);
    {
        struct iovec iov[2] = {{(void *)"+OK ", 4}, {(void *)request, n}};
        writev(sd, iov, 2);
    } // expect: NGL001
}

const char *describe(void)
{
    return "answer sends its reply in two pieces";
}

handler_fn handlers[] = {answer_registered};
