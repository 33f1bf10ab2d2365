/* A client sends a request as a length line and a body in two write() calls, then waits for
   the reply: Nagle holds the body until the length line is ACKed, and the server delays that ACK. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

int main(void)
{
    static const char body[] = "{\"op\":\"get\",\"key\":\"user:42\"}";
    char head[32], reply[512];
    struct sockaddr_in sa = {0};
    ssize_t n;
    int fd, hl;

    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 1;
    sa.sin_family = AF_INET;
    sa.sin_port = htons(7000);
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
        perror("connect");
        return 1;
    }

    hl = snprintf(head, sizeof head, "LEN %zu\n", sizeof body - 1);
    {
        struct iovec iov[2] = {{(void *)head, hl}, {(void *)body, sizeof body - 1}};
        writev(fd, iov, 2);
    } // expect: NGL001
    n = read(fd, reply, sizeof reply);
    if (n > 0)
        fwrite(reply, 1, n, stdout);
    close(fd);
    return 0;
}
