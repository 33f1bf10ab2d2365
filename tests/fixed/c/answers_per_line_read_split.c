/* The same server, but each answer leaves in two pieces (its status word, then its text) within
   one pass of the loop over the bytes read: the client waits for the whole answer, so the second
   piece still stalls. */
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

static void answer(int fd, const char *line)
{
    if (strncmp(line, "PING", 4) == 0) {
        {
            struct iovec iov[2] = {{(void *)"OK ", 3}, {(void *)"PONG\n", 5}};
            writev(fd, iov, 2);
        } // expect: NGL001
        return;
    }
    send(fd, "ERR unknown command\n", 20, 0);
}

static int client_readable(int fd)
{
    char buf[512], line[512];
    size_t len = 0;
    ssize_t n;
    int i;

    n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) {
        close(fd);
        return -1;
    }
    for (i = 0; i < n; i++) {
        if (buf[i] != '\n') {
            if (len < sizeof line - 1)
                line[len++] = buf[i];
            continue;
        }
        line[len] = '\0';
        len = 0;
        answer(fd, line);
    }
    return 0;
}

int serve(int listener)
{
    int fd = accept(listener, NULL, NULL);
    struct pollfd pfd = { .fd = fd, .events = POLLIN };

    for (;;) {
        if (poll(&pfd, 1, -1) < 0 || client_readable(fd) < 0)
            return -1;
    }
}
