"""C's byte scan: libc and OpenSSL sends, and function bodies from the braces."""

from __future__ import annotations

import re

from .scan import PlainCalls, Scanner


class CScanner(Scanner):
    evidence_words = (b"socket", b"accept", b"recv", b"send", b"setsockopt", b"shutdown", b"SSL_", b"gnutls_")
    # a file that reads may matter through the functions it calls
    read_calls = PlainCalls(rb"read|recv\w*|SSL_read|fgets|fread")
    # A call through a function pointer (`c->send(...)`) is not a send the frontend knows.
    send_calls = PlainCalls(rb"write|send|sendto|sendmsg|sendmmsg|writev|sendfile|SSL_write|BIO_write|"
                            rb"gnutls_record_send|fwrite|fprintf|vfprintf|fputs|fputc|putc")
    target_is_receiver = False
    socket_sends = PlainCalls(rb"write|send|sendto|sendmsg|sendmmsg|writev|sendfile|SSL_write|BIO_write|"
                              rb"gnutls_record_send")

    def sends_in(self, data: bytes, min_confidence: str = "medium") -> bool:
        # stdio writes reach a socket only through fdopen(): elsewhere their
        # FILE* is at best a parameter of low confidence.
        if self.socket_sends.search(data):
            return True
        return (min_confidence == "low" or b"fdopen" in data) and bool(self.send_calls.search(data))

    events = PlainCalls(rb"write|send\w*|writev|sendfile|read|recv\w*|readv|SSL_\w+|BIO_\w+|gnutls_\w+|socket|"
                        rb"accept4?|setsockopt|shutdown|close|fdopen|fflush|fclose|fwrite|fprintf|vfprintf|fputs|"
                        rb"fputc|putc|fgets|fread|fgetc|getc|fscanf|getline|getdelim|setvbuf")

    def byte_functions(self, data: bytes):
        """(name, start, end, None) of every function definition, read from the
        bytes (comments, strings and preprocessor lines skipped, `#if 0`
        blocks left out); None when the braces do not tell for sure (a
        body of several lines whose closing brace is not at the margin,
        braces left unbalanced).  Of an `#if` with other branches, the
        braces of the first branch count: each other branch starts from the
        state at the `#if` (`#ifdef A` `if (a) {` `#else` `if (b) {` `#endif`
        opens one block, not two)."""
        if data.count(b"\r") != data.count(b"\r\n"):
            return None  # lines ended by a lone CR: a preprocessor line would run to the end
        found, stack, skip = [], [], 0  # stack: True for a function's body, False for another block
        top_end = 0  # where the last top-level declaration or definition ended
        start = name = None
        branches: list = []  # per open #if: None for an `#if 0`, else [state at the #if, at the end of its first branch]
        for m in _C_TOKENS.finditer(data):
            tok = m.group()
            first = tok[:1]
            if first in b"/\"'":  # a comment or a string: no brace in it counts
                continue
            if first == b"#":
                if not stack:
                    top_end = m.end()
                directive = _DIRECTIVE.match(tok)
                word = directive.group(1) if directive else b""
                if skip:
                    if word.startswith(b"if"):
                        skip += 1
                    elif word == b"endif":
                        skip -= 1
                        if not skip:
                            branches.pop()
                    elif skip == 1 and word in (b"else", b"elif"):
                        skip = 0  # the branch after an `#if 0` counts
                elif word == b"if" and _IF_ZERO.match(tok):
                    skip = 1
                    branches.append(None)
                elif word.startswith(b"if"):
                    branches.append([(stack[:], name, start), None])
                elif word in (b"else", b"elif") and branches and branches[-1] is not None:
                    if branches[-1][1] is None:
                        branches[-1][1] = (stack[:], name, start)
                    stack, name, start = branches[-1][0][0][:], branches[-1][0][1], branches[-1][0][2]
                elif word == b"endif" and branches:
                    entry = branches.pop()
                    if entry is not None and entry[1] is not None:
                        stack, name, start = entry[1]
                continue
            if first == b"{":
                if stack:
                    stack.append(False)
                    continue
                header_start = _BLANKS.match(data, max(top_end, data.rfind(b";", top_end, m.start()) + 1)).end()
                header = _COMMENTS.sub(b" ", data[header_start:m.start()])
                if header.rstrip().endswith(b'extern "C"'):
                    continue  # a linkage block: what it holds is at the top level
                name, start = _function_name(header), header_start
                stack.append(name is not None)
                continue
            if not stack:  # a closing brace at the top level: only a linkage block's may be
                if data.rfind(b'extern "C"', 0, m.start()) < 0:
                    return None
                top_end = m.end()
                continue
            was_function = stack.pop()
            if not stack:
                top_end = m.end()
                if was_function:
                    line_start = data.rfind(b"\n", 0, m.start()) + 1
                    if line_start > start and m.start() != line_start:
                        return None  # a body of many lines that does not end at the margin: unsure
                    if not skip:
                        found.append((name, start, m.end(), None))
        return None if stack else found


_C_TOKENS = re.compile(rb'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|'
                       rb'^[ \t]*#(?:[^\n]*\\\r?\n)*[^\n]*|[{}]', re.S | re.M)
_COMMENTS = re.compile(rb"/\*.*?\*/|//[^\n]*", re.S)
_BLANKS = re.compile(rb"(?:\s+|/\*.*?\*/|//[^\n]*)*", re.S)
_DIRECTIVE = re.compile(rb"[ \t]*#[ \t]*(\w*)")
_IF_ZERO = re.compile(rb"[ \t]*#[ \t]*if[ \t]+\(?0\)?[ \t]*(?:/[*/].*)?$", re.S)
_HEADER_NAME = re.compile(rb"([A-Za-z_]\w*)\s*\(")
_NOT_NAMES = {b"__attribute__", b"__declspec", b"alignas", b"_Alignas", b"__asm__", b"asm", b"sizeof"}


def _function_name(header: bytes) -> str | None:
    """The name a function definition's header declares (`static int\nfoo(int a)`),
    or None when the block is not a function's body (a struct, an initializer)."""
    if not header.rstrip().endswith(b")"):
        return None
    for m in _HEADER_NAME.finditer(header):
        if m.group(1) not in _NOT_NAMES:
            return m.group(1).decode()
    return None
