/* The cork is released only after the reply has been read: the corked request is held in the
   kernel (up to 200 ms) while read() waits for an answer to it. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void)
{
    static const char body[] = "{\"op\":\"get\",\"key\":\"user:42\"}";
    struct sockaddr_in sa = {0};
    char head[32], reply[512];
    int fd, hl;
    int on = 1, off = 0;

    fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 1;
    sa.sin_family = AF_INET;
    sa.sin_port = htons(7000);
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0)
        return 1;

    hl = snprintf(head, sizeof head, "LEN %zu\n", sizeof body - 1);
    setsockopt(fd, IPPROTO_TCP, TCP_CORK, &on, sizeof on); // expect: NGL004
    write(fd, head, hl);
    write(fd, body, sizeof body - 1);
    setsockopt(fd, IPPROTO_TCP, TCP_CORK, &(int){0}, sizeof(int));
    if (read(fd, reply, sizeof reply) <= 0)
        return 1;
    setsockopt(fd, IPPROTO_TCP, TCP_CORK, &off, sizeof off);
    close(fd);
    return 0;
}
/* catalogue: option_setters.setsockopt, options.TCP_CORK */
