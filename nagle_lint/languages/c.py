"""C: BSD sockets, stdio streams over sockets, OpenSSL."""

from __future__ import annotations

import re

from .base import NO_VALUE, raw, NOT_CONN, Const, count_size, Fresh, Sent, Frontend, Handle, Lowering, compact, int_literal, seconds, text
from ..model import ONE, SMALL, UNKNOWN, ConnInfo

NO_NAGLE = ("AF_UNIX", "AF_LOCAL", "PF_UNIX", "PF_LOCAL", "AF_NETLINK", "AF_PACKET", "SOCK_DGRAM", "SOCK_RAW",
            "SOCK_SEQPACKET")
NOT_SOCKETS = {"open", "openat", "creat", "fopen", "tmpfile", "memfd_create", "eventfd", "timerfd_create",
               "signalfd", "epoll_create", "epoll_create1", "inotify_init", "inotify_init1", "open_memstream",
               "fmemopen", "popen", "mkstemp"}
# A wrapper named for what it wraps (curlx_fopen, g_fopen, xfopen) opens a file too.
FILE_OPENERS = ("fopen", "freopen")
PAIRS = {"pipe", "pipe2", "socketpair"}  # fill an int[2] with descriptors that have no Nagle
# name -> (index of the connection argument, index of the byte count or None)
SENDS = {"write": (0, 2), "send": (0, 2), "sendto": (0, 2), "SSL_write": (0, 2), "sendfile": (0, None),
         "BIO_write": (0, 2), "gnutls_record_send": (0, 2)}
GATHERS = {"writev": 0, "sendmsg": 0, "sendmmsg": 0}
RECVS = {"read": 0, "recv": 0, "recvfrom": 0, "recvmsg": 0, "SSL_read": 0, "SSL_peek": 0, "BIO_read": 0,
         "gnutls_record_recv": 0, "readv": 0}
SOCKET_ONLY = {"send", "sendto", "sendmsg", "recv", "recvfrom", "recvmsg", "SSL_write", "SSL_read", "setsockopt",
               "shutdown", "sendfile"}
# Calls given the peer's address (the fifth argument) on every datagram: a TCP socket is connected, and
# its sends and reads take none (NULL).
ADDRESSED = {"sendto", "recvfrom"}
# stdio: name -> index of the FILE* argument
STDIO_WRITES = {"fwrite": 3, "fprintf": 0, "vfprintf": 0, "fputs": 1, "fputc": 1, "putc": 1, "fputs_unlocked": 1,
                "fwrite_unlocked": 3}
STDIO_READS = {"fgets": 2, "fread": 3, "fgetc": 0, "getc": 0, "fscanf": 0, "getline": 2, "getdelim": 3}


# Library calls that take a descriptor but neither send nor read: never another linted file's function.
LIBRARY = {"connect", "bind", "listen", "fcntl", "ioctl", "getsockopt", "getpeername", "getsockname", "epoll_ctl",
           "poll", "select", "dup", "dup2", "fstat", "lseek", "ftruncate", "fsync", "fchmod", "fchown", "memcpy",
           "memset", "strlen", "snprintf", "printf", "perror", "htons", "htonl", "inet_pton", "free", "malloc",
           "SSL_set_fd", "SSL_new", "SSL_connect", "SSL_accept", "SSL_free", "FD_SET", "FD_CLR", "FD_ISSET"}

# An event loop that the file fills with TCP connections hands them back as these.
POLLERS = re.compile(rb"\b(?:epoll_ctl|FD_SET|kevent|EV_SET)\b|struct\s+pollfd")
TCP_MADE = re.compile(rb"\baccept4?\s*\(|SOCK_STREAM")
# A send's result compared as a failure: below zero, -1, not the length asked, below it;
# either way round (`0 >= write(...)`, `-1 == n`).
FAILURE_TEST = re.compile(r"<=?0\b|==-1\b|!=|<[A-Za-z_(]|==SOCKET_ERROR|(?<![\w.])(?:0>=?|-1==|SOCKET_ERROR==)")
# Sleeps, by the seconds of their argument's unit (None: a length not told).
SLEEPS = {"sleep": 1.0, "usleep": 1e-6, "nanosleep": None, "Sleep": 1e-3}
# A descriptor's "none" value, assigned when it is closed or failed to open.
SENTINEL = re.compile(r"(?:\([\w\s]+\))?\(?(?:-1|INVALID_SOCKET|NULL)\)?$")
POLLED_KEY = re.compile(r"\.data\.(?:fd|u32|u64)$|\]\.fd$|\]\.ident$")


