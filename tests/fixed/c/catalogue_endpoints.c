/* What a descriptor is made as decides whether Nagle applies (fixture-confidence: low). Each
   function splits a message and then reads: IPv4 and IPv6 stream sockets, however their family
   is spelled, are TCP; local, netlink, packet, raw and sequenced-packet sockets are not, nor are
   files, pipes (Windows' named pipes too), memory streams, processes, event, timer and signal
   descriptors, whatever is written to them. */
#include <fcntl.h>
#include <gnutls/gnutls.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include <sys/uio.h>

int ipv6(const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int s = socket(AF_INET6, SOCK_STREAM, 0); // catalogue: plain_tcp_words.AF_INET6

    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(s, iov, 2);
    } // expect: NGL001
    return read(s, reply, 64);
}

int protocol_family(const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int s = socket(PF_INET, SOCK_STREAM, 0); // catalogue: plain_tcp_words.PF_INET

    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(s, iov, 2);
    } // expect: NGL001
    return read(s, reply, 64);
}

int protocol_family6(const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int s = socket(PF_INET6, SOCK_STREAM, 0); // catalogue: plain_tcp_words.PF_INET6

    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(s, iov, 2);
    } // expect: NGL001
    return read(s, reply, 64);
}

int local(const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int s = socket(AF_LOCAL, SOCK_STREAM, 0); // catalogue: no_nagle_words.AF_LOCAL

    write(s, head, n);
    write(s, body, m);
    return read(s, reply, 64);
}

int local_protocol(const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int s = socket(PF_LOCAL, SOCK_STREAM, 0); // catalogue: no_nagle_words.PF_LOCAL

    write(s, head, n);
    write(s, body, m);
    return read(s, reply, 64);
}

int unix_protocol(const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int s = socket(PF_UNIX, SOCK_STREAM, 0); // catalogue: no_nagle_words.PF_UNIX

    write(s, head, n);
    write(s, body, m);
    return read(s, reply, 64);
}

int netlink(int kind, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int s = socket(AF_NETLINK, kind, 0); // catalogue: no_nagle_words.AF_NETLINK

    write(s, head, n);
    write(s, body, m);
    return read(s, reply, 64);
}

int packets(int kind, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int s = socket(AF_PACKET, kind, 0); // catalogue: no_nagle_words.AF_PACKET

    write(s, head, n);
    write(s, body, m);
    return read(s, reply, 64);
}

int raw(int family, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int s = socket(family, SOCK_RAW, 0); // catalogue: no_nagle_words.SOCK_RAW

    write(s, head, n);
    write(s, body, m);
    return read(s, reply, 64);
}

int sequenced(int family, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int s = socket(family, SOCK_SEQPACKET, 0); // catalogue: no_nagle_words.SOCK_SEQPACKET

    write(s, head, n);
    write(s, body, m);
    return read(s, reply, 64);
}

int relative_file(int dir, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int d = openat(dir, "spool", O_RDWR); // catalogue: not_tcp.openat

    write(d, head, n);
    write(d, body, m);
    return read(d, reply, 64);
}

int new_file(const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int d = creat("spool", 0600); // catalogue: not_tcp.creat

    write(d, head, n);
    write(d, body, m);
    return read(d, reply, 64);
}

int temporary(char *name, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int d = mkstemp(name); // catalogue: not_tcp.mkstemp

    write(d, head, n);
    write(d, body, m);
    return read(d, reply, 64);
}

int memory_file(const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int d = memfd_create("spool", 0); // catalogue: not_tcp.memfd_create

    write(d, head, n);
    write(d, body, m);
    return read(d, reply, 64);
}

int counter(const void *one, const void *two, char *reply)
{
    int d = eventfd(0, 0); // catalogue: not_tcp.eventfd

    write(d, one, 8);
    write(d, two, 8);
    return read(d, reply, 8);
}

int timer(const void *spec, const void *again, char *reply)
{
    int d = timerfd_create(CLOCK_MONOTONIC, 0); // catalogue: not_tcp.timerfd_create

    write(d, spec, 8);
    write(d, again, 8);
    return read(d, reply, 8);
}

int signals(const sigset_t *mask, const void *one, const void *two, char *reply)
{
    int d = signalfd(-1, mask, 0); // catalogue: not_tcp.signalfd

    write(d, one, 8);
    write(d, two, 8);
    return read(d, reply, 8);
}

int poller(const void *one, const void *two, char *reply)
{
    int d = epoll_create(8); // catalogue: not_tcp.epoll_create

    write(d, one, 8);
    write(d, two, 8);
    return read(d, reply, 8);
}

