/* The reply is read two helpers down: ask() calls get_status(), which calls fill_from(), the
   only function with the recv. The read still follows the split send; and poll_status(), which
   reads through the same helpers but sends nothing, starts no finding. */
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

static int fill_from(int fd, char *buf, int cap)
{
    return (int)recv(fd, buf, cap, 0);
}

static int get_status(int fd)
{
    char line[64];
    int got = fill_from(fd, line, sizeof line - 1);

    if (got <= 0)
        return -1;
    line[got] = '\0';
    return line[0] == '+' ? 0 : 1;
}

int poll_status(int fd)
{
    return get_status(fd);
}

int ask(int fd, const char *verb, const char *key)
{
    {
        struct iovec iov[2] = {{(void *)verb, strlen(verb)}, {(void *)key, strlen(key)}};
        writev(fd, iov, 2);
    } // expect: NGL001
    return get_status(fd);
}
