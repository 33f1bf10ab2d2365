/* TCP_NODELAY turned on, when the connection is made, for a struct's member
   (`c->fd`) applies in the file's other functions that name that member of
   their parameter: their split sends do not stall, which makes the option the
   band-aid of that split (reported where it is set, through a setter taking the
   option too). A member the option is not set on still stalls. */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

struct client {
    int fd;
    int ctl;
};

static int set_tcp_option(int fd, int name, int value)
{
    return setsockopt(fd, IPPROTO_TCP, name, (const char *)&value, sizeof value);
}

int client_connect(struct client *c, const struct sockaddr_in *sa)
{
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    if (c->fd < 0 || connect(c->fd, (const struct sockaddr *)sa, sizeof *sa) < 0)
        return -1;
    set_tcp_option(c->fd, TCP_NODELAY, 1); // expect: NGL002
    c->ctl = socket(AF_INET, SOCK_STREAM, 0);
    if (c->ctl < 0 || connect(c->ctl, (const struct sockaddr *)sa, sizeof *sa) < 0)
        return -1;
    return 0;
}

int client_ask(struct client *c, const char *head, const char *body, char *out, int cap)
{
    write(c->fd, head, strlen(head));
    write(c->fd, body, strlen(body));
    return (int)read(c->fd, out, cap);
}

int client_control(struct client *c, const char *head, const char *body, char *out, int cap)
{
    {
        struct iovec iov[2] = {{(void *)head, strlen(head)}, {(void *)body, strlen(body)}};
        writev(c->ctl, iov, 2);
    } // expect: NGL001
    return (int)read(c->ctl, out, cap);
}
