/* MSG_MORE on the last piece too: the kernel waits for data that never comes (up to 200 ms)
   while the reply is awaited. A socket's own sends take their flags after the byte count
   (send, sendto) or after the message (sendmsg); write() takes none. */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

int request_send(const char *head, size_t hl, const char *body, size_t bl, char *reply)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    send(fd, head, hl, MSG_MORE);
    send(fd, body, bl, 0); // expect: NGL004  catalogue: flags_argument.send
    return recv(fd, reply, 1024, 0);
}

int request_sendto(const char *head, size_t hl, const char *body, size_t bl, char *reply)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sendto(fd, head, hl, MSG_MORE, NULL, 0);
    sendto(fd, body, bl, 0, NULL, 0); // expect: NGL004  catalogue: flags_argument.sendto
    return recv(fd, reply, 1024, 0);
}

int request_sendmsg(struct msghdr *head, struct msghdr *body, char *reply)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    sendmsg(fd, head, MSG_MORE);
    sendmsg(fd, body, 0); // expect: NGL004  catalogue: flags_argument.sendmsg
    return recv(fd, reply, 1024, 0);
}

/* The last piece without MSG_MORE: it pushes the held piece out with it. */
int request_released(const char *head, size_t hl, const char *body, size_t bl, char *reply)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    send(fd, head, hl, MSG_MORE);
    send(fd, body, bl, 0);
    return recv(fd, reply, 1024, 0);
}
