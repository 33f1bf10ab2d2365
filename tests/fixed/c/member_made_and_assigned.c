/* The endpoint member is a UDP socket in one place, and an accepted TCP connection in another
   (`e->fd = c`): what the file makes for it does not tell what it holds everywhere, so the
   split reply below is judged as for any connection (here at every confidence:
   fixture-confidence: low). */
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

struct endpoint {
    int fd;
};

int endpoint_udp(struct endpoint *e)
{
    e->fd = socket(AF_INET, SOCK_DGRAM, 0);
    return e->fd;
}

int endpoint_accept(struct endpoint *e, int listener)
{
    int c = accept(listener, NULL, NULL);

    e->fd = c;
    return c;
}

int endpoint_ask(struct endpoint *e, const char *head, size_t hl, const char *body, size_t bl, char *reply,
                 size_t cap)
{
    {
        struct iovec iov[2] = {{(void *)head, hl}, {(void *)body, bl}};
        writev(e->fd, iov, 2);
    } // expect: NGL001
    return (int)read(e->fd, reply, cap);
}
