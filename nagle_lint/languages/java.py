"""Java: java.net sockets, java.io stream wrappers, NIO channels."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from .base import (NO_VALUE, NOT_CONN, Const, Fresh, Frontend, Handle, Lowering, Obj, Received, Returned, compact, compared, descendants,
                   int_literal, per_file, seconds, text)
from .java_catalogue import CONVERSIONS, JAVA, STREAM_PAIR, JavaTypes, is_type
from .java_scan import class_facts, enum_names
from ..model import ONE, SMALL, UNKNOWN


@lru_cache(maxsize=4096)
def _base_type(t: str) -> str:
    """`java.util.List<Socket>` -> `List`, `byte []` -> `byte[]` (asked for every name a method uses)."""
    return "".join(_GENERICS.sub("", t).split(".")[-1].split())


_GENERICS = re.compile(r"<.*>")
# A count compared as a failure (`n < 0`, `n <= 0`, `n < 1`, `n == -1`), either way round.
_FAILURE_TEST = re.compile(r"<=?0\b|<1\b|==-1\b|(?<![\w.])(?:0>=?|1>|-1==)")
# The type of a literal argument, by its node's type (numbers by their suffix: see `arg_type`).
_LITERAL_TYPES = {"string_literal": "String", "text_block": "String", "character_literal": "char",
                  "true": "boolean", "false": "boolean"}


@dataclass(frozen=True, slots=True)
class _Invocation:
    """A method call being lowered: `obj.name(args)`, obj None for a bare name, receiver it as written."""
    node: object
    obj: object
    name: str
    args: list
    receiver: str


_NOT_THIS = object()  # what a step of JavaFrontend.INVOCATIONS returns for a call it does not take


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
    null_types = frozenset({"null_literal"})
    negation = ("unary_expression", "operand")
    skip_types = frozenset({"lambda_expression", "class_declaration", "interface_declaration", "enum_declaration",
                            "record_declaration", "class_body", "method_declaration", "constructor_declaration"})
    wrapper_types = frozenset({"parenthesized_expression", "cast_expression"})
    conversions = CONVERSIONS
    nested_by_simple_name = True
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
        keys, types = [], []
        for p in params.named_children if params is not None else ():
            if p.type not in ("formal_parameter", "spread_parameter"):
                continue
            # A variable-arity parameter takes any number of arguments: no one type.
            types.append(_base_type(text(p.child_by_field_name("type"))) if p.type == "formal_parameter" else None)
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
        low.param_types = tuple(types)
        return tuple(keys)

    def text_facts(self, unit) -> tuple:
        return super().text_facts(unit) + (unit.src.data.find(b"io.netty") >= 0,)

    def _typed(self, low, key, typ, origin):
        from ..model import ConnInfo
        from .base import socket_like

        cat = self.catalogue
        framework = self._framework(low) if typ in cat.framework_types else None
        if framework is not None:
            flushed = framework == "flush"
            answered = self.scan.answering(low.unit.src.data)
            low.conns[key] = ConnInfo(key, None, "medium", origin, nodelay=flushed, answered=answered)
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
            for _, _, static, declared in _nesting(low.unit, low.cls):
                if static:
                    fields = {}  # a static nested class sees no outer instance's fields
                fields.update(declared)
            cache[low.cls] = fields
        return cache[low.cls]

    def fields_seen(self, unit, cls: str) -> dict:
        if "." not in cls:
            return super().fields_seen(unit, cls)
        # Outermost first: a nearer class's field of the same name hides the outer one.
        seen = {}
        for name, _, static, declared in _nesting(unit, cls):
            if static:
                seen = {}
            for field in declared:
                seen.pop("this." + field, None)
            seen.update(unit.class_env.get(name, {}))
        return seen

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

    def _block(self, low, node):
        for c in node.named_children:
            if c.type == "parenthesized_expression":
                low.expr(c)
            else:
                low.stmt(c)

    def _if(self, low, node):
        branches, cur = [], node
        while cur is not None and cur.type == "if_statement":
            branches.append((cur.child_by_field_name("condition"), cur.child_by_field_name("consequence")))
            cur = cur.child_by_field_name("alternative")
        if cur is not None:
            branches.append((None, cur))
        low.if_chain(node, branches)

    def _while(self, low, node):
        cond = node.child_by_field_name("condition")
        self._loop(low, cond, node, (cond,), node.child_by_field_name("body"), infinite=compact(cond) == "(true)")

    def _do(self, low, node):
        cond = node.child_by_field_name("condition")
        self._loop(low, cond, node, (cond,), node.child_by_field_name("body"), body_first=True,
                   infinite=compact(cond) == "(true)")

    def _for(self, low, node):
        cond = node.child_by_field_name("condition")
        inits = node.children_by_field_name("init")
        for i in inits:
            if i.type == "local_variable_declaration":
                self._declare(low, i)
        self._loop(low, cond, node, (cond,) if cond is not None else (), node.child_by_field_name("body"),
                   infinite=cond is None, before=[i for i in inits if i.type != "local_variable_declaration"],
                   update=node.children_by_field_name("update"))

    def _loop(self, low, cond, node, *args, **kwargs):
        """`low.loop`, where the buffers whose rest the condition tests
        (`while (buf.hasRemaining())`) are drained by the body's writes of
        them: such a write, when partial, comes round for the rest of the
        same data (see `_write`)."""
        tested = self._drain_tested(low, cond)
        outer = getattr(low, "draining", frozenset())
        low.draining = outer | tested
        try:
            low.loop(node, *args, **kwargs)
        finally:
            low.draining = outer

    def _drain_tested(self, low, cond) -> frozenset:
        """The keys of the buffers a loop condition asks for what is left (see `Catalogue.drain_tests`)."""
        found = set()
        for n in descendants(cond) if cond is not None else ():
            if n.type == "method_invocation" and text(n.child_by_field_name("name")) in self.catalogue.drain_tests:
                obj = n.child_by_field_name("object")
                if obj is not None and obj.type in ("identifier", "field_access"):
                    found.add(self.key(low, obj))
        return frozenset(found)

    def _for_each(self, low, node):
        name, typ, value = (node.child_by_field_name(f) for f in ("name", "type", "value"))
        low.types[text(name)] = text(typ)
        low.loop(node, body=node.child_by_field_name("body"), before=(value,), targets=(name,),
                 pieces=_base_type(text(typ)) in self.catalogue.gather_types and _cleared_after(node, value))

    def _throw(self, low, node):
        low.jump("raise", node, node.named_children[0] if node.named_children else None)

    def _declare(self, low, node):
        typ = text(node.child_by_field_name("type"))
        for d in node.children_by_field_name("declarator"):
            name = d.child_by_field_name("name")
            low.declared.add(text(name))
            dims = d.child_by_field_name("dimensions")
            low.types[text(name)] = typ + (text(dims) if dims is not None else "")
            value = d.child_by_field_name("value")
            if value is not None:
                v = low.expr(value)
                if isinstance(v, Returned) and v.call.receiver is not None and self._name_typed(low, text(name)):
                    # What a method of another object returns (its class maybe not linted) is what
                    # the name's type says; the class's own methods are followed for what they return.
                    self._typed(low, text(name), _base_type(low.types[text(name)]), "unknown")
                low.bind_target(name, v)
            else:
                low.assign(text(name), None)

    # (operator, constant) -> whether the connection exists where the comparison holds
    EXISTS = {("!=", "null"): True, ("==", "null"): False}

    def tests_failure(self, cond) -> bool:
        """A read's count compared as a failure or the end of the stream: below zero, -1, below one."""
        return _FAILURE_TEST.search(compact(cond)) is not None

    def existence_test(self, cond, low=None):
        """`socket != null`, `socket == null`."""
        return compared(cond, self.EXISTS)

    def _try(self, low, node):
        handlers, broken, final, opened = [], [], None, []
        for c in node.named_children:
            if c.type == "catch_clause":
                handlers.append(c.child_by_field_name("body"))
                caught = next((p for p in c.named_children if p.type == "catch_formal_parameter"), None)
                broken.append(caught is not None and self._catches_failure(caught))
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
                 closes=(lambda: list(reversed(opened))) if opened else None, broken=tuple(broken))

    def _catches_failure(self, caught) -> bool:
        """Whether a catch's types name a failure of a read or a write (`IOException`)."""
        types = next((t for t in caught.named_children if t.type == "catch_type"), None)
        return types is not None and any(_base_type(text(t)) in self.catalogue.connection_failures
                                         for t in types.named_children)

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

    STATEMENTS = {
        **dict.fromkeys(("block", "labeled_statement", "synchronized_statement", "program", "static_initializer",
                         "constructor_body", "switch_block_statement_group"), _block),
        "local_variable_declaration": _declare,
        "if_statement": _if,
        "while_statement": _while,
        "do_statement": _do,
        "for_statement": _for,
        "enhanced_for_statement": _for_each,
        **dict.fromkeys(("try_statement", "try_with_resources_statement"), _try),
        **dict.fromkeys(("switch_expression", "switch_statement"), _switch),
        "return_statement": Frontend._return,
        "throw_statement": _throw,
        **dict.fromkeys(("break_statement", "continue_statement"), Frontend._break),
        **dict.fromkeys(("line_comment", "block_comment", "local_class_declaration"), Frontend._nothing),
    }

    # -- expressions -------------------------------------------------------

    def _name(self, low, node):
        """A variable, a field or `this`: what it holds, or what its declared type makes it."""
        if node.type == "field_access" and compact(node) in self.catalogue.not_tcp:
            return NOT_CONN  # the console (System.out)
        key = self.key(low, node)
        v = low.env.get(key)
        if v is None and key.startswith("this.") and key[5:] in getattr(low, "fields", {}):
            self._typed(low, key, _base_type(low.fields[key[5:]]), "field")
            v = low.env.get(key)
        if v is None and node.type == "identifier" and self._name_typed(low, key):
            self._typed(low, key, _base_type(low.types[key]), "unknown")
            v = low.env.get(key)
        return v

    def _integer(self, low, node):
        n = int_literal(text(node).replace("_", ""))
        return Const(n) if n is not None else None

    def _assignment(self, low, node):
        right, left = node.child_by_field_name("right"), node.child_by_field_name("left")
        v = low.expr(right)
        if text(node.child_by_field_name("operator")) == "=":
            if v is None and right is not None and right.type == "identifier" and text(right) in low.params:
                low.field_alias(self.key(low, left), text(right))  # `this.dest = dest`: see `Function.field_params`
            low.bind_target(left, v)
            if right is not None and right.type == "null_literal":
                low.drop(left)
        return NO_VALUE if v is None else v

    def _array(self, low, node):
        low.expr(node.child_by_field_name("value"))
        return NOT_CONN

    VALUES = {
        **dict.fromkeys(("identifier", "field_access", "this"), _name),
        **dict.fromkeys(("decimal_integer_literal", "hex_integer_literal", "octal_integer_literal",
                         "binary_integer_literal"), _integer),
        **dict.fromkeys(("true", "false"), Frontend._truth),
        **dict.fromkeys(("string_literal", "character_literal"), Frontend._text),
        "assignment_expression": _assignment,
        "array_creation_expression": _array,
        "ternary_expression": Frontend._conditional,
        "binary_expression": Frontend._short_circuit,
    }

    def call(self, low: Lowering, node):
        args = low.args(node.child_by_field_name("arguments"))
        if node.type == "object_creation_expression":
            return self._new(low, node, _base_type(text(node.child_by_field_name("type"))), args)
        obj = node.child_by_field_name("object")
        c = _Invocation(node, obj, text(node.child_by_field_name("name")), args,
                        compact(obj) if obj is not None else "")
        for what in self.INVOCATIONS:
            value = what(self, low, c)
            if value is not _NOT_THIS:
                return value
        return self._on_connection(low, c)

    # What a method call may be, in order (see INVOCATIONS): each returns the
    # call's value, or _NOT_THIS for the next to try.

    def _option(self, low, c):
        """An option set on a socket, or on a bootstrap/config object in a call chain."""
        cat = self.catalogue
        if c.name not in cat.option_setters or not (
                c.name in cat.options or (c.args and any(o in text(c.args[0]) for o in self.option_words))):
            return _NOT_THIS
        if self._stand_in_object(low, c.obj):
            low.evaluate(c.args)
            return None  # a test's stand-in sets no option
        h = (low.conn_for(c.obj, "medium") if c.obj is not None else low.conn_for_this()) or low.options_holder(c.obj)
        low.evaluate(c.args)
        low.set_option(h, "nodelay", c.args[-1] if c.args else None, c.node.child_by_field_name("name"),
                       tunnel=self._hands_over(low, c.obj))
        return None

    def _hands_over(self, low, conn) -> bool:
        """Whether the method gives both streams of connection `conn` (a name or
        a field) to other code: as arguments of another object's methods,
        directly or through the variable or field it keeps one in, or through
        a method of its class that returns that field.  The connection then carries another
        layer's traffic (a tunnel, a relay, a proxied session)."""
        if conn is None or conn.type not in ("identifier", "field_access") or low.node is None:
            return False
        names = {compact(conn), "this." + compact(conn), compact(conn).removeprefix("this.")}
        given, kept = set(), {}  # the streams handed over; variable or field -> the stream it holds
        for call in _calls_in(low.node):
            obj, name = call.child_by_field_name("object"), text(call.child_by_field_name("name"))
            if name not in STREAM_PAIR or obj is None or compact(obj) not in names:
                continue
            holder = _holder(call)
            if holder is not None:
                kept[holder] = name
            elif self._handed(call):
                given.add(name)
        for holder, name in kept.items():
            if any(self._handed(n) for n in _uses_in(low.node, holder)) or _returned_by_class(low, holder):
                given.add(name)
        return given == set(STREAM_PAIR)

    def _handed(self, node) -> bool:
        """Whether `node` is an argument of a method of another object (`relay.setOutputStream(out)`).
        A `new` is none: the object made over a stream (`new FrameWriter(out)`) is most often the
        code's own writer, kept in its fields."""
        args = node.parent
        call = args.parent if args is not None and args.type == "argument_list" else None
        obj = call.child_by_field_name("object") if call is not None and call.type == "method_invocation" else None
        return obj is not None and obj.type != "this" and text(call.child_by_field_name("name")) not in self.connection_events

    def _own_method(self, low, c):
        """A method of the class, or by its bare name one of a class around it."""
        if (c.obj is not None and c.obj.type != "this") or not low.cls:
            return _NOT_THIS
        classes = (low.cls,) if c.obj is not None else _enclosing(low.cls)
        own = next((f"{k}.{c.name}" for k in classes if f"{k}.{c.name}" in low.unit.function_names), None)
        if own is None:
            # One the class inherits (`send(header)` in a subclass of the class that defines
            # it, here or in another file): the project finds it through the class's supertypes.
            if low.cls.rpartition(".")[2] not in _supertypes(low.unit):
                return _NOT_THIS
            return low.local_call(f"{low.cls}.{c.name}", c.args, c.node)
        if own == f"{low.cls}.{c.name}" and not c.args:
            field = _getters(low).get(c.name)
            value = self._field_value(low, field) if field is not None else None
            if isinstance(value, Handle):
                return value  # a getter (`getOut()` returning `this.out`) is that field
        return low.local_call(own, c.args, c.node)

    def _field_value(self, low, name: str):
        """What field `name` of the class holds, or what its declared type makes it."""
        key = "this." + name
        if key not in low.env and name in low.fields:
            self._typed(low, key, _base_type(low.fields[name]), "field")
        return low.env.get(key)

    def _stand_in(self, low, c):
        """A test's stand-in, and what its methods give: no connection."""
        if not (self._makes_double(c.name, c.obj) or self.types.is_fake(_base_type(low.types.get(c.receiver, "")))):
            return _NOT_THIS
        low.evaluate(c.args)
        return NOT_CONN

    def _sleep(self, low, c):
        unit = self.catalogue.sleeps.get(f"{c.receiver}.{c.name}")
        if unit is None:
            return _NOT_THIS
        low.evaluate(c.args)
        return low.pause(c.node, seconds(c.args[0] if c.args else None, unit))

    def _exit(self, low, c):
        if f"{c.receiver}.{c.name}" not in self.catalogue.exits:
            return _NOT_THIS
        low.evaluate(c.args)
        return low.exit_process(c.node)

    def _project_method(self, low, c):
        """A method of a class that may be defined in a linted file, on that object."""
        if c.obj is None or not (c.obj.type == "identifier" or _this_field(c.obj)):
            return _NOT_THIS
        receiver = self.key(low, c.obj)  # a local, a parameter, or a field (`this.out`)
        target = low.env.get(receiver)
        if isinstance(target, Obj):
            return low.outside_call(f"{target.cls}.{c.name}", c.args, c.node, receiver)
        declared = _base_type(self._declared(low, c.obj))
        made = _made_fields(low).get(receiver[5:]) if target is None and receiver.startswith("this.") else None
        if made is not None and self.types.holds_no_connection(made):
            # `private final Wire wire = new Wire(..)`: an object the class made, as in a constructor
            return low.outside_call(f"{made}.{c.name}", c.args, c.node, receiver)
        if receiver.startswith("this.") and (isinstance(target, Handle) or declared not in low.unit.class_names):
            # A field holding a connection: its calls are its events.  One declared as a class
            # of another file: not followed (every such field of a big code base's classes
            # would have other files read for it, as few parameters do).
            return _NOT_THIS
        if declared[:1].isupper() and declared not in self.types.known:
            return low.outside_call(f"{declared}.{c.name}", c.args, c.node, receiver)
        return _NOT_THIS

    def _stream_helper(self, low, c):
        """A library's static helper working on the stream it is given (see `Catalogue.stream_helpers`)."""
        name = self.catalogue.stream_helpers.get(f"{c.receiver}.{c.name}")
        if name is None or not c.args:
            return _NOT_THIS
        return self._on_connection(low, _Invocation(c.node, c.args[0], name, c.args[1:], compact(c.args[0])))

    def _static_method(self, low, c):
        """A static method of a class that may be defined in a linted file."""
        r = c.receiver
        if c.obj is None or c.obj.type != "identifier" or not r[:1].isupper() or r in low.types or r in low.env \
                or r in self.types.known:
            return _NOT_THIS
        return low.outside_call(f"{r}.{c.name}", c.args, c.node)

    def _static_maker(self, low, c):
        """A static opener of a connection (`SocketChannel.open(..)`)."""
        if f"{c.receiver}.{c.name}" not in self.catalogue.tcp_makers:
            return _NOT_THIS
        low.evaluate(c.args)
        local = any(self._no_nagle(low, a) for a in c.args)
        return Fresh(not local, "high")

    def _no_nagle(self, low, arg) -> bool:
        """Whether an opener's argument names a local family or address (see `Catalogue.no_nagle_words`):
        in its words, or in the declared type of the name it is."""
        words = set(re.findall(r"\w+", text(arg)))
        if arg.type == "identifier":
            words.add(_base_type(low.types.get(text(arg), "")))
        return not words.isdisjoint(self.catalogue.no_nagle_words)

    def _factory_maker(self, low, c):
        """A factory's method that makes a connection (`factory.createSocket(..)`)."""
        if c.name not in self.catalogue.tcp_makers or is_type(c.name):
            return _NOT_THIS
        low.expr(c.obj)
        low.evaluate(c.args)
        return Fresh(True, "high")

    def _on_connection(self, low, c):
        """An event on the connection the call is made on (see `connection_events`), or nothing."""
        h = self._connection(low, c)
        if h is not None:
            return self.connection_events[c.name](self, low, h, c)
        low.evaluate(c.args)
        # What no connection gives (a mock's stream) is none either.
        stand_in = self._stand_in_object(low, c.obj)
        return NOT_CONN if (c.name in self.method_wrappers or c.name in self.catalogue.accepts) and stand_in else None

    def _stand_in_object(self, low, obj) -> bool:
        """Whether `obj` is a name or a field that holds no connection (a test's stand-in), or
        a mocking library's call that gives one (`verify(socket)`)."""
        if obj is not None and obj.type == "method_invocation":
            return self._makes_double(text(obj.child_by_field_name("name")), obj.child_by_field_name("object"))
        return obj is not None and obj.type in ("identifier", "field_access") \
            and low.env.get(self.key(low, obj)) is NOT_CONN

    def _makes_double(self, name: str, obj) -> bool:
        """Whether a call `obj.name(..)` makes or gives a test double (`mock(..)`, `Mockito.verify(..)`)."""
        cat = self.catalogue
        return name in cat.not_tcp and not is_type(name) and (obj is None or compact(obj) in cat.mock_libraries)

    def _over_doubles(self, low, args) -> bool:
        """Whether the arguments of a `new` give a test double in place of a socket, and
        nothing that may be a connection: the object made (the project's wrapper of a
        socket, its configuration) wraps that double, and reaches no connection either."""
        doubles = [self._is_double(low, a) for a in args]
        return any(doubles) and all(d or self._holds_no_socket(low, a) for d, a in zip(doubles, args))

    def _is_double(self, low, node) -> bool:
        """Whether `node` is a test's stand-in for a socket: a fake's or an anonymous
        overriding subclass's `new`, a mocking library's call, or a name declared as a
        socket that holds no connection (assigned one of those)."""
        if node.type == "object_creation_expression":
            typ = _base_type(text(node.child_by_field_name("type")))
            return self.types.is_fake(typ) or self._overrides_events(node, typ)
        if node.type == "method_invocation":
            return self._makes_double(text(node.child_by_field_name("name")), node.child_by_field_name("object"))
        return node.type in ("identifier", "field_access") and low.env.get(self.key(low, node)) is NOT_CONN \
            and _base_type(self._declared(low, node)) in self.catalogue.socket_types

    def _holds_no_socket(self, low, node) -> bool:
        """Whether an argument is a literal, a call of a library class that makes no
        connection (`Collections.emptyList()`), or a name that holds no connection and is not
        declared as a socket or a stream."""
        if node.type == "method_invocation":
            obj = node.child_by_field_name("object")
            return obj is not None and text(obj) in self.catalogue.library_types \
                and f"{text(obj)}.{text(node.child_by_field_name('name'))}" not in self.catalogue.tcp_makers
        if node.type in ("identifier", "field_access"):
            typ = _base_type(self._declared(low, node))
            return not isinstance(low.env.get(self.key(low, node)), Handle) \
                and typ not in self.catalogue.socket_types and typ not in self.catalogue.stream_types
        return node.type.endswith("literal") or node.type in ("true", "false", "null_literal")

    INVOCATIONS = (_option, _own_method, _stand_in, _sleep, _exit, _project_method, _stream_helper, _static_method,
                   _static_maker, _factory_maker)

    def _connection(self, low, c):
        """The connection a call of `connection_events` is made on, or None (its object lowered)."""
        obj = c.obj
        if c.name not in self.connection_events or self._field_of_no_connection(low, obj):
            if obj is not None:
                low.expr(obj)
            return None
        h = low.conn_for(obj, "low") if obj is not None and _is_known(low, obj) else None
        if h is None and obj is not None and c.name in self.catalogue.socket_only:
            h = low.conn_for(obj, "low")
        return h

    # What a call does to the connection it is made on.

    def _view(self, low, h, c):
        """The connection's own stream (unbuffered), or the connection itself."""
        return h if self.method_wrappers[c.name] is None else Handle(h.key)

    def _accepted(self, low, h, c):
        info = low.conns.get(h.key)
        return Fresh(True if info is None or info.tcp is not False else False, "high" if info and info.tcp else "medium")

    def _write(self, low, h, c):
        cat, args, node = self.catalogue, c.args, c.node
        low.evaluate(args)
        gathered = cat.gather_types
        gather = bool(args) and ((args[0].type == "array_creation_expression"
                                  and _base_type(text(args[0].child_by_field_name("type"))) in gathered)
                                 or _base_type(self._declared(low, args[0])) in {t + "[]" for t in gathered})
        if c.name in cat.line_writes and args and not h.buffered:
            low.send(h, node.child_by_field_name("arguments"), UNKNOWN)  # the text; the separator follows
        if c.name in cat.char_writes and args and not h.buffered \
                and not (cat.char_writes[c.name] == 1 and _one_character(args[0])):
            low.send(h, node.child_by_field_name("arguments"), ONE)  # the first byte; the others follow one by one
        # A gathering write (of all its pieces at once), or one of a buffer the loop
        # drains, comes round at the same place for the rest of the same data.
        partial = gather or bool(args) and args[0].type in ("identifier", "field_access") \
            and self.key(low, args[0]) in getattr(low, "draining", ())
        low.send(h, node, self._size(low, c.name, args), gather=gather, partial=partial)
        if c.name in cat.flushing_writes or (h.autoflush and c.name in cat.autoflush_writes):
            low.flush(h, node)

    def _read(self, low, h, c):
        cat = self.catalogue
        low.evaluate(c.args)
        low.recv(h, c.node, ONE if c.name in cat.one_reads and not c.args else SMALL if c.name in cat.small_reads
                 else UNKNOWN)
        return Received(h.key)

    def _flush(self, low, h, c):
        low.evaluate(c.args)
        low.flush(h, c.node)

    def _close(self, low, h, c):
        low.evaluate(c.args)
        low.close(h, c.node)

    def _push(self, low, h, c):
        low.evaluate(c.args)
        low.push(h, c.node)

    def _new(self, low, node, typ, args):
        cat, wrappers = self.catalogue, self.types.wrappers
        if self.types.is_fake(typ) or self._overrides_events(node, typ):
            low.evaluate(args)
            return NOT_CONN
        if typ in cat.tcp_makers and is_type(typ):
            low.evaluate(args)
            return Fresh(True, "high")
        if typ in cat.not_tcp and is_type(typ):
            low.evaluate(args)
            return NOT_CONN
        if typ not in wrappers and typ not in self.types.known and typ[:1].isupper():
            if self._over_doubles(low, args):
                low.evaluate(args)
                return NOT_CONN
            return low.construct(typ, args, node, f"{typ}.<init>")
        if typ in wrappers and args:
            return self._wrapped(low, typ, args)
        low.evaluate(args)
        return None

    def _wrapped(self, low, typ: str, args):
        """`new BufferedOutputStream(out)`, `new PrintWriter(out, true)`: a
        stream over the connection the first argument is, if it is one."""
        inner = low.expr(args[0])
        low.evaluate(args[1:])
        if inner is NOT_CONN:
            return NOT_CONN
        if not isinstance(inner, Handle):
            return None
        wrapping = self.types.wrappers[typ]
        buffered = wrapping if wrapping is not None else inner.buffered
        autoflush = len(args) > 1 and compact(args[1]) == "true" and typ in ("PrintWriter", "PrintStream")
        if typ == "PrintStream" and autoflush:
            buffered = inner.buffered
        return Handle(inner.key, buffered or inner.buffered, autoflush or inner.autoflush)

    def _overrides_events(self, node, typ: str) -> bool:
        """Whether `new` makes an anonymous subclass of a socket or a stream
        (`new Socket() { ... }`) that overrides a method the lowering makes an
        event of (`setTcpNoDelay`, `write`, `getOutputStream`): a test's
        stand-in, whose calls run its own code."""
        body = next((c for c in node.named_children if c.type == "class_body"), None)
        if body is None or not (typ in self.catalogue.socket_types or typ in self.catalogue.stream_types):
            return False
        events = self.connection_events.keys() | self.catalogue.option_setters
        return any(m.type == "method_declaration" and text(m.child_by_field_name("name")) in events
                   for m in body.named_children)

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
    def connection_events(self) -> dict:
        """Call name -> what it does to the connection it is made on (see the
        handlers above), for the calls the lowering makes events of or whose
        result is the connection (or a new one); where a name is in several
        of the catalogue's fields, the later here wins."""
        c, f = self.catalogue, JavaFrontend
        table = {}
        for names, handler in ((c.shutdowns, f._push), (c.closes, f._close), (c.flushes, f._flush),
                               (c.stream_reads, f._read), (c.stream_writes, f._write), (c.accepts, f._accepted),
                               (self.method_wrappers, f._view)):
            table.update(dict.fromkeys(names, handler))
        return table

    @cached_property
    def method_wrappers(self):
        """The methods that give a stream over the connection they are called on, or the connection."""
        return {w: b for w, b in self.catalogue.wrappers.items() if not is_type(w)}

    def _declared(self, low, node) -> str:
        """The type a name or a field of `this` is declared with (a local's or a
        parameter's first), or ""."""
        if node.type == "identifier":
            name = text(node)
            if name in low.types:
                return low.types[name]
        elif node.type == "field_access" and node.child_by_field_name("object").type == "this":
            name = text(node.child_by_field_name("field"))
        else:
            return ""
        return low.fields.get(name, "")

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

    def hierarchy(self, data: bytes) -> tuple[dict[str, tuple[str, ...]], frozenset[str]]:
        return class_facts(data)

    def enums(self, data: bytes) -> frozenset[str]:
        return enum_names(data)

    def arg_type(self, low, node) -> str | None:
        """A literal's type, a created object's or array's, a cast's, a declared
        name's (a local, a parameter, a field), `Cls.NAME` for a static member of
        a class (an enum's constant is of the enum: see `Project.resolve`)."""
        while node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        kind = node.type
        if kind in ("object_creation_expression", "cast_expression"):
            return _base_type(text(node.child_by_field_name("type")))
        if kind == "array_creation_expression":  # one dimension (`new byte[n]`, `new byte[] {..}`)
            dims = [c for c in node.children if c.type in ("dimensions_expr", "dimensions")]
            one = len(dims) == 1 and text(dims[0]).count("[") == 1
            return _base_type(text(node.child_by_field_name("type"))) + "[]" if one else None
        if kind in ("identifier", "field_access"):
            return self._named_type(low, node)
        return _literal_type(node)

    def _named_type(self, low, node) -> str | None:
        """A declared name's type, or `Cls.NAME` (see `arg_type`)."""
        obj = node.child_by_field_name("object")
        if obj is not None and obj.type == "identifier" and text(obj)[:1].isupper() and text(obj) not in low.types:
            return f"{text(obj)}.{text(node.child_by_field_name('field'))}"
        declared = _base_type(self._declared(low, node))
        return declared if declared and declared != "var" else None

    def render(self, data: bytes, proposals) -> list:
        """Each proposed fix as edits of the file (see fixes.py), or None."""
        from .java_render import render

        return render(self, data, proposals)



