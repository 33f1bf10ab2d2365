"""C: BSD sockets, stdio streams over sockets, OpenSSL."""

from __future__ import annotations

import re
from functools import cached_property, lru_cache
from itertools import chain

from .base import (NO_VALUE, raw, NOT_CONN, Const, count_size, Fresh, Received, Sent, Frontend, Handle, Lowering, Watched,
                   compact, compared, _unwrapped, descendants, int_literal, per_file, result_used, seconds, text)
from .c_catalogue import C
from .catalogue import FULL_SIZE
from .c_scan import IF_ZERO, top_level_op_tables
from ..model import (DEFINED, HOLDS, MORE_FLAG, ONE, SMALL, THROUGH_MEMBER, UNKNOWN, Break, ConnInfo, Continue, Hold, If,
                     Loop, Return)
from .scan import WORD_BYTES, stems

# An event loop that the file fills with TCP connections hands them back as these.
POLLERS = re.compile(rb"\b(?:epoll_ctl|FD_SET|kevent|EV_SET)\b|struct\s+pollfd")
# A send's result compared as a failure: below zero, -1, not the length asked, below it;
# either way round (`0 >= write(...)`, `-1 == n`).
FAILURE_TEST = re.compile(r"<=?0\b|<1\b|==-1\b|!=|<[A-Za-z_(]|==SOCKET_ERROR|(?<![\w.])(?:0>=?|1>|-1==|SOCKET_ERROR==)")
# A descriptor's "none" value, assigned when it is closed or failed to open (a project's
# own name for INVALID_SOCKET too: `BT_INVALID_SOCKET`, `ERROR_FD`, `INVALID_HANDLE_VALUE`).
SENTINEL = re.compile(r"(?:\([\w\s]+\))?\(?(?:-1|NULL|(?:[A-Z]+_)?(?:INVALID|ERROR|BAD)_(?:SOCKET|FD|HANDLE)"
                      r"(?:_VALUE)?)\)?$")
# The call whose first argument starts where the search ends (`read_bytes(peer->sd`, `recv((int)c->fd`).
_FIRST_ARGUMENT_OF = re.compile(rb"(?<![\w.>])([A-Za-z_]\w*)\s*\(\s*(?:\([\w\s*]+\)\s*)?&?\s*\Z")
POLLED_KEY = re.compile(r"\.data\.(?:fd|u32|u64)$|\]\.fd$|\]\.ident$")


