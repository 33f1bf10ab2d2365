"""Python: the socket module, ssl, and makefile() streams."""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass, replace
from functools import cached_property, lru_cache

from .base import (NO_VALUE, NOT_CONN, Const, Fresh, Frontend, Handle, Lowering, Obj, Pair, Received, Sent, Watched,
                   _unwrapped, compact, compared, count_size, descendants, int_literal, named_option, per_file, seconds, raw, text)
from .catalogue import FULL_SIZE
from .python_catalogue import PYTHON
from .python_scan import class_end, class_statements, generators, line_led, named_fields
from ..model import KEPT, MADE_BY, ONE, SMALL, UNKNOWN, Bind, If, Pause, Recv, lineage, walk



class PythonFrontend(Frontend):
    name = "python"
    catalogue = PYTHON
    unpacking_types = frozenset({"list_splat", "dictionary_splat"})
    grammar_package = "tree_sitter_python"
    line_comment = "#"
    builtins = frozenset(dir(__import__("builtins")))
    idioms = {
        "join": "sock.sendall(head + body)",
        "gather": "sock.sendmsg([head, body])",
        "buffer": "a sock.makefile('wb') writer",
        "cork": "socket.MSG_MORE on all but the last piece",
        "nodelay-default": "asyncio sets it on its TCP transports",
    }
    binding_declares = True
    used_conns_passed = True
    call_types = frozenset({"call"})
    null_types = frozenset({"none"})
    negation = ("not_operator", "argument")
    skip_types = frozenset({"function_definition", "class_definition", "decorated_definition", "lambda"})
    wrapper_types = frozenset({"parenthesized_expression", "await"})
    tuple_types = frozenset({"pattern_list", "tuple_pattern", "tuple", "list_pattern"})
    option_row_types = frozenset({"tuple"})


    # -- functions ---------------------------------------------------------

    def functions(self, root):
        yield "<module>", root, None
        found = list(self._defs(root, "", None))
        yield from found
        yield from _inherited(found)

    def _defs(self, node, prefix, cls):
        for child in node.named_children:
            target = child.child_by_field_name("definition") if child.type == "decorated_definition" else child
            if target is None:
                continue
            if target.type == "function_definition":
                name = prefix + text(target.child_by_field_name("name"))
                yield name, target, cls
                body = target.child_by_field_name("body")
                if body is not None and (b"def" in (held := raw(body)) or b"class" in held):  # most hold no definition
                    yield from self._defs(body, name + ".", None)
            elif target.type == "class_definition":
                name = prefix + text(target.child_by_field_name("name"))
                yield from self._defs(target.child_by_field_name("body"), name + ".", name)
            elif target.type in ("if_statement", "try_statement", "block", "else_clause", "elif_clause",
                                 "except_clause", "finally_clause", "with_statement"):
                yield from self._defs(target, prefix, cls)

    def body(self, unit, node):
        return node if node.type == "module" else node.child_by_field_name("body")

    def declare_params(self, low: Lowering, node):
        if node.type == "module":
            return ()
        params = node.child_by_field_name("parameters")
        keys = []
        for p in params.named_children if params is not None else ():
            name_node = p if p.type == "identifier" else (p.child_by_field_name("name") or (p.named_children[0] if p.named_children else None))
            if name_node is None or name_node.type != "identifier":
                keys.append(None)
                continue
            name = text(name_node)
            low.params.add(name)
            keys.append(name)
            annotation = compact(p.child_by_field_name("type"))
            default = compact(p.child_by_field_name("value"))
            truth = _truth_of_literal(default)
            if truth is not None:
                low.defaults[name] = truth
            if default in self.catalogue.descriptor_calls:  # write=os.write: called as os.write, unless a caller says
                low.env[name] = _Taken(default)
            if annotation in self.catalogue.socket_types:
                low.conns[name] = _info(name, True, "high", "param")
                low.env[name] = Handle(name)
        if low.cls is not None and keys and keys[0] in ("self", "cls"):
            keys = keys[1:]
            self._framework_fields(low, node)
        if node.type == "function_definition" and text(node.child_by_field_name("name")) in _stream_callbacks(low.unit):
            self._asyncio_stream_params(low, node, keys)
        return tuple(keys)

    def _framework_fields(self, low: Lowering, node) -> None:
        """What a framework base class gives a method: socketserver's request and
        wfile, an asyncio protocol's transport (with the read it was called for)."""
        cls_node = node.parent
        while cls_node is not None and cls_node.type != "class_definition":
            cls_node = cls_node.parent
        if cls_node is None:
            return
        bases = text(cls_node.child_by_field_name("superclasses"))
        body = text(cls_node)
        if "RequestHandler" in bases and "Datagram" not in bases:
            m = re.search(r"^[ \t]*wbufsize[ \t]*=[ \t]*(-?\d+)", body, re.M)
            buffered = m is not None and m.group(1) != "0"
            low.conns.setdefault("self.request", _info("self.request", None, "medium", "field"))
            low.env["self.request"] = Handle("self.request")
            low.env["self.wfile"] = Handle("self.request", buffered=buffered)
            low.env["self.rfile"] = Handle("self.request")
            if self._answers_a_request(low.unit, low.qualname):
                low.recv(Handle("self.request"), node.child_by_field_name("name"))  # the request it answers
        elif (proto := self._protocol_of(low, body)) is not None:
            key = proto.field
            low.conns.setdefault(key, _info(key, None, "medium", "field", nodelay=proto.nodelay, held=proto.buffered))
            low.env[key] = Handle(key, buffered=proto.buffered)
            if text(node.child_by_field_name("name")) in proto.reads:
                low.recv(Handle(key), node.child_by_field_name("name"))

    def _protocol_of(self, low: Lowering, body: str):
        """The framework protocol (see `catalogue.FrameworkProtocol`) whose class `body` is, if any."""
        return next((p for p in self.catalogue.protocols
                     if all(f"def {m}" in body for m in p.marks)
                     and (p.module is None or p.module.encode() in low.unit.src.data)), None)

    def defined_under_condition(self, node) -> bool:
        scope = node.parent
        while scope is not None and scope.type not in _SCOPE_ENDS:
            if scope.type in _CONDITIONS:
                return True
            scope = scope.parent
        return False

    def is_callback(self, qualname: str, unit=None) -> bool:
        return super().is_callback(qualname, unit) or unit is not None and self._answers_a_request(unit, qualname)

    @staticmethod
    def _answers_a_request(unit, qualname: str) -> bool:
        """Whether the function is a method a framework calls for each request it reads on a
        connection it keeps for the next one (`do_GET` of an HTTP/1.1 handler): it runs
        between two reads."""
        cls, _, name = qualname.rpartition(".")
        library, keeps_alive = _request_handlers(unit).get(cls, (None, False))
        return keeps_alive and bool(library.requests) and name.startswith(library.requests)

    def _asyncio_stream_params(self, low: Lowering, node, keys) -> None:
        """`async def handle(reader, writer)` given to asyncio.start_server: one TCP stream."""
        if len(keys) < 2 or keys[0] is None or keys[1] is None:
            return
        conn = keys[1]
        low.conns[conn] = _info(conn, True, "high", "param", nodelay=True)
        low.env[keys[0]] = Handle(conn)
        low.env[conn] = Handle(conn)

    # -- statements --------------------------------------------------------

    def _if(self, low: Lowering, node) -> None:
        branches = [(node.child_by_field_name("condition"), node.child_by_field_name("consequence"))]
        for alt in node.children_by_field_name("alternative"):
            if alt.type == "elif_clause":
                branches.append((alt.child_by_field_name("condition"), alt.child_by_field_name("consequence")))
            else:
                branches.append((None, alt.child_by_field_name("body")))
        if len(branches) == 1 and _flushes_when_full(node, low.unit):
            # A hand-written buffer's flush on overflow: it sends FULL_SIZE bytes or more,
            # full-size segments acknowledged at once, so nothing sent waits for a delayed ACK.
            low.expr(branches[0][0])
            low.emit(If((low.block_of(branches[0][1]) + (Pause(low.site(node)),),), False, low.site(node)))
            return
        low.if_chain(node, branches)
        if len(branches) == 1 and _lets_large_through(node, low.unit):
            # What follows runs only for a message of FULL_SIZE bytes or more: full-size
            # segments, acknowledged at once, so nothing sent before waits for a delayed ACK.
            low.pause(node, None)

    def _for(self, low: Lowering, node) -> None:
        right = node.child_by_field_name("right")
        iterable = low.expr(right)
        low.loop(node, body=node.child_by_field_name("body"), targets=(node.child_by_field_name("left"),),
                 reads=(iterable,) if isinstance(iterable, Handle) else (), over=(right,),
                 element_size=_element_size(right, iterable, low))
        self._else(low, node)

    def _while(self, low: Lowering, node) -> None:
        cond = node.child_by_field_name("condition")
        low.loop(node, (cond,), node.child_by_field_name("body"), infinite=text(cond) in ("True", "1"))
        self._else(low, node)

    def _try(self, low: Lowering, node) -> None:
        handlers, broken, orelse, final = [], [], None, None
        for c in node.named_children:
            if c.type in ("except_clause", "except_group_clause"):
                handlers.append(next((b for b in c.named_children if b.type == "block"), None))
                broken.append(self._catches_failure(c))
            elif c.type == "else_clause":
                orelse = c.child_by_field_name("body")
            elif c.type == "finally_clause":
                final = next((b for b in c.named_children if b.type == "block"), None)
        low.try_(node, node.child_by_field_name("body"), handlers, orelse, final, broken=tuple(broken))

    def _catches_failure(self, clause) -> bool:
        """Whether an except clause names a failure of a read or a write (`OSError`)."""
        caught = next((c for c in clause.named_children if c.type != "block"), None)
        if caught is not None and caught.type == "as_pattern":
            caught = caught.named_children[0] if caught.named_children else None
        names = _DOTTED.findall(text(caught)) if caught is not None else ()
        return any(n in self.catalogue.connection_failures for n in names)

    def _match(self, low: Lowering, node) -> None:
        cases = [c for c in node.child_by_field_name("body").named_children if c.type == "case_clause"]
        low.expr(node.child_by_field_name("subject"))
        exhaustive = any(compact(c.named_children[0]) in ("_", "") for c in cases if c.named_children)
        low.switch(node, [[c.child_by_field_name("consequence")] for c in cases], exhaustive, fallthrough=False)

    def _jump(self, low: Lowering, node) -> None:
        """return, raise (with their value), break, continue."""
        kind = node.type.split("_")[0]
        value = node.named_children[0] if kind in ("return", "raise") and node.named_children else None
        low.jump(kind, node, value)

    def _not_local(self, low: Lowering, node) -> None:
        low.not_local.update(text(n) for n in node.named_children if n.type == "identifier")

    def _else(self, low, node):
        alt = node.child_by_field_name("alternative")
        if alt is not None:
            low.stmt(alt.child_by_field_name("body"))

    def _with(self, low: Lowering, node):
        opened = []
        for clause in node.named_children:
            if clause.type != "with_clause":
                continue
            for item in clause.named_children:
                value = item.child_by_field_name("value")
                if value is not None and value.type == "as_pattern":
                    v = low.expr(value.named_children[0])
                    alias = value.child_by_field_name("alias")
                    target = alias.named_children[0] if alias is not None and alias.named_children else alias
                    low.bind_target(target, v)
                    v = low.env.get(compact(target)) if target is not None else v
                else:
                    v = low.expr(value)
                if isinstance(v, Handle):
                    opened.append(v)
        low.stmt(node.child_by_field_name("body"))
        for h in reversed(opened):  # leaving the block closes: a buffered writer flushes, a socket closes
            if h.buffered:
                low.flush(h, node)
            else:
                low.push(h, node)

    # -- expressions -------------------------------------------------------

    def _name_value(self, low: Lowering, node):
        return low.env.get(text(node))

    def _attribute_value(self, low: Lowering, node):
        """`a.b`: what the name holds; a connection's send taken as a value
        and passed on (`relay(sock.sendall)`) is that connection, for the
        callee that calls it."""
        v = low.env.get(compact(node))  # a name holds no blank
        if v is not None:
            return v
        if text(node.child_by_field_name("attribute")) in self._passable:
            bound = self._bound(low, node)
            if bound is not None and not bound.handle.buffered:
                return Handle(bound.handle.key)
        low.expr(node.child_by_field_name("object"))
        return NO_VALUE

    def _assignment_value(self, low: Lowering, node):
        right, left = node.child_by_field_name("right"), node.child_by_field_name("left")
        v = self._bound(low, right) if right is not None and right.type == "attribute" else None
        v = self._function_value(low, right) if v is None and right is not None and right.type == "identifier" else v
        v = low.expr(right) if v is None else v
        if (v is None or v is NO_VALUE) and right is not None:
            v = low.from_read(right) or v
        if right is not None:
            if v is None and right.type == "identifier" and left.type == "attribute":
                low.field_alias(compact(left), text(right))
            low.bind_target(left, v)
            if right.type == "none":
                low.drop(left)
            if left.type == "identifier" and (size := _size(right, low)) != UNKNOWN:
                low.sizes[text(left)] = size
        return NO_VALUE if v is None else v

    def _named_value(self, low: Lowering, node):
        v = low.expr(node.child_by_field_name("value"))
        low.bind_target(node.child_by_field_name("name"), v)
        return NO_VALUE if v is None else v

    def _conditional_value(self, low: Lowering, node):
        if len(node.named_children) != 3:
            return None
        then, cond, other = node.named_children  # `then if cond else other`
        return low.alternatives(node, cond, (then, other))

    def _boolean_value(self, low: Lowering, node):
        return low.short_circuit(node, node.child_by_field_name("left"), node.child_by_field_name("right"),
                                 holds_when_skipped=text(node.child_by_field_name("operator")) == "or")

    @cached_property
    def _passable(self) -> frozenset[str]:
        """The sends a callee given one as a value (`relay(sock.sendall)`) sends by calling it."""
        return frozenset(m for m in self.catalogue.sends | self.catalogue.stream_writes
                         if self._events.get(m) == self._send)

    def _bound(self, low: Lowering, node):
        """`self.sock.sendall` taken as a value (`self._write = self.sock.sendall`):
        the connection's method, to be called later by the name it is kept in."""
        meth = text(node.child_by_field_name("attribute"))
        if meth not in self._events or meth in self.catalogue.option_setters:
            return None
        obj = node.child_by_field_name("object")
        if meth in self.on_connection:  # as `_on_connection` takes the call's receiver
            h = low.conn_for(obj, "medium" if meth in self.catalogue.socket_only else "low")
        else:
            h = low.expr(obj)
        return _Bound(h, meth) if isinstance(h, Handle) else None

    def _call_bound(self, low, node, bound, args, kwargs):
        """A call of a connection's method kept in a name or a field."""
        _eval_all(low, args, kwargs)
        self._events[bound.meth](low, node, bound.handle, bound.meth, args, kwargs)

    def call(self, low: Lowering, node):
        func = node.child_by_field_name("function")
        every = low.args(node.child_by_field_name("arguments"))
        args = [a for a in every if a.type != "keyword_argument"]
        kwargs = {text(a.child_by_field_name("name")): a.child_by_field_name("value")
                  for a in every if a.type == "keyword_argument"}
        if func.type == "identifier":
            return self._plain_call(low, node, text(func), args, kwargs)
        if func.type == "attribute":
            return self._method_call(low, node, func, args, kwargs)
        low.expr(func)
        low.evaluate(every)
        return None

    def _method_call(self, low, node, func, args, kwargs):
        """`receiver.meth(...)`: a maker or a call of a module, one of the
        class's own methods, a library's, or a call on a connection."""
        obj, meth = func.child_by_field_name("object"), text(func.child_by_field_name("attribute"))
        dotted, receiver = compact(func), compact(obj)
        cat = self.catalogue
        if meth in cat.tcp_makers and (receiver == "socket" or _module_like(low, receiver) and (
                _module_aliases(low.unit).get(receiver, "").rsplit(".", 1)[-1] in cat.socket_modules)):
            return self._create(low, meth, args, kwargs)
        if meth in cat.not_tcp and _module_like(low, receiver) or self._no_connection(low, obj):
            _eval_all(low, args, kwargs)
            return NOT_CONN
        if isinstance(bound := low.env.get(dotted), _Bound):  # self._write(...) after self._write = sock.sendall
            return self._call_bound(low, node, bound, args, kwargs)
        if low.cls and (inherited := self._base_method(low, obj, meth, args)) is not None:
            # On the object itself: a constructor keeping a connection in a field keeps it in self's.
            return low.local_call(inherited, args[1:] if obj.type != "call" else args, node, receiver="self",
                                  named=kwargs)
        by_callee = self._callees.get(dotted)
        if by_callee is not None:
            return by_callee(low, node, dotted, args, kwargs)
        if receiver in ("self", "cls") and low.cls and (own := _method_of(low.unit, low.cls, meth)):
            return self._local_call(low, node, own, args, kwargs)
        library = self._library_of(low, receiver, meth)
        if library is not None:
            return self._library_call(low, node, library, obj, meth, args, kwargs)
        return self._on_value(low, node, obj, meth, args, kwargs)

    def _on_value(self, low, node, obj, meth: str, args, kwargs):
        """`receiver.meth(...)` on a value no catalogue names: an object of a class, a wrapper
        of the same connection, a class of a module, a kept field's, or a connection's own."""
        receiver, cat = compact(obj), self.catalogue
        target = low.env.get(receiver)
        if isinstance(target, Obj):  # a method of a class that may be defined in a linted file
            return low.outside_call(f"{target.cls}.{meth}", args, node, receiver=receiver, named=kwargs)
        if cat.wrappers.get(meth, True) is False:  # ssl's wrap_socket(sock): the same connection
            return self._same_connection(low, node, meth, args, kwargs)
        if meth[:1].isupper() and _module_like(low, receiver) and receiver in _module_aliases(low.unit):
            return self._module_class(low, node, receiver, meth, args, kwargs)
        if self._on_kept(low, target, receiver, meth):  # `self.dest.write_frame(x)`: see `KEPT`
            return low.outside_call(f"{low.cls}{KEPT}{receiver}{KEPT}{meth}", args, node, receiver=receiver,
                                    named=kwargs)
        return self._on_connection(low, node, obj, meth, args, kwargs)

    def _module_class(self, low, node, receiver: str, cls: str, args, kwargs):
        """`mod.Cls(...)`: what `Cls(...)` imported from the module is, a class by convention (a
        sans-I/O protocol's `socks5.Connection()`, whose send() returns bytes, is no connection)."""
        known = self._catalogue_call(low, node, _module_aliases(low.unit)[receiver], cls, args, kwargs)
        if known is not _UNKNOWN:
            return known
        return low.construct(cls, args, node, _method_of(low.unit, cls, "__init__") or f"{cls}.__init__", named=kwargs)

    def _on_kept(self, low, target, receiver: str, meth: str) -> bool:
        """Whether a method called on `receiver` (of no value known here: `target`) is no
        connection's own, on a field the class keeps from a parameter (an object a caller gives)."""
        return target is None and bool(low.cls) and meth not in self._events and receiver.startswith("self.") \
            and meth not in self.catalogue.wrappers and receiver[5:] in _kept_fields(low.unit)

    def _no_connection(self, low, obj) -> bool:
        """Whether a method called on `obj` is one of something that is no
        connection, nor makes one: a module of message APIs
        (`websocket.create_connection(url)`), or, through a chain of calls,
        an object known to be none (`client.get_transport().open_session()`
        of a paramiko client, `ws.recv()` of a websocket's)."""
        while obj.type == "call" or obj.type == "attribute" and low.env.get(compact(obj)) is None:
            obj = obj.child_by_field_name("function" if obj.type == "call" else "object")
            if obj is None:
                return False
        if obj.type not in ("identifier", "attribute"):
            return False
        name = compact(obj)
        if low.env.get(name) is NOT_CONN:
            return True
        module = _module_aliases(low.unit).get(name) if _module_like(low, name) else None
        return module is not None and _message_module(module, self.catalogue)

    @staticmethod
    def _base_method(low, obj, meth, args) -> str | None:
        """The base class's method a call runs on the object itself:
        `super().meth(...)`, `super(Cls, self).meth(...)` (the first base
        class of the file's that has it), or `Base.meth(self, ...)` (Base a
        base class of the file's); else None."""
        ancestors = lineage(low.unit.bases, low.cls)[1:]
        if obj.type == "call" and text(obj.child_by_field_name("function")) == "super":
            return next((f"{c}.{meth}" for c in ancestors if f"{c}.{meth}" in low.unit.function_names), None)
        if obj.type == "identifier" and args and text(args[0]) == "self":
            return next((f"{c}.{meth}" for c in ancestors
                         if c.rsplit(".", 1)[-1] == text(obj) and f"{c}.{meth}" in low.unit.function_names), None)
        return None

    @cached_property
    def _callees(self) -> dict:
        """Dotted callee -> its lowering: the library makers, the sleeps, asyncio's streams."""
        table = {"asyncio.open_connection": lambda low, node, _, args, kwargs: self._open_stream(low, node, args, kwargs),
                 "functools.partial": self._partial}
        table.update((name, self._sleep) for name in self.catalogue.sleeps)
        table.update((name, self._exit) for name in self.catalogue.exits)
        table.update((name, self._readiness_wait) for name in self.catalogue.readiness_waits)
        table.update((name, self._made_by_library) for name in self.library_makers)
        table.update((name, self._descriptor_call) for name in self.catalogue.descriptor_calls)
        return table

    def _descriptor_call(self, low, node, dotted, args, kwargs):
        """`os.write(fd, data)`, `os.read(fd, n)`: the connection's own call
        where `fd` is its descriptor (see `_descriptor`); else nothing."""
        h = self._descriptor(low, args[0]) if args and dotted.split(".", 1)[0] not in low.env else None
        _eval_all(low, args[1:], kwargs)
        if h is not None:
            meth = self.catalogue.descriptor_calls[dotted]
            self._events[meth](low, node, h, meth, args[1:], kwargs)
        return None

    def _descriptor(self, low, node):
        """The connection a descriptor is: a connection's (`sock.fileno()`,
        or a name holding it), or a parameter (what the callers pass).  A
        file's, a pipe's or one of unknown origin is none."""
        v = low.expr(node)
        if isinstance(v, Handle):
            return Handle(v.key)
        if v is None and node.type == "identifier" and text(node) in low.params:
            return low.conn_for(node)
        return None

    def _made_by_library(self, low, node, dotted, args, kwargs):
        _eval_all(low, args, kwargs)
        return Fresh(True, "high", self.library_makers[dotted].name)

    def _sleep(self, low, node, dotted, args, kwargs):
        _eval_all(low, args, kwargs)
        return low.pause(node, seconds(args[0], self.catalogue.sleeps[dotted]) if args else None)

    def _exit(self, low, node, dotted, args, kwargs):
        _eval_all(low, args, kwargs)
        return low.exit_process(node)

    def _readiness_wait(self, low, node, dotted, args, kwargs):
        """`select.select([sock], [], [], timeout)`: it waits for the peer's
        data on every connection of its read list, as a read does; with a zero
        timeout it only looks."""
        watched_at, timeout_at = self.catalogue.readiness_waits[dotted]
        values = [low.expr(a) for a in args]
        _eval_all(low, [], kwargs)
        timeout = args[timeout_at] if timeout_at < len(args) else None
        if watched_at >= len(values) or timeout is not None and text(timeout) in ("0", "0.0"):
            return None
        watched = values[watched_at]
        for key in watched.keys if isinstance(watched, Watched) else ():
            low.recv(Handle(key), node)
        return None

    def _list_value(self, low: Lowering, node):
        """A list literal naming connections already known here (`[sock]`)."""
        keys = []
        for item in node.named_children:
            v = low.expr(item)
            key = v.key if isinstance(v, Handle) else low.fe_key(item) if item.type in ("identifier", "attribute") else None
            if key is not None and key in low.conns and key not in keys:
                keys.append(key)
        return Watched(tuple(keys)) if keys else NO_VALUE

    def _same_connection(self, low, node, meth, args, kwargs):
        """A wrapper that returns the connection it is given (ssl's wrap_socket), after its handshake."""
        _eval_all(low, args[1:], {k: v for k, v in kwargs.items() if k != "sock"})
        inner = args[0] if args else kwargs.get("sock")
        h = low.conn_for(inner, "medium") if inner is not None else None
        handshake = kwargs.get("do_handshake_on_connect")
        if h is not None and meth in self.catalogue.handshakes and (handshake is None or text(handshake) != "False"):
            low.recv(h, node)
        return h

    def _on_connection(self, low, node, obj, meth, args, kwargs):
        """A call made on a connection, or on a stream over one (see `_events`)."""
        cat = self.catalogue
        if meth in self.on_connection:
            # A socket's methods are no coroutines: an awaited `x.send(m)` is a method of a class
            # of its own (a protocol's connection, a websocket), which a socket-like name does not make one.
            h = low.conn_for(obj, "medium" if meth in cat.socket_only else "low", by_name=not _awaited(node))
        else:
            v = low.expr(obj)
            h = v if isinstance(v, Handle) else None
        if meth in cat.descriptors:  # sock.fileno(): the connection, as its descriptor
            return self._descriptor(low, obj) if h is None else Handle(h.key)
        if h is None:
            _eval_all(low, args, kwargs)
            return None
        if meth in cat.accepts:
            info = low.conns.get(h.key)
            tcp = info.tcp if info else None
            return Pair((Fresh(tcp, "high" if tcp else "medium"), None))
        if meth in cat.wrappers:  # makefile(mode, buffering): buffered when it writes, unless told not to
            mode = text(args[0] if args else kwargs.get("mode")) or "r"
            buffering = args[1] if len(args) > 1 else kwargs.get("buffering")
            unbuffered = buffering is not None and text(buffering).strip() == "0"
            return Handle(h.key, buffered="w" in mode and not unbuffered)
        event = self._events.get(meth)
        if event is None and h.made_by is not None:  # `t = make(); t.write_frame(x)`: see `MADE_BY`
            return low.outside_call(h.made_by + MADE_BY + meth, args, node, receiver=h.key, named=kwargs)
        _eval_all(low, args, kwargs)
        return event(low, node, h, meth, args, kwargs) if event is not None else None

    @cached_property
    def _events(self) -> dict:
        """Method -> the event it is on a connection, by the catalogue's fields
        (a name in two fields is what the first of them says)."""
        c = self.catalogue
        table = {}
        for names, event in ((c.sends | c.stream_writes, self._send), (c.gather_sends, self._gather_send),
                             (c.file_sends, self._file_send), (c.reads | c.stream_reads, self._read),
                             (c.handshakes, self._handshake), (c.flushes, self._flush), (c.closes, self._close),
                             (c.shutdowns, self._shutdown), (c.option_setters, self._set_option)):
            for name in names:
                table.setdefault(name, event)
        return table

    def _send(self, low, node, h, meth, args, kwargs):
        low.send(h, node, _size(args[0], low) if args else UNKNOWN, more=self._more(self._flags(meth, args, kwargs)))
        if meth in self.catalogue.addressed and len(args) + len(kwargs) > 1 \
                and not any(flag in text(a) for a in args[1:-1] for flag in self.catalogue.stream_flags):
            # sent to an address (not with TCP Fast Open's flag): a datagram
            info = low.conns.get(h.key)
            # A parameter is what its callers pass, which may be TCP ported from UDP.
            if info is not None and info.tcp is None and info.origin != "param":
                low.conns[h.key] = replace(info, tcp=False, confidence="high")
        return Sent(h.key)  # a count: `sent = sock.send(data)` names what a later send's rest is of

    def _gather_send(self, low, node, h, meth, args, kwargs):
        low.send(h, node, UNKNOWN, gather=True, more=self._more(self._flags(meth, args, kwargs)))

    def _flags(self, meth, args, kwargs):
        """A socket send's flags: where the catalogue says it takes them, or as a keyword."""
        at, given_with = self.catalogue.flags_argument.get(meth, (None, None))
        return args[at] if at is not None and len(args) >= given_with else kwargs.get("flags")

    def _file_send(self, low, node, h, meth, args, kwargs):
        low.send(h, node, UNKNOWN)

    def _read(self, low, node, h, meth, args, kwargs):
        at = self.catalogue.count_argument.get(meth)
        count = args[at] if at is not None and at < len(args) else None
        low.recv(h, node, count_size(int_literal(text(count))) if count is not None and count.type == "integer" else UNKNOWN)
        return Received(h.key)

    def _handshake(self, low, node, h, meth, args, kwargs):
        low.recv(h, node)

    def _flush(self, low, node, h, meth, args, kwargs):
        low.flush(h, node)

    def _close(self, low, node, h, meth, args, kwargs):
        low.flush(h, node) if h.buffered else low.push(h, node)

    def _shutdown(self, low, node, h, meth, args, kwargs):
        low.push(h, node)

    def _set_option(self, low, node, h, meth, args, kwargs):
        if (named := named_option(meth)) is not None:  # a setter named for its option: setTcpNoDelay(on)
            if args:
                low.set_option(h, named, args[0], node)
            return
        opt = text(args[1]) if len(args) >= 3 else ""
        option = next((what for word, what in self.catalogue.options.items() if word in opt), None)
        if option:
            _class_default(low, args[2])
            low.set_option(h, option, args[2], node)
        else:  # setsockopt(*opt), setsockopt(level, name, value): a row of an option table
            low.option_table(h, *(args[1:3] if len(args) >= 3 else (None, None)), node)

    def _open_stream(self, low, node, args, kwargs):
        """asyncio.open_connection(): a (reader, writer) pair on one TCP connection, TCP_NODELAY on."""
        _eval_all(low, args, kwargs)
        parent = node.parent
        while parent is not None and parent.type in ("await", "parenthesized_expression"):
            parent = parent.parent
        target = parent.child_by_field_name("left") if parent is not None and parent.type == "assignment" else None
        names = [compact(t) for t in target.named_children] if target is not None and target.type in self.tuple_types else []
        key = names[1] if len(names) == 2 else f"stream@{node.start_point[0] + 1}"
        low.conns[key] = _info(key, True, "high", "created", nodelay=True)
        low.emit(Bind(key, low.site(node)))
        return Pair((Handle(key), Handle(key)))

    def _function_value(self, low, node, leading=()):
        """A function of the file named as a value (`reader = _readline`, the
        first argument of `partial(_readline, ...)`): calling the name it is
        kept in calls that function."""
        name = text(node)
        if node.type != "identifier" or name in low.env or name in low.params or name in low.declared:
            return None
        qualname = next((q for q in (f"{low.qualname}.{name}", name) if q in low.unit.function_names), None)
        return _Function(qualname, tuple(leading)) if qualname is not None and qualname != "<module>" else None

    def _partial(self, low, node, dotted, args, kwargs):
        """`functools.partial(f, ...)` of a function of the file: that function, its first arguments given."""
        made = self._function_value(low, args[0], args[1:]) if args else None
        _eval_all(low, args[1:], kwargs)
        return made

    def _plain_call(self, low, node, name, args, kwargs):
        if isinstance(bound := low.env.get(name), _Bound):  # write(...) after write = sock.sendall
            return self._call_bound(low, node, bound, args, kwargs)
        if isinstance(function := low.env.get(name), _Function):  # reader(sock) after reader = _readline
            return self._local_call(low, node, function.qualname, [*function.leading, *args], kwargs)
        if isinstance(taken := low.env.get(name), _Taken):
            return self._callees[taken.callee](low, node, taken.callee, args, kwargs)
        if name == "open_connection":
            return self._open_stream(low, node, args, kwargs)
        if name == "partial" and _imports(low.unit).get(name, (None,))[0] == "functools":
            return self._partial(low, node, name, args, kwargs)
        if name in low.params and name not in low.env and args and _given_sends(low.unit) \
                & {low.qualname.rsplit(".", 1)[-1]}:
            return self._passed_send(low, node, name, args, kwargs)
        # An imported name is its module's: `from websocket import create_connection` is websocket's.
        module, name = _imports(low.unit).get(name, (None, name))
        known = self._catalogue_call(low, node, module, name, args, kwargs)
        if known is not _UNKNOWN:
            return known
        for candidate in (f"{low.qualname}.{name}", name):
            if candidate in low.unit.function_names and candidate != "<module>":
                return self._local_call(low, node, candidate, args, kwargs)
        if name[:1].isupper():  # a class, by convention: its __init__ may live in another linted file
            return low.construct(name, args, node, _method_of(low.unit, name, "__init__") or f"{name}.__init__",
                                 named=kwargs)
        return low.outside_call(name, args, node, named=kwargs)

    def _catalogue_call(self, low, node, module, name, args, kwargs):
        """A plain call the catalogue knows (a maker, a message API, a sleep), or _UNKNOWN."""
        cat = self.catalogue
        if module is not None and _message_module(module, cat):
            _eval_all(low, args, kwargs)
            return NOT_CONN
        if name in cat.tcp_makers and (module is None or module.rsplit(".", 1)[-1] in cat.socket_modules):
            return self._create(low, name, args, kwargs)
        if name in self.library_makers:
            _eval_all(low, args, kwargs)
            return Fresh(True, "high", self.library_makers[name].name)
        if name in cat.not_tcp:
            _eval_all(low, args, kwargs)
            return NOT_CONN
        if name in cat.sleeps and name not in low.unit.function_names:  # from time import sleep
            _eval_all(low, args, kwargs)
            return low.pause(node, seconds(args[0], cat.sleeps[name]) if args else None)
        if (f"{module}.{name}" if module else name) in cat.exits \
                and name not in low.unit.function_names:  # the builtin exit(), from sys import exit
            _eval_all(low, args, kwargs)
            return low.exit_process(node)
        if f"{module}.{name}" in cat.readiness_waits:  # from select import select
            return self._readiness_wait(low, node, f"{module}.{name}", args, kwargs)
        return _UNKNOWN

    def _passed_send(self, low, node, name, args, kwargs):
        """A parameter called with a payload (`write(data)` in `def relay(write,
        data)`), in a function the file passes a connection's send to
        (`relay(sock.sendall, data)`): a send on the connection of the
        callers that pass one, and nothing where a caller passes anything
        else (see `Send` events on a "passed" key in checks/flow.py)."""
        _eval_all(low, args, kwargs)
        low.conns[name] = _info(name, None, "low", "passed")
        self._send(low, node, Handle(name), "send", args, kwargs)
        return None

    def _local_call(self, low, node, qualname, args, kwargs):
        """A call of a function of the file; a generator's body runs only when
        it is iterated or sent to, and its send() is no socket's."""
        if qualname in _generators(low.unit):
            _eval_all(low, args, kwargs)
            return NOT_CONN
        return low.local_call(qualname, args, node, named=kwargs)

    # (operator, constant) -> whether the connection exists where the comparison holds
    EXISTS = {("is not", "None"): True, ("!=", "None"): True, ("is", "None"): False, ("==", "None"): False}

    def tests_failure(self, cond) -> bool:
        """`not data`: what a read gave is empty, the peer closed (sends raise instead)."""
        cond = _unwrapped(cond)
        return cond.type == "not_operator" and cond.child_by_field_name("argument") is not None \
            and cond.child_by_field_name("argument").type in ("identifier", "attribute")

    def names_in(self, cond) -> list[str]:
        # Blanks kept: `not data` is no name `notdata`.
        return _DOTTED.findall(text(cond))

    def existence_test(self, cond, low=None):
        """`sock is not None`, `sock is None`, `sock`, `not sock`."""
        present = True
        if cond.type == "not_operator":
            cond, present = cond.child_by_field_name("argument"), False
        elif cond.type == "comparison_operator":
            return compared(cond, self.EXISTS)
        return (cond, present) if cond is not None and cond.type in ("identifier", "attribute") else None

    def param_test(self, low, cond):
        """`if noreply:`, `if not noreply:`, `if noreply is None:` on a parameter never rebound."""
        while cond is not None and cond.type == "parenthesized_expression" and cond.named_child_count == 1:
            cond = cond.named_children[0]
        if cond is None:
            return None
        truth = True
        if cond.type == "not_operator":
            cond, truth = cond.child_by_field_name("argument"), False
        elif cond.type == "comparison_operator" and cond.named_child_count == 2 and \
                [text(c) for c in cond.children[1:-1]] == ["is"] and cond.named_children[1].type == "none":
            cond, truth = cond.named_children[0], None
        if cond is None or cond.type != "identifier" or text(cond) not in low.params:
            return None
        name = text(cond)
        return (name, truth) if name in low.steady() else None

    def steady_params(self, low, node):
        """The parameters never assigned to, or given a value only where they
        are None (`if noreply is None: noreply = self.default_noreply`)."""
        rebound, body = set(), node.child_by_field_name("body")
        for n in descendants(body, into=lambda n: n.type not in _SCOPES) if body is not None else ():
            if n.type in _BINDING_TYPES:
                field = _BINDING_TYPES[n.type]
                names = {text(c) for c in _target_names(n.child_by_field_name(field) if field else n)}
                rebound |= {name for name in names & low.params if not _defaulted_where_none(n, name)}
        return frozenset(low.params - rebound)

    def _create(self, low, name, args, kwargs):
        _eval_all(low, args, kwargs)
        cat = self.catalogue
        at = cat.kind_arguments.get(name)
        if at is not None:  # a family and a type, as arguments or keywords
            given = [args[i] if i < len(args) else None for i in at] + [kwargs.get("family"), kwargs.get("type")]
            spec = " ".join(text(n) for n in given if n is not None)
            if any(f in spec for f in cat.no_nagle_words):
                return Fresh(False, "high")
            if spec and not all(w in cat.plain_tcp_words for w in _names(spec)):
                return Fresh(None, "medium")
        return Fresh(True, "high")

    def read_paths(self, data: bytes, functions) -> frozenset[str]:
        """Fields holding a connection (`self.sock`) that a call of the file named like a read
        takes (`self.sock.recv(4096)`, in a method lowered or not), or that a lowered method
        reads through a reader over it (`self.rfile.readline()`): the class reads the peer's
        answers there, so a method ending with a split on it leaves the peer a message to answer."""
        found = {ev.conn for fn in functions for ev in walk(fn.body)
                 if isinstance(ev, Recv) and ev.conn.startswith("self.")}
        for path in {k for fn in functions for k in fn.conns if k.startswith("self.")}:
            word = path.encode()
            at = data.find(word)
            while at >= 0 and path not in found:
                end = at + len(word)
                if not (data[at - 1:at].isalnum() or data[at - 1:at] in b"_.") \
                        and self.scan.read_calls.match(data, end) is not None:
                    found.add(path)
                at = data.find(word, end)
        return frozenset(found)

    def made_as(self, low, key: str) -> bool | None:
        """A module global (a name the function neither binds nor takes) is
        what the module makes it as, where every assignment of it at the
        module's top level makes one kind."""
        if not key.isidentifier() or key in low.declared or key in low.params:
            return None
        return _made_in_module(low.unit).get(key)

    def text_facts(self, unit) -> tuple:
        return super().text_facts(unit) + (
            tuple(sorted(_made_in_module(unit).items())),
            frozenset(_stream_callbacks(unit)), frozenset(_generators(unit)), frozenset(_given_sends(unit)),
            tuple(sorted(_large_constants(unit.src.data).items())),
            tuple(sorted(_library_receivers(unit, self.catalogue.libraries).items())),
            tuple(sorted(_module_structs(unit).items())), tuple(sorted(_module_aliases(unit).items())))

    @cached_property
    def library_makers(self) -> dict:
        """Call as written -> the library whose connection it makes."""
        return {m: lib for lib in self.catalogue.libraries for m in lib.makers}

    def _library_of(self, low, receiver: str, meth: str):
        """The library whose method `receiver.meth(...)` is: the receiver is one
        of its objects (made by it, or a method only it has is called on that
        name in the file), and the library has the method."""
        libraries = self.catalogue.libraries
        if not libraries or not any(meth in lib.methods for lib in libraries):
            return None
        if receiver == "self" and low.cls:  # a framework's handler: its inherited methods
            handler = _request_handlers(low.unit).get(low.cls)
            return handler[0] if handler is not None and meth in handler[0].methods else None
        v = low.env.get(receiver)
        name = v.library if isinstance(v, Handle) and v.library else None
        if name is None and v is not NOT_CONN:  # a value of unknown kind (a factory's result): the methods called on it
            name = _library_receivers(low.unit, libraries).get(receiver)
        return next((lib for lib in libraries if lib.name == name and meth in lib.methods), None)

    def _library_call(self, low, node, library, obj, meth, args, kwargs):
        """A library method's steps on its connection (see `catalogue.Step`)."""
        _eval_all(low, args, kwargs)
        h = self._library_connection(low, obj, library)
        if h is None:
            return None
        for step in library.methods[meth]:
            given = _step_argument(step, args, kwargs)
            if given is not _ABSENT:
                _STEPS[step.event](low, node, h, step, given)
        return None

    def _library_connection(self, low, obj, library):
        """The connection of the library object `obj`, as sure as its methods
        make it, with TCP_NODELAY where the file's own subclass turns it on."""
        if library.through is not None and compact(obj) == "self":
            through = low.env.get(library.through)  # the field the framework fills (see `_framework_fields`)
            return through if isinstance(through, Handle) else None
        made = low.env.get(compact(obj))
        h = low.conn_for(obj, "medium")
        info = low.conns.get(h.key) if h is not None else None
        if info is None:
            return h
        if info.confidence == "low":  # a factory's result answering the library's methods
            info = low.conns[h.key] = replace(info, tcp=True if info.tcp is None else info.tcp, confidence="medium")
        if not (isinstance(made, Handle) and made.library) \
                and library.name in _nodelay_subclasses(low.unit, self.catalogue.libraries):
            # Not made in sight (a pool's, a factory's): in a file that makes the library's
            # connections with a class of its own turning TCP_NODELAY on, one of those.
            low.conns[h.key] = replace(info, nodelay=True)
        return h

    def _more(self, flags) -> bool:
        return flags is not None and any(f in text(flags) for f in self.catalogue.more_flags)

    @cached_property
    def on_connection(self) -> frozenset[str]:
        """Calls made on the connection itself (not on a stream over it)."""
        c = self.catalogue
        return c.all_sends | c.reads | c.socket_only | c.accepts | c.closes | c.handshakes

    def render(self, data: bytes, proposals) -> list:
        """Each proposed fix as edits of the file (see fixes.py), or None."""
        from .python_render import render

        return render(self, data, proposals)


