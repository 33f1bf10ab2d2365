/* MSG_MORE is also set on the last piece, so the kernel keeps waiting for more data that never
   comes: the request sits in the socket (up to 200 ms) while recv() waits for the answer. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
    static const char body[] = "SELECT name FROM users WHERE id = 42";
    struct sockaddr_in sa = {0};
    char head[32], reply[1024];
    int fd, hl;

    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 1;
    sa.sin_family = AF_INET;
    sa.sin_port = htons(6000);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0)
        return 1;

    hl = snprintf(head, sizeof head, "Q %zu\n", sizeof body - 1);
    send(fd, head, hl, MSG_MORE);
    send(fd, body, sizeof body - 1, 0); // expect: NGL004
    if (recv(fd, reply, sizeof reply, 0) <= 0)
        return 1;
    close(fd);
    return 0;
}