class CFrontend(Frontend):
    name = "c"
    catalogue = C
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
    null_types = frozenset({"null"})
    option_row_types = frozenset({"initializer_list"})
    skip_types = frozenset({"function_definition"})
    wrapper_types = frozenset({"parenthesized_expression", "cast_expression"})

    @cached_property
    def known(self) -> "_Known":
        return _Known(self.catalogue)

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

    tells_builds = True

    def one_build(self, data: bytes, start: int, end: int, point=None, budget=None):
        """Where the arms of a conditional each open the same block (`#ifdef A` `if (a) {` `#else`
        `if (b) {` `#endif`), tree-sitter reads them in sequence and may lose the function's head:
        parsed with one arm of each such conditional (see `_one_arm`), it is a function again."""
        ranges = _one_arm(data, start, end)
        if ranges is None:
            return None
        tree = self.parse(data, ranges, point, budget)
        found = list(self.functions(tree.root_node))
        return (tree, found) if found else None

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
            low.types[name] = _typed(typ, p.child_by_field_name("declarator"))
            keys.append(name)
            if typ in self.catalogue.stream_types:
                low.conns[name] = ConnInfo(name, None, "low", "param")
                low.env[name] = Handle(name, buffered=self.catalogue.stream_types[typ])
            elif typ in self.catalogue.socket_types:
                low.conns[name] = ConnInfo(name, None, "medium", "param")
                low.env[name] = Handle(name)
        return tuple(keys)

    def key(self, low, node):
        return compact(node)

    def made_as(self, low, key: str) -> bool | None:
        name = self._made_name(low, key)
        return _made_in_file(low.unit).get(name) if name else None

    def made_both_ways(self, low, key: str) -> bool:
        name = self._made_name(low, key)
        made = _made_in_file(low.unit)
        return bool(name) and name in made and made[name] is None

    def stream_over(self, low, key: str) -> str | None:
        made = _streams_made(low.unit)
        member = _MEMBER_KEY.fullmatch(key) if made else None  # most files open no stream in a member
        if member is None:
            return None
        over = made.get(member.group(3))
        return f"{member.group(1)}{member.group(2)}{over}" if over is not None else None

    @staticmethod
    def _made_name(low, key: str) -> str | None:
        name = _made_name(key)
        if not name or "." not in key and "->" not in key and (name in low.declared or name in low.params):
            return None  # a local variable is what its own function makes of it
        return name

    def op_tables(self, data: bytes) -> dict[str, tuple[str, ...]]:
        return {member: tuple(sorted(held)) for member, held in top_level_op_tables(self.scan, data).items()}

    def sessions(self, data: bytes) -> dict[str, tuple[str, ...]]:
        found: dict[str, set[str]] = {}
        for binder in sorted(self.catalogue.binders):
            for args in _calls_of(data, binder.encode()):
                pair = _session_over(args)
                if pair is not None:
                    found.setdefault(pair[1], set()).add(pair[0])
        return {member: tuple(sorted(held)) for member, held in found.items()}

    def read_paths(self, data: bytes, functions) -> frozenset[str]:
        paths = {k for fn in functions for k in fn.conns if "->" in k or "." in k}
        found = set()
        for path in paths:
            word = path.encode()
            at = data.find(word)
            while at >= 0 and path not in found:
                call = _FIRST_ARGUMENT_OF.search(data, max(0, at - 80), at)
                if call is not None and not data[at + len(word):at + len(word) + 1].isalnum() \
                        and self.scan.read_calls.calls(call.group(1).decode()):
                    found.add(path)
                at = data.find(word, at + 1)
        return frozenset(found)

    def polled(self, unit, key: str) -> bool:
        return bool(POLLED_KEY.search(key)) and _polls_tcp(unit)

    def text_facts(self, unit) -> tuple:
        data = unit.src.data
        return super().text_facts(unit) + (tuple(sorted(_made_in_file(unit).items())), _polls_tcp(unit),
                                           tuple(sorted(_large_defines(data))),
                                           tuple(sorted(_more_words(data, self.catalogue.more_flags))))

    # -- statements --------------------------------------------------------

    # Each statement type is lowered by its handler (see `STATEMENTS`); any
    # other statement's expressions are evaluated in order.

    def _if(self, low: Lowering, node) -> None:
        branches, cur = [], node
        while cur is not None and cur.type == "if_statement":
            branches.append((cur.child_by_field_name("condition"), cur.child_by_field_name("consequence")))
            alt = cur.child_by_field_name("alternative")
            cur = alt.named_children[0] if alt is not None and alt.named_children else None
        if cur is not None:
            branches.append((None, cur))
        low.if_chain(node, branches)
        if len(branches) == 1 and _lets_large_through(node, low.unit.src.data):
            # What follows runs only for a message of FULL_SIZE bytes or more (a 16 MB packet
            # and its continuation): full-size segments, acknowledged at once, so nothing sent
            # before waits for a delayed ACK.
            low.pause(node, None)

    def _while(self, low: Lowering, node) -> None:
        cond = node.child_by_field_name("condition")
        low.loop(node, (cond,), node.child_by_field_name("body"), infinite=compact(cond) in ("(1)", "(true)"),
                 retries=cond)

    def _do(self, low: Lowering, node) -> None:
        cond = node.child_by_field_name("condition")
        if compact(cond) in ("(0)", "(false)"):
            # `do { ... } while (0)` (a macro's statement): one pass, which a `break` may end early.
            body = low.block_of(node.child_by_field_name("body"))
            low.emit(Loop((), body + (Break(low.site(cond)),), low.site(node), infinite=True))
            return
        low.loop(node, (cond,), node.child_by_field_name("body"), body_first=True,
                 infinite=compact(cond) in ("(1)", "(true)"), retries=cond)

    def _for(self, low: Lowering, node) -> None:
        init = node.child_by_field_name("initializer")
        cond = node.child_by_field_name("condition")
        if init is not None and init.type == "declaration":
            self._declare(low, init)
            init = None
        low.loop(node, (cond,) if cond is not None else (), node.child_by_field_name("body"),
                 infinite=cond is None, before=(init,) if init is not None else (),
                 update=[u for u in node.children_by_field_name("update")])

    def _switch(self, low: Lowering, node) -> None:
        low.expr(node.child_by_field_name("condition"))
        body = node.child_by_field_name("body")
        cases, exhaustive = [], False
        for case in body.named_children if body is not None else ():
            if case.type != "case_statement":
                # tree-sitter ends a case at a preprocessor directive among its statements
                # (`#ifdef X` ... `#endif` and what follows): they are still that case's
                if cases:
                    cases[-1].append(case)
                continue
            value = case.child_by_field_name("value")
            exhaustive = exhaustive or value is None
            cases.append([c for c in case.named_children if c != value])
        low.switch(node, cases, exhaustive)

    def _labeled(self, low: Lowering, node) -> None:
        for c in node.named_children:
            if c.type != "statement_identifier":
                low.stmt(c)

    def _goto(self, low: Lowering, node) -> None:
        """`goto fail;` to a label further down the function's block (the error path), or
        further down the body of the loop it is in (`goto next;`): the code from that label
        on runs instead of what follows, then the function returns or the loop goes round.
        A jump back (a retry), or into another block, is left out: the lowering goes on as
        if it fell through."""
        label = node.child_by_field_name("label")
        if label is None:
            return
        name, in_loop, block = text(label), False, node.parent
        while block is not None:
            outer = block.parent
            whole = outer is not None and outer.type == "function_definition"
            if block.type == "compound_statement" and (whole or (not in_loop and outer is not None
                                                                 and outer.type in _LOOPS)):
                stmts = block.named_children
                for i, stmt in enumerate(stmts):
                    if stmt.type == "labeled_statement" and stmt.start_byte > node.start_byte \
                            and text(stmt.child_by_field_name("label")) == name:
                        def rest(start=i):
                            for later in stmts[start:]:
                                low.stmt(later)
                        low.jump_ahead(name, node, rest, Return if whole else Continue)
                        return
            if whole:
                return
            in_loop = in_loop or block.type in _LOOPS
            block = outer

    def tests_failure(self, cond) -> bool:
        return FAILURE_TEST.search(compact(cond)) is not None and not self.tests_success(cond)

    # (operator, constant) of a send's result compared as a success: not below zero, not -1
    SUCCESS = {(">=", "0"): True, (">", "0"): True, (">", "-1"): True, ("!=", "-1"): True,
               ("!=", "SOCKET_ERROR"): True}

    def tests_success(self, cond) -> bool:
        """`send(...) >= 0`, `(n = sendto(...)) != -1`, `n > 0`: the comparison alone (with
        `&& more` beside it, the test fails also where the send went out)."""
        return compared(_unwrapped(cond), self.SUCCESS) is not None

    # (operator, constant) -> whether the descriptor is open where the comparison holds
    EXISTS = {(">=", "0"): True, (">", "0"): True, (">", "-1"): True, ("!=", "-1"): True, ("<", "0"): False,
              ("==", "-1"): False, ("!=", "INVALID_SOCKET"): True, ("==", "INVALID_SOCKET"): False,
              ("!=", "NULL"): True, ("==", "NULL"): False}

    def existence_test(self, cond, low=None):
        """`fd >= 0`, `fd != -1`, `fd < 0`, `s != INVALID_SOCKET`, `ssl != NULL` on a name or
        member; `c->ssl`, `!c->ssl` on a member or a pointer."""
        present = True
        if cond.type == "unary_expression" and text(cond.children[0]) == "!":
            cond, present = _unwrapped(cond.child_by_field_name("argument")), False
        if cond.type != "binary_expression":  # a member's or a pointer's truth (`if (n)` may be a count)
            pointer = cond.type == "identifier" and low is not None and low.types.get(text(cond), "").endswith("*")
            return (cond, present) if cond.type == "field_expression" or pointer else None
        tested = compared(cond, self.EXISTS)
        return tested if tested is not None and tested[0].type in ("identifier", "field_expression") else None

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
        low.emit(If((then, other), True, low.site(node), when=self._macro_defined(node)))

    @staticmethod
    def _macro_defined(node) -> tuple | None:
        """`If.when` of `#ifdef NAME` / `#ifndef NAME`: a file is built one way, so the same
        macro takes the same arm in every function a path goes through (`#ifdef WITH_SSL`
        around both the TLS write and the TLS read)."""
        name = node.child_by_field_name("name")
        if node.type != "preproc_ifdef" or name is None:
            return None
        return HOLDS, DEFINED + text(name), int(compact(node.children[0]) == "#ifdef")

    def _declare(self, low, node):
        typ = compact(node.child_by_field_name("type"))
        # A static keeps its value from call to call; an extern is a global.
        local = not any(c.type == "storage_class_specifier" and text(c) in ("static", "extern") for c in node.children)
        for d in node.children_by_field_name("declarator"):
            target = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
            name = _declared_name(target)
            if local and name:
                low.declared.add(name)
            if d.type == "init_declarator":
                low.types[name] = _typed(typ, target)
                self._initialize(low, name, target, d.child_by_field_name("value"))
            elif name:
                low.types[name] = _typed(typ, d)
                low.assign(name, None)

    def _initialize(self, low, name: str | None, target, value) -> None:
        """A declared name given its value (`int fd = socket(...)`, `struct conn *c = arg;`)."""
        v = low.expr(value)
        if v is None and value is not None and value.type == "field_expression" and self.made_as(low, compact(value)):
            v = low.conn_for(value)  # `int fd = c->sock;`: a copy of a member the file makes TCP
        if name and value is not None:
            low.copies[name] = value
            given = self._holder_of(low, _unwrapped_value(value))
            if target.type == "pointer_declarator" and given is not None and given.type == "identifier" \
                    and text(given) in low.params:
                low.aliases[name] = text(given)
        ident = _ident(target) if name else None
        if ident is not None:
            low.bind_target(ident, v)

    STATEMENTS = {
        **dict.fromkeys(("compound_statement", "translation_unit", "ERROR", "preproc_else"), Frontend._children),
        "declaration": _declare,
        "expression_statement": Frontend._evaluate,
        "if_statement": _if,
        "while_statement": _while,
        "do_statement": _do,
        "for_statement": _for,
        "switch_statement": _switch,
        "return_statement": Frontend._return,
        **dict.fromkeys(("break_statement", "continue_statement"), Frontend._break),
        "labeled_statement": _labeled,
        **dict.fromkeys(("preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef"), _preproc),
        "goto_statement": _goto,
        **dict.fromkeys(("comment", "preproc_def", "preproc_include", "preproc_call",
                         "preproc_function_def", "type_definition", "struct_specifier"), Frontend._nothing),
    }

    # -- expressions -------------------------------------------------------

    def _name(self, low: Lowering, node):
        t = node.type
        if t == "identifier" and text(node) in self.catalogue.consoles:
            return NOT_CONN
        v = low.env.get(text(node) if t == "identifier" else compact(node))  # a name holds no blank
        if v is None and t == "subscript_expression":
            arr = compact(node.child_by_field_name("argument"))
            if low.env.get(arr + "[]") is NOT_CONN:
                return NOT_CONN
        if v is None and t != "identifier":
            low.evaluate(node.named_children)
        return v

    def _number(self, low: Lowering, node):
        n = int_literal(text(node))
        return Const(n) if n is not None else None

    def _assignment(self, low: Lowering, node):
        right, left = node.child_by_field_name("right"), node.child_by_field_name("left")
        v = low.expr(right)
        operator = text(node.child_by_field_name("operator"))
        if compact(left) in _values_tested(low):
            value = _state_value(right)
            number = value if isinstance(value, int) else None
            step = {"+=": number, "-=": -number if number is not None else None}.get(operator)
            low.emit(Hold(compact(left), value if operator == "=" else None, step, low.site(node)))
        if left.type == "identifier":
            low.rebound.add(text(left))
        if operator == "=":
            if left.type == "identifier":
                low.copies[text(left)] = right
            # `fd = -1` after a failure marks the descriptor closed on that path; on the
            # others it is still the connection (the bindings are not per path).
            if not (SENTINEL.match(compact(right)) and isinstance(low.env.get(low.fe_key(left) or ""), Handle)):
                low.bind_target(left, v)
        return NO_VALUE if v is None else v

    def _address(self, low: Lowering, node):
        if text(node.child_by_field_name("operator")) == "&":
            target = node.child_by_field_name("argument")
            if target is not None and target.type == "identifier":
                low.rebound.add(text(target))  # lent to be written
            return low.expr(target)
        return None

    def _compound_literal(self, low: Lowering, node):
        init = node.child_by_field_name("value")
        return low.expr(init.named_children[0]) if init is not None and init.named_children else None

    def _sizeof(self, low: Lowering, node):
        return Const(None)

    def _update(self, low: Lowering, node):
        """`++p->phase`, `p->phase--`: a state machine's phase changed by one (see `_values_tested`)."""
        target = node.child_by_field_name("argument")
        if target is not None and target.type == "identifier":
            low.rebound.add(text(target))
        if target is not None and compact(target) in _values_tested(low):
            low.emit(Hold(compact(target), None, 1 if "++" in text(node) else -1, low.site(node)))
        return None

    def value_test(self, low: Lowering, cond):
        while cond is not None and cond.type == "parenthesized_expression" and cond.named_child_count == 1:
            cond = cond.named_children[0]
        if cond is None or cond.type != "binary_expression" or text(cond.child_by_field_name("operator")) != "==":
            return None
        left, right = cond.child_by_field_name("left"), cond.child_by_field_name("right")
        value = _state_value(right)
        if value is None or compact(left) not in _values_tested(low):
            return None
        return HOLDS, compact(left), value

    VALUES = {
        **dict.fromkeys(("identifier", "field_expression", "subscript_expression"), _name),
        "number_literal": _number,
        **dict.fromkeys(("true", "false"), Frontend._truth),
        **dict.fromkeys(("string_literal", "char_literal", "concatenated_string"), Frontend._text),
        "assignment_expression": _assignment,
        "pointer_expression": _address,
        "compound_literal_expression": _compound_literal,
        "sizeof_expression": _sizeof,
        "update_expression": _update,
        "conditional_expression": Frontend._conditional,
        "binary_expression": Frontend._short_circuit,
    }

    def call(self, low: Lowering, node):
        """A call: a function of this file, else one the catalogue knows, by its
        kind's handler (see `CALLS`), else one that may be another file's."""
        func = node.child_by_field_name("function")
        args = low.args(node.child_by_field_name("arguments"))
        if func.type != "identifier":
            low.expr(func)
            targets = self._member_targets(low, func)
            if targets:
                return self._through_member(low, node, targets, args)
            if func.type == "field_expression":  # maybe a table of another file's: see `Project.alternatives`
                return low.local_call(THROUGH_MEMBER + text(func.child_by_field_name("field")), args, node)
            low.evaluate(args)
            return None
        name = text(func)
        if name in low.unit.function_names and name != low.qualname:
            return low.local_call(name, args, node)
        expansion = self._expansion(low, node, name, args)
        if expansion is not None:
            return self._expanded(low, name, expansion)
        held = self._container_argument(low, name)
        if held is not None and held < len(args):
            # The structure a member belongs to: the same object as the member's pointer, as a cast
            # gives it (a connection's descriptor among its members is the argument's).
            return low.expr(args[held])
        known = self.known
        kind = known.kinds.get(name) or ("not_tcp" if name.endswith(known.not_tcp_endings) else None)
        if kind is None:
            return self._outside(low, node, name, args)
        return self.CALLS[kind](self, low, node, name, args)

    def _expanded(self, low: Lowering, name: str, expansion):
        """A macro's use lowered as what it stands for (within it, the macro is not expanded
        again, as the preprocessor does not)."""
        expanding = low.unit.facts.setdefault(_EXPANDING, set())
        expanding.add(name)
        try:
            if expansion.type != "expression_statement":
                low.stmt(expansion)  # `do { ... } while (0)`
                return NO_VALUE
            value = expansion.named_children[0]
            if value.type == "assignment_expression" and text(value.child_by_field_name("left")) == _USED:
                value = value.child_by_field_name("right")
            return low.expr(value)
        finally:
            expanding.discard(name)

    def _expansion(self, low: Lowering, node, name: str, args):
        """The statement a function-like macro of the file stands for (`SEND_STR(fd, "HELLO ")`
        as `write((fd), ("HELLO "), strlen("HELLO "));`), where its body calls a name the
        catalogue knows; parsed where the macro is used, so that what it does is at that line;
        else None."""
        macro = self.scan.call_macros(low.unit.src.data).get(name)
        row, column = node.start_point
        if macro is None or len(macro[0]) != len(args) or row == 0 or name in low.unit.facts.get(_EXPANDING, ()):
            return None
        params, body = macro
        given = dict(zip(params, (text(a) for a in args)))
        code = _TOKEN.sub(lambda m: given.get(m.group(), m.group()), body)
        # A function around it on the first line, the call at the macro's place; where the use's
        # result is looked at (`n = SEND(...)`), the call's is too.
        used = _USED.encode() + b"=" if result_used(node) else b""
        used = used if len(used) <= column else b""
        tree = self.parser.parse(b"void f(){" + b"\n" * row + b" " * (column - len(used)) + used + code.encode()
                                 + b";}")
        body_node = tree.root_node.named_children[0].child_by_field_name("body") if tree.root_node.named_children else None
        statement = body_node.named_children[0] if body_node is not None and body_node.named_children else None
        if statement is None or not statement.named_children or tree.root_node.has_error:
            return None
        return statement

    def _holder_of(self, low: Lowering, node):
        """A value out of the calls that give the structure holding it (`container_of(c, T, m)`:
        `c`, see `_container_argument`)."""
        while node is not None and node.type == "call_expression":
            func = node.child_by_field_name("function")
            args = low.args(node.child_by_field_name("arguments"))
            held = self._container_argument(low, text(func)) if func.type == "identifier" else None
            if held is None or held >= len(args):
                break
            node = _unwrapped_value(args[held])
        return node

    def _container_argument(self, low: Lowering, name: str) -> int | None:
        """Where a call giving a member's structure (see `Catalogue.containers`) takes the
        member's pointer, else None."""
        known = self.known
        found = _containers(low.unit.src.data, known.containers, known.container_endings)
        return found.get(name, 0 if name.endswith(known.container_endings) else None)

    def _member_targets(self, low: Lowering, func) -> tuple[str, ...]:
        """The functions of this file a call through a member (`t->ops->send(...)`) may reach:
        those an operations table of the file holds in that member that send or read themselves
        (see `CScanner.op_tables`)."""
        if func.type != "field_expression":
            return ()
        held = self.scan.op_tables(low.unit.src.data).get(text(func.child_by_field_name("field")), ())
        return tuple(sorted(f for f in held if f in low.unit.function_names and f != low.qualname))

    def _through_member(self, low: Lowering, node, targets: tuple[str, ...], args):
        """A call through a function pointer: a call of the one function assigned to it, or
        of one of several (alternatives: a table per transport, only one is called)."""
        if len(targets) == 1:
            return low.local_call(targets[0], args, node)
        arms = tuple(low.aside(lambda t=t: low.local_call(t, args, node)) for t in targets)
        low.emit(If(arms, True, low.site(node)))
        return NO_VALUE

    def _outside(self, low: Lowering, node, name: str, args):
        # may be a function of another linted file; else, what its name says
        return low.outside_call(name, args, node, otherwise=self._by_name(low, node, name, args))

    def _by_name(self, low: Lowering, node, name: str, args) -> tuple:
        """What a wrapper defined in no linted file does, told by its name: a send or a read
        where it is called as send() and recv() are, (connection, buffer, count[, flags]) (see
        `named_sends`)."""
        kind = self.known.named_kind(name)
        if kind is None or len(args) not in (3, 4):
            return ()
        fd = self._named_descriptor(low, args[0])
        h = low.conn_for(fd, "low") if fd is not None else None
        if h is None:
            return ()
        size = _size(low, args[2])
        return low.aside(lambda: low.send(h, node, size) if kind == "send" else low.recv(h, node, size))

    def _named_descriptor(self, low: Lowering, node):
        """A wrapper's first argument, out of its casts, where it may be a descriptor: a name
        declared as no struct or pointer (`int fd`, `BT_SOCKET sock`; not `struct conn *c`,
        `CURL *h`), or a member the file makes TCP (`ctx->control_sock`; most members are
        structs or pointers); else None."""
        while node is not None and node.type in self.wrapper_types:
            node = node.child_by_field_name("value") or (node.named_children[-1] if node.named_children else None)
        if node is not None and (node.type == "identifier" and _descriptor_type(low.types.get(text(node), ""))
                                 or node.type == "field_expression" and self.made_as(low, compact(node))):
            return node
        return None

    def _sleep(self, low: Lowering, node, name: str, args):
        low.evaluate(args)
        unit = self.catalogue.sleeps[name]
        return low.pause(node, seconds(args[0], unit) if args and unit else None)

    def _exit(self, low: Lowering, node, name: str, args):
        low.evaluate(args)
        return low.exit_process(node)

    def _watch(self, low: Lowering, node, name: str, args):
        """`FD_SET(fd, &readfds)`: the set names the descriptor for a readiness wait."""
        fd_at, set_at = self.catalogue.watch_adders[name]
        if max(fd_at, set_at) >= len(args):
            return low.evaluate(args)
        h = low.conn_for(args[fd_at], "low")
        watched = _set_name(args[set_at])
        if h is not None and watched is not None:
            known = low.env.get(watched)
            keys = known.keys if isinstance(known, Watched) else ()
            low.env[watched] = Watched(keys + (h.key,) if h.key not in keys else keys)
        return None

    def _readiness_wait(self, low: Lowering, node, name: str, args):
        """`select(n, &readfds, NULL, NULL, &tv)`: it waits for the peer's data on every
        descriptor of its read set, as a read does (its timeout is a pointer: a zero one,
        a glance, is not told from a wait)."""
        low.evaluate(args)
        watched_at, _ = self.catalogue.readiness_waits[name]
        watched = low.env.get(_set_name(args[watched_at])) if watched_at < len(args) else None
        for key in watched.keys if isinstance(watched, Watched) else ():
            low.recv(Handle(key), node)
        return None

    def _make_socket(self, low: Lowering, node, name: str, args):
        low.evaluate(args)
        tcp = _socket_kind(_kind_of(name, [compact(a) for a in args], self.catalogue), self.known)
        return Fresh(tcp, "high" if tcp is not None else "medium")

    def _accept(self, low: Lowering, node, name: str, args):
        listener = low.conn_for(args[0], "medium") if args else None
        low.evaluate(args[1:])
        info = low.conns.get(listener.key) if listener else None
        if (info is not None and info.tcp is False) or (len(args) > 1 and self._local_peer(low, args[1])):
            return Fresh(False, "high")
        return Fresh(True if info and info.tcp else None, "high" if info and info.tcp else "medium")

    def _local_peer(self, low: Lowering, address) -> bool:
        """Whether an accept's address buffer is declared as a local peer's (`struct sockaddr_un
        peer; accept(lfd, (struct sockaddr *)&peer, &len)`): the listener is a Unix domain one,
        wherever it was made."""
        named = _ADDRESS_NAME.search(compact(address))
        declared = low.types.get(named.group(1), "") if named else ""
        return any(word in declared for word in self.catalogue.no_nagle_addresses)

    def _not_tcp(self, low: Lowering, node, name: str, args):
        low.evaluate(args)
        return NOT_CONN

    def _make_pair(self, low: Lowering, node, name: str, args):
        low.evaluate(args)
        at = self.catalogue.pair_makers[name]
        if len(args) > at:
            arr = compact(args[at])
            low.env[arr + "[]"] = NOT_CONN
            for i in (0, 1):
                low.env[f"{arr}[{i}]"] = NOT_CONN
        return None

    def _wrap(self, low: Lowering, node, name: str, args):
        if not args:
            return self._outside(low, node, name, args)
        h = low.conn_for(args[0], "low")
        mode = text(args[1]) if len(args) > 1 else ""
        if h is None:
            return NOT_CONN
        return Handle(h.key, buffered=any(c in mode for c in "wa+"))

    def _set_buffer(self, low: Lowering, node, name: str, args):
        if len(args) < 3:
            return self._outside(low, node, name, args)
        h = low.expr(args[0])
        if isinstance(h, Handle) and self.catalogue.buffer_setters[name] in text(args[2]):
            low.assign(compact(args[0]), Handle(h.key, buffered=False))
        return None

    def _bind(self, low: Lowering, node, name: str, args):
        if len(args) < 2:
            return self._outside(low, node, name, args)
        h = low.conn_for(args[1], "medium")
        if h is not None:
            low.assign(compact(args[0]), h)
        return None

    def _descriptor(self, low: Lowering, name: str, args) -> Handle | None:
        """The connection a call on a descriptor (or a TLS session) is made on,
        its other arguments evaluated; a datagram's address makes it no TCP."""
        cat = self.catalogue
        index = cat.connection_argument.get(name, 0)
        if len(args) <= index:
            return None
        h = low.conn_for(args[index], "medium" if name in cat.socket_only else "low")
        low.evaluate(args[index + 1:])
        if h is not None and name in cat.addressed and _addressed([raw(a) for a in args], cat.stream_flags):
            # sent to, or read from, an address: a datagram
            info = low.conns.get(h.key)
            if info is not None and info.tcp is None:
                low.conns[h.key] = ConnInfo(info.name, False, "high", info.origin)
        return h

    def _send(self, low: Lowering, node, name: str, args):
        h = self._descriptor(low, name, args)
        if h is None:
            return None
        at = self.catalogue.count_argument.get(name)
        if at is not None and at < len(args) and raw(args[at]).strip() == b"0":
            return Sent(h.key)  # no data (TCP Fast Open's connect: `sendto(fd, "", 0, MSG_FASTOPEN, ...)`)
        more = self._more(low, name, args)
        low.send(h, node, self._count(low, name, args), more=more,
                 more_if=None if more else self._more_if(low, self._flags(name, args)))
        return Sent(h.key)

    def _count(self, low: Lowering, name: str, args) -> str:
        """The size a send's or read's byte count says, where the catalogue tells which argument it is."""
        at = self.catalogue.count_argument.get(name)
        return _size(low, args[at]) if at is not None and at < len(args) else UNKNOWN

    def _flags(self, name: str, args):
        """A socket send's flags, where the catalogue says it takes them."""
        at, given_with = self.catalogue.flags_argument.get(name, (None, None))
        return args[at] if at is not None and len(args) >= given_with else None

    def _more(self, low: Lowering, name: str, args) -> bool:
        return _more(self._flags(name, args), _more_words(low.unit.src.data, self.catalogue.more_flags))

    def _more_if(self, low: Lowering, flags) -> tuple[str, str | None, bool] | None:
        """`Send.more_if` of a send whose flags are a parameter passed on (`send(fd, buf, n,
        flags)`), or a local variable given MSG_MORE only where a parameter says
        (`if (flags & NET_F_MORE) sflags |= MSG_MORE;`, `if (more) sflags = MSG_MORE;`)."""
        flags = _unwrapped_value(flags)
        if flags is None or flags.type != "identifier":
            return None
        name = text(flags)
        low.passes_params = True  # whether the parameter is steady: see `Function.steady`
        if name in low.params:
            return name, MORE_FLAG, False
        if name not in low.declared or low.node is None:
            return None
        words = _more_words(low.unit.src.data, self.catalogue.more_flags)
        tests = {_more_test(low, given, words) for given in _more_given(low.node, name, words)}
        test = tests.pop() if len(tests) == 1 else None  # (None when a MSG_MORE is given otherwise)
        return (*test, True) if test is not None else None

    def steady_params(self, low: Lowering, node) -> frozenset:
        return frozenset(low.params - low.rebound)

    def flag_words(self, low: Lowering, arg_nodes) -> tuple:
        words, found = None, []
        for a in arg_nodes:
            a = _unwrapped_value(a)
            kind, name = (a.type, text(a)) if a is not None and a.type in _FLAG_TYPES else (None, "")
            if name in low.params:
                found.append(name)  # passed on as the caller was given it, where it is steady
            elif kind == "binary_expression" or kind == "identifier" and _FLAG_NAME.match(name):
                if words is None:
                    words = _more_words(low.unit.src.data, self.catalogue.more_flags)
                found.append(_flag_names(a, words))
            else:
                found.append(None)
        return tuple(found) if any(f is not None for f in found) else ()

    def _send_file(self, low: Lowering, node, name: str, args):
        h = self._descriptor(low, name, args)
        if h is None:
            return None
        low.send(h, node, UNKNOWN)
        return Sent(h.key)

    def _gather(self, low: Lowering, node, name: str, args):
        h = self._descriptor(low, name, args)
        if h is None:
            return None
        more = self._more(low, name, args)
        low.send(h, node, UNKNOWN, gather=True, more=more,
                 more_if=None if more else self._more_if(low, self._flags(name, args)))
        return Sent(h.key)

    def _read(self, low: Lowering, node, name: str, args):
        h = self._descriptor(low, name, args)
        if h is None:
            return None
        low.recv(h, node, self._count(low, name, args))
        return Received(h.key)

    def _untold_read(self, low: Lowering, node, name: str, args):
        """A read of a size not told: a gathering read, or a TLS handshake (an exchange with
        the peer: what was sent before it is answered, not held)."""
        h = self._descriptor(low, name, args)
        if h is not None:
            low.recv(h, node, UNKNOWN)
        return None

    def _shutdown(self, low: Lowering, node, name: str, args):
        h = self._descriptor(low, name, args)
        if h is not None and (len(args) < 2 or "SHUT_RD" != compact(args[1])):
            low.push(h, node)
        return None

    def _close(self, low: Lowering, node, name: str, args):
        h = self._descriptor(low, name, args)
        if h is not None:
            low.push(h, node)
        return None

    def _set_option(self, low: Lowering, node, name: str, args):
        h = self._descriptor(low, name, args)
        if h is None or len(args) < 4:
            return None
        opt = text(args[2])
        option = next((kind for word, kind in self.catalogue.options.items() if word in opt), None)
        if option:
            low.set_option(h, option, args[3], node)
        else:  # setsockopt(fd, o->level, o->name, &o->value, ...): a row of an option table
            low.option_table(h, args[2], args[3], node)
        return None

    def _stream_call(self, low: Lowering, node, name: str, args) -> None:
        """A write, read, flush or close of a stdio stream."""
        cat = self.catalogue
        index = cat.connection_argument.get(name, 0)
        if len(args) <= index:
            low.evaluate(args)
            return
        for i, a in enumerate(args):
            if i != index:
                low.expr(a)
        h = low.expr(args[index])
        if h is None and _streams_made(low.unit) and self.stream_over(low, low.fe_key(args[index]) or "") is not None:
            h = low.conn_for(args[index])  # `c->out`, a stream the file opens over `c->fd`
        if not isinstance(h, Handle):
            return
        if name in cat.stream_writes:
            low.send(h, node, ONE if name in cat.one_byte_writes else UNKNOWN)
        elif name in cat.stream_reads:
            low.recv(h, node)
        elif name in cat.flushes:
            low.flush(h, node)
        else:
            low.close(h, node)

    # The handler of each kind of call (see `_Known.kinds`).
    CALLS = {"exit": _exit, "sleep": _sleep, "readiness_wait": _readiness_wait, "watch_adder": _watch,
             "tcp_maker": _make_socket, "accept": _accept, "not_tcp": _not_tcp,
             "pair_maker": _make_pair, "wrapper": _wrap, "buffer_setter": _set_buffer, "binder": _bind,
             "send": _send, "file_send": _send_file, "gather_send": _gather, "read": _read,
             "gather_read": _untold_read, "handshake": _untold_read, "shutdown": _shutdown, "close": _close,
             "option_setter": _set_option, "stream": _stream_call}

    def render(self, data: bytes, proposals) -> list:
        """Each proposed fix as edits of the file (see fixes.py), or None."""
        from .c_render import render

        return render(self, data, proposals)