def _literal_type(node) -> str | None:
    """A literal's type (a number's by its suffix), or None."""
    kind = node.type
    if kind in _LITERAL_TYPES:
        return _LITERAL_TYPES[kind]
    if kind.endswith("integer_literal"):
        return "long" if text(node)[-1:] in "lL" else "int"
    if kind.endswith("floating_point_literal"):
        return "float" if text(node)[-1:] in "fF" else "double"
    return None


def _enclosing(cls: str) -> list[str]:
    """`A.B.C` -> `A.B.C`, `A.B`, `A`: the class and those around it, nearest first."""
    parts = cls.split(".")
    return [".".join(parts[:i]) for i in range(len(parts), 0, -1)]


def _class_chain(root, cls: str) -> list:
    """The declarations of the classes `cls` names (`Outer.Inner`), outermost first."""
    chain, node = [], root
    for name in cls.split("."):
        node = next((child for child in node.named_children if child.type in _CLASS_TYPES
                     and text(child.child_by_field_name("name")) == name), None) if node is not None else None
        if node is None:
            break
        chain.append(node)
        node = node.child_by_field_name("body")
    return chain


_CLASS_TYPES = frozenset({"class_declaration", "enum_declaration", "record_declaration", "interface_declaration"})


@per_file
def _nestings(unit) -> dict:
    """Class -> its nesting (see `_nesting`), filled as the file's methods ask."""
    return {}


