/* A function defined once per build: the POSIX definition gathers the header and the body into
   one writev, the other sends them in two pieces, and the read after the call waits on that
   build. */
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

struct conn {
    int fd;
};

int conn_open(struct conn *c)
{
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    return c->fd;
}

#ifdef _WIN32
static void send_message(struct conn *c, const char *head, int hl, const char *body, int bl)
{
    {
        struct iovec iov[2] = {{(void *)head, hl}, {(void *)body, bl}};
        writev(c->fd, iov, 2);
    } // expect: NGL001
}
#else
static void send_message(struct conn *c, const char *head, int hl, const char *body, int bl)
{
    struct iovec iov[2] = {{(void *)head, hl}, {(void *)body, bl}};
    writev(c->fd, iov, 2);
}
#endif

int ask(struct conn *c, const char *head, int hl, const char *body, int bl, char *reply)
{
    send_message(c, head, hl, body, bl);
    return (int)read(c->fd, reply, 64);
}
