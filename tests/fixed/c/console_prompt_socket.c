/* The twin of console_prompt.c on a connection: the prompt goes to a client's socket in two
   pieces before its answer is read, and the second piece waits for the delayed ACK. */
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

int prompt(int listener, const char *question, char *answer, int cap)
{
    int fd = accept(listener, NULL, NULL);

    {
        struct iovec iov[2] = {{(void *)question, strlen(question)}, {(void *)"? ", 2}};
        writev(fd, iov, 2);
    } // expect: NGL001
    return (int)read(fd, answer, cap);
}