def _awaited(node) -> bool:
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    return parent is not None and parent.type == "await"


@dataclass(frozen=True)
class _Bound:
    """A connection's method taken as a value: calling it is that method's call on the connection."""

    handle: Handle
    meth: str


@dataclass(frozen=True)
class _Function:
    """A function of the file taken as a value (`reader = _readline`), with the
    arguments a `partial` gives it first."""

    qualname: str
    leading: tuple = ()


@dataclass(frozen=True)
class _Taken:
    """A function of the catalogue taken as a value (`write=os.write`): calling it is calling that function."""

    callee: str


_ABSENT = object()
_UNKNOWN = object()  # a call the catalogue does not know (see `_catalogue_call`)


def _step_argument(step, args, kwargs):
    """The argument a library step depends on (see `catalogue.Step`): None
    for a step that always happens, `_ABSENT` when the argument is not given
    or is a literal None (`**kw` may hold any keyword: given)."""
    if step.arg is None and step.keyword is None:
        return None
    given = args[step.arg] if step.arg is not None and step.arg < len(args) \
        and args[step.arg].type not in ("list_splat", "dictionary_splat") else kwargs.get(step.keyword)
    if given is None:
        return None if any(a.type == "dictionary_splat" for a in args) else _ABSENT
    return _ABSENT if given.type == "none" else given


