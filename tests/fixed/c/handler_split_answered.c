/* An event-driven peer: the write handler sends a message's header and then its body in two
   writes and returns; the read handler of the same file reads the answers on the same socket.
   The peer answers only a whole message, so the body waits for the header's delayed ACK. */
#include <sys/types.h>
#include <unistd.h>
#include <sys/uio.h>

struct msg {
    char hdr[16];
    size_t hdr_len;
    char *data;
    size_t data_len;
};

struct peer {
    int sd;
    struct msg *out;
    char in[256];
};

static ssize_t read_some(int sd, char *buf, size_t cap)
{
    return read(sd, buf, cap);
}

void peer_send_handler(int fd, short flags, void *arg)
{
    struct peer *peer = arg;
    struct msg *m = peer->out;

    {
        struct iovec iov[2] = {{(void *)m->hdr, m->hdr_len}, {(void *)m->data, m->data_len}};
        writev(peer->sd, iov, 2);
    } // expect: NGL001
}

void peer_recv_handler(int fd, short flags, void *arg)
{
    struct peer *peer = arg;

    read_some(peer->sd, peer->in, sizeof peer->in);
}
