"""Generated source files of every shape that once made the dataflow's cost
grow with a power of the shape's size (issue 29), in each language: nested
loops, if/else-if ladders, nested try blocks, switches with many arms, long
straight-line code over many connections, and call chains (across files, with
recursion).  Each ends with an honest split write (two sends, then a read), so
that an analysis cut short shows as a missing finding.

`shape(name, language, size)` -> {path: source}."""

from __future__ import annotations

LANGUAGES = ("python", "c", "java")
EXT = {"python": "py", "c": "c", "java": "java"}


class _Lines:
    """Source lines with an indentation that follows the nesting."""

    def __init__(self, step: str):
        self.lines, self.depth, self.step = [], 0, step

    def add(self, text: str, indent: int = 0) -> None:
        self.depth += min(indent, 0)
        self.lines.append(self.step * self.depth + text)
        self.depth += max(indent, 0)

    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


def _send(lang: str, conn: str = "s", tag: int = 0) -> str:
    return {"python": f"{conn}.sendall(b'{tag}')", "c": f'send({conn}, "{tag}", 1, 0);',
            "java": f"{conn}.getOutputStream().write({tag});"}[lang]


def _recv(lang: str, conn: str = "s") -> str:
    return {"python": f"{conn}.recv(100)", "c": f"recv({conn}, buf, sizeof buf, 0);",
            "java": f"{conn}.getInputStream().read();"}[lang]


def _open(lang: str, conn: str = "s") -> str:
    return {"python": f"{conn} = socket.create_connection((host, 80))",
            "c": f"int {conn} = socket(AF_INET, SOCK_STREAM, 0);",
            "java": f"Socket {conn} = new Socket(host, 80);"}[lang]


def _function(lang: str, name: str, params: str = "host") -> tuple[str, str]:
    """(the opening line of a function, its closing line or '')."""
    if lang == "python":
        return f"def {name}({params}):", ""
    if lang == "c":
        cparams = ", ".join(("const char *" if p == "host" else "int ") + p for p in params.split(", "))
        return f"int {name}({cparams}) {{", "}"
    jparams = ", ".join({"host": "String ", "x": "int "}.get(p, "Socket ") + p for p in params.split(", "))
    return f"static int {name}({jparams}) throws Exception {{", "}"


def _file(lang: str, out: _Lines) -> str:
    head = {"python": "import socket\n\n", "c": "#include <sys/socket.h>\n\nstatic char buf[64];\n\n",
            "java": "import java.net.Socket;\n\nclass Stress {\n"}[lang]
    return head + out.text() + ("}\n" if lang == "java" else "")


def _block(lang: str, out: _Lines, opener: str) -> None:
    out.add(opener + (":" if lang == "python" else " {"), 1)


def _close(lang: str, out: _Lines) -> None:
    if lang == "python":
        _dedent(out)
    else:
        out.add("}", -1)


def _dedent(out: _Lines) -> None:
    out.depth -= 1


def _honest(lang: str, out: _Lines) -> None:
    """A function with the one split write every shape's file holds."""
    opener, closer = _function(lang, "honest")
    out.add(opener, 1)
    out.add(_open(lang))
    out.add(_send(lang, tag=1))
    out.add(_send(lang, tag=2))
    out.add(_recv(lang))
    out.add("return 0" + ("" if lang == "python" else ";"))
    if closer:
        out.add(closer, -1)
    else:
        _dedent(out)


def _cond(lang: str, i: int) -> str:
    return f"x > {i}" if lang == "python" else f"(x > {i})"


def _start(lang: str, out: _Lines, name: str = "stress") -> str:
    opener, closer = _function(lang, name, "host, x")
    out.add(opener, 1)
    out.add(_open(lang))
    return closer


def _end(lang: str, out: _Lines, closer: str) -> None:
    out.add(_recv(lang))
    out.add("return 0" + ("" if lang == "python" else ";"))
    if closer:
        out.add(closer, -1)
    else:
        _dedent(out)
    _honest(lang, out)


def nested_loops(lang: str, n: int) -> str:
    """`n` loops, each inside the one before, a send in each."""
    out = _Lines("    ")
    closer = _start(lang, out)
    for i in range(n):
        _block(lang, out, "while " + _cond(lang, i))
        out.add(_send(lang, tag=i))
    out.add(_recv(lang))
    for _ in range(n):
        _close(lang, out)
    _end(lang, out, closer)
    return _file(lang, out)