def _step_send(low, node, h, step, given):
    # A body after the headers: at the argument sent (or the argument list), not the flush's place.
    at = node if step.arg is None and step.keyword is None else given or node.child_by_field_name("arguments")
    low.send(h, at, UNKNOWN)


# Library step -> its lowering on the connection `h`.
_STEPS = {
    "buffer": lambda low, node, h, step, given: low.send(Handle(h.key, buffered=True), node, UNKNOWN),
    "flush": lambda low, node, h, step, given: low.flush(h, node),
    "send": _step_send,
    "read": lambda low, node, h, step, given: low.recv(h, node),
}


PythonFrontend.VALUES = {
    "identifier": PythonFrontend._name_value,
    "attribute": PythonFrontend._attribute_value,
    "integer": lambda fe, low, node: Const(n) if (n := int_literal(text(node))) is not None else None,
    **dict.fromkeys(("true", "false"), Frontend._truth),
    "string": Frontend._text,
    "assignment": PythonFrontend._assignment_value,
    "named_expression": PythonFrontend._named_value,
    "conditional_expression": PythonFrontend._conditional_value,
    "boolean_operator": PythonFrontend._boolean_value,
    "list": PythonFrontend._list_value,
}
PythonFrontend.STATEMENTS = {
    # Definitions (lowered on their own), and statements without events.
    **dict.fromkeys(PythonFrontend.skip_types | {"pass_statement", "import_statement", "import_from_statement",
                                                 "comment", "future_import_statement"}, Frontend._nothing),
    **dict.fromkeys(("module", "block"), Frontend._children),
    "if_statement": PythonFrontend._if,
    "for_statement": PythonFrontend._for,
    "while_statement": PythonFrontend._while,
    "try_statement": PythonFrontend._try,
    "with_statement": PythonFrontend._with,
    "match_statement": PythonFrontend._match,
    "return_statement": PythonFrontend._jump,
    "raise_statement": PythonFrontend._jump,
    "break_statement": PythonFrontend._jump,
    "continue_statement": PythonFrontend._jump,
    "global_statement": PythonFrontend._not_local,
    "nonlocal_statement": PythonFrontend._not_local,
}


