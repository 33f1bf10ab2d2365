"""The golden dumps of tests/lowering/: a stable text form of a model, one
line a function, connection or statement, indented by nesting."""

from __future__ import annotations

from nagle_lint.model import HOLDS, UNKNOWN, Bind, Break, Call, Continue, FileModel, Hold, If, Loop, Pause, Recv, Return, Send, SetOption, Try


def dump(model: FileModel) -> str:
    """The model as the goldens hold it."""
    out: list[str] = []
    for fn in model.functions:
        defaults = fn.defaults or (None,) * len(fn.params)  # a constant default shows its truth (`noreply=False`)
        params = ", ".join(f"{p or '_'}={d}" if d is not None else p or "_" for p, d in zip(fn.params, defaults))
        aliases = "".join(f" {name}={param}" for name, param in fn.aliases)  # see `Function.aliases`
        out.append(f"function {fn.qualname}({params}) @{fn.site.line}{' callback' if fn.callback else ''}{aliases}")
        for key in sorted(fn.conns):
            c = fn.conns[key]
            tcp = {True: "tcp", False: "no-nagle", None: "tcp?"}[c.tcp]
            out.append(f"  conn {key} {tcp} {c.confidence} {c.origin}{' nodelay-default' if c.nodelay else ''}")
        _dump_block(fn.body, 1, out)
    return "\n".join(out) + "\n"


def _dump_block(stmts, depth: int, out: list[str]) -> None:
    for s in stmts:
        _DUMPS.get(type(s), _dump_leaf)(s, depth, out)


def _dump_branches(s, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    when = f" when {s.when[1]} == {s.when[2]}" if s.when and s.when[0] == HOLDS \
        else f" when {' '.join(map(str, s.when))}" if s.when and len(s.when) == 3 \
        else f" when {s.when[0]} is {s.when[1]}" if s.when else ""  # see `If.when`
    out.append(f"{pad}{'switch' if s.switch else 'if'}{'' if s.exhaustive else ' (may skip)'}{when} @{s.site.line}")
    for i, branch in enumerate(s.branches):
        out.append(f"{pad}  branch {i}")
        _dump_block(branch, depth + 2, out)


def _dump_loop(s, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    flags = [f for f, on in (("infinite", s.infinite), ("do", s.body_first)) if on]
    flags += [f"{name}={','.join(sorted(keys))}" for name, keys in (("varies", s.varies), ("polled", s.polled)) if keys]
    out.append(f"{pad}loop{' ' + ' '.join(flags) if flags else ''} @{s.site.line}")
    for name, block in (("head", s.head), ("body", s.body)):
        if block or name == "body":
            out.append(f"{pad}  {name}")
            _dump_block(block, depth + 2, out)


def _dump_try(s, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    out.append(f"{pad}try @{s.site.line}")
    _dump_block(s.body, depth + 1, out)
    for name, block in [*(("except", h) for h in s.handlers), ("else", s.orelse), ("finally", s.final)]:
        if block or name == "except":
            out.append(f"{pad}{name}")
            _dump_block(block, depth + 1, out)


def _dump_leaf(s, depth: int, out: list[str]) -> None:
    if isinstance(s, Return) and s.raised:
        text = f"raise @{s.site.line}"
    elif isinstance(s, Return) and s.value:
        text = f"return {s.value} @{s.site.line}"
    elif isinstance(s, (Return, Break, Continue)):
        text = f"{type(s).__name__.lower()} @{s.site.line}"
    else:
        text = _dump_event(s)
    out.append("  " * depth + text)


_DUMPS = {If: _dump_branches, Loop: _dump_loop, Try: _dump_try}


def _dump_event(e) -> str:
    line = f"@{e.site.line}"
    if isinstance(e, Send):
        flags = [f for f, on in (("buffered", e.buffered), ("gather", e.gather), ("more", e.more),
                                 ("partial", e.partial), ("rest", e.rest)) if on]
        if e.more_if is not None:  # see `Send.more_if`
            param, flag, own = e.more_if
            flags.append(f"more-if={param}{'&' + flag if flag else ''}{' own' if own else ''}")
        extra = (" " + " ".join(flags)) if flags else ""
        return f"send {e.conn} size={e.size}{extra} {line}"
    if isinstance(e, SetOption):
        value = e.value if e.value is not None or not e.value_param else f"param:{e.value_param}"
        why = "".join(f" {w}" for w, on in (("setting", e.setting), ("interactive", e.interactive)) if on)
        return f"setopt {e.conn} {e.option}={value}{why} {line}"
    if isinstance(e, Call):
        names = e.names or (None,) * len(e.args)  # an argument passed by name shows it (`noreply=_`)
        args = [(a or "*_" if n == "*" else f"{n}={a or '_'}") if n else a or "_" for a, n in zip(e.args, names)]
        args = ", ".join(f"{a}:{t}" if t else a for a, t in zip(args, e.types or (None,) * len(args)))  # see `Call.types`
        on = f" on {e.receiver}" if e.receiver else ""
        into = f"{e.result} = " if e.result else ""
        named = "".join(f", else {_dump_event(o).rsplit(' @', 1)[0]}" for o in e.otherwise)  # see `Call.otherwise`
        return f"call {into}{e.callee}({args}){on}{named} {line}"
    if isinstance(e, Bind) and e.dropped:
        return f"drop {e.conn} {line}"
    if isinstance(e, Pause):
        return f"pause {line}"
    if isinstance(e, Hold):
        told = f"= {e.value}" if e.value is not None else f"+= {e.step}" if e.step is not None else "= ?"
        return f"hold {e.key} {told} {line}"
    if isinstance(e, Recv) and e.size != UNKNOWN:
        return f"recv {e.conn} size={e.size} {line}"
    return f"{type(e).__name__.lower()} {e.conn} {line}"
