/* Each function splits a message between two sends, then waits for the reply: every send,
   gather and read below is one the lowering knows, and the calls only a socket has make the
   descriptor at least medium-sure (fixture-confidence: low; no parameter's name says what it is). */
#include <gnutls/gnutls.h>
#include <netinet/in.h>
#include <openssl/bio.h>
#include <openssl/ssl.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

int bio(BIO *b, const char *head, int n, const char *body, int m, char *reply)
{
    BIO_write(b, head, n); // catalogue: sends.BIO_write
    BIO_write(b, body, m); // expect: NGL001
    return BIO_read(b, reply, 64);
}

/* Stop and wait: each request is answered before the next goes out. */
int bio_turns(BIO *b, const char *first, int n, const char *second, int m, char *reply)
{
    BIO_write(b, first, n);
    BIO_read(b, reply, 64); // catalogue: reads.BIO_read
    BIO_write(b, second, m);
    return BIO_read(b, reply, 64);
}

int gnutls(gnutls_session_t s, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    gnutls_record_send(s, head, n); // catalogue: sends.gnutls_record_send, socket_types.gnutls_session_t
    gnutls_record_send(s, body, m); // expect: NGL001
    return gnutls_record_recv(s, reply, 64);
}

int gnutls_turns(gnutls_session_t s, const char *first, size_t n, const char *second, size_t m, char *reply)
{
    gnutls_record_send(s, first, n);
    gnutls_record_recv(s, reply, 64); // catalogue: reads.gnutls_record_recv
    gnutls_record_send(s, second, m);
    return gnutls_record_recv(s, reply, 64);
}

int openssl(SSL *ssl, const char *first, int n, const char *second, int m, char *reply)
{
    SSL_write(ssl, first, n);
    SSL_peek(ssl, reply, 64); // catalogue: reads.SSL_peek
    SSL_write(ssl, second, m);
    return SSL_read(ssl, reply, 64);
}

int opaque_session(void *tls, const char *head, int n, const char *body, int m, char *reply)
{
    SSL_write(tls, head, n); // catalogue: socket_only.SSL_write
    SSL_write(tls, body, m); // expect: NGL001
    return SSL_peek(tls, reply, 64);
}

int opaque_session_read(void *tls, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    BIO_write(tls, head, n);
    BIO_write(tls, body, m); // expect: NGL001
    return SSL_read(tls, reply, 64); // catalogue: socket_only.SSL_read
}

ssize_t gathers(int h, struct iovec *iov, struct iovec *more)
{
    writev(h, iov, 2); // catalogue: gather_sends.writev
    writev(h, more, 2); // expect: NGL001
    return readv(h, iov, 2);
}

ssize_t gather_turns(int h, struct iovec *iov, struct iovec *more)
{
    writev(h, iov, 2);
    readv(h, iov, 2); // catalogue: gather_reads.readv
    writev(h, more, 2);
    return readv(h, iov, 2);
}

ssize_t message(int h, const char *head, size_t n, struct msghdr *msg, char *reply)
{
    write(h, head, n);
    sendmsg(h, msg, 0); // expect: NGL001 catalogue: gather_sends.sendmsg, socket_only.sendmsg
    return read(h, reply, 64);
}

ssize_t messages(int h, const char *head, size_t n, struct mmsghdr *msgs, char *reply)
{
    write(h, head, n);
    sendmmsg(h, msgs, 1, 0); // expect: NGL001 catalogue: gather_sends.sendmmsg
    return read(h, reply, 64);
}

/* Winsock's gathering send and read (an array of WSABUF). */
int wsa_message(SOCKET h, const char *head, size_t n, WSABUF *bufs, DWORD count, char *reply)
{
    DWORD sent, got, flags = 0;
    send(h, head, n, 0);
    WSASend(h, bufs, count, &sent, 0, NULL, NULL); // expect: NGL001 catalogue: gather_sends.WSASend
    return recv(h, reply, 64, 0);
}

int wsa_turns(SOCKET h, WSABUF *bufs, DWORD count, WSABUF *more)
{
    DWORD sent, got, flags = 0;
    WSASend(h, bufs, count, &sent, 0, NULL, NULL);
    WSARecv(h, bufs, count, &got, &flags, NULL, NULL); // catalogue: gather_reads.WSARecv
    WSASend(h, more, count, &sent, 0, NULL, NULL);
    return WSARecv(h, bufs, count, &got, &flags, NULL, NULL);
}

ssize_t message_reply(int h, const char *head, size_t n, const char *body, size_t m, struct msghdr *msg)
{
    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(h, iov, 2);
    } // expect: NGL001
    return recvmsg(h, msg, 0); // catalogue: socket_only.recvmsg
}

ssize_t message_turns(int h, const char *first, size_t n, const char *second, size_t m, struct msghdr *msg)
{
    send(h, first, n, 0);
    recvmsg(h, msg, 0); // catalogue: gather_reads.recvmsg
    send(h, second, m, 0);
    return recvmsg(h, msg, 0);
}

ssize_t stream_reply(int h, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(h, iov, 2);
    } // expect: NGL001 catalogue: joinable_sends.write
    return recv(h, reply, 64, 0); // catalogue: socket_only.recv
}

ssize_t unaddressed(int h, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    sendto(h, head, n, 0, NULL, 0); // catalogue: socket_only.sendto
    sendto(h, body, m, 0, NULL, 0); // expect: NGL001
    return read(h, reply, 64);
}

ssize_t sent_reply(int h, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    // catalogue: socket_only.send
    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(h, iov, 2);
    } // expect: NGL001
    return read(h, reply, 64);
}

ssize_t unaddressed_reply(int h, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(h, iov, 2);
    } // expect: NGL001
    return recvfrom(h, reply, 64, 0, NULL, NULL); // catalogue: socket_only.recvfrom
}

ssize_t datagrams(int h, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    struct sockaddr_in from;
    socklen_t len = sizeof from;

    write(h, head, n);
    write(h, body, m);
    return recvfrom(h, reply, 64, 0, (struct sockaddr *)&from, &len); // catalogue: addressed.recvfrom
}

ssize_t upload(int h, const char *head, size_t n, int file, size_t size, char *reply)
{
    write(h, head, n);
    sendfile(h, file, NULL, size); // expect: NGL001 catalogue: socket_only.sendfile
    return read(h, reply, 64);
}

ssize_t kept_alive(int h, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    int on = 1;

    setsockopt(h, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on); // catalogue: socket_only.setsockopt
    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(h, iov, 2);
    } // expect: NGL001
    return read(h, reply, 64);
}

ssize_t half_closed(int h, const char *head, size_t n, const char *body, size_t m, char *reply)
{
    ssize_t got;

    {
        struct iovec iov[2] = {{(void *)head, n}, {(void *)body, m}};
        writev(h, iov, 2);
    } // expect: NGL001
    got = read(h, reply, 64);
    shutdown(h, SHUT_WR); // catalogue: socket_only.shutdown
    return got;
}

void corked_then_closed(int h, const char *head, size_t n, const char *body, size_t m)
{
    int on = 1;

    setsockopt(h, IPPROTO_TCP, TCP_CORK, &on, sizeof on);
    write(h, head, n);
    write(h, body, m);
    close(h); // catalogue: closes.close
}