def _class_default(low, value) -> None:
    """`self.tcp_nodelay` as an option's value, where the class (or a base
    class of the file) says `tcp_nodelay = 1` and no method assigns it: the
    code's own default, not a user's choice (a subclass may change it, but
    every connection has it unless one does). Known so, the value is judged
    as the literal it is."""
    if value is None or value.type != "attribute" or low.cls is None or low.env.get(compact(value)) is not None:
        return
    receiver, name = text(value.child_by_field_name("object")), text(value.child_by_field_name("attribute"))
    if receiver not in ("self", "cls"):
        return
    data, lineage_of = low.unit.src.data, lineage(low.unit.bases, low.cls)
    heads = (re.search(rb"(?m)^[ \t]*class[ \t]+%s\b" % re.escape(c.rsplit(".", 1)[-1].encode()), data) for c in lineage_of)
    spans = [(m.start(), class_end(data, m.start())) for m in heads if m is not None]
    assigned = re.compile(rb"\b(?:self|cls)\.%s[ \t]*=(?!=)" % re.escape(name.encode()))
    if any(assigned.search(data, a, b) for a, b in spans):
        return
    default = re.compile(rb"\n[ \t]+%s[ \t]*=[ \t]*(True|False|\d+)[ \t]*(?:#[^\n]*)?(?=\n)" % re.escape(name.encode()))
    found = next((m for a, b in spans if (m := default.search(data, a, b))), None)
    if found is not None:
        literal = found.group(1)
        low.env[compact(value)] = Const(literal == b"True" or literal.isdigit() and int(literal) != 0)


