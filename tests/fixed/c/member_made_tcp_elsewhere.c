/* The connection lives in a struct member: peer_open() makes it a TCP socket (and marks it -1
   when the connect fails); peer_ask(), in another function, writes the request in two pieces
   before reading the reply. What the member holds is known from where the file makes it. */
#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

struct peer {
    int s;
    char name[32];
};

int peer_open(struct peer *p, const struct sockaddr_in *sa)
{
    p->s = socket(AF_INET, SOCK_STREAM, 0);
    if (p->s >= 0 && connect(p->s, (const struct sockaddr *)sa, sizeof *sa) < 0) {
        close(p->s);
        p->s = -1;
        return -1;
    }
    return p->s < 0 ? -1 : 0;
}

int peer_ask(struct peer *p, const char *head, size_t hl, const char *body, size_t bl, char *reply, size_t cap)
{
    {
        struct iovec iov[2] = {{(void *)head, hl}, {(void *)body, bl}};
        writev(p->s, iov, 2);
    } // expect: NGL001
    return (int)read(p->s, reply, cap);
}