class CFrontend(Frontend):
    name = "c"
    grammar_package = "tree_sitter_c"
    idioms = {
        "join": "one buffer and one write()",
        "gather": "writev() or sendmsg()",
        "buffer": "an fdopen() stream flushed once",
        "cork": "MSG_MORE on all but the last piece, or TCP_CORK around the message",
    }
    same_name_alternatives = True  # under preprocessor conditions
    members_passed = True
    call_types = frozenset({"call_expression"})
    option_row_types = frozenset({"initializer_list"})
    skip_types = frozenset({"function_definition"})
    wrapper_types = frozenset({"parenthesized_expression", "cast_expression"})

    # -- functions ---------------------------------------------------------


    def functions(self, root):
        """In the order of the file, whichever of its parts were parsed (the
        order once depended on how preprocessor blocks held them)."""
        stack = [iter(root.named_children)]
        while stack:
            child = next(stack[-1], None)
            if child is None:
                stack.pop()
            elif child.type == "function_definition":
                name = _declared_name(child.child_by_field_name("declarator"))
                if name:
                    yield name, child, None
            elif child.type == "preproc_if" and compact(child.child_by_field_name("condition")) in ("0", "(0)"):
                alt = child.child_by_field_name("alternative")
                if alt is not None:
                    stack.append(iter(alt.named_children))
            elif child.type in ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
                                "linkage_specification", "declaration_list", "ERROR", "preproc_elifdef"):
                stack.append(iter(child.named_children))

    def body(self, unit, node):
        """The function's body; where a preprocessor conditional splits a statement between its
        arms (`#ifdef A` `if (send(...) < 0)` `#else` `if (write(...) < 0)` `#endif` `return -1;`),
        tree-sitter reads the arms in sequence and loses the statement: the body is then parsed
        again as one build sees it, with one arm of each such conditional (the first; the one
        after an `#if 0`)."""
        body = node.child_by_field_name("body")
        if body is None or not body.has_error or not _directive_in_error(body):
            return body
        ranges = _one_arm(unit.src.data, node.start_byte, node.end_byte)
        if ranges is None:
            return body
        tree = self.parse(unit.src.data, ranges)
        again = next((n for _, n, _ in self.functions(tree.root_node) if n.start_byte == node.start_byte), None)
        return again.child_by_field_name("body") if again is not None else body

    def declare_params(self, low: Lowering, node):
        decl = node.child_by_field_name("declarator")
        while decl is not None and decl.type != "function_declarator":
            decl = decl.child_by_field_name("declarator")
        params = decl.child_by_field_name("parameters") if decl is not None else None
        keys = []
        for p in params.named_children if params is not None else ():
            if p.type != "parameter_declaration":
                continue
            name = _declared_name(p.child_by_field_name("declarator"))
            if not name:
                keys.append(None)
                continue
            typ = compact(p.child_by_field_name("type"))
            low.params.add(name)
            low.types[name] = typ
            keys.append(name)
            if typ == "FILE":
                low.conns[name] = ConnInfo(name, None, "low", "param")
                low.env[name] = Handle(name, buffered=True)
            elif typ in ("SSL", "gnutls_session_t"):
                low.conns[name] = ConnInfo(name, None, "medium", "param")
                low.env[name] = Handle(name)
        return tuple(keys)

    def key(self, low, node):
        return compact(node)

    def made_as(self, low, key: str) -> bool | None:
        name = _made_name(key)
        if not name or "." not in key and "->" not in key and (name in low.declared or name in low.params):
            return None  # a local variable is what its own function makes of it
        return self._made_kinds(low.unit).get(name)

    def _made_kinds(self, unit) -> dict[str, bool]:
        kinds = getattr(unit, "made_kinds", None)
        if kinds is None:
            kinds = unit.made_kinds = _made_kinds(unit.src.data)
        return kinds

    def polled(self, unit, key: str) -> bool:
        return bool(POLLED_KEY.search(key)) and self._polls_tcp(unit)

    def _polls_tcp(self, unit) -> bool:
        if unit.polls_tcp is None:
            data = unit.src.data
            unit.polls_tcp = bool(POLLERS.search(data) and TCP_MADE.search(data))
        return unit.polls_tcp

    def text_facts(self, unit) -> tuple:
        return super().text_facts(unit) + (tuple(sorted(self._made_kinds(unit).items())), self._polls_tcp(unit))

    # -- statements --------------------------------------------------------

    def statement(self, low: Lowering, node) -> None:
        t = node.type
        if t in ("compound_statement", "translation_unit", "ERROR"):
            low.children(node)
        elif t == "declaration":
            self._declare(low, node)
        elif t == "expression_statement":
            low.evaluate(node.named_children)
        elif t == "if_statement":
            branches, cur = [], node
            while cur is not None and cur.type == "if_statement":
                branches.append((cur.child_by_field_name("condition"), cur.child_by_field_name("consequence")))
                alt = cur.child_by_field_name("alternative")
                cur = alt.named_children[0] if alt is not None and alt.named_children else None
            if cur is not None:
                branches.append((None, cur))
            low.if_chain(node, branches)
        elif t == "while_statement":
            cond = node.child_by_field_name("condition")
            low.loop(node, (cond,), node.child_by_field_name("body"), infinite=compact(cond) in ("(1)", "(true)"),
                     retries=cond)
        elif t == "do_statement":
            cond = node.child_by_field_name("condition")
            low.loop(node, (cond,), node.child_by_field_name("body"), body_first=True,
                     infinite=compact(cond) in ("(1)", "(true)"), retries=cond)
        elif t == "for_statement":
            init = node.child_by_field_name("initializer")
            cond = node.child_by_field_name("condition")
            if init is not None and init.type == "declaration":
                self._declare(low, init)
                init = None
            low.loop(node, (cond,) if cond is not None else (), node.child_by_field_name("body"),
                     infinite=cond is None, before=(init,) if init is not None else (),
                     update=[u for u in node.children_by_field_name("update")])
        elif t == "switch_statement":
            low.expr(node.child_by_field_name("condition"))
            body = node.child_by_field_name("body")
            cases, exhaustive = [], False
            for case in body.named_children if body is not None else ():
                if case.type != "case_statement":
                    continue
                value = case.child_by_field_name("value")
                exhaustive = exhaustive or value is None
                cases.append([c for c in case.named_children if c != value])
            low.switch(node, cases, exhaustive)
        elif t == "return_statement":
            low.jump("return", node, node.named_children[0] if node.named_children else None)
        elif t in ("break_statement", "continue_statement"):
            low.jump(t.split("_")[0], node)
        elif t == "labeled_statement":
            for c in node.named_children:
                if c.type != "statement_identifier":
                    low.stmt(c)
        elif t in ("preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef"):
            self._preproc(low, node)
        elif t in ("preproc_else",):
            low.children(node)
        elif t in ("comment", "goto_statement", "preproc_def", "preproc_include", "preproc_call",
                   "preproc_function_def", "type_definition", "struct_specifier"):
            return
        else:
            low.evaluate(node.named_children)

    def tests_failure(self, cond) -> bool:
        return FAILURE_TEST.search(compact(cond)) is not None

    def _preproc(self, low, node):
        """#if/#ifdef: the branches are alternatives (only one is compiled), not a sequence."""
        alt = node.child_by_field_name("alternative")
        if node.type == "preproc_if" and compact(node.child_by_field_name("condition")) in ("0", "(0)"):
            if alt is not None:
                low.stmt(alt)  # `#if 0` is never compiled
            return
        skip = [n for n in (alt, node.child_by_field_name("condition"), node.child_by_field_name("name")) if n is not None]
        body = [c for c in node.named_children if c not in skip and c.type not in ("identifier",)]
        then = low.stmts(body)
        other = low.block_of(alt) if alt is not None else ()
        from ..model import If

        low.emit(If((then, other), True, low.site(node)))

    def _declare(self, low, node):
        typ = compact(node.child_by_field_name("type"))
        # A static keeps its value from call to call; an extern is a global.
        local = not any(c.type == "storage_class_specifier" and text(c) in ("static", "extern") for c in node.children)
        for d in node.children_by_field_name("declarator"):
            if d.type == "init_declarator":
                target = d.child_by_field_name("declarator")
                name = _declared_name(target)
                if local and name:
                    low.declared.add(name)
                low.types[name] = typ + ("*" if target.type == "pointer_declarator" else "[]" if target.type == "array_declarator" else "")
                value = d.child_by_field_name("value")
                v = low.expr(value)
                if name:
                    ident = _ident(target)
                    if ident is not None:
                        low.bind_target(ident, v)
            else:
                name = _declared_name(d)
                if local and name:
                    low.declared.add(name)
                if name:
                    low.types[name] = typ + ("*" if d.type == "pointer_declarator" else "[]" if d.type == "array_declarator" else "")
                    low.assign(name, None)

    # -- expressions -------------------------------------------------------

    def value(self, low: Lowering, node):
        t = node.type
        if t in ("identifier", "field_expression", "subscript_expression"):
            v = low.env.get(text(node) if t == "identifier" else compact(node))  # a name holds no blank
            if v is None and t == "subscript_expression":
                arr = compact(node.child_by_field_name("argument"))
                if low.env.get(arr + "[]") is NOT_CONN:
                    return NOT_CONN
            if v is None and t != "identifier":
                low.evaluate(node.named_children)
            return v
        if t == "number_literal":
            n = int_literal(text(node))
            return Const(n) if n is not None else None
        if t in ("true", "false"):
            return Const(t == "true")
        if t in ("string_literal", "char_literal", "concatenated_string"):
            return Const(text(node))
        if t == "assignment_expression":
            right, left = node.child_by_field_name("right"), node.child_by_field_name("left")
            v = low.expr(right)
            if text(node.child_by_field_name("operator")) == "=":
                # `fd = -1` after a failure marks the descriptor closed on that path; on the
                # others it is still the connection (the bindings are not per path).
                if not (SENTINEL.match(compact(right)) and isinstance(low.env.get(low.fe_key(left) or ""), Handle)):
                    low.bind_target(left, v)
            return NO_VALUE if v is None else v
        if t == "pointer_expression" and text(node.child_by_field_name("operator")) == "&":
            return low.expr(node.child_by_field_name("argument"))
        if t == "compound_literal_expression":
            init = node.child_by_field_name("value")
            return low.expr(init.named_children[0]) if init is not None and init.named_children else None
        if t == "sizeof_expression":
            return Const(None)
        if t == "conditional_expression":
            return low.alternatives(node, node.child_by_field_name("condition"),
                                    (node.child_by_field_name("consequence"), node.child_by_field_name("alternative")))
        if t == "binary_expression" and node.child_by_field_name("operator").type in ("&&", "||"):
            return low.short_circuit(node, node.child_by_field_name("left"), node.child_by_field_name("right"))
        return None

    def call(self, low: Lowering, node):
        func = node.child_by_field_name("function")
        args = low.args(node.child_by_field_name("arguments"))
        if func.type != "identifier":
            low.expr(func)
            low.evaluate(args)
            return None
        name = text(func)
        if name in low.unit.function_names and name != low.qualname:
            return low.local_call(name, args, node)
        if name in SLEEPS:
            low.evaluate(args)
            return low.pause(node, seconds(args[0], SLEEPS[name]) if args and SLEEPS[name] else None)
        if name == "socket":
            low.evaluate(args)
            tcp = _socket_kind([compact(a) for a in args[:2]])
            return Fresh(tcp, "high" if tcp is not None else "medium")
        if name in ("accept", "accept4"):
            listener = low.conn_for(args[0], "medium") if args else None
            low.evaluate(args[1:])
            info = low.conns.get(listener.key) if listener else None
            if info is not None and info.tcp is False:
                return Fresh(False, "high")
            return Fresh(True if info and info.tcp else None, "high" if info and info.tcp else "medium")
        if name in NOT_SOCKETS or name.endswith(FILE_OPENERS):
            low.evaluate(args)
            return NOT_CONN
        if name in PAIRS:
            low.evaluate(args)
            if args:
                arr = compact(args[-1])
                low.env[arr + "[]"] = NOT_CONN
                for i in (0, 1):
                    low.env[f"{arr}[{i}]"] = NOT_CONN
            return None
        if name == "fdopen" and args:
            h = low.conn_for(args[0], "low")
            mode = text(args[1]) if len(args) > 1 else ""
            if h is None:
                return NOT_CONN
            return Handle(h.key, buffered=any(c in mode for c in "wa+"))
        if name == "setvbuf" and len(args) >= 3:
            h = low.expr(args[0])
            if isinstance(h, Handle) and "_IONBF" in text(args[2]):
                low.assign(compact(args[0]), Handle(h.key, buffered=False))
            return None
        if name in ("SSL_set_fd", "gnutls_transport_set_int") and len(args) >= 2:
            h = low.conn_for(args[1], "medium")
            if h is not None:
                low.assign(compact(args[0]), h)
                info = low.conns.get(h.key)
            return None
        if name in SENDS or name in GATHERS or name in RECVS or name in ("shutdown", "close", "setsockopt"):
            index = SENDS[name][0] if name in SENDS else GATHERS.get(name, RECVS.get(name, 0))
            if len(args) <= index:
                return None
            h = low.conn_for(args[index], "medium" if name in SOCKET_ONLY else "low")
            low.evaluate(args[index + 1:])
            if h is None:
                return None
            if name in ADDRESSED and _addressed(args):  # a datagram sent to, or read from, an address
                info = low.conns.get(h.key)
                if info is not None and info.tcp is None:
                    low.conns[h.key] = ConnInfo(info.name, False, "high", info.origin)
            if name in SENDS:
                count = SENDS[name][1]
                flags = args[3] if name in ("send", "sendto") and len(args) > 3 else None
                more = flags is not None and "MSG_MORE" in text(flags)
                size = _size(low, args[count]) if count is not None and count < len(args) else UNKNOWN
                low.send(h, node, size, more=more)
                return Sent(h.key)
            elif name in GATHERS:
                more = name == "sendmsg" and len(args) > 2 and "MSG_MORE" in text(args[2])
                low.send(h, node, UNKNOWN, gather=True, more=more)
                return Sent(h.key)
            elif name in RECVS:
                low.recv(h, node, _size(low, args[2]) if len(args) > 2 and name not in ("recvmsg", "readv") else UNKNOWN)
            elif name == "shutdown":
                if len(args) < 2 or "SHUT_RD" != compact(args[1]):
                    low.push(h, node)
            elif name == "close":
                low.push(h, node)
            elif name == "setsockopt" and len(args) >= 4:
                opt = text(args[2])
                option = "nodelay" if "TCP_NODELAY" in opt else "cork" if ("TCP_CORK" in opt or "TCP_NOPUSH" in opt) else None
                if option:
                    low.set_option(h, option, args[3], node)
                else:  # setsockopt(fd, o->level, o->name, &o->value, ...): a row of an option table
                    low.option_table(h, args[2])
            return None
        if name in STDIO_WRITES or name in STDIO_READS or name in ("fflush", "fclose"):
            index = STDIO_WRITES.get(name, STDIO_READS.get(name, 0))
            if len(args) <= index:
                low.evaluate(args)
                return None
            for i, a in enumerate(args):
                if i != index:
                    low.expr(a)
            h = low.expr(args[index])
            if not isinstance(h, Handle):
                return None
            if name in STDIO_WRITES:
                low.send(h, node, ONE if name in ("fputc", "putc") else UNKNOWN)
            elif name in STDIO_READS:
                low.recv(h, node)
            elif name == "fflush":
                low.flush(h, node)
            else:
                low.close(h, node)
            return None
        if name in LIBRARY:
            low.evaluate(args)
            return None
        return low.outside_call(name, args, node)  # may be a function of another linted file

    def render(self, data: bytes, proposals) -> list:
        """Each proposed fix as edits of the file (see fixes.py), or None."""
        from .c_render import render

        return render(self, data, proposals)