int poller1(const void *one, const void *two, char *reply)
{
    int d = epoll_create1(0); // catalogue: not_tcp.epoll_create1

    write(d, one, 8);
    write(d, two, 8);
    return read(d, reply, 8);
}

int watcher(const void *one, const void *two, char *reply)
{
    int d = inotify_init(); // catalogue: not_tcp.inotify_init

    write(d, one, 8);
    write(d, two, 8);
    return read(d, reply, 8);
}

int watcher1(const void *one, const void *two, char *reply)
{
    int d = inotify_init1(0); // catalogue: not_tcp.inotify_init1

    write(d, one, 8);
    write(d, two, 8);
    return read(d, reply, 8);
}

int named_pipe(const char *path, const void *one, const void *two, char *reply)
{
    HANDLE d = CreateFile(path, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING, 0, NULL); // catalogue: not_tcp.CreateFile

    write(d, one, 8);
    write(d, two, 8);
    return read(d, reply, 8);
}

int windows_file(const char *path, const void *one, const void *two, char *reply)
{
    HANDLE d = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING, 0, NULL); // catalogue: not_tcp.CreateFileA

    write(d, one, 8);
    write(d, two, 8);
    return read(d, reply, 8);
}

int windows_file_wide(const char *path, const void *one, const void *two, char *reply)
{
    HANDLE d = CreateFileW(path, GENERIC_READ | GENERIC_WRITE, 0, NULL, OPEN_EXISTING, 0, NULL); // catalogue: not_tcp.CreateFileW

    write(d, one, 8);
    write(d, two, 8);
    return read(d, reply, 8);
}

int scratch(const char *head, const char *body, char *reply)
{
    FILE *f = tmpfile(); // catalogue: not_tcp.tmpfile

    setvbuf(f, NULL, _IONBF, 0);
    fputs(head, f);
    fputs(body, f);
    return fgets(reply, 64, f) != NULL;
}

int in_memory(char *buf, size_t cap, const char *head, const char *body, char *reply)
{
    FILE *f = fmemopen(buf, cap, "r+"); // catalogue: not_tcp.fmemopen

    setvbuf(f, NULL, _IONBF, 0);
    fputs(head, f);
    fputs(body, f);
    return fgets(reply, 64, f) != NULL;
}

int growing(char **buf, size_t *len, const char *head, const char *body)
{
    FILE *f = open_memstream(buf, len); // catalogue: not_tcp.open_memstream

    setvbuf(f, NULL, _IONBF, 0);
    fputs(head, f);
    fputs(body, f);
    return fflush(f);
}

int child(const char *head, const char *body, char *reply)
{
    FILE *f = popen("sort", "r+"); // catalogue: not_tcp.popen

    setvbuf(f, NULL, _IONBF, 0);
    fputs(head, f);
    fputs(body, f);
    return fgets(reply, 64, f) != NULL;
}

int config_file(const char *head, const char *body, char *reply)
{
    FILE *f = fopen("spool", "r+"); // catalogue: not_tcp_endings.fopen

    setvbuf(f, NULL, _IONBF, 0);
    fputs(head, f);
    fputs(body, f);
    return fgets(reply, 64, f) != NULL;
}

int reopened(const char *head, const char *body, char *reply)
{
    FILE *f = freopen("spool", "r+", stdin); // catalogue: not_tcp_endings.freopen

    setvbuf(f, NULL, _IONBF, 0);
    fputs(head, f);
    fputs(body, f);
    return fgets(reply, 64, f) != NULL;
}

int piped(const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int p[2];

    pipe2(p, O_CLOEXEC); // catalogue: pair_makers.pipe2
    write(p[1], head, n);
    write(p[1], body, m);
    return read(p[0], reply, 64);
}

/* A stream handed in: what it is over is not told here. */
int handed_stream(FILE *out, const char *head, const char *body, char *reply)
{
    setvbuf(out, NULL, _IONBF, 0);
    fputs(head, out); // catalogue: stream_types.FILE
    fputs(body, out); // expect: NGL001
    return fgets(reply, 64, out) != NULL;
}

/* The session runs over the TCP socket it is given. */
int session(const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    gnutls_session_t tls;

    gnutls_init(&tls, GNUTLS_CLIENT);
    gnutls_transport_set_int(tls, fd); // catalogue: binders.gnutls_transport_set_int
    gnutls_record_send(tls, head, n);
    gnutls_record_send(tls, body, m); // expect: NGL001
    return gnutls_record_recv(tls, reply, 64);
}