@per_file
def _kept_fields(unit) -> frozenset:
    """The fields that may keep what a parameter gives (`self.dest = dest`), in any class of
    the file (the project tells which class keeps what, see `Function.field_params`)."""
    return frozenset(named_fields(unit.src.data))


def _inherited(found):
    """The methods a class of the file inherits from its base classes in the
    file, lowered again as the class's own (`Sub.write_buffer`) where the class
    overrides a method they call on self: in the subclass, `self.write(...)`
    in a base class's method is the subclass's write (a socket's send where
    the base class only fills a buffer)."""
    methods, holders = _methods_by_class(found)
    by_name = {c.rsplit(".", 1)[-1]: c for c in methods}
    bases = {c: [by_name[b] for b in _base_names(h) if b in by_name and by_name[b] != c]
             for c, h in holders.items() if h is not None}
    for cls, own in methods.items():
        ancestors = [methods.get(base, {}) for base in lineage(bases, cls)[1:]]
        inherited: dict[str, object] = {}
        for theirs in ancestors:
            for name, node in theirs.items():
                if name not in own:
                    inherited.setdefault(name, node)
        overridden = [name for name in own if any(name in theirs for theirs in ancestors)]
        if overridden and _call_self(inherited.values(), overridden):
            yield from ((f"{cls}.{name}", node, cls) for name, node in inherited.items())