def _socket_kind(spec: list[str]) -> bool | None:
    """TCP (True), no Nagle (False) or unknown, from socket()'s domain and type."""
    if any(f in a for a in spec for f in NO_NAGLE):
        return False
    if len(spec) > 1 and spec[0] in ("AF_INET", "AF_INET6", "PF_INET", "PF_INET6") and "SOCK_STREAM" in spec[1]:
        return True
    return None


# Where a file makes the endpoints its members and globals hold: `c->fd = socket(AF_INET, SOCK_DGRAM, 0)`,
# `g_fd = accept(...)`, `socketpair(AF_UNIX, SOCK_STREAM, 0, w->pair)`, `pipe(b.wake)`. The calls are
# found first (a pattern tried at every byte of the file took as long as the rest of the lowering).
_MAKERS = re.compile(rb"\b(socket|accept4?|socketpair|pipe2?|sendto|recvfrom)\s*\(")
_TARGET = rb"([A-Za-z_][\w.\->\[\] \t]*?)"
_CAST = re.compile(rb"\([\w\s]+\)$")
_LEADING_CAST = re.compile(rb"^(?:\(\s*[\w\s]+\)\s*)*")
_ASSIGNED = re.compile(rb"([A-Za-z_][\w.\->\[\]]*)$")
_FILLED = re.compile(rb"&?\s*([A-Za-z_][\w.\->\[\] \t]*)")


