"""C functions told from the bytes (so that only the functions worth lowering
are parsed): the same functions tree-sitter finds, the same model as a whole
parse gives, and no answer at all where the braces cannot be trusted."""

from __future__ import annotations

from pathlib import Path

import pytest

from nagle_lint.languages import frontend
from model_dump import dump

ROOT = Path(__file__).resolve().parent.parent
C_FILES = sorted((ROOT / "fixtures").rglob("*.c"))
FE = frontend("c")


def tree_functions(data: bytes) -> set[tuple[str, int]]:
    """The functions of a whole parse, with those it lost that one build's view recovers."""
    root = FE.parse(data).root_node
    return {(name, node.end_byte) for name, node, _ in FE.recovered(data, list(FE.functions(root)), root)}


def byte_functions(data: bytes) -> set[tuple[str, int]] | None:
    spans = FE.scan.byte_functions(data)
    return None if spans is None else {(name, end) for name, _, end, _ in spans}


@pytest.mark.parametrize("path", C_FILES, ids=lambda p: str(p.relative_to(ROOT / "fixtures")))
def test_fixture_functions_are_told_from_the_bytes(path: Path):
    data = path.read_bytes()
    assert byte_functions(data) == tree_functions(data)


@pytest.mark.parametrize("path", C_FILES, ids=lambda p: str(p.relative_to(ROOT / "fixtures")))
def test_a_partial_parse_gives_the_model_of_a_whole_one(path: Path, monkeypatch):
    data = path.read_bytes()
    partial, partial_choice = FE.lower_choosing(str(path), data)
    # No function told from the bytes: the file is parsed whole.
    monkeypatch.setattr(type(FE.scan), "functions_of", lambda self, data: None)
    whole, whole_choice = FE.lower_choosing(str(path), data)

    def by_function(model):
        return sorted(piece.strip() for piece in ("\n" + dump(model)).split("\nfunction "))

    assert by_function(partial) == by_function(whole)
    assert partial_choice.stubs == whole_choice.stubs and partial_choice.left_out_calls == whole_choice.left_out_calls


TRICKY = b"""\
/* a comment with a brace { and a function: int fake(void) { */
#include <unistd.h>
struct point { int x, y; };
static const struct point origin = { 0, 0 };
static const char *open_brace = "{", close_brace = '}';

static int
first(int fd)   /* a comment in the header (fake(x)) */
{
    char c = '{';
    return (int) write(fd, "}", 1) + c;
}

#if 0
int disabled(int fd) { return write(fd, "x", 1); }
#endif

int second(void) { return first(1); }
"""


def test_braces_in_comments_strings_and_disabled_code():
    assert byte_functions(TRICKY) == tree_functions(TRICKY) == {
        ("first", TRICKY.index(b"}\n\n#if 0") + 1), ("second", len(TRICKY) - 1)}


BRANCHES = b"""\
#include <unistd.h>
int f(int fd, int a)
{
#ifdef X
    if (a) {
#elif defined Y
    if (a > 1) {
#else
    if (!a) {
#endif
        write(fd, "h", 1);
        write(fd, "b", 1);
    }
    return 0;
}

int g(int fd)
{
    return write(fd, "x", 1);
}
"""


def test_preprocessor_branches_that_each_open_a_block(monkeypatch):
    """The braces of an #if's first branch count, each other branch starts
    over: the bytes tell both functions.  tree-sitter cannot read the first
    (its tree has an error there), so a partial parse that needs it finds
    it missing; parsed on its own it is an error from end to end, but
    parsed as one build sees it (the first branch) it is a function, as a
    whole parse recovers it too: the model is the same, it has the first
    function, and the file is not parsed whole."""
    f_end, g_end = BRANCHES.index(b"}\n\nint g") + 1, len(BRANCHES) - 1
    assert byte_functions(BRANCHES) == {("f", f_end), ("g", g_end)}
    assert tree_functions(BRANCHES) == {("f", f_end), ("g", g_end)}
    whole = type(FE)()
    whole.functions_of = lambda data: None
    expected = dump(whole.lower("branches.c", BRANCHES))
    assert "function f(" in expected
    parses, parse = [], type(FE).parse
    monkeypatch.setattr(type(FE), "parse", lambda self, data, *ranges: parses.append(ranges) or parse(self, data, *ranges))
    assert dump(FE.lower("branches.c", BRANCHES)) == expected
    assert parses and all(ranges and ranges[0] for ranges in parses)  # each parse of some ranges: none of the whole file


