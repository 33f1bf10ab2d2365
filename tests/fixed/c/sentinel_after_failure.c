/* `fd = -1` after a failed connect marks the descriptor closed on that path only: on the path
   that goes on, fd is still the TCP socket, and its request is written in two pieces. */
#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

int ask(const struct sockaddr_in *sa, const char *head, size_t hl, const char *body, size_t bl,
        char *reply, size_t cap)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    if (connect(fd, (const struct sockaddr *)sa, sizeof *sa) < 0) {
        close(fd);
        fd = -1;
    }
    if (fd < 0)
        return -1;
    {
        struct iovec iov[2] = {{(void *)head, hl}, {(void *)body, bl}};
        writev(fd, iov, 2);
    } // expect: NGL001
    return (int)read(fd, reply, cap);
}
