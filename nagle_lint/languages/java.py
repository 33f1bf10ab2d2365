"""Java: java.net sockets, java.io stream wrappers, NIO channels."""

from __future__ import annotations

import re
from functools import cached_property, lru_cache

from .base import NO_VALUE, NOT_CONN, Const, Fresh, Frontend, Handle, Lowering, Obj, compact, int_literal, seconds, text
from .java_catalogue import JAVA, JavaTypes, is_type
from ..model import ONE, SMALL, UNKNOWN


@lru_cache(maxsize=4096)
def _base_type(t: str) -> str:
    """`java.util.List<Socket>` -> `List` (asked for every name a method uses)."""
    return _GENERICS.sub("", t).split(".")[-1].strip()


_GENERICS = re.compile(r"<.*>")


class JavaFrontend(Frontend):
    name = "java"
    catalogue = JAVA
    grammar_package = "tree_sitter_java"
    comment_query = "(line_comment) @c (block_comment) @c"
    idioms = {
        "join": "one byte[] written once",
        "gather": "channel.write(new ByteBuffer[] {head, body})",
        "buffer": "a BufferedOutputStream",
        "nodelay-default": "Netty enables it on its socket channels",
    }
    call_types = frozenset({"method_invocation", "object_creation_expression"})
    skip_types = frozenset({"lambda_expression", "class_declaration", "interface_declaration", "enum_declaration",
                            "record_declaration", "class_body", "method_declaration", "constructor_declaration"})
    wrapper_types = frozenset({"parenthesized_expression", "cast_expression"})
    live_leaf_types = frozenset({"identifier"})  # a name of a socket type becomes a connection (see `_typed`)

    # -- functions ---------------------------------------------------------

    def functions(self, root):
        yield from self._classes(root, "")

    def _classes(self, node, prefix):
        for child in node.named_children:
            if child.type in ("class_declaration", "enum_declaration", "record_declaration", "interface_declaration"):
                cls = prefix + text(child.child_by_field_name("name"))
                body = child.child_by_field_name("body")
                if body is None:
                    continue
                for member in body.named_children:
                    if member.type == "method_declaration":
                        yield f"{cls}.{text(member.child_by_field_name('name'))}", member, cls
                    elif member.type in ("constructor_declaration", "compact_constructor_declaration"):
                        yield f"{cls}.<init>", member, cls
                    elif member.type == "enum_body_declarations":
                        yield from self._members(member, cls)
                yield from self._classes(body, cls + ".")

    def _members(self, node, cls):
        for member in node.named_children:
            if member.type == "method_declaration":
                yield f"{cls}.{text(member.child_by_field_name('name'))}", member, cls

    def declare_params(self, low: Lowering, node):
        fields = self._field_types(low)
        low.fields = fields
        params = node.child_by_field_name("parameters")
        keys = []
        for p in params.named_children if params is not None else ():
            if p.type not in ("formal_parameter", "spread_parameter"):
                continue
            name_node = p.child_by_field_name("name") or next((c for c in p.named_children if c.type == "identifier"), None)
            if name_node is None:
                keys.append(None)
                continue
            name, typ = text(name_node), _base_type(text(p.child_by_field_name("type")))
            low.params.add(name)
            low.types[name] = text(p.child_by_field_name("type"))
            keys.append(name)
            self._typed(low, name, typ, "param")
        method = text(node.child_by_field_name("name"))
        if method in self.catalogue.callbacks and keys and isinstance(low.env.get(keys[0]), Handle):
            low.recv(low.env[keys[0]], node.child_by_field_name("name"))  # called when a message was read
        return tuple(keys)

    def is_callback(self, qualname: str) -> bool:
        return qualname.rsplit(".", 1)[-1] in self.catalogue.callbacks

    def text_facts(self, unit) -> tuple:
        return super().text_facts(unit) + (unit.src.data.find(b"io.netty") >= 0,)

    def _typed(self, low, key, typ, origin):
        from ..model import ConnInfo
        from .base import socket_like

        cat = self.catalogue
        framework = self._framework(low) if typ in cat.framework_types else None
        if framework is not None:
            flushed = framework == "flush"
            low.conns[key] = ConnInfo(key, None, "medium", origin, nodelay=flushed)
            low.env[key] = Handle(key, buffered=flushed)
        elif typ in cat.socket_types:
            low.conns[key] = ConnInfo(key, True, "high", origin)
            low.env[key] = Handle(key)
        elif typ in cat.stream_types:
            low.conns.setdefault(key, ConnInfo(key, None, "medium" if socket_like(key) else "low", origin))
            low.env[key] = Handle(key, buffered=cat.stream_types[typ])

    def _field_types(self, low):
        """The fields a method's bare names may mean (name -> declared type):
        its class's, and those of the classes around an inner (non-static)
        class, the nearer one's first."""
        cache = low.unit.class_types
        if low.cls not in cache:
            fields = {}
            for node in self._class_chain(low.unit.tree.root_node, low.cls.split(".")):
                if _is_static(node):
                    fields = {}  # a static nested class sees no outer instance's fields
                fields.update(_field_names(node))
            cache[low.cls] = fields
        return cache[low.cls]

    def fields_seen(self, unit, cls: str) -> dict:
        if "." not in cls:
            return super().fields_seen(unit, cls)
        # Outermost first: a nearer class's field of the same name hides the outer one.
        seen, parts = {}, cls.split(".")
        for i, node in enumerate(self._class_chain(unit.tree.root_node, parts)):
            if _is_static(node):
                seen = {}
            for name in _field_names(node):
                seen.pop("this." + name, None)
            seen.update(unit.class_env.get(".".join(parts[:i + 1]), {}))
        return seen

    def _class_chain(self, node, path):
        """The declarations of the classes `path` names, outermost first."""
        for child in node.named_children if node is not None else ():
            if child.type in ("class_declaration", "enum_declaration", "record_declaration", "interface_declaration") \
                    and text(child.child_by_field_name("name")) == path[0]:
                return [child] + (self._class_chain(child.child_by_field_name("body"), path[1:]) if path[1:] else [])
        return []

    def key(self, low, node):
        if node.type == "identifier":
            name = text(node)
            if name in low.types or name in low.env or name in low.params:
                return name
            if name in getattr(low, "fields", {}):
                return "this." + name
            return name
        if node.type == "this":
            return "this"
        return compact(node)

    # -- statements --------------------------------------------------------

    def statement(self, low: Lowering, node) -> None:
        t = node.type
        if t in ("block", "labeled_statement", "synchronized_statement", "program", "static_initializer",
                 "constructor_body", "switch_block_statement_group"):
            for c in node.named_children:
                if c.type == "parenthesized_expression":
                    low.expr(c)
                else:
                    low.stmt(c)
        elif t == "local_variable_declaration":
            self._declare(low, node)
        elif t == "expression_statement":
            low.evaluate(node.named_children)
        elif t == "if_statement":
            branches, cur = [], node
            while cur is not None and cur.type == "if_statement":
                branches.append((cur.child_by_field_name("condition"), cur.child_by_field_name("consequence")))
                cur = cur.child_by_field_name("alternative")
            if cur is not None:
                branches.append((None, cur))
            low.if_chain(node, branches)
        elif t == "while_statement":
            cond = node.child_by_field_name("condition")
            low.loop(node, (cond,), node.child_by_field_name("body"), infinite=compact(cond) == "(true)")
        elif t == "do_statement":
            cond = node.child_by_field_name("condition")
            low.loop(node, (cond,), node.child_by_field_name("body"), body_first=True, infinite=compact(cond) == "(true)")
        elif t == "for_statement":
            cond = node.child_by_field_name("condition")
            inits = node.children_by_field_name("init")
            for i in inits:
                if i.type == "local_variable_declaration":
                    self._declare(low, i)
            low.loop(node, (cond,) if cond is not None else (), node.child_by_field_name("body"),
                     infinite=cond is None, before=[i for i in inits if i.type != "local_variable_declaration"],
                     update=node.children_by_field_name("update"))
        elif t == "enhanced_for_statement":
            name = node.child_by_field_name("name")
            low.types[text(name)] = text(node.child_by_field_name("type"))
            low.loop(node, body=node.child_by_field_name("body"), before=(node.child_by_field_name("value"),),
                     targets=(name,))
        elif t in ("try_statement", "try_with_resources_statement"):
            self._try(low, node)
        elif t in ("switch_expression", "switch_statement"):
            self._switch(low, node)
        elif t == "return_statement" or t == "throw_statement":
            low.jump("return", node, node.named_children[0] if node.named_children else None)
        elif t in ("break_statement", "continue_statement"):
            low.jump(t.split("_")[0], node)
        elif t in ("line_comment", "block_comment", "local_class_declaration"):
            return
        else:
            low.evaluate(node.named_children)

    def _declare(self, low, node):
        typ = text(node.child_by_field_name("type"))
        for d in node.children_by_field_name("declarator"):
            name = d.child_by_field_name("name")
            low.declared.add(text(name))
            dims = d.child_by_field_name("dimensions")
            low.types[text(name)] = typ + (text(dims) if dims is not None else "")
            value = d.child_by_field_name("value")
            if value is not None:
                low.bind_target(name, low.expr(value))
            else:
                low.assign(text(name), None)

    def _try(self, low, node):
        handlers, final, opened = [], None, []
        for c in node.named_children:
            if c.type == "catch_clause":
                handlers.append(c.child_by_field_name("body"))
            elif c.type == "finally_clause":
                final = next((b for b in c.named_children if b.type == "block"), None)
        res = node.child_by_field_name("resources")
        for r in res.named_children if res is not None else ():
            if r.type != "resource":
                continue
            name, value = r.child_by_field_name("name"), r.child_by_field_name("value")
            if name is not None and value is not None:
                low.types[text(name)] = text(r.child_by_field_name("type"))
                low.bind_target(name, low.expr(value))
                v = low.env.get(text(name))
                if isinstance(v, Handle):
                    opened.append(v)
            else:
                low.expr(r)
        low.try_(node, node.child_by_field_name("body"), handlers, None, final,
                 closes=(lambda: list(reversed(opened))) if opened else None)

    def _switch(self, low, node):
        low.expr(node.child_by_field_name("condition"))
        body = node.child_by_field_name("body")
        cases, exhaustive, rules = [], False, False
        for group in body.named_children if body is not None else ():
            if group.type not in ("switch_block_statement_group", "switch_rule"):
                continue
            rules = rules or group.type == "switch_rule"
            labels = [c for c in group.named_children if c.type == "switch_label"]
            if any(text(lb).startswith("default") for lb in labels):
                exhaustive = True
            cases.append([c for c in group.named_children if c.type != "switch_label"])
        low.switch(node, cases, exhaustive, fallthrough=not rules)

    # -- expressions -------------------------------------------------------

    def value(self, low: Lowering, node):
        t = node.type
        if t == "field_access" and compact(node) in self.catalogue.not_tcp:
            return NOT_CONN  # the console (System.out)
        if t in ("identifier", "field_access", "this"):
            key = self.key(low, node)
            v = low.env.get(key)
            if v is None and key.startswith("this.") and key[5:] in getattr(low, "fields", {}):
                self._typed(low, key, _base_type(low.fields[key[5:]]), "field")
                v = low.env.get(key)
            if v is None and t == "identifier" and self._name_typed(low, key):
                self._typed(low, key, _base_type(low.types[key]), "unknown")
                v = low.env.get(key)
            return v
        if t in ("decimal_integer_literal", "hex_integer_literal", "octal_integer_literal", "binary_integer_literal"):
            n = int_literal(text(node).replace("_", ""))
            return Const(n) if n is not None else None
        if t in ("true", "false"):
            return Const(t == "true")
        if t in ("string_literal", "character_literal"):
            return Const(text(node))
        if t == "assignment_expression":
            v = low.expr(node.child_by_field_name("right"))
            if text(node.child_by_field_name("operator")) == "=":
                low.bind_target(node.child_by_field_name("left"), v)
            return NO_VALUE if v is None else v
        if t == "array_creation_expression":
            low.expr(node.child_by_field_name("value"))
            return NOT_CONN
        if t == "ternary_expression":
            return low.alternatives(node, node.child_by_field_name("condition"),
                                    (node.child_by_field_name("consequence"), node.child_by_field_name("alternative")))
        if t == "binary_expression" and node.child_by_field_name("operator").type in ("&&", "||"):
            return low.short_circuit(node, node.child_by_field_name("left"), node.child_by_field_name("right"))
        return None

    def call(self, low: Lowering, node):
        args = low.args(node.child_by_field_name("arguments"))
        if node.type == "object_creation_expression":
            return self._new(low, node, _base_type(text(node.child_by_field_name("type"))), args)
        cat = self.catalogue
        obj = node.child_by_field_name("object")
        name = text(node.child_by_field_name("name"))
        if name in cat.option_setters and (
                name in cat.options or (args and any(o in text(args[0]) for o in self.option_words))):
            # An option set on a socket, or on a bootstrap/config object in a call chain.
            h = (low.conn_for(obj, "medium") if obj is not None else low.conn_for_this()) or low.options_holder(obj)
            low.evaluate(args)
            low.set_option(h, "nodelay", args[-1] if args else None, node.child_by_field_name("name"))
            return None
        if (obj is None or obj.type == "this") and low.cls:
            # A method of the class, or by its bare name one of a class around it.
            classes = (low.cls,) if obj is not None else _enclosing(low.cls)
            own = next((f"{c}.{name}" for c in classes if f"{c}.{name}" in low.unit.function_names), None)
            if own is not None:
                return low.local_call(own, args, node)
        receiver = compact(obj) if obj is not None else ""
        if name in cat.not_tcp and not is_type(name) and (obj is None or receiver in cat.mock_libraries) \
                or self.types.is_fake(_base_type(low.types.get(receiver, ""))):
            # A test's stand-in, and what its methods give: no connection.
            low.evaluate(args)
            return NOT_CONN
        sleep = cat.sleeps.get(f"{receiver}.{name}")
        if sleep is not None:
            low.evaluate(args)
            return low.pause(node, seconds(args[0] if args else None, sleep))
        declared = _base_type(low.types.get(receiver, ""))
        target = low.env.get(receiver)
        if obj is not None and obj.type == "identifier" and (
                isinstance(target, Obj) or (declared[:1].isupper() and declared not in self.types.known)):
            # A method of a class that may be defined in a linted file, on that object.
            return low.outside_call(f"{target.cls if isinstance(target, Obj) else declared}.{name}", args, node, receiver)
        if obj is not None and obj.type == "identifier" and receiver[:1].isupper() and receiver not in low.types \
                and receiver not in low.env and receiver not in self.types.known:
            return low.outside_call(f"{receiver}.{name}", args, node)  # a static method
        if f"{receiver}.{name}" in cat.tcp_makers:
            low.evaluate(args)
            return Fresh(False, "high") if any("UNIX" in text(a) for a in args) else Fresh(True, "high")
        if name in cat.tcp_makers and not is_type(name):
            low.expr(obj)
            low.evaluate(args)
            return Fresh(True, "high")
        if name in self.connection_calls and not self._field_of_no_connection(low, obj):
            h = low.conn_for(obj, "low") if obj is not None and _is_known(low, obj) else None
            if h is None and obj is not None and name in cat.socket_only:
                h = low.conn_for(obj, "low")
        else:
            h = None
            if obj is not None:
                low.expr(obj)
        if h is None:
            low.evaluate(args)
            # What no connection gives (a mock's stream) is none either.
            stand_in = obj is not None and obj.type in ("identifier", "field_access") \
                and low.env.get(self.key(low, obj)) is NOT_CONN
            return NOT_CONN if (name in self.method_wrappers or name in cat.accepts) and stand_in else None
        if name in self.method_wrappers:
            # The connection's own stream (unbuffered), or the connection itself.
            return h if self.method_wrappers[name] is None else Handle(h.key)
        if name in cat.accepts:
            info = low.conns.get(h.key)
            return Fresh(True if info is None or info.tcp is not False else False, "high" if info and info.tcp else "medium")
        low.evaluate(args)
        if name in cat.stream_writes:
            gather = bool(args) and ((args[0].type == "array_creation_expression"
                                      and _base_type(text(args[0].child_by_field_name("type"))) == "ByteBuffer")
                                     or _base_type(low.types.get(text(args[0]), "")) == "ByteBuffer[]")
            if name in cat.line_writes and args and not h.buffered:
                low.send(h, node.child_by_field_name("arguments"), UNKNOWN)  # the text; the separator follows
            low.send(h, node, self._size(low, name, args), gather=gather)
            if name in cat.flushing_writes or (h.autoflush and name in cat.autoflush_writes):
                low.flush(h, node)
        elif name in cat.stream_reads:
            low.recv(h, node, ONE if name in cat.one_reads and not args else SMALL if name in cat.small_reads
                     else UNKNOWN)
        elif name in cat.flushes:
            low.flush(h, node)
        elif name in cat.closes:
            low.close(h, node)
        elif name in cat.shutdowns:
            low.push(h, node)
        return None

    def _new(self, low, node, typ, args):
        cat, wrappers = self.catalogue, self.types.wrappers
        if self.types.is_fake(typ):
            low.evaluate(args)
            return NOT_CONN
        if typ in cat.tcp_makers and is_type(typ):
            low.evaluate(args)
            return Fresh(True, "high")
        if typ in cat.not_tcp and is_type(typ):
            low.evaluate(args)
            return NOT_CONN
        if typ not in wrappers and typ not in self.types.known and typ[:1].isupper():
            return low.construct(typ, args, node, f"{typ}.<init>")
        if typ in wrappers and args:
            inner = low.expr(args[0])
            low.evaluate(args[1:])
            if inner is NOT_CONN:
                return NOT_CONN
            if not isinstance(inner, Handle):
                return None
            buffered = wrappers[typ] if wrappers[typ] is not None else inner.buffered
            autoflush = len(args) > 1 and compact(args[1]) == "true" and typ in ("PrintWriter", "PrintStream")
            if typ == "PrintStream" and autoflush:
                buffered = inner.buffered
            return Handle(inner.key, buffered or inner.buffered, autoflush or inner.autoflush)
        low.evaluate(args)
        return None

    # -- derived from the catalogue ------------------------------------------

    @cached_property
    def types(self) -> JavaTypes:
        return JavaTypes(self.catalogue)

    def _framework(self, low) -> str | None:
        """How the connection objects of the framework the file uses write (see `Catalogue.frameworks`)."""
        return self.scan.framework_of(low.unit.src.data)

    @cached_property
    def option_words(self) -> tuple[str, ...]:
        """The options named in a setter's first argument (not a setter's own name)."""
        return tuple(o for o in self.catalogue.options if o not in self.catalogue.option_setters)

    @cached_property
    def connection_calls(self) -> frozenset[str]:
        """The calls on (maybe) a connection the lowering makes events of, or
        whose result is the connection (or a new one)."""
        c = self.catalogue
        return frozenset(c.stream_writes | c.stream_reads | c.flushes | c.closes | c.shutdowns | c.accepts
                         | set(self.method_wrappers))

    @cached_property
    def method_wrappers(self):
        """The methods that give a stream over the connection they are called on, or the connection."""
        return {w: b for w, b in self.catalogue.wrappers.items() if not is_type(w)}

    def _name_typed(self, low, key) -> bool:
        base = _base_type(low.types.get(key, ""))
        return base in self.catalogue.socket_types or base in self.catalogue.stream_types

    def _field_of_no_connection(self, low, obj) -> bool:
        """Whether `obj` is a field of the class (`this.buf`, or `buf` where no
        local or parameter hides it) that the class declares as a type that
        never holds a connection (`ByteBuf buf`: whatever it was given, a
        method of it is not a stream's).  A local or a parameter declared so is
        an object whose methods may be the project's (see `call`)."""
        if obj is None:
            return False
        if obj.type == "field_access" and obj.child_by_field_name("object").type == "this":
            name = text(obj.child_by_field_name("field"))
        elif obj.type == "identifier" and text(obj) not in low.types and text(obj) not in low.params:
            name = text(obj)
        else:
            return False
        typ = low.fields.get(name)
        return typ is not None and self.types.holds_no_connection(_base_type(typ))

    def _size(self, low, name, args) -> str:
        if name in self.catalogue.one_writes:
            return ONE
        if name in self.catalogue.small_writes:
            return SMALL
        count = self.catalogue.counted_writes.get(name)
        if count is not None and len(args) == count + 1 and compact(args[count]) == "1":
            return ONE
        if name in self.catalogue.element_writes and len(args) == 1:
            # One scalar: a character, a number, an element of an array, or a name declared as one.
            a = args[0]
            if a.type in ("array_access", "character_literal", "decimal_integer_literal", "hex_integer_literal"):
                return ONE
            if a.type == "identifier" and low.types.get(text(a), "") in ("byte", "int", "char", "short"):
                return ONE
        return UNKNOWN

    def render(self, data: bytes, proposals) -> list:
        """Each proposed fix as edits of the file (see fixes.py), or None."""
        from .java_render import render

        return render(self, data, proposals)



def _enclosing(cls: str) -> list[str]:
    """`A.B.C` -> `A.B.C`, `A.B`, `A`: the class and those around it, nearest first."""
    parts = cls.split(".")
    return [".".join(parts[:i]) for i in range(len(parts), 0, -1)]


def _field_names(node) -> dict[str, str]:
    """The fields a class declares: name -> declared type."""
    fields = {}
    body = node.child_by_field_name("body")
    for member in body.named_children if body is not None else ():
        if member.type == "field_declaration":
            typ = text(member.child_by_field_name("type"))
            for d in member.children_by_field_name("declarator"):
                fields[text(d.child_by_field_name("name"))] = typ
    return fields


def _is_static(node) -> bool:
    """Whether a class declaration is static: said so, or an enum, record or
    interface (never an inner class)."""
    if node.type != "class_declaration":
        return True
    mods = next((c for c in node.children if c.type == "modifiers"), None)
    return mods is not None and any(c.type == "static" for c in mods.children)


def _is_known(low, obj) -> bool:
    v = low.expr(obj)
    return isinstance(v, Handle)
