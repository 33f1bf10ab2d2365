/* IPv6 TCP client: a fixed frame header and the payload go out in two send() calls before
   recv() waits for the answer, so the payload stalls behind the header's delayed ACK. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

struct frame_header {
    uint32_t type;
    uint32_t length;
};

int query(const char *text, char *answer, size_t cap)
{
    struct sockaddr_in6 sa = {0};
    struct frame_header fh;
    size_t len = strlen(text);
    ssize_t n;
    int fd = socket(AF_INET6, SOCK_STREAM, 0);

    if (fd < 0)
        return -1;
    sa.sin6_family = AF_INET6;
    sa.sin6_port = htons(9090);
    sa.sin6_addr = in6addr_loopback;
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
        close(fd);
        return -1;
    }

    fh.type = htonl(1);
    fh.length = htonl((uint32_t)len);
    {
        struct iovec iov[2] = {{(void *)(&fh), sizeof fh}, {(void *)text, len}};
        writev(fd, iov, 2);
    } // expect: NGL001 catalogue: joinable_sends.send
    n = recv(fd, answer, cap, 0);
    close(fd);
    return (int)n;
}
