/* close_through_closesocket.c with the connection left open after the answer in two pieces:
   the next call waits for the client's next command while Nagle holds the answer's end. */
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/uio.h>

int closesocket(int sock);
int watch(int sock, int (*handler)(int sock));

static int on_data(int sock)
{
    char buf[512];
    int n = (int)recv(sock, buf, sizeof buf, 0);

    if (n <= 0) {
        closesocket(sock);
        return 0;
    }
    if (buf[0] == 'Q') {
        {
            struct iovec iov[2] = {{(void *)"221 ", 4}, {(void *)"bye\r\n", 5}};
            writev(sock, iov, 2);
        } // expect: NGL001
        return 0;
    }
    return 1;
}

int start(const struct sockaddr_in *sa)
{
    int sock = socket(AF_INET, SOCK_STREAM, 0);

    if (connect(sock, (const struct sockaddr *)sa, sizeof *sa) < 0)
        return -1;
    return watch(sock, on_data);
}
