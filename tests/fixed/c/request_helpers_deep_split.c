/* The same client, but the last layer sends each request in two pieces (its verb, then the rest
 * of the line) before it reads the reply: the server answers only the whole line, so the second
 * piece waits for the delayed ACK, however deep the layers above it. */
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

static ssize_t reply(int fd, char *buf, size_t n)
{
    return recv(fd, buf, n, 0);
}

static ssize_t transfer(int fd, const char *verb, const char *rest, char *buf, size_t n)
{
    {
        struct iovec iov[2] = {{(void *)verb, strlen(verb)}, {(void *)rest, strlen(rest)}};
        if (writev(fd, iov, 2) < 0)
            return -1;
    }
    return reply(fd, buf, n);
}

static ssize_t exchange(int fd, const char *verb, const char *rest, char *buf, size_t n)
{
    return transfer(fd, verb, rest, buf, n);
}

static ssize_t query(int fd, const char *verb, const char *rest, char *buf, size_t n)
{
    return exchange(fd, verb, rest, buf, n);
}

static ssize_t login(int fd, char *buf, size_t n)
{
    return query(fd, "LOGIN", " guest\n", buf, n);
}

ssize_t status(int fd, char *buf, size_t n)
{
    if (login(fd, buf, n) < 0)
        return -1;
    return query(fd, "STATUS", "\n", buf, n);
}
