/* A refusal sent on a path that ends the process: exiting closes the connection, which sends
   what it held, and nothing after the exit runs, so the refusal and the greeting of the path that
   goes on are never one message in two pieces. A path that goes on with two pieces still is. */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

static void die(int fd, const char *why)
{
    send(fd, why, strlen(why), 0);
    exit(1); // catalogue: exits.exit
}

int login(int fd, const char *user, char *reply, size_t cap)
{
    if (user == NULL)
        die(fd, "530 no user\r\n");
    send(fd, "331 password?\r\n", 15, 0);
    return (int)recv(fd, reply, cap, 0);
}

int child_greets(int fd, const char *name, char *reply, size_t cap)
{
    if (name == NULL) {
        send(fd, "500 no name\r\n", 13, 0);
        _exit(2); // catalogue: exits._exit
    }
    send(fd, "220 ready\r\n", 11, 0);
    return (int)recv(fd, reply, cap, 0);
}

int strict_greets(int fd, const char *name, char *reply, size_t cap)
{
    if (strlen(name) > 64) {
        send(fd, "501 too long\r\n", 14, 0);
        _Exit(2); // catalogue: exits._Exit
    }
    send(fd, "220 ready\r\n", 11, 0);
    return (int)recv(fd, reply, cap, 0);
}

int quick_greets(int fd, int version, char *reply, size_t cap)
{
    if (version != 2) {
        send(fd, "505 version\r\n", 13, 0);
        quick_exit(3); // catalogue: exits.quick_exit
    }
    send(fd, "220 ready\r\n", 11, 0);
    return (int)recv(fd, reply, cap, 0);
}

int checked_greets(int fd, int state, char *reply, size_t cap)
{
    if (state < 0) {
        send(fd, "421 broken\r\n", 12, 0);
        abort(); // catalogue: exits.abort
    }
    send(fd, "220 ready\r\n", 11, 0);
    return (int)recv(fd, reply, cap, 0);
}

int hello(int fd, const char *name, char *reply, size_t cap)
{
    if (name == NULL) {
        send(fd, "500 no name\r\n", 13, 0);
        exit(1);
    }
    {
        struct iovec iov[2] = {{(void *)"HELO ", 5}, {(void *)name, strlen(name)}};
        writev(fd, iov, 2);
    } // expect: NGL001
    return (int)recv(fd, reply, cap, 0);
}