def _methods_by_class(found):
    """(class -> method name -> its node, class -> its class_definition node)
    of the classes of `found` (their own methods, not the functions nested in them)."""
    methods: dict[str, dict] = {}
    holders = {}
    for q, node, cls in found:
        if cls is not None and q.startswith(cls + ".") and "." not in q[len(cls) + 1:]:
            methods.setdefault(cls, {})[q[len(cls) + 1:]] = node
            holder = node.parent
            while holder is not None and holder.type != "class_definition":
                holder = holder.parent
            holders.setdefault(cls, holder)
    return methods, holders


def _call_self(nodes, names) -> bool:
    """Whether one of the functions `nodes` calls one of `names` on self."""
    calls = re.compile(r"\bself\.(?:%s)\s*\(" % "|".join(map(re.escape, names)))
    return any(calls.search(text(node)) for node in nodes)


def _base_names(class_node):
    """The names of a class statement's base classes, as written (a dotted one by its last name)."""
    supers = class_node.child_by_field_name("superclasses")
    return [text(b).rsplit(".", 1)[-1] for b in supers.named_children if b.type in ("identifier", "attribute")] \
        if supers is not None else []


def _names(spec: str):
    import re

    return [w for w in re.findall(r"[A-Z][A-Z0-9_]+", spec)]


def _truth_of_literal(source: str) -> bool | None:
    """The truth of a default written as a bool or an integer; None for any
    other (a None default is not known: the body may give it a value)."""
    if source in ("True", "False"):
        return source == "True"
    number = int_literal(source)
    return None if number is None else number != 0


# A definition under one of these runs where a condition holds (an `if` arm, a `try` or its
# handler, a `case`); the search for one stops at the function or module it is defined in.
_CONDITIONS = frozenset({"if_statement", "try_statement", "match_statement"})
_SCOPE_ENDS = frozenset({"function_definition", "module"})
_SCOPES = ("function_definition", "class_definition", "lambda")  # a name bound there is another scope's

# The statements that bind a name, and the field holding what they bind.
_BINDING_TYPES = {"assignment": "left", "augmented_assignment": "left", "for_statement": "left",
                  "named_expression": "name", "as_pattern_target": None}


def _target_names(target):
    """The identifiers an assignment's target binds (`a, b = ...`), not those it only reads (`x.y`, `x[i]`)."""
    if target is None:
        return
    if target.type == "identifier":
        yield target
    elif target.type in ("pattern_list", "tuple_pattern", "list_pattern", "expression_list", "tuple", "list",
                         "parenthesized_expression", "list_splat_pattern", "as_pattern_target"):
        for c in target.named_children:
            yield from _target_names(c)


