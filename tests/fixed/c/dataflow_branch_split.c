/* Only the branch that splits is flagged: small values are copied behind the command and sent
   once; large ones go out as command then value, and both paths then read the reply. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

static int put(int fd, const char *key, const char *val, size_t vl)
{
    char buf[256], reply[64];
    int hl = snprintf(buf, sizeof buf, "SET %s %zu\r\n", key, vl);

    if (hl < 0 || (size_t)hl >= sizeof buf)
        return -1;
    if ((size_t)hl + vl <= sizeof buf) {
        memcpy(buf + hl, val, vl);
        write(fd, buf, hl + vl);
    } else {
        {
            struct iovec iov[2] = {{(void *)buf, hl}, {(void *)val, vl}};
            writev(fd, iov, 2);
        } // expect: NGL001
    }
    return read(fd, reply, sizeof reply) > 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    struct sockaddr_in sa = {0};
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    if (fd < 0 || argc < 3)
        return 2;
    sa.sin_family = AF_INET;
    sa.sin_port = htons(6379);
    inet_pton(AF_INET, "127.0.0.1", &sa.sin_addr);
    if (connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0)
        return 1;
    if (put(fd, argv[1], argv[2], strlen(argv[2])) < 0)
        return 1;
    close(fd);
    return 0;
}
