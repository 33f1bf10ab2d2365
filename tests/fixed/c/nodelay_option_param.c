/* A setter whose option is its parameter (`set_tcp_option(fd, name, value)`) sets
   the option each call names: TCP_NODELAY named at a call hides the split sends on
   that connection (the band-aid, reported at the call), or is a note where nothing
   is split and no reason is given. Another option named there hides nothing. */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

static int set_tcp_option(int fd, int name, int value)
{
    return setsockopt(fd, IPPROTO_TCP, name, &value, sizeof value);
}

static int connect_to(const struct sockaddr_in *sa)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    if (fd < 0 || connect(fd, (const struct sockaddr *)sa, sizeof *sa) < 0)
        return -1;
    return fd;
}

int ask_tuned(const struct sockaddr_in *sa, const char *head, const char *body, char *out, int cap)
{
    int fd = connect_to(sa);

    set_tcp_option(fd, TCP_NODELAY, 1); // expect: NGL002
    write(fd, head, strlen(head));
    write(fd, body, strlen(body));
    return (int)read(fd, out, cap);
}

int ask_with_timeout(const struct sockaddr_in *sa, const char *head, const char *body, char *out, int cap)
{
    int fd = connect_to(sa);

    set_tcp_option(fd, TCP_USER_TIMEOUT, 5000);
    {
        struct iovec iov[2] = {{(void *)head, strlen(head)}, {(void *)body, strlen(body)}};
        writev(fd, iov, 2);
    } // expect: NGL001
    return (int)read(fd, out, cap);
}

int open_quiet(const struct sockaddr_in *sa)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    set_tcp_option(fd, TCP_NODELAY, 1); // expect: NGL002
    if (connect(fd, (const struct sockaddr *)sa, sizeof *sa) < 0)
        return -1;
    return fd;
}
