/* A request split in two writes before the reply, then the writing side is half-closed. */
#include <unistd.h>
#include <sys/uio.h>

int ask(int h, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int got;

    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(h, iov, 2);
    } // expect: NGL001
    got = read(h, reply, 64);
    shutdown(h, SHUT_WR); // catalogue: evidence_words.shutdown
    return got;
}
