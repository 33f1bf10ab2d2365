/* A server answers each client it takes with a header and a body in two writes; the client
   waits for both. Taking the client is all this file shows of its descriptors. */
#include <unistd.h>
#include <sys/uio.h>

void serve(int listener, const char *head, size_t n, const char *body, size_t m, char *buf)
{
    int c = accept(listener, NULL, NULL); // catalogue: accepts.accept, evidence_words.accept

    read(c, buf, 64);
    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(c, iov, 2);
    } // expect: NGL001
    read(c, buf, 64);
}

void serve_nonblocking(int listener, const char *head, size_t n, const char *body, size_t m, char *buf)
{
    int c = accept4(listener, NULL, NULL, 0); // catalogue: accepts.accept4

    read(c, buf, 64);
    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(c, iov, 2);
    } // expect: NGL001
    read(c, buf, 64);
}