def _nesting(unit, cls: str) -> tuple:
    """(qualified name, declaration, static, the fields it declares: name ->
    type) of each class `cls` names, outermost first: found in the tree once
    per class, where each of its methods asks (twice where a method sets a
    field), and each call of a getter."""
    found = _nestings(unit)
    if cls not in found:
        parts = cls.split(".")
        found[cls] = tuple((".".join(parts[:i + 1]), node, _is_static(node), _field_names(node))
                           for i, node in enumerate(_class_chain(unit.tree.root_node, cls)))
    return found[cls]


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


def _cleared_after(loop, collection) -> bool:
    """Whether the statement after `loop` empties `collection` (`queue.clear()`):
    the loop wrote out what was queued, the pieces of one batch (see `Loop.pieces`)."""
    after = loop.next_named_sibling
    return after is not None and after.type == "expression_statement" \
        and compact(after.named_children[0]) == compact(collection) + ".clear()"


def _this_field(node) -> bool:
    """Whether `node` is a field of `this` (`this.out`)."""
    return node.type == "field_access" and node.child_by_field_name("object").type == "this"


def _is_known(low, obj) -> bool:
    v = low.expr(obj)
    return isinstance(v, Handle)


def _calls_in(node):
    """The method calls in a method's body, outside lambdas and classes declared in it."""
    return (n for n in descendants(node, lambda n: n.type not in ("lambda_expression", "class_body"))
            if n.type == "method_invocation")


