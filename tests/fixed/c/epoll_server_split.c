/* An epoll HTTP server answers each request with the header and the body in two
   writes, then goes back to epoll_wait: the client waits for the body. */
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>
#include <sys/uio.h>

static const char header[] = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n";

static void handle(int fd)
{
    char buf[4096];
    ssize_t n = read(fd, buf, sizeof buf);

    if (n <= 0) {
        close(fd);
        return;
    }
    {
        struct iovec iov[2] = {{(void *)header, sizeof header - 1}, {(void *)"hello", 5}};
        writev(fd, iov, 2);
    } // expect: NGL001
}

int main(void)
{
    struct sockaddr_in sa = {0};
    struct epoll_event ev, events[64];
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    int epfd = epoll_create1(0);

    sa.sin_family = AF_INET;
    sa.sin_port = htons(8080);
    bind(lfd, (struct sockaddr *)&sa, sizeof sa);
    listen(lfd, 128);
    ev.events = EPOLLIN;
    ev.data.fd = lfd;
    epoll_ctl(epfd, EPOLL_CTL_ADD, lfd, &ev);
    for (;;) {
        int n = epoll_wait(epfd, events, 64, -1);
        for (int i = 0; i < n; i++) {
            if (events[i].data.fd == lfd) {
                int cfd = accept(lfd, NULL, NULL);
                ev.events = EPOLLIN;
                ev.data.fd = cfd;
                epoll_ctl(epfd, EPOLL_CTL_ADD, cfd, &ev);
            } else {
                handle(events[i].data.fd);
            }
        }
    }
}
