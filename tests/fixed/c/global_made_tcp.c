/* A connection kept in a global of the file: connect_server() makes it a TCP socket, ask()
   splits its request on it before the reply is read. */
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

static int g_fd = -1;

int connect_server(const struct sockaddr_in *sa)
{
    g_fd = socket(AF_INET, SOCK_STREAM, 0);
    if (g_fd < 0 || connect(g_fd, (const struct sockaddr *)sa, sizeof *sa) < 0)
        return -1;
    return 0;
}

int ask(const char *head, int hl, const char *body, int bl, char *out, int cap)
{
    {
        struct iovec iov[2] = {{(void *)head, hl}, {(void *)body, bl}};
        writev(g_fd, iov, 2);
    } // expect: NGL001
    return (int)read(g_fd, out, cap);
}
