/* A request split in two calls of the BSD API, then the reply is read. */
#include <unistd.h>
#include <sys/uio.h>

int ask(int h, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    // catalogue: evidence_words.send
    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(h, iov, 2);
    } // expect: NGL001
    return read(h, reply, 64);
}