def _holder(node) -> str | None:
    """The variable or the field (as `this.name`) that `node`'s value is assigned to, if any."""
    parent = node.parent
    if parent is not None and parent.type == "variable_declarator":
        return text(parent.child_by_field_name("name"))
    if parent is not None and parent.type == "assignment_expression" and parent.child_by_field_name("right") == node:
        return compact(parent.child_by_field_name("left"))
    return None


@per_file
def _supertypes(unit) -> dict[str, tuple[str, ...]]:
    """Class (by its last name) -> the types it extends or implements (see `FileModel.supertypes`)."""
    return class_facts(unit.src.data)[0]


def _uses_in(node, name: str):
    """The places where `name` (a variable, or a field by its bare name or as `this.name`) is read."""
    bare = name.removeprefix("this.")

    def read(n) -> bool:
        return n.type in ("identifier", "field_access") and compact(n) in (bare, "this." + bare) \
            and (n.parent is None or n.parent.type != "field_access" or n.parent.child_by_field_name("object") != n)

    return (n for n in descendants(node, lambda n: n.type != "field_access" and not read(n)) if read(n))


def _getters(low) -> dict[str, str]:
    """The getters of the function's class: method -> the field it returns as it
    is, taking no arguments (`getOut() { return out; }`, `return this.out;`)."""
    classes = _nesting(low.unit, low.cls) if low.cls else ()
    if not classes:
        return {}
    return {method: name for method, name in _returning(classes[-1][1]).items() if name in low.fields}


