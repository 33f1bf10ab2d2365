"""C's function-like macros standing for a descriptor's call: which the byte scan takes (derived
from the catalogue's sends, reads and options), and that a use of one lowers to that call at
the use's line."""

from __future__ import annotations

from nagle_lint.languages import scanner
from nagle_lint.runner import lint_file
from nagle_lint.config import Settings

SCAN = scanner("c")


def test_macros_standing_for_a_descriptor_call():
    data = b"""
#define SEND_STR(fd, s) write((fd), (s), strlen(s))
#define SEND_PAIR(fd, a, b) do { \\
        send((fd), (a), strlen(a), 0); \\
        send((fd), (b), strlen(b), 0); \\
    } while (0)
#define NODELAY(fd) setsockopt((fd), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one)
#define LOG(msg) fprintf(stderr, "%s\\n", msg)
#define QUOTED(fd, s) write((fd), #s, sizeof #s - 1)
#define send(fd, b, n, f) send(fd, b, n, (f) | MSG_NOSIGNAL)
#define WRAPPED(fd, b, n) write_all(fd, b, n)
#define TRACE(...) write(2, __VA_ARGS__)
"""
    macros = SCAN.call_macros(data)
    assert sorted(macros) == ["NODELAY", "SEND_PAIR", "SEND_STR"]
    assert macros["SEND_STR"] == (("fd", "s"), "write((fd), (s), strlen(s))")
    assert macros["SEND_PAIR"][0] == ("fd", "a", "b")


def test_a_macro_use_is_found_at_its_line(tmp_path):
    source = tmp_path / "client.c"
    source.write_text("""#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#define SEND_STR(fd, s) write((fd), (s), strlen(s))

int ask(const char *q, char *r)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    SEND_STR(fd, "GET ");
    SEND_STR(fd, q);
    return (int)read(fd, r, 100);
}
""")
    _, findings, problem, _ = lint_file(str(source), Settings())
    assert problem is None
    assert [(f.rule, f.site.line, f.site.col) for f in findings] == [("NGL001", 10, 5)]


def test_a_macro_use_whose_result_is_looked_at_writes_the_rest(tmp_path):
    """`n = fm_write(...)` in a partial-write loop: the macro's send is looked at, so each pass
    sends the rest of the same data, not a new piece (nothing even at low confidence)."""
    source = tmp_path / "put.c"
    source.write_text("""#include <sys/socket.h>
#include <unistd.h>
#define fm_write(a, b, c) send(a, b, c, 0)

int put_all(const char *buf, int len)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    while (len) {
        int n = fm_write(fd, buf, len);
        if (n <= 0)
            return -1;
        len -= n;
        buf += n;
    }
    return 0;
}
""")
    _, findings, problem, _ = lint_file(str(source), Settings(min_confidence="low"))
    assert problem is None
    assert findings == []


def test_macros_that_use_each_other_are_expanded_once(tmp_path):
    """Within a macro's expansion the macro is not expanded again, as the preprocessor does not:
    two macros naming each other lint (to nothing) instead of recursing for ever."""
    source = tmp_path / "ping.c"
    source.write_text("""#include <sys/socket.h>
#include <unistd.h>
#define PING(fd) (send((fd), "p", 1, 0), PONG(fd))
#define PONG(fd) (recv((fd), buf, 1, 0), PING(fd))
char buf[4];

int ping(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    PING(fd);
    return 0;
}
""")
    _, findings, problem, _ = lint_file(str(source), Settings(min_confidence="low"))
    assert problem is None
    assert findings == []
