/* One helper writes a command as verb and argument in two calls; its callers read the reply
   (with recvmsg). One finding, inside the helper at its second write, though it is called twice. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

static void send_command(int fd, const char *verb, const char *arg)
{
    {
        struct iovec iov[2] = {{(void *)verb, strlen(verb)}, {(void *)arg, strlen(arg)}};
        writev(fd, iov, 2);
    } // expect: NGL001
}

static int read_status(int fd)
{
    char code[4], text[252];
    struct iovec iov[2] = { { code, sizeof code }, { text, sizeof text } };
    struct msghdr mh;

    memset(&mh, 0, sizeof mh);
    mh.msg_iov = iov;
    mh.msg_iovlen = 2;
    if (recvmsg(fd, &mh, 0) < (ssize_t)sizeof code)
        return -1;
    return code[0] == '2' ? 0 : -1;
}

int main(void)
{
    struct sockaddr_in sa = {0};
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    sa.sin_family = AF_INET;
    sa.sin_port = htons(2525);
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0)
        return 1;
    send_command(fd, "USER ", "ada\r\n");
    if (read_status(fd) < 0)
        return 1;
    send_command(fd, "PASS ", "lovelace\r\n");
    if (read_status(fd) < 0)
        return 1;
    close(fd);
    return 0;
}