_NO_ADDRESS = re.compile(rb"\s*(?:\(\s*[\w\s]+\*\s*\)\s*)?(?:NULL|0|nullptr)\s*$")


def _addressed(args) -> bool:
    """Whether a sendto()/recvfrom() is given the peer's address (not NULL)."""
    return len(args) > 4 and _NO_ADDRESS.match(raw(args[4])) is None


def _made_name(key: str) -> str:
    """The member a key ends with (`fd` of `c->fd`, `pair` of `b.sig.pair[1]`), or the plain name."""
    return re.split(r"->|\.", re.sub(r"\[[^\]]*\]", "", key))[-1].strip()


def _arguments(data: bytes, at: int) -> list[bytes]:
    """The arguments of the call whose parenthesis opens just before `at`, split at the commas
    outside parentheses (within a few hundred bytes)."""
    args, depth, start = [], 0, at
    for i in range(at, min(len(data), at + 400)):
        c = data[i]
        if c in b"([":
            depth += 1
        elif c in b")]":
            if not depth:
                return args + [data[start:i]]
            depth -= 1
        elif c == 44 and not depth:  # a comma
            args.append(data[start:i])
            start = i + 1
        elif c == 59:  # `;`: the call is not closed where it should be
            break
    return args + [data[start:i]] if at < len(data) else [b""]


