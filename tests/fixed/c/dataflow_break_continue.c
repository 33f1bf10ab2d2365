/* A line server: PING is answered with one write and `continue`s to the next read (fine); QUIT
   writes two pieces but `break`s to close(), which pushes them out (fine); other requests split. */
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

static void serve(int cfd)
{
    static const char bye[] = "see you\n";
    char req[512], head[32];
    ssize_t n;
    int hl;

    for (;;) {
        n = read(cfd, req, sizeof req);
        if (n <= 0)
            break;
        if (strncmp(req, "PING", 4) == 0) {
            write(cfd, "PONG\n", 5);
            continue;
        }
        if (strncmp(req, "QUIT", 4) == 0) {
            write(cfd, "221 ", 4);
            write(cfd, bye, sizeof bye - 1);
            break;
        }
        hl = snprintf(head, sizeof head, "200 %zd\n", n);
        {
            struct iovec iov[2] = {{(void *)head, hl}, {(void *)req, n}};
            writev(cfd, iov, 2);
        } // expect: NGL001
    }
    close(cfd);
}

int main(void)
{
    struct sockaddr_in sa = {0};
    int lfd = socket(AF_INET, SOCK_STREAM, 0);

    sa.sin_family = AF_INET;
    sa.sin_port = htons(7008);
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(lfd, 16) < 0)
        return 1;
    for (;;) {
        int cfd = accept(lfd, NULL, NULL);

        if (cfd >= 0)
            serve(cfd);
    }
}
