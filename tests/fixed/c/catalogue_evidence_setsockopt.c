/* Keepalive set on the descriptor, then a request split in two writes before the reply. */
#include <unistd.h>
#include <sys/uio.h>

int ask(int h, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int on = 1;

    setsockopt(h, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on); // catalogue: evidence_words.setsockopt
    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(h, iov, 2);
    } // expect: NGL001
    return read(h, reply, 64);
}