def _defaulted_where_none(assignment, name: str) -> bool:
    """Whether `assignment` is the body of `if name is None:` (a None default given its value)."""
    block = assignment.parent.parent if assignment.parent is not None else None
    test = block.parent if block is not None else None
    if test is None or test.type != "if_statement" or block != test.child_by_field_name("consequence"):
        return False
    cond = test.child_by_field_name("condition")
    return compact(cond) == f"{name}isNone"


def _eval_all(low, args, kwargs):
    low.evaluate(args)
    low.evaluate(kwargs.values())


def _info(name, tcp, confidence, origin, nodelay=False, held=False):
    from ..model import ConnInfo

    return ConnInfo(name, tcp, confidence, origin, nodelay, held=held)


@per_file
def _stream_callbacks(unit) -> set[str]:
    """Functions handed to asyncio.start_server."""
    return set(re.findall(r"start_server\(\s*(?:self\.)?(\w+)", unit.src.data.decode("utf-8", "replace")))


@per_file
def _given_sends(unit) -> set[str]:
    """The file's functions given a connection's send as a value."""
    return {name.decode() for name in unit.fe.scan.passed_to(unit.src.data)}


@per_file
def _generators(unit) -> set[str]:
    """The file's generator functions (a `yield` in their text)."""
    return generators(unit.src.data)


@per_file
def _made_in_module(unit) -> dict[str, bool]:
    return _module_made(unit.src.data, unit.fe.catalogue)




def _module_like(low, receiver: str) -> bool:
    """Whether `receiver` names a module (`io`, `unittest.mock`), not a value of
    the function: no local, parameter or field of that name."""
    root = receiver.split(".", 1)[0]
    return root.isidentifier() and root not in low.env and root not in low.params and root not in ("self", "cls")


# `from M import a, b as c` (parenthesized over lines, or continued with backslashes), first on its line.
_FROM_IMPORT = re.compile(rb"from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*(?:\\\r?\n[^\n#;]*)*)")
# `import a.b, c as d`, first on its line
_IMPORT = re.compile(rb"import[ \t]+([^\n#;]*)")
_IMPORT_COMMENT = re.compile(r"#[^\n]*")


def _imported(clause: str) -> list[tuple[str, str]]:
    """(name, alias) of each name an import statement's clause lists."""
    pairs = []
    clause = _IMPORT_COMMENT.sub("", clause)  # `from m import (  # why` lists no name `#`
    for part in clause.replace("\\", " ").strip("() \t\r\n").split(","):
        words = part.split()
        if words:
            pairs.append((words[0], words[-1]))
    return pairs


@per_file
def _imports(unit) -> dict[str, tuple[str, str]]:
    """Name -> (the module, the name there) of what a `from ... import`
    statement of the file binds to it."""
    found = {}
    for m in line_led(_FROM_IMPORT, unit.src.data):
        module = m.group(1).decode("ascii", "replace")
        for name, alias in _imported(m.group(2).decode("utf-8", "replace")):
            found[alias] = (module, name)
    return found


@per_file
def _module_aliases(unit) -> dict[str, str]:
    """Name -> the module an `import` statement of the file binds to it
    (`import a.b` binds `a`, and `a.b` is that module too)."""
    found = {}
    for m in line_led(_IMPORT, unit.src.data):
        for module, alias in _imported(m.group(1).decode("utf-8", "replace")):
            found[alias] = module
            if alias == module and "." in module:
                found[module.split(".", 1)[0]] = module.split(".", 1)[0]
    found.update((alias, f"{module}.{name}") for alias, (module, name) in _imports(unit).items())
    return found


def _message_module(module: str, cat) -> bool:
    """Whether the module (or a package it is in) is one of message APIs."""
    return any(part in cat.message_modules for part in module.split("."))


def _method_of(unit, cls: str, meth: str) -> str | None:
    """The function `self.meth()` runs in a method of `cls`: the class's own,
    or else the first of its base classes in the file that defines it."""
    return next((f"{c}.{meth}" for c in lineage(unit.bases, cls) if f"{c}.{meth}" in unit.function_names), None)


# connect() or the constructor, turning TCP_NODELAY on.
_NODELAY_METHOD = re.compile(rb"def[ \t]+(?:connect|__init__)[ \t]*\((?:(?!\n[ \t]*(?:def|class)[ \t])[\s\S])*?TCP_NODELAY")
# The exception classes an except clause names (`OSError`, `socket.error`); the names
# and field paths a condition tests (`data`, `self.sock`).
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_ALIAS = re.compile(r"\b(\w+)[ \t]+as[ \t]+(\w+)")


@per_file
def _nodelay_subclasses(unit, libraries) -> set[str]:
    """The libraries the file derives a connection class from (a maker, as
    imported or under an alias) whose connect() or constructor turns
    TCP_NODELAY on."""
    data = unit.src.data
    found = set()
    if b"TCP_NODELAY" in data:
        source = data.decode("utf-8", "replace")
        aliases = {alias: name for name, alias in _ALIAS.findall(source)}
        for cls, bases, start in class_statements(data):
            if not _NODELAY_METHOD.search(data, start, class_end(data, start)):
                continue
            named = {aliases.get(b, b) for b in bases} | {cls}
            found |= {lib.name for lib in libraries if named & lib.makers}
    return found


@per_file
def _request_handlers(unit) -> dict:
    """Class of the file -> (the library whose request handler it is: a class of its lineage
    in the file derives from one of the library's `bases`, whether it keeps each connection for
    the next request: the class or a base class of the file sets the library's `keep_alive`)."""
    data = unit.src.data
    libraries = [lib for lib in unit.fe.catalogue.libraries if lib.bases and any(b.encode() in data for b in lib.bases)]
    if not libraries:
        return {}
    classes = {name: (bases, start) for name, bases, start in class_statements(data)}
    bases_of = {name: bases for name, (bases, _) in classes.items()}
    found = {}
    for cls in classes:
        chain = [c for c in lineage(bases_of, cls) if c in classes]
        named = {b for c in chain for b in bases_of[c]}
        library = next((lib for lib in libraries if named & lib.bases), None)
        if library is not None:
            found[cls] = (library, library.keep_alive is not None
                          and any(_sets(data, classes[c][1], library.keep_alive) for c in chain))
    return found


def _sets(data: bytes, start: int, setting: tuple[str, str]) -> bool:
    """Whether the class statement at `start` sets the class attribute to the value (a string)."""
    name, value = (re.escape(w.encode()) for w in setting)
    return re.compile(rb"\n[ \t]+%s[ \t]*=[ \t]*[\"']%s[\"']" % (name, value)).search(data, start, class_end(data, start)) \
        is not None


@per_file
def _library_receivers(unit, libraries) -> dict[str, str]:
    """Receiver as written -> the library one of whose own methods is called on it
    in the file."""
    found = {}
    source = unit.src.data.decode("utf-8", "replace")
    for lib in libraries:
        own = "|".join(sorted(lib.own_methods))
        # The pattern is tried at every name of the file: in one that names none of the methods, not at all.
        named = any(m in source for m in lib.own_methods)
        for receiver in re.findall(rf"([A-Za-z_][\w.]*)\.(?:{own})\s*\(", source) if named else ():
            found.setdefault(receiver, lib.name)
    return found


_EXITS = frozenset({"return_statement", "raise_statement", "break_statement", "continue_statement"})
# A module-level constant of a literal integer or arithmetic on them (`MAX_PACKET_LEN = 2**24 - 1`).
_CONSTANT = re.compile(rb"\n([A-Z_][A-Z0-9_]*)[ \t]*=[ \t]*([0-9][0-9_ \t*+\-<()x]*?)[ \t]*(?:#[^\n]*)?(?=\r?\n)")


# `NAME = maker(arguments)` at a module's top level (its arguments on that line), after
# the newline before it: led by it, the pattern is found fast (`(?m)^` is tried at every byte).
_MODULE_MADE = re.compile(rb"\n([A-Za-z_]\w*)[ \t]*=[ \t]*([\w.]+)[ \t]*\(([^\n]*)")


def _module_made(data: bytes, cat) -> dict[str, bool]:
    """Module global -> True where the module makes it a TCP connection, False
    an endpoint without Nagle (a datagram or Unix socket, a file, a pipe);
    left out where it makes it of no known kind or of two kinds."""
    kinds: dict[str, bool | None] = {}
    for m in _MODULE_MADE.finditer(b"\n" + data):  # the first line too
        maker, spec = m.group(2).decode(), m.group(3).decode()
        name = maker.rsplit(".", 1)[-1]
        if name in cat.not_tcp or name in cat.tcp_makers and any(w in spec for w in cat.no_nagle_words):
            kind = False
        elif name in cat.tcp_makers and maker in (name, "socket." + name):
            kind = True
        else:
            kind = None
        global_name = m.group(1).decode()
        kinds[global_name] = kind if kinds.get(global_name, kind) == kind else None
    return {name: kind for name, kind in kinds.items() if kind is not None}


