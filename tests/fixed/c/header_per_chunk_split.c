/* A block sent in chunks, each after a two-byte header of its own, then the answer read:
   every pass splits one frame in two, and the header is that split's first piece. One
   pattern, one finding: the split (NGL001), not also the header as a tiny write (NGL003). */
#include <netinet/in.h>
#include <stdint.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

#define CHUNK 8190

int put_block(const char *block, size_t len, char *answer)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    for (size_t pos = 0; pos < len; pos += CHUNK) {
        size_t n = len - pos < CHUNK ? len - pos : CHUNK;
        uint16_t head = htons((uint16_t)n);
        {
            struct iovec iov[2] = {{(void *)(&head), 2}, {(void *)(block + pos), n}};
            writev(fd, iov, 2);
        } // expect: NGL001
    }
    return (int)read(fd, answer, 2);
}