class _Known:
    """What the lowering derives from a catalogue, once."""

    def __init__(self, cat):
        self.cat = cat
        self.stream_calls = cat.stream_writes | cat.stream_reads | cat.flushes | cat.stream_closes
        self.tcp_families = {w for w in cat.plain_tcp_words if not w.startswith("SOCK_")}
        self.tcp_types = cat.plain_tcp_words - self.tcp_families
        self.not_tcp_endings = tuple(cat.not_tcp_endings)
        # What tells that a file makes TCP connections: an accept, or a stream socket.
        self.tcp_made = re.compile(b"|".join([rb"\b(?:" + "|".join(sorted(cat.accepts, key=len, reverse=True)).encode()
                                              + rb")\s*\("] + [re.escape(t.encode()) for t in sorted(self.tcp_types)]))
        self._named = {**dict.fromkeys(cat.named_sends, "send"), **dict.fromkeys(cat.named_reads, "read")}
        self.containers = tuple(sorted(cat.containers.items()))
        self.container_endings = tuple(cat.container_endings)
        # Call name -> its kind (see `CFrontend.CALLS`); where a name is of
        # several, the first kind below.
        kinds = (("exit", cat.exits), ("sleep", cat.sleeps), ("readiness_wait", cat.readiness_waits), ("watch_adder", cat.watch_adders),
                 ("tcp_maker", cat.tcp_makers), ("accept", cat.accepts),
                 ("not_tcp", cat.not_tcp), ("pair_maker", cat.pair_makers), ("wrapper", cat.wrappers),
                 ("buffer_setter", cat.buffer_setters), ("binder", cat.binders), ("send", cat.sends),
                 ("file_send", cat.file_sends), ("gather_send", cat.gather_sends), ("read", cat.reads),
                 ("gather_read", cat.gather_reads), ("handshake", cat.handshakes), ("shutdown", cat.shutdowns),
                 ("close", cat.closes), ("option_setter", cat.option_setters), ("stream", self.stream_calls))
        self.kinds = {name: kind for kind, names in reversed(kinds) for name in names}
        # Where a file makes the endpoints its members and globals hold (see `_made_kinds`).
        names = sorted(cat.tcp_makers | cat.accepts | set(cat.pair_makers) | cat.addressed, key=len, reverse=True)
        self.makers = re.compile(rb"\b(" + "|".join(names).encode() + rb")\s*\(")
        self.maker_stems = tuple(n.encode() for n in stems(names))
        # A file, a pipe or the like assigned (`log_fd = open(...)`): found from the `=` (a pattern
        # starting with a name as common as `open` took twice as long).
        files = sorted(cat.not_tcp, key=len, reverse=True)
        self.files_made = re.compile(rb"=[ \t]*(?:\([\w\s]+\)[ \t]*)?(" + "|".join(files).encode() + rb")\s*\(")
        self.made_value = re.compile(rb"(?:" + "|".join(names + files).encode() + rb")\s*\(")

    def named_kind(self, name: str) -> str | None:
        """"send" or "read" where a word of a name after its first says one of them (and none
        the other): a wrapper of a namespace or a compatibility layer (`bt_send_nosigpipe`,
        `net_recv`; not the project's own `send_connack`, nor a macro's name in capitals:
        a macro defined in a linted file is no function the project knows)."""
        if name.isupper():
            return None
        kinds = {self._named.get(w.lower()) for w in _WORDS.findall(name)[1:]} - {None}
        return next(iter(kinds)) if len(kinds) == 1 else None


