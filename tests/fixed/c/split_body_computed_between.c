/* The header is written, then the body's length computed, then the body written: the code
   between leaves the descriptor and the header alone, so one writev after it sends both
   (an unsafe fix: the header now waits for that code). */
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

int put(const struct sockaddr *sa, socklen_t len, const char *body, char *reply)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    if (fd < 0 || connect(fd, sa, len) < 0)
        return -1;
    static const char head[] = "PUT /item HTTP/1.0\r\n\r\n";
    size_t n = strlen(body);
    n -= n > 0 && body[n - 1] == '\n';
    {
        struct iovec iov[2] = {{(void *)head, sizeof head - 1}, {(void *)body, n}};
        writev(fd, iov, 2);
    } // expect: NGL001
    return read(fd, reply, 2) == 2;
}
