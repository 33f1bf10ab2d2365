/* Descriptors whose names only contain a socket word say nothing of what they are (a file being
   patched here); a whole-word name (`sockfd`) is evidence of a socket. */
#include <unistd.h>
#include <sys/uio.h>

int patch(int chunkfd, const char *a, const char *b, char *out, size_t cap)
{
    write(chunkfd, a, 4);
    write(chunkfd, b, 4);
    return (int)read(chunkfd, out, cap);
}

int ask(int sockfd, const char *a, const char *b, char *out, size_t cap)
{
    {
        struct iovec iov[2] = {{(void *)a, 4}, {(void *)b, 4}};
        writev(sockfd, iov, 2);
    } // expect: NGL001
    return (int)read(sockfd, out, cap);
}