# The words of a name: `bt`, `send`, `nosigpipe` of `bt_send_nosigpipe`; `Net`, `Write` of `redisNetWrite`.
_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+")


def _socket_kind(spec: list[str], known: _Known) -> bool | None:
    """TCP (True), no Nagle (False) or unknown, from socket()'s domain and type."""
    if any(f in a for a in spec for f in known.cat.no_nagle_words):
        return False
    if len(spec) > 1 and spec[0] in known.tcp_families and any(t in spec[1] for t in known.tcp_types):
        return True
    return None


def _kind_of(maker: str, args: list[str], cat) -> list[str]:
    """A maker's family and type as written, where the catalogue says it takes them (else none)."""
    return [args[i] if i < len(args) else "" for i in cat.kind_arguments.get(maker, ())]


def _more(flags, words) -> bool:
    """Whether a send's flags hold the data for more (MSG_MORE, or a name the file defines to it)."""
    return flags is not None and any(f in text(flags) for f in words)


@lru_cache(maxsize=4)
def _more_words(data: bytes, more_flags: frozenset[str]) -> frozenset[str]:
    """`more_flags` and the names the file defines to one of them (`#define NET_MORE MSG_MORE`)."""
    if not any(f.encode() in data for f in more_flags):
        return more_flags
    flag = b"|".join(re.escape(f.encode()) for f in sorted(more_flags))
    defined = re.finditer(rb"#[ \t]*define[ \t]+(\w+)[ \t]+[^\n]*?\b(?:" + flag + rb")\b", data)
    return more_flags | {m.group(1).decode("latin-1") for m in defined}


