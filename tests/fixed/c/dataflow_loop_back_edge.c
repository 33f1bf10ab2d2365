/* Each answer is written as a length line and a body; the next request is read at the top of
   the loop, so the split reaches a read through the loop's back edge. */
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

static void serve(int cfd)
{
    char buf[4096], head[32];
    ssize_t n;
    int hl;

    while ((n = read(cfd, buf, sizeof buf)) > 0) {
        hl = snprintf(head, sizeof head, "ECHO %zd\n", n);
        {
            struct iovec iov[2] = {{(void *)head, hl}, {(void *)buf, n}};
            writev(cfd, iov, 2);
        } // expect: NGL001
    }
    close(cfd);
}

int main(void)
{
    struct sockaddr_in sa = {0};
    int lfd = socket(AF_INET, SOCK_STREAM, 0);

    if (lfd < 0)
        return 1;
    sa.sin_family = AF_INET;
    sa.sin_port = htons(7007);
    sa.sin_addr.s_addr = htonl(INADDR_ANY);
    if (bind(lfd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(lfd, 16) < 0)
        return 1;
    for (;;) {
        int cfd = accept(lfd, NULL, NULL);

        if (cfd >= 0)
            serve(cfd);
    }
}
