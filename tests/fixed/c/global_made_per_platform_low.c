/* global_made_per_platform.c at low confidence (fixture-confidence: low): the splits on a
   global made AF_UNIX on one platform and TCP on another are still found, as less sure. */
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <sys/uio.h>

int fd = -1;

int connect_daemon(const struct sockaddr *sa, socklen_t len)
{
#ifndef _WIN32
    fd = socket(AF_UNIX, SOCK_STREAM, 0);
#else
    fd = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
#endif
    if (fd < 0 || connect(fd, sa, len) < 0)
        return -1;
    return 0;
}

static int send_line(int sock, const char *line, int n)
{
    return (int)send(sock, line, n, 0);
}

int dump_graph(char *out, int cap)
{
    send_line(fd, "18 3\n", 5);
    send_line(fd, "18 4\n", 5); // expect: NGL001
    return (int)recv(fd, out, cap, 0);
}

int ask(const char *head, int hl, const char *body, int bl, char *out, int cap)
{
    {
        struct iovec iov[2] = {{(void *)head, hl}, {(void *)body, bl}};
        writev(fd, iov, 2);
    } // expect: NGL001
    return (int)read(fd, out, cap);
}