# A word of a macro's body: a parameter is replaced by what the use gives it.
_TOKEN = re.compile(r"\w+")
# What a macro's expansion is given to where the use's result is looked at.
_USED = "_"
# The file's facts (`Unit.facts`) key of the macros being expanded.
_EXPANDING = "expanding macros"


# A function-like macro whose body starts by calling another with one of its parameters first:
# `#define frconn_of_conn(conn) esp_container_of(conn, RtosConnType, connData)`.
_MACRO_CALL = re.compile(rb"#[ \t]*define[ \t]+(\w+)\(([\w \t,]*)\)[ \t]+\(?[ \t]*(\w+)[ \t]*\([ \t]*\(?[ \t]*(\w+)")


@lru_cache(maxsize=4)
def _containers(data: bytes, containers: tuple[tuple[str, int], ...], endings: tuple[str, ...]) -> dict[str, int]:
    """`containers` (name -> the index of the member's pointer) and the macros the file defines
    to one of them or to a name ending like one, by the index of the parameter they pass on."""
    found = dict(containers)
    if b"define" in data:
        for m in _MACRO_CALL.finditer(data):
            callee, first = m.group(3).decode("latin-1"), m.group(4).decode("latin-1")
            params = [p.strip().decode("latin-1") for p in m.group(2).split(b",")]
            if (callee in found or callee.endswith(endings)) and first in params:
                found[m.group(1).decode("latin-1")] = params.index(first)
    return found