def _lets_large_through(node, unit) -> bool:
    """`if size < LIMIT: return` (or break, continue, raise), LIMIT a number
    or a module's constant of FULL_SIZE or more: only a message of LIMIT
    bytes or more gets past it."""
    body = node.child_by_field_name("consequence")
    if body is None or not body.named_children or body.named_children[-1].type not in _EXITS:
        return False
    return _large_limit(node.child_by_field_name("condition"), ("<", "<="), unit) is not None


def _flushes_when_full(node, unit) -> bool:
    """`if len(buf) > LIMIT: <flush>` (LIMIT as in `_lets_large_through`,
    the body no exit): what the body sends is LIMIT bytes or more."""
    body = node.child_by_field_name("consequence")
    if body is None or not body.named_children or body.named_children[-1].type in _EXITS:
        return False
    measured = _large_limit(node.child_by_field_name("condition"), (">", ">="), unit)
    return measured is not None and measured.type == "call" and text(measured.child_by_field_name("function")) == "len"


def _large_limit(cond, below: tuple, unit):
    """The other side of a comparison `x OP LIMIT` (or `LIMIT OP' x`), OP
    one of `below` said with x on the left, LIMIT a number or a module's
    constant of FULL_SIZE or more; else None."""
    if cond is None or cond.type != "comparison_operator" or len(cond.named_children) != 2:
        return None
    op = next((text(c) for c in cond.children if not c.is_named), "")
    left, right = cond.named_children
    flipped = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}
    measured, limit = (left, right) if op in below else (right, left) if flipped.get(op) in below else (None, None)
    if limit is None:
        return None
    value = int_literal(text(limit)) if limit.type == "integer" else \
        _large_constants(unit.src.data).get(text(limit)) if limit.type == "identifier" else None
    return measured if value is not None and value >= FULL_SIZE else None


@lru_cache(maxsize=4)
def _large_constants(data: bytes) -> dict[str, int]:
    """The module's constants of FULL_SIZE or more, by name."""
    found = {}
    for m in _CONSTANT.finditer(data):
        value = _arithmetic(m.group(2).decode())
        if value is not None and value >= FULL_SIZE:
            found[m.group(1).decode()] = value
    return found


def _arithmetic(expression: str) -> int | None:
    """The value of integer literals joined by + - * ** <<, or None.  Worked
    out step by step with every value bounded: the text comes from the
    linted tree, where `((9**64)**64)**64...` would otherwise take hours."""
    import ast

    try:
        return _bounded(ast.parse(expression, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


_BOUND = 1 << 64
_OPERATIONS = {"Add": operator.add, "Sub": operator.sub, "Mult": operator.mul, "Pow": operator.pow,
               "LShift": operator.lshift}


def _bounded(node) -> int | None:
    """An integer expression's value, or None for anything else or a value
    (or an exponent or shift over 64) past the bound."""
    kind = type(node).__name__
    if kind == "Constant":
        value = node.value if type(node.value) is int else None
    elif kind == "UnaryOp" and type(node.op).__name__ == "USub":
        value = _bounded(node.operand)
        value = None if value is None else -value
    elif kind == "BinOp" and type(node.op).__name__ in _OPERATIONS:
        how = type(node.op).__name__
        left, right = _bounded(node.left), _bounded(node.right)
        if left is None or right is None or how in ("Pow", "LShift") and not 0 <= right <= 64:
            return None
        value = _OPERATIONS[how](left, right)
    else:
        return None
    return value if value is not None and abs(value) <= _BOUND else None


def _size(node, low) -> str:
    """How big a payload expression is, when the code says: a short literal,
    a struct of a known format, a short literal %-formatted, a name holding
    one of these (or a character of a string)."""
    sizer = _SIZERS.get(node.type)
    return sizer(node, low) if sizer is not None else UNKNOWN


def _string_size(node, low) -> str:
    body = text(node)
    content = "".join(text(c) for c in node.named_children if c.type == "string_content")
    if "{" in body and body.lstrip("bBrRuU").startswith(("f", "F")):
        return UNKNOWN
    return ONE if len(content) <= 1 and "\\" not in content else SMALL if len(content) <= 16 else UNKNOWN


def _inner_size(node, low) -> str:
    return _size(node.named_children[0], low) if node.named_children else UNKNOWN


def _formatted_size(node, low) -> str:
    if text(node.child_by_field_name("operator")) != "%":
        return UNKNOWN
    left = node.child_by_field_name("left")  # b"%d\r\n" % n: a short template stays short
    return SMALL if left.type == "string" and _size(left, low) != UNKNOWN else UNKNOWN


def _call_size(node, low) -> str:
    func = node.child_by_field_name("function")
    fn = compact(func)
    arg = node.child_by_field_name("arguments")
    inner = [a for a in arg.named_children] if arg is not None else []
    if fn in ("bytes", "bytearray") and len(inner) == 1 and inner[0].type in ("list", "tuple"):
        return ONE if len(inner[0].named_children) == 1 else SMALL
    if fn in ("struct.pack", "pack") and inner:
        return _struct_size(inner[0])
    if func.type != "attribute":
        return UNKNOWN
    method, obj = text(func.child_by_field_name("attribute")), func.child_by_field_name("object")
    if method == "pack":
        return _packed_size(obj, low)
    if method == "encode":
        if obj.type == "call" and compact(obj.child_by_field_name("function")) == "chr":
            return ONE
        return _size(obj, low) if obj.type in ("string", "identifier") else UNKNOWN
    return UNKNOWN


def _packed_size(obj, low) -> str:
    """The size `obj.pack(...)` gives: struct.Struct(fmt), or a name holding the Struct."""
    if obj.type == "call" and compact(obj.child_by_field_name("function")) in ("struct.Struct", "Struct"):
        made = obj.child_by_field_name("arguments").named_children
        return _struct_size(made[0]) if made else UNKNOWN
    if obj.type == "identifier":
        return _module_structs(low.unit).get(text(obj), low.sizes.get(text(obj), UNKNOWN))
    return UNKNOWN


def _slice_size(node, low) -> str:
    """`s[i:i+1]`: one character."""
    sub = node.child_by_field_name("subscript")
    if sub is not None and sub.type == "slice":
        parts = [compact(c) for c in sub.named_children]
        if len(parts) == 2 and parts[1] in (parts[0] + "+1", "1+" + parts[0]):
            return ONE
    return UNKNOWN


# Payload node type -> how its size is told.
_SIZERS = {
    "string": _string_size,
    "identifier": lambda node, low: low.sizes.get(text(node), UNKNOWN),
    "parenthesized_expression": _inner_size,
    "binary_operator": _formatted_size,
    "call": _call_size,
    "subscript": _slice_size,
}


def _struct_size(fmt_node) -> str:
    """The size a struct format literal packs to (struct.calcsize), as a payload size."""
    import ast
    import struct

    if fmt_node.type != "string" or text(fmt_node).lstrip("bBrRuU").startswith(("f", "F")):
        return UNKNOWN
    try:
        n = struct.calcsize(ast.literal_eval(text(fmt_node)))
    except (ValueError, SyntaxError, struct.error, TypeError):
        return UNKNOWN
    return count_size(n)


def _element_size(node, value, low) -> str | None:
    """What each pass of `for x in node` gives x: a character of a string,
    or an item of a literal list or tuple of small payloads."""
    literal = text(node) if node.type == "string" else value.value if isinstance(value, Const) else None
    if isinstance(literal, str) and literal[-1:] in ("'", '"'):
        if literal.lstrip("rRuU").startswith(("b", "B")):
            return None  # iterating bytes gives ints
        return ONE
    if node.type in ("list", "tuple") and node.named_children:
        sizes = {_size(n, low) for n in node.named_children}
        if sizes <= {ONE, SMALL}:
            return SMALL if SMALL in sizes else ONE
    return None


@per_file
def _module_structs(unit) -> dict[str, str]:
    """Module-level `NAME = struct.Struct("fmt")`: name -> the size it packs."""
    import struct

    found = {}
    source = unit.src.data.decode("utf-8", "replace")
    for name, fmt in re.findall(r"(?m)^([A-Za-z_]\w*)\s*=\s*(?:struct\.)?Struct\(\s*[bB]?[\"']([^\"'\\]*)[\"']\s*\)", source):
        try:
            found[name] = count_size(struct.calcsize(fmt))
        except struct.error:
            pass
    return found