def _made_kinds(data: bytes) -> dict[str, bool]:
    """Member or global name -> whether every endpoint the file makes for it is TCP (True) or
    has no Nagle (False); names made both ways, or of a kind not told (accept), are left out."""
    kinds: dict[str, set] = {}
    if b"socket" not in data and b"pipe" not in data and b"accept" not in data and b"sendto" not in data \
            and b"recvfrom" not in data:
        return {}
    for m in _MAKERS.finditer(data):
        maker, args = m.group(1), _arguments(data, m.end())
        if maker in (b"socketpair", b"pipe", b"pipe2"):  # the array of descriptors: socketpair's last argument, pipe's first
            target = _FILLED.fullmatch((args[-1] if maker == b"socketpair" else args[0]).strip())
            tcp = False
        elif maker in (b"sendto", b"recvfrom"):  # used with an address: a datagram socket
            target = _FILLED.fullmatch(args[0].strip()) if len(args) > 4 and not _NO_ADDRESS.match(args[4]) else None
            tcp = False
        else:
            head = _CAST.sub(b"", data[max(0, m.start() - 200):m.start()].rstrip()).rstrip()
            assigned = head.endswith(b"=") and head[-2:-1] not in (b"=", b"!", b"<", b">")
            target = _ASSIGNED.search(head[:-1].rstrip()) if assigned else None
            tcp = _socket_kind([b"".join(a.split()).decode("latin-1") for a in args[:2]]) if maker == b"socket" else None
        if target is not None:
            kinds.setdefault(_made_name(target.group(1).decode("latin-1")), set()).add(tcp)
    known = {name: next(iter(k)) for name, k in kinds.items() if len(k) == 1 and None not in k and name}
    # A name also given another value (`ev.data.fd = cfd`, `c->fd = fd`) holds more than what the
    # file makes: it tells nothing (`-1` and the like mark a closed one, and are no other value).
    for name in list(known):
        for m in re.finditer(rb"\b" + re.escape(name.encode()) + rb"\s*(?:\[[^\]\n]*\]\s*)?=(?!=)([^;]*)", data):
            value = m.group(1).strip()
            if not (_MAKERS.match(_LEADING_CAST.sub(b"", value)) or SENTINEL.match(value.decode("latin-1"))):
                del known[name]
                break
    return known