def _set_name(node) -> str | None:
    """The variable an argument like `&readfds` or `rfds` names, else None."""
    node = _unwrapped_value(node)
    if node is not None and node.type == "pointer_expression" and text(node.children[0]) == "&":
        node = node.child_by_field_name("argument")
    return text(node) if node is not None and node.type == "identifier" else None


def _unwrapped_value(node):
    """An expression out of its parentheses and casts."""
    while node is not None and node.type in ("parenthesized_expression", "cast_expression"):
        node = node.child_by_field_name("value") or (node.named_children[-1] if node.named_children else None)
    return node


# What flags are written as: a name, or names joined by `|`.
_FLAG_TYPES = frozenset({"identifier", "binary_expression"})
# A flag's name: a constant's capitals (`NET_F_MORE`, `MSG_NOSIGNAL`).
_FLAG_NAME = re.compile(r"[A-Z][A-Z0-9_]*$")


def _flag_names(node, more_words) -> frozenset | None:
    """See `Call.flags`: the names flags are made of, where they are nothing but names
    joined by `|` (MORE_FLAG for a name of MSG_MORE)."""
    node = _unwrapped_value(node)
    if node is None:
        return None
    if node.type == "identifier":
        name = text(node)
        return frozenset({MORE_FLAG if name in more_words else name}) if _FLAG_NAME.match(name) else None
    if node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "|":
        left = _flag_names(node.child_by_field_name("left"), more_words)
        right = _flag_names(node.child_by_field_name("right"), more_words) if left is not None else None
        return left | right if right is not None else None
    return None


def _more_given(fn, name: str, more_words):
    """The values of MSG_MORE given to the local variable `name` in the function: the
    assignments (`=`, `|=`) and the declaration whose value names one of `more_words`."""
    for n in descendants(fn):
        if n.type == "assignment_expression":
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if left.type == "identifier" and text(left) == name and text(n.child_by_field_name("operator")) != "&=" \
                    and _names_more(right, more_words):
                yield _more_value(right, more_words)
        elif n.type == "init_declarator":
            value = n.child_by_field_name("value")
            if value is not None and _declared_name(n.child_by_field_name("declarator")) == name \
                    and _names_more(value, more_words):
                yield _more_value(value, more_words)


def _names_more(node, more_words) -> bool:
    return any(w in text(node) for w in more_words)


def _more_value(value, more_words):
    """Of a value naming MSG_MORE, the part that does: a conditional's branch (`more ? MSG_MORE : 0`)."""
    value = _unwrapped_value(value)
    if value is not None and value.type == "conditional_expression":
        then, other = value.child_by_field_name("consequence"), value.child_by_field_name("alternative")
        if then is not None and other is not None and not _names_more(other, more_words):
            return then
    return value


def _more_test(low: Lowering, given, more_words) -> tuple[str, str | None] | None:
    """(parameter, flag) where MSG_MORE is given only where a parameter holds a flag
    (`if (flags & NET_F_MORE)`: NET_F_MORE) or is true (`if (more)`, `more ? MSG_MORE : 0`:
    None); else None."""
    cond = _unwrapped_value(_guard(given))
    if cond is not None and cond.type == "identifier":
        return (text(cond), None) if text(cond) in low.params else None
    if cond is None or cond.type != "binary_expression" or text(cond.child_by_field_name("operator")) != "&":
        return None
    sides = [_unwrapped_value(cond.child_by_field_name(f)) for f in ("left", "right")]
    names = [text(n) if n is not None and n.type == "identifier" else "" for n in sides]
    param = next((n for n in names if n in low.params), None)
    flag = next((n for n in names if n != param and _FLAG_NAME.match(n)), None)
    return (param, MORE_FLAG if flag in more_words else flag) if param and flag else None


def _guard(node):
    """The condition under which the function runs `node`: of the nearest `if` or conditional
    whose first branch holds it; None where it always runs."""
    while node is not None:
        parent = node.parent
        if parent is None or parent.type == "function_definition":
            return None
        if parent.type in ("if_statement", "conditional_expression") and parent.child_by_field_name("consequence") == node:
            return parent.child_by_field_name("condition")
        node = parent
    return None


_TARGET = rb"([A-Za-z_][\w.\->\[\] \t]*?)"
_CAST = re.compile(rb"\([\w\s]+\)$")
_LEADING_CAST = re.compile(rb"^(?:\(\s*[\w\s]+\)\s*)*")
_ASSIGNED = re.compile(rb"([A-Za-z_][\w.\->\[\]]*)$")
_FILLED = re.compile(rb"&?\s*([A-Za-z_][\w.\->\[\] \t]*)")


