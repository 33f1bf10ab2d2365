/* Splits that are not one message: the second pieces of two arms of an if/else (only one
   runs), and the pieces of two connections, are each their own finding, at the end of the
   function (a low-confidence finding: fixture-confidence: low) as before its read. */
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

int reply(int listener, int verbose, const char *head, const char *body, char *out, size_t cap)
{
    int fd = accept(listener, NULL, NULL);

    send(fd, head, strlen(head), 0);
    if (verbose)
        send(fd, body, strlen(body), 0); // expect: NGL001
    else
        send(fd, "-\n", 2, 0); // expect: NGL001
    return (int)recv(fd, out, cap, 0);
}

int relay_status(int client, int backend, const char *head, const char *body)
{
    {
        struct iovec iov[2] = {{(void *)head, strlen(head)}, {(void *)body, strlen(body)}};
        writev(client, iov, 2);
    } // expect: NGL001
    {
        struct iovec iov[2] = {{(void *)head, strlen(head)}, {(void *)body, strlen(body)}};
        writev(backend, iov, 2);
    } // expect: NGL001
    return 0;
}

void poll_peers(int client, int backend)
{
    char buf[64];

    recv(client, buf, sizeof buf, 0);
    recv(backend, buf, sizeof buf, 0);
    relay_status(client, backend, "S\n", "ok\n");
}
