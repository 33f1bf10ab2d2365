/* Keep-alive HTTP server: each response is written as header then body in two write() calls and
   the handler loops back to read the next request. Clients see ~40 ms per request, not ~50 us. */
#define _GNU_SOURCE
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

static const char page[] = "<html><body>hello</body></html>\n";

static void handle_client(int cfd)
{
    char req[8192], hdr[256];
    ssize_t n;
    int hl;

    while ((n = recv(cfd, req, sizeof req - 1, 0)) > 0) {
        req[n] = '\0';
        if (strstr(req, "\r\n\r\n") == NULL)
            continue;
        hl = snprintf(hdr, sizeof hdr,
                      "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                      "Content-Length: %zu\r\nConnection: keep-alive\r\n\r\n",
                      sizeof page - 1);
        {
            struct iovec iov[2] = {{(void *)hdr, hl}, {(void *)page, sizeof page - 1}};
            writev(cfd, iov, 2);
        } // expect: NGL001
    }
    close(cfd);
}

int main(void)
{
    struct sockaddr_in sa = {0};
    int one = 1;
    int lfd = socket(AF_INET, SOCK_STREAM, 0);

    if (lfd < 0)
        return 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sa.sin_family = AF_INET;
    sa.sin_port = htons(8080);
    sa.sin_addr.s_addr = htonl(INADDR_ANY);
    if (bind(lfd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(lfd, 128) < 0)
        return 1;
    for (;;) {
        int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

        if (cfd >= 0)
            handle_client(cfd);
    }
}
