/* A session's two ends are a socketpair when it runs in-process, and both the one socket a
   client connected on otherwise (`s->ends[0] = s->ends[1] = sock`): the chained assignment gives
   the member another value than the pair, so the split reply is judged as on any connection (a
   descriptor of no known kind: fixture-confidence: low). */
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

struct session {
    int ends[2];
};

int session_local(struct session *s)
{
    s->ends[0] = s->ends[1] = -1;
    return socketpair(AF_UNIX, SOCK_STREAM, 0, s->ends);
}

void session_remote(struct session *s, int sock)
{
    s->ends[0] = s->ends[1] = sock;
}

int session_ask(struct session *s, const char *head, size_t hl, const char *body, size_t bl, char *reply,
                size_t cap)
{
    {
        struct iovec iov[2] = {{(void *)head, hl}, {(void *)body, bl}};
        writev(s->ends[1], iov, 2);
    } // expect: NGL001
    return (int)read(s->ends[0], reply, cap);
}