def _directive_in_error(node) -> bool:
    """Whether an error in `node` holds a preprocessor directive (an arm that split a statement)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" and any(c.type == "preproc_directive" or c.type.startswith("#") for c in n.children):
            return True
        stack.extend(c for c in n.children if c.has_error)
    return False


_IF_ZERO = re.compile(rb"[ \t]*#[ \t]*if[ \t]+\(?0\)?[ \t]*(?:/[*/][^\n]*)?\n?$")
_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b[^\n]*\n?", re.M)


def _one_arm(data: bytes, start: int, end: int) -> list[tuple[int, int]] | None:
    """The byte ranges of data[start:end] that one build compiles: of each conditional with
    several arms, the directives left out and one arm kept (the first, or the one after an
    `#if 0`); a conditional of one arm is kept whole. None when the conditionals do not balance."""
    found = [(m.start(), m.end(), m.group(1)) for m in _CONDITIONAL.finditer(data, start, end)]
    # Pair each directive with its conditional: which conditionals have several arms.
    stack, owner, arms = [], [], {}
    for i, (_, _, word) in enumerate(found):
        if word.startswith(b"if"):
            stack.append(i)
            arms[i] = 1
        if not stack:
            return None
        owner.append(stack[-1])
        if word.startswith(b"el"):
            arms[stack[-1]] += 1
        elif word == b"endif":
            stack.pop()
    if stack or len(arms) == sum(1 for n in arms.values() if n == 1):
        return None
    # The text between two directives of conditionals with arms is kept where every enclosing
    # such conditional is in its kept arm ("keep"; "zero": in an `#if 0`; "done": past the kept arm).
    ranges, stack, at = [], [], start
    for i, (a, b, word) in enumerate(found):
        if arms[owner[i]] == 1:
            continue
        if all(s == "keep" for s in stack) and a > at:
            ranges.append((at, a))
        if word.startswith(b"if"):
            stack.append("zero" if word == b"if" and _IF_ZERO.match(data, a, b) else "keep")
        elif word.startswith(b"el"):
            stack[-1] = "keep" if stack[-1] == "zero" else "done"
        else:
            stack.pop()
        at = b
    if at < end:
        ranges.append((at, end))
    return ranges


def _ident(decl):
    while decl is not None and decl.type != "identifier":
        if decl.type in ("pointer_declarator", "array_declarator", "init_declarator", "parenthesized_declarator",
                         "attributed_declarator", "function_declarator"):
            decl = decl.child_by_field_name("declarator") or (decl.named_children[0] if decl.named_children else None)
        else:
            return None
    return decl


def _declared_name(decl) -> str:
    ident = _ident(decl)
    return text(ident) if ident is not None else ""


ONE_BYTE_TYPES = ("char", "unsignedchar", "signedchar", "uint8_t", "int8_t")
SMALL_TYPES = ("int", "short", "long", "unsignedint", "uint16_t", "uint32_t", "uint64_t", "int32_t", "int16_t")


def _size(low, node) -> str:
    """How many bytes a count argument says, when it says (1, a small constant, sizeof a scalar)."""
    if node.type == "number_literal":
        return count_size(int_literal(text(node)))
    if node.type == "sizeof_expression":
        inner = compact(node).replace("sizeof", "", 1).strip("()")
        pointed = inner.startswith("*")  # `sizeof *hdr`: the type hdr points to
        declared = low.types.get(inner.lstrip("*"), inner)
        if pointed and declared.endswith("*"):
            declared = declared[:-1]
        if declared in ONE_BYTE_TYPES:
            return ONE
        # A scalar, or one struct (a protocol header, a record): not an array of them.
        if declared in SMALL_TYPES or declared.startswith(("struct", "union")) and declared.isidentifier():
            return SMALL
    return UNKNOWN
