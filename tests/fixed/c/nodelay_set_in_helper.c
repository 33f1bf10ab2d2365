/* TCP_NODELAY turned on in a helper applies to the connection it is given: the split request
   on that connection does not stall (each piece leaves at once), which makes the option the
   band-aid of that split. The connection that never goes through the helper stalls. */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

static void tune_socket(int fd)
{
    int one = 1;

    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); // expect: NGL002
}

int ask_tuned(const struct sockaddr_in *sa, const char *head, const char *body, char *out, int cap)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    if (fd < 0 || connect(fd, (const struct sockaddr *)sa, sizeof *sa) < 0)
        return -1;
    tune_socket(fd);
    write(fd, head, strlen(head));
    write(fd, body, strlen(body));
    return (int)read(fd, out, cap);
}

int ask_plain(const struct sockaddr_in *sa, const char *head, const char *body, char *out, int cap)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    if (fd < 0 || connect(fd, (const struct sockaddr *)sa, sizeof *sa) < 0)
        return -1;
    {
        struct iovec iov[2] = {{(void *)head, strlen(head)}, {(void *)body, strlen(body)}};
        writev(fd, iov, 2);
    } // expect: NGL001
    return (int)read(fd, out, cap);
}