INDENTED = b"""\
#include <unistd.h>
  #ifndef N
  # define N 1
  #endif
int f(int fd, int a)
{
    if (a) {
      #ifdef LOUD
        write(fd, "!", 1);
      #endif
        write(fd, "h", 1);   /* # is no directive here */
    }
    return N;
}
int g(int fd)
{
    return write(fd, "#", 1);
}
"""


def test_indented_preprocessor_lines():
    """A directive may start after blanks (at the top level and in a body)."""
    assert byte_functions(INDENTED) == tree_functions(INDENTED) == {
        ("f", INDENTED.index(b"}\nint g") + 1), ("g", len(INDENTED) - 1)}


NAMED = b"""\
#include <unistd.h>
/* Sends the reply; reply(x) tells its format. */
static int
send_reply(int fd)
{
    return (int) write(fd, "ok", 2);
}
NO_SANITIZE("alignment")
int checksum(const char *p)
{
    return p[0];
}
"""


def test_the_name_a_header_declares():
    """Not a word of the comment before it (a semicolon there does not end
    a declaration), nor an attribute macro's."""
    first_end = NAMED.index(b"}\nNO_SANITIZE") + 1
    assert byte_functions(NAMED) == {("send_reply", first_end), ("checksum", len(NAMED) - 1)}
    assert ("send_reply", first_end) in tree_functions(NAMED)


DIRECTIVE_COMMENT = b"""\
#include <unistd.h>
#define MAX 34  /* room for MAX names,
                   of ten characters each */

static int first(const char * const *names)
{
    return (int) write(1, names[0], MAX);
}
"""


def test_a_directive_ends_after_a_comment_it_starts():
    """A comment that starts on a preprocessor line and ends on a later one
    belongs to that line: the header after it starts where its own words do
    (parsed from its second line, the function was lost to an error)."""
    ((name, start, end, _),) = FE.scan.byte_functions(DIRECTIVE_COMMENT)
    assert (name, start, end) == ("first", DIRECTIVE_COMMENT.index(b"static int first"), len(DIRECTIVE_COMMENT) - 1)
    assert byte_functions(DIRECTIVE_COMMENT) == tree_functions(DIRECTIVE_COMMENT)


@pytest.mark.parametrize("source", [
    # a preprocessor branch that opens a block no branch closes
    b"int f(int a)\n{\n#ifdef X\n    if (a) {\n#endif\n    return 0;\n}\n",
    # a function closed away from the margin
    b"int f(void) { return 0;\n  }\nint g(void)\n{\n    return 1;\n}\n",
    # lines ended by a lone CR
    b"#include <unistd.h>\rint f(int fd)\r{\r    return write(fd, \"x\", 1);\r}\r",
    # a comment never closed before a function (a parser finds the function after it)
    b"#include <unistd.h>\n/* the writer,\nint f(int fd)\n{\n    return write(fd, \"x\", 1);\n}\n",
], ids=["unbalanced-branches", "brace-off-margin", "lone-cr", "comment-never-closed"])
def test_no_answer_where_the_braces_cannot_be_trusted(source):
    assert FE.scan.byte_functions(source) is None


# The first function, parsed in one go with the others worth lowering, takes
# them with it into an error (its conditional lines split an expression); a
# whole parse loses it too (one build's view of it, without the directives,
# finds it again).  Parsed on its own, it is a function again.
LOST_TOGETHER = b"""\
#include <sys/socket.h>

int setup(int fd)
{
  int on = 1;
  int y = pick(
#ifdef WIDE
    1,
#endif
    2);
  c->h =
#ifdef WIDE
    c->l ? make(c->l) :
#endif
    make(0);
  /* latency: each message already leaves in one write */
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  send(fd, "a", 1, 0);
  return y;
}

static int twice(int n)
{
  return n * 2;
}

static int ask(int fd)
{
  char b[4];
  send(fd, "x", 1, 0);
  send(fd, "y", 1, 0);
  return recv(fd, b, 4, 0);
}
"""


