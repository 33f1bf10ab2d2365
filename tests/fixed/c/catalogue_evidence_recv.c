/* A request split in two writes, then the reply is received with a call of the BSD API. */
#include <unistd.h>
#include <sys/uio.h>

int ask(int h, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(h, iov, 2);
    } // expect: NGL001
    return recv(h, reply, 64, 0); // catalogue: evidence_words.recv
}
