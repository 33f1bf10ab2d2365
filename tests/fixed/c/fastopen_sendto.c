/* TCP Fast Open: the first request leaves with the SYN, through sendto() given the server's
   address and MSG_FASTOPEN, on a stream socket. With that flag the address is no sign of a
   datagram socket, and the next request, in two pieces before its answer is read, is split.
   Without it (a datagram socket's sendto), nothing on the socket is TCP. A send of no bytes (the
   Fast Open connect, `sendto(fd, "", 0, MSG_FASTOPEN, ...)`) is no piece of a message.
   fixture-confidence: low */
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

int fast_open_request(int fd, const struct sockaddr *server, socklen_t len, const char *head,
                      const char *body, char *reply, size_t cap)
{
    sendto(fd, head, strlen(head), MSG_FASTOPEN, server, len); // catalogue: stream_flags.MSG_FASTOPEN
    recv(fd, reply, cap, 0);
    {
        struct iovec iov[2] = {{(void *)head, strlen(head)}, {(void *)body, strlen(body)}};
        writev(fd, iov, 2);
    } // expect: NGL001
    return (int)recv(fd, reply, cap, 0);
}

int datagram_request(int fd, const struct sockaddr *server, socklen_t len, const char *head,
                     const char *body, char *reply, size_t cap)
{
    sendto(fd, head, strlen(head), 0, server, len);
    recv(fd, reply, cap, 0);
    send(fd, head, strlen(head), 0);
    send(fd, body, strlen(body), 0);
    return (int)recv(fd, reply, cap, 0);
}

int fast_open_connect(int fd, const struct sockaddr *server, socklen_t len, const char *head,
                      const char *body, char *reply, size_t cap)
{
    sendto(fd, "", 0, MSG_FASTOPEN, server, len);
    {
        struct iovec iov[2] = {{(void *)head, strlen(head)}, {(void *)body, strlen(body)}};
        writev(fd, iov, 2);
    } // expect: NGL001
    return (int)recv(fd, reply, cap, 0);
}
