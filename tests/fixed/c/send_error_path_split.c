/* Each send is checked, and both run on the normal path: still a split before the read. The
   || form checks both at once; the second runs only when the first succeeded, which is the
   normal path. */
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

int put(int fd, const char *body, size_t bl, char *reply, size_t cap)
{
    {
        struct iovec iov[2] = {{(void *)"PUT\n", 4}, {(void *)body, bl}};
        if (writev(fd, iov, 2) < 0)
            return -1;
    }
    return (int)recv(fd, reply, cap, 0);
}

int put2(int fd, const char *body, size_t bl, char *reply, size_t cap)
{
    if (send(fd, "PUT\n", 4, 0) < 0 || send(fd, body, bl, 0) < 0) // expect: NGL001
        return -1;
    return (int)recv(fd, reply, cap, 0);
}

int main(void)
{
    char reply[64];
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    put(fd, "a", 1, reply, sizeof reply);
    return put2(fd, "b", 1, reply, sizeof reply);
}
