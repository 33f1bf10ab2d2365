"""What C's calls do to TCP connections: BSD sockets, stdio streams over
sockets, OpenSSL, GnuTLS, wolfSSL and Mbed TLS (see `catalogue.Catalogue`
for what each field means).  The frontend (`c.py`) lowers from it and the
byte scan (`c_scan.py`) derives its words from it."""

from __future__ import annotations

from .catalogue import Catalogue

C = Catalogue(
    sends={"write", "send", "sendto", "SSL_write", "BIO_write", "gnutls_record_send", "wolfSSL_write",
           "mbedtls_ssl_write"},
    gather_sends={"writev", "sendmsg", "sendmmsg", "WSASend"},  # WSASend: Winsock's, of an array of buffers
    file_sends={"sendfile"},
    reads={"read", "recv", "recvfrom", "SSL_read", "SSL_peek", "BIO_read", "gnutls_record_recv", "wolfSSL_read",
           "mbedtls_ssl_read"},
    gather_reads={"readv", "recvmsg", "WSARecv"},
    handshakes={"SSL_connect", "SSL_accept", "SSL_do_handshake", "gnutls_handshake", "wolfSSL_connect"},
    stream_writes={"fwrite", "fprintf", "vfprintf", "fputs", "fputc", "putc", "fputs_unlocked", "fwrite_unlocked"},
    one_byte_writes={"fputc", "putc"},
    stream_reads={"fgets", "fread", "fgetc", "getc", "fscanf", "getline", "getdelim"},
    # stdio puts the stream last, but for the printf and scanf families
    connection_argument={"fwrite": 3, "fwrite_unlocked": 3, "fputs": 1, "fputs_unlocked": 1, "fputc": 1, "putc": 1,
                         "fgets": 2, "fread": 3, "getline": 2, "getdelim": 3},
    # a descriptor's or a session's send or read: (connection, buffer, byte count)
    count_argument={name: 2 for name in ("write", "send", "sendto", "SSL_write", "BIO_write", "gnutls_record_send",
                                         "wolfSSL_write", "mbedtls_ssl_write",
                                         "read", "recv", "recvfrom", "SSL_read", "SSL_peek", "BIO_read",
                                         "gnutls_record_recv")},
    # a socket's own sends: after the count (send, sendto), or after a gathering send's message
    flags_argument={"send": (3, 4), "sendto": (3, 4), "sendmsg": (2, 3)},
    flushes={"fflush"},
    # closesocket: Winsock's close of a socket, and the name portable code gives close() elsewhere
    closes={"close", "closesocket"},
    stream_closes={"fclose"},
    shutdowns={"shutdown"},
    accepts={"accept", "accept4"},
    socket_only={"send", "sendto", "sendmsg", "recv", "recvfrom", "recvmsg", "SSL_write", "SSL_read", "setsockopt",
                 "shutdown", "sendfile"},
    addressed={"sendto", "recvfrom"},
    stream_flags={"MSG_FASTOPEN"},
    tcp_makers={"socket"},
    kind_arguments={"socket": (0, 1)},
    plain_tcp_words={"AF_INET", "AF_INET6", "PF_INET", "PF_INET6", "SOCK_STREAM"},
    no_nagle_words={"AF_UNIX", "AF_LOCAL", "PF_UNIX", "PF_LOCAL", "AF_NETLINK", "AF_PACKET", "SOCK_DGRAM", "SOCK_RAW",
                    "SOCK_SEQPACKET"},
    no_nagle_addresses={"sockaddr_un"},
    not_tcp={"open", "openat", "creat", "tmpfile", "memfd_create", "eventfd", "timerfd_create", "signalfd",
             "epoll_create", "epoll_create1", "inotify_init", "inotify_init1", "open_memstream", "fmemopen", "popen",
             "mkstemp", "CreateFile", "CreateFileA", "CreateFileW"},  # CreateFile: Windows' file or named pipe
    not_tcp_endings={"fopen", "freopen"},  # curlx_fopen, g_fopen, xfopen
    consoles={"STDOUT_FILENO", "STDERR_FILENO"},
    pair_makers={"pipe": 0, "pipe2": 0, "socketpair": 3},
    # getsockname(fd, &addr, &len); connect(fd, &addr, len)
    own_address_getters={"getsockname": 1},
    connects={"connect": 1},
    wrappers={"fdopen": None},  # buffered when its mode writes
    buffer_setters={"setvbuf": "_IONBF"},
    # the structure holding a member, from a pointer to the member: a list's, Windows'; and Linux's
    # and the BSDs' `container_of`, with the copies projects name for it
    containers={"list_entry": 0, "CONTAINING_RECORD": 0},
    container_endings={"container_of"},
    binders={"SSL_set_fd", "gnutls_transport_set_int", "wolfSSL_set_fd"},
    socket_types={"gnutls_session_t", "WOLFSSL", "mbedtls_ssl_context"},
    stream_types={"FILE": True},
    option_setters={"setsockopt"},
    options={"TCP_NODELAY": "nodelay", "TCP_CORK": "cork", "TCP_NOPUSH": "cork"},
    more_flags={"MSG_MORE"},
    joinable_sends={"write", "send"},
    # seconds per unit of the argument (None: a length not told)
    exits={"exit", "_exit", "_Exit", "quick_exit", "abort"},
    sleeps={"sleep": 1.0, "usleep": 1e-6, "nanosleep": None, "Sleep": 1e-3},
    # select(nfds, readfds, writefds, exceptfds, timeout): a wait for the peer on the descriptors
    # FD_SET put in its read set; a timeout is a pointer (NULL waits for ever)
    readiness_waits={"select": (1, 4)},
    watch_adders={"FD_SET": (0, 1)},
    # a wrapper defined in no linted file (a header's static inline) named for one of the calls only
    # sockets have: `bt_send_nosigpipe(fd, buf, len)`, `bt_socket_recv(sock, buf, n, 0)` (not for
    # write and read, which files and pipes have too)
    named_sends={"send"},
    named_reads={"recv"},
    evidence_words=("socket", "accept", "recv", "send", "setsockopt", "shutdown", "SSL_"),
    # test programs and benchmarks, by their folders and their names
    test_folders={"test", "tests", "testsuite", "bench", "benchmarks"},
    test_names={"test_*.c", "*_test.c", "bench_*.c"},
    # `#include <libssh2.h>`, `#include "telnet.h"`
    imports={r"(?m)^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"\n]+)[>\"]"},
)