def _made_fields(low) -> dict[str, str]:
    """The fields of the function's class declared with an object made there: name -> the class
    made (`private final Wire wire = new Wire(host);`)."""
    classes = _nesting(low.unit, low.cls) if low.cls else ()
    return _initialized(classes[-1][1]) if classes else {}


@lru_cache(maxsize=4)  # the classes of the file being lowered (a node keeps its tree alive)
def _initialized(cls_node) -> dict[str, str]:
    found = {}
    body = cls_node.child_by_field_name("body")
    for member in body.named_children if body is not None else ():
        if member.type != "field_declaration":
            continue
        for d in member.children_by_field_name("declarator"):
            value = d.child_by_field_name("value")
            if value is not None and value.type == "object_creation_expression" \
                    and value.child_by_field_name("class_body") is None:  # an anonymous class: nothing to follow
                found[text(d.child_by_field_name("name"))] = _base_type(text(value.child_by_field_name("type")))
    return found


@lru_cache(maxsize=4)  # the classes of the file being lowered (a node keeps its tree alive)
def _returning(cls_node) -> dict[str, str]:
    """Method of a class declaration -> the name it returns, where it takes nothing and its body is
    `return name;` or `return this.name;` (asked at each call of such a method: found once)."""
    found = {}
    body = cls_node.child_by_field_name("body")
    for member in body.named_children if body is not None else ():
        if member.type != "method_declaration":
            continue
        params, block = member.child_by_field_name("parameters"), member.child_by_field_name("body")
        stmts = block.named_children if block is not None else []
        if params is None or params.named_children or len(stmts) != 1 or stmts[0].type != "return_statement" \
                or not stmts[0].named_children:
            continue
        value = stmts[0].named_children[0]
        name = text(value.child_by_field_name("field")) if _this_field(value) else \
            text(value) if value.type == "identifier" else None
        if name is not None:
            found[text(member.child_by_field_name("name"))] = name
    return found


def _returned_by_class(low, name: str) -> bool:
    """Whether a method of the function's class returns field `name` as it is (a getter)."""
    return name.removeprefix("this.") in _getters(low).values()


def _one_character(arg) -> bool:
    """Whether a string is a literal of one character (`"\\n"`): written a byte a character,
    one write."""
    if arg.type != "string_literal":
        return False
    parts = arg.named_children
    return len(parts) == 1 and (parts[0].type == "escape_sequence" or len(text(parts[0])) == 1)
