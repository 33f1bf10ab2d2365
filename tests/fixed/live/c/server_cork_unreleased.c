/* Live: the server corks the connection before writing header and body, but never turns the cork
 * off: the kernel holds each response (up to 200 ms) waiting for a full segment while the client
 * waits for it. Released after the body (as server_corked.c does), it leaves at once. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WARMUP 2 /* a new Linux connection ACKs at once at first (quick-ACK): skip those round trips */
#define MAX_ROUNDS 10000
#define HEAD_SIZE 8
#define BODY_SIZE 200
#define REPLY_HEAD_SIZE 8
#define REPLY_BODY_SIZE 200

static void die(const char *what) { perror(what); exit(2); }

static void set_timeouts(int fd) {
    struct timeval tv = {3, 0};
    if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) < 0 ||
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv) < 0)
        die("timeouts");
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(double *ms, int n, int fd) {
    unsigned char info[256];
    socklen_t len = sizeof info;
    uint32_t segs;
    qsort(ms, n, sizeof *ms, by_value);
    printf("nagle-live: rounds=%d median_ms=%.3f p90_ms=%.3f", n,
           n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2, ms[(9 * n + 9) / 10 - 1]);
    if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, info, &len) == 0 && len >= 140) {
        memcpy(&segs, info + 136, sizeof segs); /* tcpi_segs_out in the kernel's struct tcp_info */
        printf(" segs_out=%u", segs);
    }
    printf("\n");
}

/* Server (child process): read each whole request, then cork, write header and body (the cork stays on). */
static void serve(int listener) {
    char request[HEAD_SIZE + BODY_SIZE], head[REPLY_HEAD_SIZE] = "OK 200", body[REPLY_BODY_SIZE];
    int on = 1;
    int conn = accept(listener, NULL, NULL);
    if (conn < 0) die("accept");
    set_timeouts(conn);
    memset(body, 'y', sizeof body);
    for (;;) {
        size_t got = 0;
        while (got < sizeof request) {
            ssize_t n = read(conn, request + got, sizeof request - got);
            if (n <= 0) return;
            got += (size_t)n;
        }
        if (setsockopt(conn, IPPROTO_TCP, TCP_CORK, &on, sizeof on) < 0) die("cork"); // expect: NGL004
        if (write(conn, head, sizeof head) != (ssize_t)sizeof head) die("server write head");
        if (write(conn, body, sizeof body) != (ssize_t)sizeof body) die("server write body");
        setsockopt(conn, IPPROTO_TCP, TCP_CORK, &(int){0}, sizeof(int));
    }
}

int main(int argc, char **argv) {
    static double samples[MAX_ROUNDS];
    int rounds = argc > 1 ? atoi(argv[1]) : 10;
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t addr_len = sizeof addr;
    if (rounds < 1 || rounds > MAX_ROUNDS) { fprintf(stderr, "rounds: 1..%d\n", MAX_ROUNDS); return 2; }
    alarm(10 + rounds); /* last resort: the per-call timeouts below should fire first */

    int listener = socket(AF_INET, SOCK_STREAM, 0);
    if (listener < 0 || bind(listener, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(listener, 1) < 0 ||
        getsockname(listener, (struct sockaddr *)&addr, &addr_len) < 0)
        die("listen");
    set_timeouts(listener);
    pid_t server = fork();
    if (server < 0) die("fork");
    if (server == 0) { alarm(10 + rounds); serve(listener); _exit(0); }
    close(listener);

    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) die("socket");
    set_timeouts(fd);
    if (connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) die("connect");

    char request[HEAD_SIZE + BODY_SIZE] = "GET 0", reply[REPLY_HEAD_SIZE + REPLY_BODY_SIZE];
    for (int i = -WARMUP; i < rounds; i++) {
        double start = now_ms();
        if (write(fd, request, sizeof request) != (ssize_t)sizeof request) die("write request");
        size_t got = 0;
        while (got < sizeof reply) {
            ssize_t n = read(fd, reply + got, sizeof reply - got);
            if (n <= 0) die("read reply");
            got += (size_t)n;
        }
        if (i >= 0) samples[i] = now_ms() - start;
    }
    report(samples, rounds, fd);
    close(fd);
    waitpid(server, NULL, 0);
    return 0;
}