def ladder(lang: str, n: int) -> str:
    """An if / else-if ladder of `n` arms, a send in each, inside a loop."""
    out = _Lines("    ")
    closer = _start(lang, out)
    _block(lang, out, "while " + _cond(lang, -1))
    for i in range(n):
        keyword = "if" if i == 0 else ("elif" if lang == "python" else "} else if")
        out.depth -= 1 if i else 0
        _block(lang, out, keyword + " " + _cond(lang, i))
        out.add(_send(lang, tag=i))
        if i % 3 == 2:
            out.add(_recv(lang))
    _close(lang, out)
    _close(lang, out)
    _end(lang, out, closer)
    return _file(lang, out)


def nested_try(lang: str, n: int) -> str:
    """`n` try blocks, each in the one before's finally block (C: an if in
    the one before's cleanup), each with a send and an early return."""
    out = _Lines("    ")
    closer = _start(lang, out)
    for i in range(n):
        if lang == "c":
            _block(lang, out, "if " + _cond(lang, i))
            out.add(_send(lang, tag=i))
            out.add(f"if (x == {i}) return {i};")
            out.add(f"if (x == -{i}) goto cleanup{i};")
            _close(lang, out)
            out.add(f"cleanup{i}:")
            continue
        _block(lang, out, "try")
        out.add(_send(lang, tag=i))
        out.add(f"if x == {i}: return {i}" if lang == "python" else f"if (x == {i}) return {i};")
        if lang == "python":
            _dedent(out)
            out.add("finally:", 1)
        else:
            out.depth -= 1
            out.add("} finally {", 1)
    out.add(_send(lang, tag=n))
    if lang != "c":
        for _ in range(n):
            _close(lang, out)
    _end(lang, out, closer)
    return _file(lang, out)


def switch(lang: str, n: int) -> str:
    """A switch (Python: match) of `n` arms inside a loop, a send in each,
    some falling through (C, Java)."""
    out = _Lines("    ")
    closer = _start(lang, out)
    _block(lang, out, "while " + _cond(lang, -1))
    _block(lang, out, "match x" if lang == "python" else "switch (x)")
    for i in range(n):
        if lang == "python":
            out.add(f"case {i}:", 1)
            out.add(_send(lang, tag=i))
            _dedent(out)
        else:
            out.add(f"case {i}:", 1)
            out.add(_send(lang, tag=i))
            if i % 2:
                out.add("break;")
            out.depth -= 1
    _close(lang, out)
    out.add(_recv(lang))
    _close(lang, out)
    _end(lang, out, closer)
    return _file(lang, out)


def straight(lang: str, n: int) -> str:
    """`n` straight-line statements over ten connections: sends, reads,
    option changes, each connection passed to a helper now and then."""
    out = _Lines("    ")
    opener, hcloser = _function(lang, "helper", "c")
    out.add(opener, 1)
    out.add(_send(lang, "c", 9))
    out.add("return 0" + ("" if lang == "python" else ";"))
    if hcloser:
        out.add(hcloser, -1)
    else:
        _dedent(out)
    closer = _start(lang, out)
    conns = [f"s{k}" for k in range(10)]
    for c in conns:
        out.add(_open(lang, c))
    for i in range(n):
        c = conns[(i * 7) % len(conns)]
        kind = i % 5
        if kind == 3:
            out.add(_recv(lang, c))
        elif kind == 4:
            out.add(f"helper({c})" + ("" if lang == "python" else ";"))
        else:
            out.add(_send(lang, c, i))
    _end(lang, out, closer)
    return _file(lang, out)


def calls(lang: str, n: int) -> dict[str, str]:
    """A chain of `n` functions, one a file, each calling the next twice
    (a send between) and the last calling the first (recursion)."""
    files = {}
    for i in range(n):
        out = _Lines("    ")
        opener, closer = _function(lang, f"step{i}", "c")
        out.add(opener, 1)
        nxt = f"step{(i + 1) % n}(c)" + ("" if lang == "python" else ";")
        out.add(nxt)
        out.add(_send(lang, "c", i))
        out.add(nxt)
        if i % 4 == 3:
            out.add(_recv(lang, "c"))
        out.add("return 0" + ("" if lang == "python" else ";"))
        if closer:
            out.add(closer, -1)
        else:
            _dedent(out)
        if i == 0:
            closer = _start(lang, out, "entry")
            out.add("step0(s)" + ("" if lang == "python" else ";"))
            _end(lang, out, closer)
        name = f"Step{i}" if lang == "java" else f"step{i}"
        files[f"{name}.{EXT[lang]}"] = _file(lang, out).replace("class Stress", f"class {name}")
    return files


SHAPES = {"nested_loops": nested_loops, "ladder": ladder, "nested_try": nested_try, "switch": switch,
          "straight": straight, "calls": calls}


def shape(name: str, lang: str, size: int) -> dict[str, str]:
    """{file name: source} of one shape of the given size."""
    made = SHAPES[name](lang, size)
    return made if isinstance(made, dict) else {f"stress_{name}.{EXT[lang]}": made}
