/* The same callbacks, but the receive callback reads without turning TCP_CORK off first: the last
   record marked MSG_MORE waits in the kernel up to 200 ms while the peer waits for it. */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <sys/socket.h>

struct handshake_io {
    int fd;
    bool last_was_send;
};

static int io_send(void *ctx, const unsigned char *buf, size_t len)
{
    struct handshake_io *io = ctx;
    ssize_t r = send(io->fd, buf, len, 0); // expect: NGL004

    if (r < 0)
        return -1;
    io->last_was_send = true;
    return (int)r;
}

static int io_recv(void *ctx, unsigned char *buf, size_t len)
{
    struct handshake_io *io = ctx;

    io->last_was_send = false;
    return (int)recv(io->fd, buf, len, 0);
}

void tls_set_io(void *tls, struct handshake_io *io, int (*out)(void *, const unsigned char *, size_t),
                int (*in)(void *, unsigned char *, size_t));

void start_handshake(void *tls, struct handshake_io *io)
{
    tls_set_io(tls, io, io_send, io_recv);
}