_OPENS_CALL = re.compile(rb"\s*\(")
# A member and the object it belongs to (`fd` and `zh->fd` of `zh->fd->sock`), blanks removed.
_SAME_BASE_MEMBER = re.compile(rb"&?([A-Za-z_][\w.\->\[\]]*?)(?:->|\.)([A-Za-z_]\w*)")


def _calls_of(data: bytes, name: bytes):
    """The arguments of each call of the function `name` in the file's bytes."""
    at = data.find(name)
    while at >= 0:
        opened = _OPENS_CALL.match(data, at + len(name))
        if opened and not (at and data[at - 1] in WORD_BYTES):
            yield _arguments(data, opened.end())
        at = data.find(name, at + len(name))


def _session_over(args) -> tuple[str, str] | None:
    """(session member, socket member) of a binder's call that makes a TLS session held in a
    member over the socket held in another member of the same object (`SSL_set_fd(c->ssl, c->fd)`)."""
    if len(args) < 2:
        return None
    session, socket = (_SAME_BASE_MEMBER.fullmatch(b"".join(a.split())) for a in args[:2])
    if session and socket and session.group(1) == socket.group(1):
        return session.group(2).decode(), socket.group(2).decode()
    return None


_NO_ADDRESS = re.compile(rb"\s*(?:\(\s*[\w\s]+\*\s*\)\s*)?(?:NULL|0|nullptr)\s*$")


def _addressed(args: list[bytes], stream_flags) -> bool:
    """Whether a sendto()/recvfrom() (its arguments' text) is given the peer's address (not
    NULL), as a datagram socket's are: not with a stream's flag (`MSG_FASTOPEN`)."""
    return len(args) > 4 and _NO_ADDRESS.match(args[4]) is None \
        and not any(flag.encode() in args[3] for flag in stream_flags)


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


# A member compared with several states (numbers or constants' names: `p->phase == 3`,
# `c->state == ST_AUTH`), and given a state or stepped (`p->phase = 0`, `++p->phase`,
# `c->state = ST_READY`): a state machine's phase is kept in the object it drives (a local
# compared with a number is most often a result code, a member compared with one value a flag).
# The comparisons are found from their `==` (a pattern starting with a name is tried at every byte).
_MEMBER_NAME = rb"[A-Za-z_]\w*(?:(?:->|\.)[A-Za-z_]\w*)+"
_CONSTANT_NAME = r"(?!NULL\b)[A-Z][A-Z0-9_]*\b"  # NULL: no state, a pointer's absence
_STATE = rb"(?:\d\w*|" + _CONSTANT_NAME.encode() + rb")"
_EQUALS_STATE = re.compile(rb"==[ \t]*(" + _STATE + rb")")
_CONSTANT = re.compile(_CONSTANT_NAME)


def _state_value(node) -> int | str | None:
    """A state as a condition or an assignment writes it: a number, or a constant's name."""
    if node is None:
        return None
    if node.type == "number_literal":
        return int_literal(text(node))
    return text(node) if node.type == "identifier" and _CONSTANT.fullmatch(text(node)) else None


def _values_tested(low: Lowering) -> frozenset[str]:
    """The members the function being lowered compares with several states and gives states
    or steps (a state machine's phase): what is given to them is lowered (see `Hold`), and
    nothing else's."""
    tested = low.__dict__.get("values_tested")
    if tested is None:
        node = low.node
        data = low.unit.src.data[node.start_byte:node.end_byte] if node is not None else b""
        states: dict[bytes, set] = {}
        for m in _EQUALS_STATE.finditer(data):
            member = _member_before(data, m.start())
            if member is not None:
                states.setdefault(member, set()).add(m.group(1))
        tested = frozenset(k.decode("latin-1") for k, v in states.items() if len(v) > 1 and _stepped(data, k))
        low.__dict__["values_tested"] = tested
    return tested


def _member_before(data: bytes, end: int) -> bytes | None:
    """The member (`p->phase`, `c.state`) that ends where `end` is (but for blanks), if any."""
    while end > 0 and data[end - 1] in b" \t":
        end -= 1
    start = end
    while start > 0 and (data[start - 1] in WORD_BYTES or data[start - 1] == 46):  # `.`
        start -= 1
        if data[start - 2:start] == b"->":
            start -= 2
    name = data[start:end]
    return name if _MEMBER.fullmatch(name) else None


_MEMBER = re.compile(_MEMBER_NAME)


def _stepped(data: bytes, member: bytes) -> bool:
    """Whether `data` gives the member a state or steps it (`p->phase = 2`, `++p->phase`)."""
    name = re.escape(member)
    return re.search(name + rb"[ \t]*(?:\+\+|--|[-+]?=(?!=)[ \t]*" + _STATE + rb")", data) is not None \
        or re.search(rb"(?:\+\+|--)[ \t]*" + name + rb"(?![\w.]|->)", data) is not None


@per_file
def _made_in_file(unit) -> dict[str, bool | None]:
    return _made_kinds(unit.src.data, unit.fe.known)


@per_file
def _streams_made(unit) -> dict[str, str]:
    """Member -> the member of the same object every stream the file makes for it is opened over
    (`c->out = fdopen(c->fd, "w")`: `out` -> `fd`, for each of the catalogue's `wrappers`): writes
    on it wait in the stream for a flush."""
    data, found = unit.src.data, {}
    for wrapper in unit.fe.catalogue.wrappers:
        name = wrapper.encode()
        opened_over = re.compile(re.escape(name) + _OPENED_OVER)
        at = data.find(name)
        while at >= 0:  # each call found by its name first: a pattern tried at every byte costs a tenth of a lowering
            opened, stream = opened_over.match(data, at), _STREAM_SET.search(data, max(0, at - 100), at)
            if opened is not None and stream is not None and stream.group(1) == opened.group(1):  # one object's
                found.setdefault(stream.group(3).decode("latin-1"), set()).add(opened.group(3).decode("latin-1"))
            at = data.find(name, at + len(name))
    return {member: next(iter(over)) for member, over in found.items() if len(over) == 1}


# `c->out = fdopen(c->fd, ...)`, read from the wrapper's name: the member set to it (before), and,
# after the name, the member it is opened over; groups 1-3 the object, the access, the member.
_STREAM_SET = re.compile(rb"(\w+)\s*(->|\.)\s*(\w+)\s*=\s*\Z")
_OPENED_OVER = rb"\s*\(\s*(\w+)\s*(->|\.)\s*(\w+)\s*,"
# The buffer an address argument points to, past a cast (`(struct sockaddr *)&peer`, `sa`).
_ADDRESS_NAME = re.compile(r"(?:\([^()]*\))?&?(\w+)$")
# A member of a variable (`c->out`, `s.out`): the variable, the access, the member.
_MEMBER_KEY = re.compile(r"(\w+)(->|\.)(\w+)")


@per_file
def _polls_tcp(unit) -> bool:
    """Whether the file's event loop hands out TCP connections."""
    data = unit.src.data
    return bool(POLLERS.search(data) and unit.fe.known.tcp_made.search(data))


def _made_kinds(data: bytes, known: _Known) -> dict[str, bool | None]:
    """Member or global name -> whether every endpoint the file makes for it is TCP (True) or
    has no Nagle (False), or None where it is made both without Nagle and otherwise (the
    `AF_UNIX` arm of an `#if` and the TCP one of its `#else`: a platform's own kind); other
    names made of several kinds, or of a kind not told (accept), are left out.

    Where a file makes the endpoints its members and globals hold: `c->fd = socket(AF_INET, SOCK_DGRAM, 0)`,
    `g_fd = accept(...)`, `socketpair(AF_UNIX, SOCK_STREAM, 0, w->pair)`, `pipe(b.wake)`,
    `log_fd = open(path, ...)` (a file, as every call of `not_tcp` makes). The calls are
    found first (a pattern tried at every byte of the file took as long as the rest of the lowering)."""
    kinds: dict[str, set] = {}
    for m in chain(_maker_calls(data, known), known.files_made.finditer(data)):
        target, tcp = _made_target(data, m, known)
        if target is not None:
            kinds.setdefault(_made_name(target.group(1).decode("latin-1")), set()).add(tcp)
    told = {name: next(iter(k)) if len(k) == 1 else None for name, k in kinds.items()
            if name and (len(k) == 1 and None not in k or False in k)}
    return {name: tcp for name, tcp in told.items() if not _given_another_value(data, name, known)}


