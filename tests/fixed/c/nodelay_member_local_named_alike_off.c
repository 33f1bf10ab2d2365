/* The twin of nodelay_member_local_named_alike.c without TCP_NODELAY: the request first waits
   for the server's greeting, in a loop whose local copy of the descriptor is named like
   the member (`int sock = c->sock;`), then splits its message on the member: the body waits
   for the peer's delayed ACK. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

struct conn {
    int sock;
};

int conn_open(struct conn *c, const struct sockaddr_in *sa)
{
    c->sock = socket(AF_INET, SOCK_STREAM, 0);
    return connect(c->sock, (const struct sockaddr *)sa, sizeof *sa);
}

int conn_request(struct conn *c, const char *body, int len, char *reply, size_t cap)
{
    int hlen = htonl(len);

    for (;;) {
        int sock = c->sock;
        fd_set readable;

        FD_ZERO(&readable);
        FD_SET(sock, &readable);
        if (select(sock + 1, &readable, NULL, NULL, NULL) > 0 && recv(c->sock, reply, cap, 0) > 0)
            break;
    }
    {
        struct iovec iov[2] = {{(void *)(&hlen), sizeof hlen}, {(void *)body, len}};
        writev(c->sock, iov, 2);
    } // expect: NGL001
    return (int)recv(c->sock, reply, cap, 0);
}
