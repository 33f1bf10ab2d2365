/* One function, defined twice under preprocessor alternatives: each definition is its own build,
   and each is analysed on its own. The gathered one is fine; the other splits the request. */
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#ifdef HAVE_WRITEV
int request(const char *head, size_t hl, const char *body, size_t bl, char *reply, size_t cap)
{
    struct iovec iov[2] = { { (void *)head, hl }, { (void *)body, bl } };
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    writev(fd, iov, 2);
    return (int)read(fd, reply, cap);
}
#else
int request(const char *head, size_t hl, const char *body, size_t bl, char *reply, size_t cap)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);

    {
        struct iovec iov[2] = {{(void *)head, hl}, {(void *)body, bl}};
        writev(fd, iov, 2);
    } // expect: NGL001
    return (int)read(fd, reply, cap);
}
#endif