def _maker_calls(data: bytes, known: _Known):
    """The matches of `known.makers`, in order: the pattern is tried only where a
    word starts with one of the makers' names (tried at every byte, it took a
    tenth of the lowering of a big file)."""
    starts = set()
    for stem in known.maker_stems:
        at = data.find(stem)
        while at >= 0:
            if not (at and data[at - 1] in WORD_BYTES):
                starts.add(at)
            at = data.find(stem, at + len(stem))
    return filter(None, (known.makers.match(data, at) for at in sorted(starts)))


def _made_target(data: bytes, maker_call: re.Match, known: _Known) -> tuple[re.Match | None, bool | None]:
    """What a maker's call fills (a match whose group 1 is the name), and whether it is TCP
    (True), has no Nagle (False), or is not told (None)."""
    cat, maker, args = known.cat, maker_call.group(1).decode(), _arguments(data, maker_call.end())
    if maker in cat.pair_makers:  # the array of descriptors
        at = cat.pair_makers[maker]
        return (_FILLED.fullmatch(args[at].strip()) if at < len(args) else None), False
    if maker in cat.addressed:  # used with an address: a datagram socket
        return (_FILLED.fullmatch(args[0].strip()) if _addressed(args, cat.stream_flags) else None), False
    at = maker_call.start(1)
    head = _CAST.sub(b"", data[max(0, at - 200):at].rstrip()).rstrip()
    assigned = head.endswith(b"=") and head[-2:-1] not in (b"=", b"!", b"<", b">")
    target = _ASSIGNED.search(head[:-1].rstrip()) if assigned else None
    if maker in cat.not_tcp:  # a file, a pipe, an in-memory stream: no Nagle
        return target, False
    if maker not in cat.tcp_makers:
        return target, None
    return target, _socket_kind(_kind_of(maker, [b"".join(a.split()).decode("latin-1") for a in args], cat), known)


def _given_another_value(data: bytes, name: str, known: _Known) -> bool:
    """Whether the file also gives `name` a value other than a made endpoint (`ev.data.fd = cfd`,
    `c->fd = fd`): it then holds more than what the file makes, and tells nothing (`-1` and the
    like mark a closed one, and are no other value; of a chained `a = b = -1`, the value is the last)."""
    for m in re.finditer(rb"\b" + re.escape(name.encode()) + rb"\s*(?:\[[^\]\n]*\]\s*)?=(?!=)([^;]*)", data):
        value = _CHAINED.split(m.group(1))[-1].strip()
        if not (known.made_value.match(_LEADING_CAST.sub(b"", value)) or SENTINEL.match(value.decode("latin-1"))):
            return True
    return False


# The `=` of an assignment (not `==`, `!=`, `<=`, `>=`).
_CHAINED = re.compile(rb"(?<![=!<>])=(?!=)")
# The statements whose body goes round: a `goto` forward inside one goes round too (see `_goto`).
_LOOPS = frozenset({"for_statement", "while_statement", "do_statement"})
_EXITS = frozenset({"return_statement", "break_statement", "continue_statement", "goto_statement"})
# Where the limit stands in `size < LIMIT`, `LIMIT > size`.
_LIMIT_SIDE = {"<": "right", "<=": "right", ">": "left", ">=": "left"}


def _lets_large_through(node, data: bytes) -> bool:
    """`if (size < LIMIT) return ...;` (or break, continue, goto), LIMIT a number or a
    file's `#define` of FULL_SIZE or more: only a message of LIMIT bytes or more gets past it."""
    body = node.child_by_field_name("consequence")
    last = body.named_children[-1] if body is not None and body.type == "compound_statement" \
        and body.named_children else body
    cond = node.child_by_field_name("condition")
    while cond is not None and cond.type == "parenthesized_expression" and cond.named_children:
        cond = cond.named_children[0]
    if last is None or last.type not in _EXITS or cond is None or cond.type != "binary_expression":
        return False
    side = _LIMIT_SIDE.get(text(cond.child_by_field_name("operator")))
    limit = cond.child_by_field_name(side) if side else None
    if limit is None:
        return False
    value = int_literal(text(limit)) if limit.type == "number_literal" else \
        _large_defines(data).get(text(limit)) if limit.type == "identifier" else None
    return value is not None and value >= FULL_SIZE


# A number defined (`#define MAX_PACKET 0xffffff`), found from its `#` (a pattern starting with `^`
# is tried at every byte).
_DEFINE = re.compile(rb"#[ \t]*define[ \t]+(\w+)[ \t]+\(?[ \t]*(\d\w*)[ \t]*\)?[ \t]*(?:/[/*][^\n]*)?$", re.M)


@lru_cache(maxsize=4)
def _large_defines(data: bytes) -> dict[str, int]:
    """The file's `#define NAME number` of FULL_SIZE or more, by name."""
    found = {}
    for m in _DEFINE.finditer(data):
        value = int_literal(m.group(2).decode("latin-1"))
        if value is not None and value >= FULL_SIZE:
            found[m.group(1).decode("latin-1")] = value
    return found


def _directive_in_error(node) -> bool:
    """Whether an error in `node` holds a preprocessor directive (an arm that split a statement)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" and any(c.type == "preproc_directive" or c.type.startswith("#") for c in n.children):
            return True
        stack.extend(c for c in n.children if c.has_error)
    return False


# A conditional's directive, with the lines a backslash continues it on.
_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|elifdef|elifndef|else|endif)\b(?:\\\r?\n|[^\n])*\n?",
                          re.M)


def _one_arm(data: bytes, start: int, end: int) -> list[tuple[int, int]] | None:
    """The byte ranges of data[start:end] that one build compiles: every conditional's
    directives left out (a directive inside a statement, `if (a == X` `#ifdef B` `|| b`
    `#endif` `)`, is no C), of each conditional the first arm kept (the one after an `#if 0`;
    an `#if 0` of one arm left out). None when the conditionals do not balance or there are none."""
    directives = [(m.start(), m.end(), m.group(1)) for m in _CONDITIONAL.finditer(data, start, end)]
    if not directives or not _balanced(directives):
        return None
    # The text between two directives is kept where every enclosing conditional is in its kept
    # arm ("keep"; "zero": in an `#if 0`; "done": past the kept arm).
    ranges, stack, at = [], [], start
    for a, b, word in directives:
        if all(s == "keep" for s in stack) and a > at:
            ranges.append((at, a))
        if word.startswith(b"if"):
            stack.append("zero" if word == b"if" and IF_ZERO.match(data, a, b) else "keep")
        elif word.startswith(b"el"):
            stack[-1] = "keep" if stack[-1] == "zero" else "done"
        else:
            stack.pop()
        at = b
    if at < end:
        ranges.append((at, end))
    return ranges


def _balanced(directives: list[tuple[int, int, bytes]]) -> bool:
    """Whether every conditional of the directives (start, end, word) that opens closes, and
    none closes or goes on that was not opened."""
    depth = 0
    for _, _, word in directives:
        if word.startswith(b"if"):
            depth += 1
        elif not depth:
            return False
        elif word == b"endif":
            depth -= 1
    return not depth


def _typed(typ: str, decl) -> str:
    """A declared name's type as written (blanks left out), `*` added for a pointer, `[]` for an array."""
    return typ + ("*" if decl is not None and decl.type == "pointer_declarator"
                  else "[]" if decl is not None and decl.type == "array_declarator" else "")


def _descriptor_type(typ: str) -> bool:
    """Whether a declared type may be a descriptor's (`int`, `SOCKET`, a project's own name for
    one, or not told): not a struct, nor a pointer, nor an array."""
    return not typ.endswith(("*", "[]")) and not typ.startswith(("struct", "union", "const"))


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