def test_a_function_lost_in_the_ranges_parsed_together_is_parsed_on_its_own():
    from nagle_lint.config import Settings
    from nagle_lint.runner import lint_file

    setup = ("setup", LOST_TOGETHER.index(b"}\n\nstatic int twice") + 1)
    assert setup not in {(name, node.end_byte) for name, node, _ in FE.functions(FE.parse(LOST_TOGETHER).root_node)}
    assert setup in tree_functions(LOST_TOGETHER)
    model = FE.lower("lost.c", LOST_TOGETHER)
    bodies = {fn.qualname: dump(type(model)("lost.c", "c", [fn])) for fn in model.functions}
    assert "setopt fd nodelay=True" in bodies["setup"] and "send fd" in bodies["setup"]
    assert "recv fd" in bodies["ask"]
    assert [fn.qualname for fn in model.functions] == ["setup", "ask", "twice"]
    # The comment inside it is read: TCP_NODELAY is justified there.
    _, findings, _, _ = lint_file("lost.c", Settings(), LOST_TOGETHER)
    assert sorted(f.rule for f in findings) == ["NGL001"]
    _, findings, _, _ = lint_file("lost.c", Settings(), LOST_TOGETHER.replace(b"latency: each message already leaves in one write", b"fast"))
    assert sorted(f.rule for f in findings) == ["NGL001", "NGL002"]



def test_a_file_lowered_again_keeps_the_functions_lowered_before():
    """A later round lowers a file again when more of its functions turn out
    to matter: the functions lowered the first time are taken from that
    model, the others parsed now, and the model is the one a fresh lowering
    gives (the same functions, in the same order, with the same flags)."""
    reused = 0
    for path in C_FILES:
        data = path.read_bytes()
        first = FE.lower_choosing(str(path), data)
        needed = frozenset(first[1].stubs)  # these now matter too
        fresh, fresh_choice = FE.lower_choosing(str(path), data, frozenset(), needed)
        again, again_choice = FE.lower_choosing(str(path), data, frozenset(), needed, before=first)
        assert dump(again) == dump(fresh), path.name
        assert again_choice == fresh_choice
        assert [(fn.qualname, fn.callback) for fn in again.functions] == [(fn.qualname, fn.callback) for fn in fresh.functions]
        earlier = {id(fn) for fn in first[0].functions}
        reused += any(id(fn) in earlier for fn in again.functions if fn.body)
    assert reused >= 10  # files whose earlier functions were taken, not parsed again


def test_an_earlier_model_of_other_bytes_is_not_taken_from():
    """A file changed between two rounds (a line added above its functions):
    nothing is taken from the model of the old bytes."""
    path = next(p for p in C_FILES if FE.lower_choosing(str(p), p.read_bytes())[1].lowered)
    old = path.read_bytes()
    first = FE.lower_choosing(str(path), old)
    new = b"/* a line added */\n" + old
    needed = frozenset(first[1].stubs)
    again = FE.lower(str(path), new, frozenset(), needed, before=first)
    assert dump(again) == dump(FE.lower(str(path), new, frozenset(), needed))
    assert not {id(fn) for fn in again.functions} & {id(fn) for fn in first[0].functions}


def test_positional_table_entries_take_their_members_from_the_struct_declared():
    from nagle_lint.languages.c_scan import members_assigned

    found = members_assigned(b"""
        struct ops {
            const char *name; /* a comment, with a comma */
            ssize_t (*send)(struct conn *c, const void *buf, size_t len);
            int flags, spare[2];
            void (*close)(struct conn *c);
        };
        typedef struct ops ops_t;
        typedef struct { void (*start)(void); void (*stop)(void); } plain_t;
        struct nested { struct { int a; } inner; void (*send)(void); };
        static const struct ops tcp_ops = { "tcp, or not", tcp_send, 0, {0}, tcp_close };
        static const ops_t tls_ops = { "tls", tls_send };
        static const plain_t plain = { plain_start, plain_stop };
        static const struct ops mixed = { .name = "m", after_designated };
        static const struct nested n = { {1}, nested_send };
        static const struct unknown u = { "u", unknown_send };
        static const struct ops many[] = { { "a", array_send } };
        int x = call(tcp_ops, passed_send, 1);
    """, {"tcp_send", "tcp_close", "tls_send", "plain_start", "plain_stop", "after_designated", "nested_send",
          "unknown_send", "array_send", "passed_send"})
    assert found == {"send": {"tcp_send", "tls_send"}, "close": {"tcp_close"}, "start": {"plain_start"},
                     "stop": {"plain_stop"}}
