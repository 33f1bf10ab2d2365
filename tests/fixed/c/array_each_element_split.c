/* Every replica gets the request in two writes (the header, then the body) before its reply is
   read: each element of the array of TCP connections is split (fixture-confidence: low). */
#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>
#include <sys/uio.h>

#define REPLICAS 3

struct cluster {
    int peers[REPLICAS];
};

int cluster_open(struct cluster *c, const struct sockaddr_in *addrs)
{
    for (int i = 0; i < REPLICAS; i++) {
        c->peers[i] = socket(AF_INET, SOCK_STREAM, 0);
        if (c->peers[i] < 0 || connect(c->peers[i], (const struct sockaddr *)&addrs[i], sizeof addrs[i]) < 0)
            return -1;
    }
    return 0;
}

int cluster_put(struct cluster *c, const char *head, size_t hl, const char *body, size_t bl, char *replies, size_t cap)
{
    int i;

    for (i = 0; i < REPLICAS; i++) {
        {
            struct iovec iov[2] = {{(void *)head, hl}, {(void *)body, bl}};
            writev(c->peers[i], iov, 2);
        } // expect: NGL001
    }
    for (i = 0; i < REPLICAS; i++)
        if (read(c->peers[i], replies + i * cap, cap) <= 0)
            return -1;
    return 0;
}
