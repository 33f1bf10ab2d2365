#!/usr/bin/env python3
"""Speed benchmark: nagle-lint against a byte-scan floor, interpreter start-up,
semgrep and ast-grep, on synthetic corpora and on real source trees.

    python benchmarks/bench.py                                 # synthetic 1k and 10k files
    python benchmarks/bench.py --scales 1000,10000,50000 --work CORPORA
    python benchmarks/bench.py --no-synthetic --tree ../nginx --tree ../curl
    python benchmarks/bench.py --semgrep VENV/bin/semgrep --ast-grep NPM/node_modules/.bin/ast-grep

For each corpus it prints one Markdown table (median of --repeat runs, runs
interleaved). Standard library only; never touches the network. See
benchmarks/README.md for what each row and column means.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import re
import shlex
import shutil
import signal
import statistics
import string
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parent
PEERS = HERE / "peers"
GENERATOR_VERSION = 1  # bump whenever the generated text changes: corpora on disk are reused by it
SOURCE_EXTENSIONS = (".py", ".pyi", ".java", ".c", ".h")
SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", "__pycache__", ".nagle_lint_cache", ".tox", ".nox",
             ".venv", "venv", ".mypy_cache", ".pytest_cache", ".ruff_cache"}

# --------------------------------------------------------------------------------------------
# Synthetic corpus
# --------------------------------------------------------------------------------------------

NOUNS = """order account user session packet record entry item config report buffer token message
queue cache index table column event metric sample batch frame job task node edge route chunk header
payload request response invoice ledger price quote symbol device sensor reading channel window page
block segment line field value key label tag group member policy rule filter query result state store
trace span unit pair slot cell grid shape image pixel color font glyph path name budget score limit
counter tenant region zone bucket shard replica lease ticket cursor offset """.split()
VERBS = """parse load save build merge split check compute update render format collect filter sort
group count find resolve apply encode decode normalize validate scan emit reset prepare convert
summarize compare select extract assign track measure score rank clean trim expand fold""".split()
ADJS = """raw total current last next max min pending active default local cached sorted unique
valid empty partial final initial temp base main extra""".split()
WORDS = """alpha beta gamma delta north south east west red green blue ready idle busy closed open
high low fast slow small large""".split()

# kinds of file; the four finding kinds plant exactly one finding each
PLAIN, CORRECT = "plain", "correct"
FINDING_KINDS = {"split": "NGL001", "nodelay": "NGL002", "byteloop": "NGL003", "cork": "NGL004"}
LANG_EXT = {"python": ".py", "java": ".java", "c": ".c"}


def snake(*parts: str) -> str:
    return "_".join(parts)


def camel(*parts: str) -> str:
    return parts[0] + "".join(p.capitalize() for p in parts[1:])


def pascal(*parts: str) -> str:
    return "".join(p.capitalize() for p in parts)


class Names:
    """Identifiers for one file, never repeated within it."""

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.used: set[str] = set()
        self.prefix: str | None = None  # C: the file's function-name prefix

    def fresh(self, make, *pools) -> str:
        for attempt in range(50):
            parts = [self.rng.choice(p) for p in pools]
            if attempt > 10:
                parts.append(str(self.rng.randint(2, 99)))
            name = make(*parts)
            if name not in self.used:
                self.used.add(name)
                return name
        raise RuntimeError("ran out of names")


# ---- Python ------------------------------------------------------------------------------------

class PyCode:
    def __init__(self, rng: random.Random, names: Names):
        self.rng, self.names = rng, names

    def function(self, name: str, method: bool = False, budget: int = 20) -> list[str]:
        r = self.rng
        noun = r.choice(NOUNS)
        v = {"i": [f"{noun}_count", "total"], "s": [f"{noun}_text", "label"], "l": [f"{noun}s"], "d": ["counts"]}
        params = ["self"] if method else []
        params += [f"{noun}s", "label", f"limit={r.choice([8, 16, 64, 100, 256])}"]
        out = [f"def {name}({', '.join(params)}):"]
        if r.random() < 0.6:
            out.append(f'    """{r.choice(VERBS).capitalize()} the {noun} {r.choice(NOUNS)}s and return the {r.choice(ADJS)} result."""')
        out += [f"    {noun}_count = 0", "    total = limit", f"    {noun}_text = str(label)",
                "    counts = {}"]
        self.loc = v
        out += self.block(1, budget, 0)
        out.append(r.choice([f"    return {noun}_count, counts", f"    return total + {noun}_count",
                             f"    return sorted(counts, key=counts.get)[:limit]", f"    return {noun}_text"]))
        return out

    def block(self, ind: int, budget: int, depth: int) -> list[str]:
        out: list[str] = []
        while len(out) < budget:
            out += self.stmt(ind, depth)
        return out

    def stmt(self, ind: int, depth: int) -> list[str]:
        r, v, p = self.rng, self.loc, "    " * ind
        i, j, s, l, d = r.choice(v["i"]), r.choice(v["i"]), r.choice(v["s"]), v["l"][0], v["d"][0]
        k = r.random()
        if depth < 2 and k < 0.12:
            it = f"item{depth}"
            v["s"].append(it)
            body = [f"{p}for {it} in {l}:"] + self.block(ind + 1, r.randint(2, 6), depth + 1)
            v["s"].remove(it)
            return body
        if depth < 2 and k < 0.24:
            cond = r.choice([f"{s}.startswith({r.choice(WORDS)!r})", f"{i} > {r.randint(1, 500)}",
                             f"not {s}", f"{s} in {d}", f"len({l}) % {r.randint(2, 9)} == 0"])
            body = [f"{p}if {cond}:"] + self.block(ind + 1, r.randint(1, 4), depth + 1)
            if r.random() < 0.4:
                body += [f"{p}elif {i} < 0:", f"{p}    {i} = 0"]
            if r.random() < 0.5:
                body += [f"{p}else:"] + self.block(ind + 1, r.randint(1, 3), depth + 1)
            return body
        if depth < 2 and k < 0.29:
            return [f"{p}try:", f"{p}    {i} = int({s}.split({r.choice(WORDS)!r})[0])",
                    f"{p}except (ValueError, IndexError):", f"{p}    {i} = -1"]
        if depth < 2 and k < 0.33:
            return [f"{p}while {i} > {r.randint(1, 50)}:", f"{p}    {i} //= {r.randint(2, 5)}",
                    f"{p}    {j} += 1"]
        return [p + r.choice([
            f"{i} += len({s})", f"{i} = max({i}, {j} * {r.randint(2, 9)})", f"{j} = {i} % {r.randint(3, 97)}",
            f"{s} = {s}.strip().lower()", f"{s} = f\"{{{s}}}-{{{i}}}\"", f"{s} = {s}.replace({r.choice(WORDS)!r}, {r.choice(WORDS)!r})",
            f"{l}.append({s})", f"{d}[{s}] = {d}.get({s}, 0) + 1", f"{s} = \", \".join(str(x) for x in {l}[:{r.randint(2, 9)}])",
            f"{l} = [x for x in {l} if x]", f"logger.debug(\"{r.choice(VERBS)} %s: %d\", {s}, {i})",
            f"{i} = sum(1 for x in {l} if x)", f"{s} = {s}[:{r.randint(8, 80)}]",
            f"{s} = {r.choice(WORDS)!r} if {i} % 2 else {s}.upper()",
        ])]

    def klass(self, budget: int) -> list[str]:
        r = self.rng
        cname = self.names.fresh(pascal, NOUNS, ["Store", "Parser", "Builder", "Index", "Tracker", "Registry"])
        out = [f"class {cname}:", f'    """Keeps {r.choice(ADJS)} {r.choice(NOUNS)}s by {r.choice(NOUNS)}."""', "",
               "    def __init__(self, name, limit=64):", "        self.name = name", "        self.limit = limit",
               "        self.items = []", "        self.index = {}", ""]
        used = 0
        while used < budget:
            m = self.function(self.names.fresh(snake, VERBS, NOUNS), method=True, budget=self.rng.randint(6, 18))
            out += ["    " + x if x else x for x in m] + [""]
            used += len(m) + 1
        return out

    def file_io(self) -> list[str]:
        r = self.rng
        name = self.names.fresh(snake, ["load", "save", "write", "read", "dump"], NOUNS)
        if r.random() < 0.5:
            return [f"def {name}(path, rows):", f"    with open(path, \"w\", encoding=\"utf-8\") as out:",
                    "        out.write(\"# generated\\n\")", "        for row in rows:",
                    "            out.write(\",\".join(str(x) for x in row))", "            out.write(\"\\n\")",
                    "    return len(rows)"]
        return [f"def {name}(path):", "    rows = []", "    with open(path, encoding=\"utf-8\") as fh:",
                "        for line in fh:", "            line = line.strip()", "            if not line or line.startswith(\"#\"):",
                "                continue", "            rows.append(line.split(\",\"))", "    return rows"]

    def module(self, target: int, extra: list[list[str]], imports: set[str]) -> str:
        r = self.rng
        imports = set(imports) | set(r.sample(["os", "re", "json", "logging", "itertools", "math", "functools",
                                               "collections", "datetime", "pathlib"], r.randint(2, 5))) | {"logging"}
        head = [f'"""{r.choice(VERBS).capitalize()} {r.choice(NOUNS)}s for the {r.choice(NOUNS)} {r.choice(NOUNS)}."""', ""]
        head += [f"import {m}" for m in sorted(imports)] + ["", "logger = logging.getLogger(__name__)",
                                                             f"{r.choice(ADJS).upper()}_{r.choice(NOUNS).upper()} = {r.randint(1, 4096)}", "", ""]
        body: list[list[str]] = []
        size = len(head) + sum(len(x) + 2 for x in extra)
        while size < target:
            k = r.random()
            if k < 0.2:
                chunk = self.klass(r.randint(20, 60))
            elif k < 0.28:
                chunk = self.file_io()
            else:
                chunk = self.function(self.names.fresh(snake, VERBS, NOUNS), budget=r.randint(6, 40))
            body.append(chunk)
            size += len(chunk) + 2
        for e in extra:
            body.insert(r.randint(0, len(body)), e)
        lines = head + [x for chunk in body for x in chunk + ["", ""]]
        if r.random() < 0.3:
            lines += ["if __name__ == \"__main__\":", "    logging.basicConfig(level=logging.DEBUG)", "    print(__doc__)"]
        return "\n".join(lines).rstrip() + "\n"


# ---- Java --------------------------------------------------------------------------------------

class JavaCode:
    def __init__(self, rng: random.Random, names: Names):
        self.rng, self.names = rng, names

    def method(self, name: str, budget: int) -> list[str]:
        r = self.rng
        noun = r.choice(NOUNS)
        cnt, txt, lst = camel(noun, "count"), camel(noun, "text"), noun + "s"
        self.loc = {"i": [cnt, "total"], "s": [txt, "label"], "l": lst, "d": "counts", "sb": "sb"}
        self.depth_var = 0
        out = [f"    {r.choice(['private static', 'public', 'static', 'protected'])} int {name}(List<String> {lst}, String label, int limit) {{",
               f"        int {cnt} = 0;", "        int total = limit;", f"        String {txt} = String.valueOf(label);",
               "        Map<String, Integer> counts = new HashMap<>();", "        StringBuilder sb = new StringBuilder();"]
        out += self.block(2, budget, 0)
        out += [f"        return {r.choice([cnt, 'total', 'counts.size()', 'sb.length()'])};", "    }"]
        return out

    def block(self, ind, budget, depth):
        out = []
        while len(out) < budget:
            out += self.stmt(ind, depth)
        return out

    def stmt(self, ind, depth):
        r, v, p = self.rng, self.loc, "    " * ind
        i, j, s, l, d = r.choice(v["i"]), r.choice(v["i"]), r.choice(v["s"]), v["l"], v["d"]
        k = r.random()
        if depth < 2 and k < 0.12:
            it = f"item{self.depth_var}"
            self.depth_var += 1
            v["s"].append(it)
            body = [f"{p}for (String {it} : {l}) {{"] + self.block(ind + 1, r.randint(2, 6), depth + 1) + [f"{p}}}"]
            v["s"].remove(it)
            return body
        if depth < 2 and k < 0.2:
            n = f"k{self.depth_var}"
            self.depth_var += 1
            return [f"{p}for (int {n} = 0; {n} < {i}; {n}++) {{"] + self.block(ind + 1, r.randint(1, 4), depth + 1) + [f"{p}}}"]
        if depth < 2 and k < 0.3:
            cond = r.choice([f"{s}.startsWith(\"{r.choice(WORDS)}\")", f"{i} > {r.randint(1, 500)}", f"{s}.isEmpty()",
                             f"{d}.containsKey({s})", f"{l}.size() % {r.randint(2, 9)} == 0"])
            body = [f"{p}if ({cond}) {{"] + self.block(ind + 1, r.randint(1, 4), depth + 1)
            if r.random() < 0.5:
                body += [f"{p}}} else {{"] + self.block(ind + 1, r.randint(1, 3), depth + 1)
            return body + [f"{p}}}"]
        if depth < 2 and k < 0.34:
            return [f"{p}try {{", f"{p}    {i} = Integer.parseInt({s}.trim());", f"{p}}} catch (NumberFormatException e) {{",
                    f"{p}    {i} = -1;", f"{p}}}"]
        if depth < 2 and k < 0.38:
            out = [f"{p}switch ({i} % 4) {{"]
            for c in range(r.randint(2, 4)):
                out += [f"{p}    case {c}:", f"{p}        {j} += {r.randint(1, 9)};", f"{p}        break;"]
            return out + [f"{p}    default:", f"{p}        break;", f"{p}}}"]
        return [p + r.choice([
            f"{i} += {s}.length();", f"{i} = Math.max({i}, {j} * {r.randint(2, 9)});", f"{j} = {i} % {r.randint(3, 97)};",
            f"{s} = {s}.trim().toLowerCase(Locale.ROOT);", f"{s} = String.format(\"%s-%d\", {s}, {i});",
            f"{s} = {s}.replace(\"{r.choice(WORDS)}\", \"{r.choice(WORDS)}\");", f"{l}.add({s});",
            f"{d}.merge({s}, 1, Integer::sum);", f"sb.append({s}).append(',');", f"{i} += sb.length() % {r.randint(2, 30)};",
            f"{s} = sb.toString();", f"LOG.fine(\"{r.choice(VERBS)} \" + {s});",
            f"{s} = {s}.length() > {r.randint(8, 80)} ? {s}.substring(0, {r.randint(2, 8)}) : {s};",
        ])]

    def file_io(self) -> list[str]:
        name = self.names.fresh(camel, ["write", "save", "dump", "export"], [n.capitalize() for n in NOUNS])
        return [f"    static void {name}(Path path, List<String> rows) throws IOException {{",
                "        try (BufferedWriter w = Files.newBufferedWriter(path, StandardCharsets.UTF_8)) {",
                "            for (String row : rows) {", "                w.write(row);", "                w.newLine();",
                "            }", "        }", "    }"]

    def unit(self, pkg: str, cname: str, target: int, extra: list[list[str]], imports: set[str]) -> str:
        r = self.rng
        imports = set(imports) | {"java.util.ArrayList", "java.util.HashMap", "java.util.List", "java.util.Locale",
                                  "java.util.Map", "java.util.logging.Logger"}
        members: list[list[str]] = []
        size = 20 + sum(len(x) + 1 for x in extra)
        while size < target:
            if r.random() < 0.08:
                chunk = self.file_io()
                imports |= {"java.io.BufferedWriter", "java.io.IOException", "java.nio.charset.StandardCharsets",
                            "java.nio.file.Files", "java.nio.file.Path"}
            else:
                chunk = self.method(self.names.fresh(camel, VERBS, [n.capitalize() for n in NOUNS]), r.randint(6, 40))
            members.append(chunk)
            size += len(chunk) + 1
        for e in extra:
            members.insert(r.randint(0, len(members)), e)
        lines = [f"package {pkg};", ""] + [f"import {m};" for m in sorted(imports)] + [
            "", "/**", f" * {r.choice(VERBS).capitalize()}s {r.choice(NOUNS)}s for the {r.choice(NOUNS)} {r.choice(NOUNS)}.", " */",
            f"public {r.choice(['', 'final '])}class {cname} {{",
            f"    private static final Logger LOG = Logger.getLogger({cname}.class.getName());",
            f"    private static final int {r.choice(ADJS).upper()}_{r.choice(NOUNS).upper()} = {r.randint(1, 4096)};",
            "    private final List<String> items = new ArrayList<>();", ""]
        for m in members:
            lines += m + [""]
        lines.append("}")
        return "\n".join(lines) + "\n"


# ---- C -----------------------------------------------------------------------------------------

class CCode:
    def __init__(self, rng: random.Random, names: Names, prefix: str):
        self.rng, self.names, self.prefix = rng, names, prefix

    def function(self, name: str, budget: int) -> list[str]:
        r = self.rng
        out = [f"{r.choice(['static int', 'int', 'static long'])}", f"{name}(struct {self.prefix}_ctx *ctx, const char *text, int limit)", "{",
               "    size_t i, n = strlen(text);", "    int total = 0, count = limit;", "    char buf[128];",
               "    const char *p = text;", ""]
        out += self.block(1, budget, 0)
        out += [f"    return {r.choice(['total', 'count', 'total + count', '(int)n'])};", "}"]
        return out

    def block(self, ind, budget, depth):
        out = []
        while len(out) < budget:
            out += self.stmt(ind, depth)
        return out

    def stmt(self, ind, depth):
        r, p = self.rng, "    " * ind
        i, j = r.sample(["total", "count"], 2)
        k = r.random()
        if depth < 2 and k < 0.12:
            return [f"{p}for (i = 0; i < n; i++) {{"] + self.block(ind + 1, r.randint(1, 5), depth + 1) + [f"{p}}}"]
        if depth < 2 and k < 0.22:
            cond = r.choice([f"strncmp(p, \"{r.choice(WORDS)}\", {r.randint(2, 5)}) == 0", f"{i} > {r.randint(1, 500)}",
                             "n == 0", f"ctx->len > {r.randint(8, 512)}", f"*p == '{r.choice('abcxyz,;/')}'"])
            body = [f"{p}if ({cond}) {{"] + self.block(ind + 1, r.randint(1, 4), depth + 1)
            if r.random() < 0.5:
                body += [f"{p}}} else {{"] + self.block(ind + 1, r.randint(1, 3), depth + 1)
            return body + [f"{p}}}"]
        if depth < 2 and k < 0.27:
            out = [f"{p}switch ({i} & 3) {{"]
            for c in range(r.randint(2, 4)):
                out += [f"{p}case {c}:", f"{p}    {j} += {r.randint(1, 9)};", f"{p}    break;"]
            return out + [f"{p}default:", f"{p}    break;", f"{p}}}"]
        if depth < 2 and k < 0.31:
            return [f"{p}while (*p && *p != '{r.choice(',;/:')}')", f"{p}    p++;"]
        return [p + r.choice([
            f"{i} += (unsigned char)text[{i} % (n ? n : 1)];", f"{i} = {i} > {j} ? {i} : {j} * {r.randint(2, 9)};",
            f"{j} = {i} % {r.randint(3, 97)};", f"snprintf(buf, sizeof buf, \"%s:%d\", ctx->name, {i});",
            "memset(buf, 0, sizeof buf);", f"ctx->count += {i};", f"ctx->len = strlen(buf) + {r.randint(0, 9)};",
            f"{i} += (int)strspn(p, \"{r.choice(WORDS)}\");", f"strncpy(ctx->name, p, sizeof ctx->name - 1);",
            f"{i} ^= {i} << {r.randint(1, 7)};", f"p = text + ({i} % (n ? n : 1));",
        ])]

    def file_io(self) -> list[str]:
        name = self.names.fresh(snake, [self.prefix], ["save", "dump", "write", "export"], NOUNS)
        if self.rng.random() < 0.5:
            return ["static int", f"{name}(const char *path, const struct {self.prefix}_ctx *ctx)", "{",
                    "    FILE *f = fopen(path, \"w\");", "", "    if (f == NULL)", "        return -1;",
                    "    fprintf(f, \"name=%s\\n\", ctx->name);", "    fprintf(f, \"count=%d\\n\", ctx->count);",
                    "    return fclose(f);", "}"]
        return ["static int", f"{name}(const char *path, const char *data, size_t len)", "{",
                "    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);", "    ssize_t n;", "",
                "    if (fd < 0)", "        return -1;", "    n = write(fd, data, len);", "    close(fd);",
                "    return n == (ssize_t)len ? 0 : -1;", "}"]

    def unit(self, target: int, extra: list[list[str]], includes: set[str]) -> str:
        r = self.rng
        includes = set(includes) | {"stdio.h", "stdlib.h", "string.h", "fcntl.h", "unistd.h"}
        pre = self.prefix
        head = [f"/* {r.choice(VERBS).capitalize()} {r.choice(NOUNS)}s for the {r.choice(NOUNS)} {r.choice(NOUNS)}. */"]
        head += [f"#include <{h}>" for h in sorted(includes)] + [
            "", f"#define {pre.upper()}_{r.choice(NOUNS).upper()}_MAX {r.choice([16, 64, 256, 1024])}", "",
            f"struct {pre}_ctx {{", "    int count;", "    size_t len;", "    char name[64];", "};", ""]
        body: list[list[str]] = []
        size = len(head) + sum(len(x) + 1 for x in extra)
        while size < target:
            if r.random() < 0.1:
                chunk = self.file_io()
            else:
                chunk = self.function(self.names.fresh(snake, [pre], VERBS, NOUNS), r.randint(6, 40))
            body.append(chunk)
            size += len(chunk) + 1
        for e in extra:
            body.insert(r.randint(0, len(body)), e)
        lines = head + [x for chunk in body for x in chunk + [""]]
        return "\n".join(lines).rstrip() + "\n"

    def header(self, target: int) -> str:
        r, pre = self.rng, self.prefix
        guard = f"{pre.upper()}_{r.choice(NOUNS).upper()}_H"
        lines = [f"#ifndef {guard}", f"#define {guard}", "", "#include <stddef.h>", ""]
        while len(lines) < target - 2:
            k = r.random()
            if k < 0.3:
                s = self.names.fresh(snake, [pre], NOUNS)
                lines += [f"struct {s} {{"] + [f"    {r.choice(['int', 'long', 'size_t', 'char *', 'unsigned'])} {f};"
                                                for f in r.sample(NOUNS, r.randint(2, 7))] + ["};", ""]
            elif k < 0.45:
                lines += [f"#define {pre.upper()}_{r.choice(NOUNS).upper()}_{r.choice(ADJS).upper()} {r.randint(0, 65535)}"]
            else:
                lines += [f"int {self.names.fresh(snake, [pre], VERBS, NOUNS)}(const char *{r.choice(NOUNS)}, size_t len, int flags);"]
        lines += ["", f"#endif /* {guard} */"]
        return "\n".join(lines) + "\n"


# ---- socket code: correct twins and planted findings ---------------------------------------------
# `$x` placeholders are filled with varied identifiers; a line ending in `@@NGL00N` is where the
# planted finding must be reported (the marker is removed from the written file).

PY_SOCKET = {
    "correct": [
        ({"socket", "struct", "json"}, """\
def $fn(host, port, $arg):
    $body = json.dumps($arg).encode()
    $s = socket.create_connection((host, port))
    try:
        $s.sendall(struct.pack("!I", len($body)) + $body)
        $reply = $s.recv(4096)
    finally:
        $s.close()
    return $reply"""),
        ({"socket"}, """\
def $fn(host, port, $arg, payload):
    $s = socket.create_connection((host, port))
    wfile = $s.makefile("wb")
    rfile = $s.makefile("rb")
    wfile.write(f"{$arg} {len(payload)}\\r\\n".encode())
    wfile.write(payload)
    wfile.flush()
    $reply = rfile.readline()
    wfile.close()
    rfile.close()
    $s.close()
    return $reply"""),
        ({"socket", "struct"}, """\
def $fn($s, opcode, $body):
    header = struct.pack("!HI", opcode, len($body))
    $s.sendmsg([header, $body])
    $reply = $s.recv(6)
    return struct.unpack("!HI", $reply)"""),
        ({"socket"}, """\
def $fn(port, $arg):
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("", port))
    srv.listen(16)
    while True:
        $s, addr = srv.accept()
        with $s:
            $body = $s.recv(1024)
            if not $body:
                continue
            $s.sendall(b"HTTP/1.0 200 OK\\r\\nContent-Type: text/plain\\r\\n\\r\\n" + $body + $arg)"""),
        ({"socket"}, """\
def $fn(host, port, $arg):
    $reply = []
    with socket.create_connection((host, port)) as $s:
        for command in $arg:
            $s.sendall(command.encode() + b"\\r\\n")
            $reply.append($s.recv(512))
    return $reply"""),
    ],
    "split": [({"socket", "struct", "json"}, """\
def $fn(host, port, $arg):
    $body = json.dumps($arg).encode()
    $s = socket.create_connection((host, port))
    try:
        $s.sendall(struct.pack("!I", len($body)))
        $s.sendall($body)  @@NGL001
        $reply = $s.recv(4096)
    finally:
        $s.close()
    return $reply""")],
    "byteloop": [({"socket"}, """\
def $fn(host, port, $arg):
    checksum = 0
    $s = socket.create_connection((host, port))
    try:
        for b in $arg.encode("ascii") + b"\\r":
            checksum = (checksum + b) & 0xFF
            $s.send(bytes([b]))  @@NGL003
    finally:
        $s.close()
    return checksum""")],
    "nodelay": [({"socket"}, """\
def $fn(host, port, $arg):
    $s = socket.create_connection((host, port))
    $s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  @@NGL002
    $s.sendall($arg)
    $reply = $s.recv(1024)
    $s.close()
    return $reply""")],
    "cork": [({"socket"}, """\
def $fn(host, port, $arg):
    $s = socket.create_connection((host, port))
    $s.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)  @@NGL004
    $s.sendall(f"GET {$arg} HTTP/1.1\\r\\nHost: {host}\\r\\n".encode("ascii"))
    $s.sendall(b"Connection: close\\r\\n\\r\\n")
    $reply = []
    while True:
        data = $s.recv(65536)
        if not data:
            break
        $reply.append(data)
    $s.close()
    return b"".join($reply)""")],
}

JAVA_SOCKET = {
    "correct": [
        ({"java.io.BufferedOutputStream", "java.io.IOException", "java.io.InputStream", "java.io.OutputStream", "java.net.Socket"}, """\
    static int $fn(String host, int port, byte[] $arg, byte[] $body) throws IOException {
        try (Socket $s = new Socket(host, port)) {
            OutputStream out = new BufferedOutputStream($s.getOutputStream());
            InputStream in = $s.getInputStream();
            out.write($arg);
            out.write($body);
            out.flush();
            return in.read();
        }
    }"""),
        ({"java.io.IOException", "java.io.InputStream", "java.io.OutputStream", "java.net.Socket", "java.nio.charset.StandardCharsets"}, """\
    static int $fn(String host, int port, String $arg, byte[] $reply) throws IOException {
        try (Socket $s = new Socket(host, port)) {
            OutputStream out = $s.getOutputStream();
            InputStream in = $s.getInputStream();
            out.write(("GET " + $arg + " HTTP/1.0\\r\\n\\r\\n").getBytes(StandardCharsets.US_ASCII));
            return in.read($reply);
        }
    }"""),
        ({"java.io.IOException", "java.net.InetSocketAddress", "java.nio.ByteBuffer", "java.nio.channels.SocketChannel"}, """\
    static ByteBuffer $fn(String host, int port, ByteBuffer $body) throws IOException {
        try (SocketChannel $s = SocketChannel.open(new InetSocketAddress(host, port))) {
            ByteBuffer head = ByteBuffer.allocate(8);
            head.putInt(0x4E474C31).putInt($body.remaining()).flip();
            $s.write(new ByteBuffer[] {head, $body});
            ByteBuffer $reply = ByteBuffer.allocate(1024);
            $s.read($reply);
            return $reply.flip();
        }
    }"""),
        ({"java.io.BufferedReader", "java.io.IOException", "java.io.InputStreamReader", "java.io.PrintWriter", "java.net.Socket",
          "java.nio.charset.StandardCharsets"}, """\
    static String $fn(String host, int port, String $arg) throws IOException {
        try (Socket $s = new Socket(host, port)) {
            PrintWriter w = new PrintWriter($s.getOutputStream());
            BufferedReader r = new BufferedReader(new InputStreamReader($s.getInputStream(), StandardCharsets.UTF_8));
            w.print("HELLO " + $arg + "\\r\\n");
            w.print("\\r\\n");
            w.flush();
            return r.readLine();
        }
    }"""),
    ],
    "split": [({"java.io.IOException", "java.io.InputStream", "java.io.OutputStream", "java.net.Socket", "java.nio.charset.StandardCharsets"}, """\
    static int $fn(String host, int port, String $arg, byte[] $body) throws IOException {
        try (Socket $s = new Socket(host, port)) {
            OutputStream out = $s.getOutputStream();
            InputStream in = $s.getInputStream();
            byte[] header = ("STORE " + $arg + " " + $body.length + "\\r\\n").getBytes(StandardCharsets.US_ASCII);
            out.write(header);
            out.write($body); @@NGL001
            return in.read();
        }
    }""")],
    "byteloop": [({"java.io.IOException", "java.io.OutputStream", "java.net.Socket"}, """\
    static void $fn(String host, int port, byte[] $body) throws IOException {
        try (Socket $s = new Socket(host, port)) {
            OutputStream out = $s.getOutputStream();
            for (byte b : $body) {
                out.write(b); @@NGL003
            }
        }
    }""")],
    "nodelay": [({"java.io.IOException", "java.io.InputStream", "java.io.OutputStream", "java.net.Socket"}, """\
    static int $fn(String host, int port, byte[] $arg, byte[] $reply) throws IOException {
        try (Socket $s = new Socket(host, port)) {
            $s.setTcpNoDelay(true); @@NGL002
            OutputStream out = $s.getOutputStream();
            InputStream in = $s.getInputStream();
            out.write($arg);
            return in.read($reply);
        }
    }""")],
}

C_SOCKET = {
    "correct": [
        ({"arpa/inet.h", "netinet/in.h", "sys/socket.h", "sys/uio.h"}, """\
static int
$fn(const char *$arg, const char *$body, size_t blen)
{
    struct sockaddr_in sa = {0};
    struct iovec iov[2];
    char head[64], $reply[512];
    int $s, hl;

    $s = socket(AF_INET, SOCK_STREAM, 0);
    if ($s < 0)
        return -1;
    sa.sin_family = AF_INET;
    sa.sin_port = htons(7000);
    inet_pton(AF_INET, $arg, &sa.sin_addr);
    if (connect($s, (struct sockaddr *)&sa, sizeof sa) < 0)
        return -1;
    hl = snprintf(head, sizeof head, "LEN %zu\\n", blen);
    iov[0].iov_base = head;
    iov[0].iov_len = (size_t)hl;
    iov[1].iov_base = (void *)$body;
    iov[1].iov_len = blen;
    writev($s, iov, 2);
    if (read($s, $reply, sizeof $reply) <= 0)
        return -1;
    close($s);
    return 0;
}"""),
        ({"arpa/inet.h", "netinet/in.h", "sys/socket.h"}, """\
static int
$fn(const char *$arg, const char *$body)
{
    struct sockaddr_in sa = {0};
    char req[512], $reply[512];
    int $s, len;

    $s = socket(AF_INET, SOCK_STREAM, 0);
    if ($s < 0)
        return -1;
    sa.sin_family = AF_INET;
    sa.sin_port = htons(6379);
    inet_pton(AF_INET, $arg, &sa.sin_addr);
    if (connect($s, (struct sockaddr *)&sa, sizeof sa) < 0)
        return -1;
    len = snprintf(req, sizeof req, "SET %s\\r\\n", $body);
    write($s, req, len);
    if (read($s, $reply, sizeof $reply) <= 0)
        return -1;
    close($s);
    return 0;
}"""),
        ({"netinet/in.h", "netinet/tcp.h", "sys/socket.h"}, """\
static int
$fn(int listener, const char *$body, size_t blen)
{
    char head[128], $reply[256];
    int $s, hl;
    int on = 1, off = 0;

    $s = accept(listener, NULL, NULL);
    if ($s < 0)
        return -1;
    if (read($s, $reply, sizeof $reply) <= 0)
        return -1;
    hl = snprintf(head, sizeof head, "HTTP/1.0 200 OK\\r\\nContent-Length: %zu\\r\\n\\r\\n", blen);
    setsockopt($s, IPPROTO_TCP, TCP_CORK, &on, sizeof on);
    write($s, head, hl);
    write($s, $body, blen);
    setsockopt($s, IPPROTO_TCP, TCP_CORK, &off, sizeof off);
    close($s);
    return 0;
}"""),
        ({"arpa/inet.h", "netinet/in.h", "sys/socket.h"}, """\
static int
$fn(const char *$arg, const char *$body, size_t blen)
{
    struct sockaddr_in sa = {0};
    char head[32], $reply[1024];
    int $s, hl;

    $s = socket(AF_INET, SOCK_STREAM, 0);
    if ($s < 0)
        return -1;
    sa.sin_family = AF_INET;
    sa.sin_port = htons(6000);
    inet_pton(AF_INET, $arg, &sa.sin_addr);
    if (connect($s, (struct sockaddr *)&sa, sizeof sa) < 0)
        return -1;
    hl = snprintf(head, sizeof head, "Q %zu\\n", blen);
    send($s, head, hl, MSG_MORE);
    send($s, $body, blen, 0);
    if (recv($s, $reply, sizeof $reply, 0) <= 0)
        return -1;
    close($s);
    return 0;
}"""),
    ],
    "split": [({"arpa/inet.h", "netinet/in.h", "sys/socket.h"}, """\
static int
$fn(const char *$arg, const char *$body, size_t blen)
{
    struct sockaddr_in sa = {0};
    char head[32], $reply[512];
    int $s, hl;

    $s = socket(AF_INET, SOCK_STREAM, 0);
    if ($s < 0)
        return -1;
    sa.sin_family = AF_INET;
    sa.sin_port = htons(7000);
    inet_pton(AF_INET, $arg, &sa.sin_addr);
    if (connect($s, (struct sockaddr *)&sa, sizeof sa) < 0)
        return -1;
    hl = snprintf(head, sizeof head, "LEN %zu\\n", blen);
    write($s, head, hl);
    write($s, $body, blen); @@NGL001
    if (read($s, $reply, sizeof $reply) <= 0)
        return -1;
    close($s);
    return 0;
}""")],
    "byteloop": [({"arpa/inet.h", "netinet/in.h", "sys/socket.h"}, """\
static int
$fn(const char *$arg, const char *$body)
{
    struct sockaddr_in sa = {0};
    size_t i, n = strlen($body);
    int $s = socket(AF_INET, SOCK_STREAM, 0);

    sa.sin_family = AF_INET;
    sa.sin_port = htons(514);
    inet_pton(AF_INET, $arg, &sa.sin_addr);
    if ($s < 0 || connect($s, (struct sockaddr *)&sa, sizeof sa) < 0)
        return -1;
    for (i = 0; i < n; i++)
        write($s, &$body[i], 1); @@NGL003
    close($s);
    return 0;
}""")],
    "nodelay": [({"arpa/inet.h", "netinet/in.h", "netinet/tcp.h", "sys/socket.h"}, """\
static int
$fn(const char *$arg, const char *$body)
{
    struct sockaddr_in sa = {0};
    char req[128], $reply[256];
    int $s, len;
    int one = 1;

    $s = socket(AF_INET, SOCK_STREAM, 0);
    if ($s < 0)
        return -1;
    setsockopt($s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); @@NGL002
    sa.sin_family = AF_INET;
    sa.sin_port = htons(6379);
    inet_pton(AF_INET, $arg, &sa.sin_addr);
    if (connect($s, (struct sockaddr *)&sa, sizeof sa) < 0)
        return -1;
    len = snprintf(req, sizeof req, "GET %s\\r\\n", $body);
    write($s, req, len);
    if (read($s, $reply, sizeof $reply) <= 0)
        return -1;
    close($s);
    return 0;
}""")],
    "cork": [({"arpa/inet.h", "netinet/in.h", "netinet/tcp.h", "sys/socket.h"}, """\
static int
$fn(const char *$arg, const char *$body, size_t blen)
{
    struct sockaddr_in sa = {0};
    char head[32], $reply[512];
    int $s, hl;
    int on = 1, off = 0;

    $s = socket(AF_INET, SOCK_STREAM, 0);
    if ($s < 0)
        return -1;
    sa.sin_family = AF_INET;
    sa.sin_port = htons(7000);
    inet_pton(AF_INET, $arg, &sa.sin_addr);
    if (connect($s, (struct sockaddr *)&sa, sizeof sa) < 0)
        return -1;
    hl = snprintf(head, sizeof head, "LEN %zu\\n", blen);
    setsockopt($s, IPPROTO_TCP, TCP_CORK, &on, sizeof on); @@NGL004
    write($s, head, hl);
    write($s, $body, blen);
    if (read($s, $reply, sizeof $reply) <= 0)
        return -1;
    setsockopt($s, IPPROTO_TCP, TCP_CORK, &off, sizeof off);
    close($s);
    return 0;
}""")],
}

SOCKET_TEMPLATES = {"python": PY_SOCKET, "java": JAVA_SOCKET, "c": C_SOCKET}
SOCK_NAMES = {"python": ["sock", "conn", "s", "client", "peer", "upstream"],
              "java": ["socket", "sock", "conn", "client", "peer", "upstream"],
              "c": ["fd", "sockfd", "sock", "conn", "cfd", "peer_fd"]}
MARK = re.compile(r"\s*@@(NGL\d{3})$")


def socket_snippet(lang: str, kind: str, rng: random.Random, names: Names):
    """A socket function of this kind: (imports, lines, [(line index, rule)])."""
    imports, text = rng.choice(SOCKET_TEMPLATES[lang][kind])
    noun = rng.choice(NOUNS)
    mk = {"python": snake, "java": lambda *p: camel(*p[:1], *[x.capitalize() for x in p[1:]]), "c": snake}[lang]
    verb = rng.choice(["send", "call", "fetch", "post", "push", "query", "upload", "ping", "submit", "forward"])
    parts = ([names.prefix] if lang == "c" and names.prefix else []) + [verb, noun]
    fn = _fresh_fn(names, mk, parts)
    arg = mk(rng.choice(ADJS), rng.choice(NOUNS)) if lang != "java" else camel(rng.choice(ADJS), rng.choice(NOUNS).capitalize())
    body = mk(noun, "body") if lang != "java" else camel(noun, "Body")
    reply = mk(noun, "reply") if lang != "java" else camel(noun, "Reply")
    s = rng.choice(SOCK_NAMES[lang])
    text = string.Template(text).substitute(fn=fn, arg=arg, body=body, reply=reply, s=s)
    lines, marks = [], []
    for n, line in enumerate(text.split("\n")):
        m = MARK.search(line)
        if m:
            marks.append((n, m.group(1)))
            line = line[:m.start()]
        lines.append(line)
    return set(imports), lines, marks


def _fresh_fn(names: Names, mk, parts):
    name = mk(*parts)
    n = 2
    while name in names.used:
        name = mk(*parts, str(n))
        n += 1
    names.used.add(name)
    return name


@dataclass
class Planned:
    index: int
    lang: str
    kind: str          # plain | correct | split | nodelay | byteloop | cork
    relpath: str


def plan(seed: int, scale: int) -> list[Planned]:
    """What file i is, decided from (seed, i) alone: a smaller corpus is a prefix of a larger one."""
    out = []
    for i in range(scale):
        r = random.Random(f"{seed}:plan:{i}")
        x = r.random()
        lang = "python" if x < 0.4 else "java" if x < 0.7 else "c"
        y = r.random()
        if y < 0.88:
            kind = PLAIN
        elif y < 0.96:
            kind = CORRECT
        else:
            kinds = [k for k in FINDING_KINDS if k in SOCKET_TEMPLATES[lang]]
            kind = kinds[int((y - 0.96) / 0.04 * len(kinds))]
        header = lang == "c" and kind == PLAIN and r.random() < 0.25
        d = i // 40
        top = {"python": "py", "java": "java", "c": "c"}[lang]
        a, b = NOUNS[d % len(NOUNS)], NOUNS[(d * 7 + 3) % len(NOUNS)]
        stem = f"{r.choice(VERBS)}_{r.choice(NOUNS)}_{i}"
        if lang == "java":
            rel = f"{top}/src/main/java/org/example/{a}/{b}{d}/{pascal(*stem.split('_')[:2])}{i}.java"
        else:
            rel = f"{top}/{a}/{b}{d}/{stem}{'.h' if header else LANG_EXT[lang]}"
        out.append(Planned(i, lang, kind, rel))
    return out


def target_lines(r: random.Random) -> int:
    return int(min(400, max(50, r.lognormvariate(math.log(170), 0.55))))


def render(seed: int, p: Planned) -> tuple[str, list[tuple[int, str]]]:
    """The text of one file and the (1-based line, rule) of its planted finding, if any."""
    r = random.Random(f"{seed}:file:{p.index}")
    names = Names(r)
    target = target_lines(r)
    extra, imports, marks = [], set(), []
    if p.kind != PLAIN:
        if p.lang == "c":
            names.prefix = r.choice(NOUNS)[:4]
        imports, lines, marks = socket_snippet(p.lang, p.kind, r, names)
        extra = [lines]
    if p.lang == "python":
        text = PyCode(r, names).module(target, extra, imports)
    elif p.lang == "java":
        cname = Path(p.relpath).stem
        pkg = ".".join(Path(p.relpath).parent.parts[4:])
        text = JavaCode(r, names).unit(pkg, cname, target, extra, imports)
    else:
        prefix = names.prefix or r.choice(NOUNS)[:4]
        code = CCode(r, names, prefix)
        text = code.header(target) if p.relpath.endswith(".h") else code.unit(target, extra, imports)
    found = []
    if marks:
        all_lines = text.split("\n")
        snippet = extra[0]
        start = _find_block(all_lines, snippet)
        found = [(start + n + 1, rule) for n, rule in marks]
    return text, found


def _find_block(lines: list[str], block: list[str]) -> int:
    first = block[0]
    for i, line in enumerate(lines):
        if line == first and lines[i:i + len(block)] == block:
            return i
    raise AssertionError("snippet not found in rendered file")


def generate(work: Path, seed: int, scale: int, no_socket: bool) -> Path:
    """Write (or reuse) a synthetic corpus and return its folder."""
    name = f"synthetic-seed{seed}-{scale}{'-nosocket' if no_socket else ''}"
    root = work / name
    manifest_path = root / "MANIFEST.json"
    want = {"generator": GENERATOR_VERSION, "seed": seed, "scale": scale, "no_socket": no_socket}
    if manifest_path.is_file():
        try:
            got = json.loads(manifest_path.read_text())
            if {k: got.get(k) for k in want} == want:
                return root
        except ValueError:
            pass
    if root.exists():
        shutil.rmtree(root)
    t0 = time.perf_counter()
    print(f"generating {name} ...", file=sys.stderr, flush=True)
    planted, kinds, made = [], {}, set()
    for p in plan(seed, scale):
        if no_socket and p.kind != PLAIN:
            continue
        text, found = render(seed, p)
        path = root / p.relpath
        if path.parent not in made:
            path.parent.mkdir(parents=True, exist_ok=True)
            made.add(path.parent)
        path.write_text(text, encoding="utf-8", newline="\n")
        kinds[f"{p.lang}/{p.kind}"] = kinds.get(f"{p.lang}/{p.kind}", 0) + 1
        planted += [{"path": p.relpath, "line": line, "rule": rule} for line, rule in found]
    manifest = dict(want, files=sum(kinds.values()), kinds=dict(sorted(kinds.items())), planted=planted)
    manifest_path.write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"  {manifest['files']} files in {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return root


# --------------------------------------------------------------------------------------------
# Measuring
# --------------------------------------------------------------------------------------------

@dataclass
class Sample:
    wall: float
    cpu: float
    hwm_mb: float | None       # peak RSS of the main process, sampled (None: run too short to sample)
    maxrss_mb: float           # ru_maxrss: an upper bound, it also counts this script's memory copied at fork
    tree_mb: float | None      # peak of the whole process tree's memory (PSS, else RSS), sampled
    rc: int
    timed_out: bool
    stdout: bytes
    stderr: bytes


class Sampler:
    """Polls /proc while a command runs (Linux): the main process's VmHWM (its peak RSS since
    exec) and the sum over the process tree of PSS (shared pages split between the processes
    that share them; RSS where PSS cannot be read). A sample taken before the child has
    exec'd is ignored (it would show this script's memory)."""

    INTERVAL = 0.025

    def __init__(self, pid: int):
        self.pid, self.interval = pid, self.INTERVAL
        self.ours = self._read(f"/proc/{os.getpid()}/cmdline")
        self.hwm_kb = 0
        self.tree_kb = 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    @staticmethod
    def available() -> bool:
        return os.path.exists(f"/proc/{os.getpid()}/status")

    @staticmethod
    def _read(path: str) -> bytes:
        try:
            with open(path, "rb") as fh:
                return fh.read()
        except OSError:
            return b""

    def _children(self, pid: int) -> list[int]:
        out = []
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                out += [int(x) for x in self._read(f"/proc/{pid}/task/{tid}/children").split()]
        except (OSError, ValueError):
            pass
        return out

    def _field_kb(self, text: bytes, name: bytes) -> int | None:
        i = text.find(name)
        if i < 0:
            return None
        try:
            return int(text[i + len(name):].split(None, 1)[0])
        except (ValueError, IndexError):
            return None

    def sample(self) -> None:
        if self._read(f"/proc/{self.pid}/cmdline") in (self.ours, b""):
            return  # not exec'd yet, or gone
        hwm = self._field_kb(self._read(f"/proc/{self.pid}/status"), b"VmHWM:")
        if hwm:
            self.hwm_kb = max(self.hwm_kb, hwm)
        total, stack, seen = 0, [self.pid], set()
        while stack:
            p = stack.pop()
            if p in seen:
                continue
            seen.add(p)
            kb = self._field_kb(self._read(f"/proc/{p}/smaps_rollup"), b"\nPss:")
            if kb is None:
                kb = self._field_kb(self._read(f"/proc/{p}/status"), b"VmRSS:") or 0
            total += kb
            stack += self._children(p)
        self.tree_kb = max(self.tree_kb, total)

    def _loop(self) -> None:
        while True:
            self.sample()
            if self.done.wait(self.interval):
                return

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.done.set()
        self.thread.join()


def measure(cmd: list[str], cwd: Path, env: dict, timeout: float, sample_memory: bool) -> Sample:
    """Run cmd once: wall time; the child's CPU time (user + sys, its waited-for children
    included) from os.wait4; peak memory from /proc sampling (see Sampler)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                start_new_session=True)
        done = threading.Event()
        timed_out = []

        def killer():
            if not done.wait(timeout):
                timed_out.append(True)
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except OSError:
                    pass

        watchdog = threading.Thread(target=killer, daemon=True)
        watchdog.start()
        sampler = Sampler(proc.pid) if sample_memory and Sampler.available() else None
        if sampler:
            sampler.start()
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        done.set()
        if sampler:
            sampler.stop()
        watchdog.join()
        proc.returncode = os.waitstatus_to_exitcode(status)
        if timed_out:  # the group may still hold grandchildren
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass
        out.seek(0)
        err.seek(0)
        maxrss = ru.ru_maxrss / (2**20 if sys.platform == "darwin" else 2**10)
        # a run shorter than a few sampling intervals may end before its peak was seen
        sampled = bool(sampler and sampler.hwm_kb) and wall >= 8 * Sampler.INTERVAL
        return Sample(wall, ru.ru_utime + ru.ru_stime, sampler.hwm_kb / 1024 if sampled else None, maxrss,
                      sampler.tree_kb / 1024 if sampled else None,
                      proc.returncode, bool(timed_out), out.read(), err.read())


# --------------------------------------------------------------------------------------------
# Tools
# --------------------------------------------------------------------------------------------

READ_EVERY_FILE = """\
import os, sys
target, skip, exts = sys.argv[1], set(sys.argv[2].split(",")), tuple(sys.argv[3].split(","))
files = size = 0
stack = [target] if os.path.isdir(target) else []
if not stack:
    with open(target, "rb") as fh:
        size, files = len(fh.read()), 1
while stack:
    for e in os.scandir(stack.pop()):
        if e.is_dir(follow_symlinks=False):
            if e.name not in skip:
                stack.append(e.path)
        elif e.name.endswith(exts) and e.is_file():
            with open(e.path, "rb") as fh:
                size += len(fh.read())
            files += 1
print(files, size)
"""


@dataclass
class Tool:
    name: str
    cmd: list[str]             # the target path goes after these
    count: object = None       # stdout bytes -> (findings, files looked at or None, errors)
    prepare: object = None     # called before each run
    ok_codes: tuple = (0,)
    tail: list = field(default_factory=list)   # arguments after the target path
    target: bool = True        # False: the command takes no path
    note: str = ""
    cwd: Path | None = None    # where it runs, and its environment, when not the corpus's
    env: dict | None = None
    samples: list = field(default_factory=list)
    failed: str | None = None

    def command(self, target: str) -> list[str]:
        return list(self.cmd) + ([target] if self.target else []) + self.tail


# Each counter returns (findings, files the tool says it looked at or None, errors it reported).
# A peer's finding is counted once per (file, rule, first line): a pattern with `...` may match
# one site several times, ending at different reads.

def count_nagle(stdout: bytes):
    doc = json.loads(stdout)
    return len(doc["findings"]), doc.get("files"), 0


def count_semgrep(stdout: bytes):
    doc = json.loads(stdout)
    sites = {(r["path"], r["check_id"], r["start"]["line"]) for r in doc.get("results", [])}
    return len(sites), len(doc.get("paths", {}).get("scanned", [])) or None, len(doc.get("errors", []))


def count_astgrep(stdout: bytes):
    text = stdout.decode("utf-8", "replace").strip()
    if not text:
        return 0, None, 0
    rows = json.loads(text) if text.startswith("[") else [json.loads(x) for x in text.splitlines() if x.strip()]
    return len({(r["file"], r["ruleId"], r["range"]["start"]["line"]) for r in rows}), None, 0


def nagle_help(python: str, env: dict) -> str:
    try:
        return subprocess.run([python, "-m", "nagle_lint", "--help"], env=env, capture_output=True, text=True,
                              timeout=120).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def find_exe(option: str | None, names: list[str]) -> str | None:
    if option:
        p = shutil.which(option)
        if not p:
            sys.exit(f"bench: {option}: not an executable")
        return os.path.abspath(p)
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


def tool_version(cmd: list[str], env: dict) -> str:
    try:
        r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        return (r.stdout.strip() or r.stderr.strip()).splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "?"


def compile_packages(python: str, env: dict, sources: list[str]) -> None:
    """Byte-compile the nagle_lint packages measured (the interpreter's and
    each --compare tree's), as installing one does: where none is written
    (PYTHONDONTWRITEBYTECODE, or a read-only tree) every run would compile
    each module it imports, 0.1 s of CPU on one file, and more the bigger
    the package."""
    where = subprocess.run([python, "-c", "import nagle_lint, os; print(os.path.dirname(nagle_lint.__file__))"],
                           env=env, capture_output=True, text=True).stdout.strip()
    for folder in [where] * bool(where) + [str(Path(src).resolve() / "nagle_lint") for src in sources]:
        subprocess.run([python, "-m", "compileall", "-q", folder], env=env, stdout=subprocess.DEVNULL, check=False)


def build_tools(args, env: dict, cache_dir: Path) -> list[Tool]:
    py = args.python
    help_text = args.nagle_help
    base = [py, "-m", "nagle_lint", "--exit-zero", "-q", "--format", "json"] + args.nagle_arg
    tools = []
    if "--no-cache" in help_text:
        tools.append(Tool("nagle-lint cold", base + ["--no-cache"], count_nagle))
        tools.append(Tool("nagle-lint warm", base, count_nagle, note="cache filled by an untimed run first"))
    else:  # no cache option: a plain run, after removing any cache folder
        tools.append(Tool("nagle-lint cold", base, count_nagle,
                          prepare=lambda: shutil.rmtree(cache_dir, ignore_errors=True)))
    for src in args.compare:  # the same command, with the other source tree's package first on the path
        other = {**env, "PYTHONPATH": os.pathsep.join([str(Path(src).resolve()), env.get("PYTHONPATH", "")])}
        tools.append(Tool(f"nagle-lint cold ({Path(src).resolve().name})", base + ["--no-cache"], count_nagle,
                          env=other))
    tools.append(Tool("read every file", [py, "-c", READ_EVERY_FILE],
                      tail=[",".join(sorted(SKIP_DIRS)), ",".join(SOURCE_EXTENSIONS)]))
    tools.append(Tool("python start-up", [py, "-c", "pass"], target=False))
    if args.semgrep_exe:
        # Without a .semgrepignore of its own, semgrep leaves out every test/ and tests/ folder (its
        # default ignore list): two fifths of curl and of Twisted. The other rows read those files.
        tools.append(Tool("semgrep", [args.semgrep_exe, "scan", "--x-ignore-semgrepignore-files", "--config",
                                      str(PEERS / "semgrep.yml"), "--metrics=off", "--disable-version-check", "--quiet",
                                      "--json"], count_semgrep, ok_codes=(0, 1)))
    if args.astgrep_exe:
        tools.append(Tool("ast-grep", [args.astgrep_exe, "scan", "-c", str(PEERS / "sgconfig.yml"), "--json=compact"],
                          count_astgrep, ok_codes=(0, 1)))
    if args.only:
        wanted = {w.strip() for w in args.only.split(",")} | {"nagle-lint cold"} \
            | {t.name for t in tools if t.name.startswith("nagle-lint cold (")}  # the --compare rows
        tools = [t for t in tools if t.name in wanted]
    return tools


CHANGED = "nagle-lint one file changed"


class OneFileChanged:
    """The rows "one file changed": a private copy of the tree (the tree itself is never written),
    with its own cache, where one file is touched, edited (its last line, a comment, says something
    new each time: what the file's functions do is the same) or has its model changed (a line sending
    on a connection doubled, or back to one, each time: a new send in a function, or one gone), before
    each run, each row from the file as the last run left it."""

    def __init__(self, target: Path, changed: list[str], env: dict, config: Path | None):
        """`changed`: the --changed-file paths; the tree's is the first that is one of its files."""
        mine = [c for c in changed if (target / c).is_file()]
        if changed and not mine:
            sys.exit(f"bench: --changed-file: none of {', '.join(changed)} is a file of {target}")
        self.temp = Path(tempfile.mkdtemp(prefix="nagle-bench-changed-"))
        self.root = self.temp / target.name
        shutil.copytree(target, self.root, symlinks=True, ignore=shutil.ignore_patterns(".nagle_lint_cache"))
        if config is not None and target not in config.parents:  # the settings of a folder above the tree, kept
            shutil.copy(config, self.temp / config.name)
        self.rel = mine[0] if mine else middle_source_file(self.root)
        self.file = self.root / self.rel
        self.original = self.file.read_bytes()
        self.sending = doubled_send(self.original)  # None: no line that sends alone
        self.edits, self.doubled = 0, False
        self.last: dict[str, bytes] = {}  # row -> the text its last run linted
        self.env = {**env, "NAGLE_LINT_CACHE_DIR": str(self.temp / "cache")}

    def touch(self) -> None:
        os.utime(self.file)

    def edit(self) -> None:
        self._write("edited")

    def change_model(self) -> None:
        self.doubled = not self.doubled
        self._write("model changed")

    def _write(self, how: str) -> None:
        """Touch the file, then edit it (the issue's "after touch-ing and then editing one file")."""
        self.touch()
        self.edits += 1
        mark = "#" if self.file.suffix in (".py", ".pyi") else "//"
        text = (self.sending[0] if self.doubled else self.original) + f"\n{mark} one file changed: edit {self.edits}\n".encode()
        self.file.write_bytes(text)
        self.last[how] = text

    def tools(self, cold: Tool) -> list[Tool]:
        cmd = [a for a in cold.cmd if a != "--no-cache"]
        rows = [("touched", self.touch, "touched"),
                ("edited", self.edit, "touched, then edited: its last line, a comment, new")]
        if self.sending is not None:
            rows.append(("model changed", self.change_model, f"touched, then edited: line {self.sending[1]} (a send)"
                         " doubled, or back to one, and its last line new"))
        return [Tool(f"{CHANGED}: {how}", cmd, count_nagle, prepare=prepare, cwd=self.root, env=self.env,
                     note=f"{self.rel} {what} before each run, in a copy of the tree with its own cache")
                for how, prepare, what in rows]

    def same_as_cold(self, cold: Tool, row: Tool) -> str:
        """Whether the last run of an edited row printed what a cold run prints on the same files."""
        how = row.name.rpartition(": ")[2]
        if not row.samples or how not in self.last:
            return f"{row.name}: no run to compare with a cold run"
        self.file.write_bytes(self.last[how])
        run = subprocess.run(cold.command("."), cwd=self.root, env=self.env, capture_output=True, timeout=3600)
        same = run.stdout == row.samples[-1].stdout
        return (f"{row.name}: output {'identical to' if same else 'DIFFERENT from'} a cold run's on the same"
                " files (JSON, compared byte for byte)")

    def close(self) -> None:
        shutil.rmtree(self.temp, ignore_errors=True)


# A line that sends and nothing else that spans lines: a statement on one line (its parentheses
# closed, ended there) whose first call is named for sending or writing (`sock.sendall(...)`,
# `n = write(fd, ...)`, `ctx.writeAndFlush(msg);`).
FIRST_CALL = re.compile(rb"^[ \t]+[\w.\->\[\] =*&]*?\b([A-Za-z_]\w*)\s*\(")
SENDING = re.compile(rb"_?s?(?:send|write)(?:all|to|msg|v|AndFlush|Bytes|_all)?")


def doubled_send(text: bytes) -> tuple[bytes, int] | None:
    """The text with its first line that sends doubled (a new send in the same function), and that
    line's number; None where no line sends alone."""
    lines = text.split(b"\n")
    for i, line in enumerate(lines):
        call = FIRST_CALL.match(line)
        if call and SENDING.fullmatch(call.group(1)) and line.rstrip().endswith((b";", b")")) \
                and line.count(b"(") == line.count(b")") and not line.lstrip().startswith((b"return", b"if", b"while")):
            return b"\n".join(lines[:i + 1] + lines[i:]), i + 1
    return None


def middle_source_file(root: Path) -> str:
    """The changed file by default: the middle one of the tree's source files, by path."""
    paths = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        paths += [os.path.relpath(os.path.join(folder, n), root) for n in names if n.endswith(SOURCE_EXTENSIONS)]
    if not paths:
        sys.exit(f"bench: no source file in {root}")
    return sorted(paths)[len(paths) // 2]


def shown_command(t: Tool, target: str) -> str:
    if t.name == "read every file":
        return shlex.join([t.cmd[0], "-c", "<script: walk the folder, read every source file>", target])
    return shlex.join(t.command(target))


def source_stats(target: Path) -> tuple[int, int, int]:
    """Source files (by extension, the usual tool and VCS folders skipped), lines, bytes."""
    paths = [target] if target.is_file() else None
    if paths is None:
        paths = []
        for folder, dirs, names in os.walk(target):
            dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
            paths += [Path(folder, n) for n in names if n.endswith(SOURCE_EXTENSIONS)]
    files = lines = size = 0
    for p in paths:
        try:
            data = p.read_bytes()
        except OSError:
            continue
        files += 1
        size += len(data)
        lines += data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    return files, lines, size


def nagle_config(cwd: Path) -> Path | None:
    """The settings file nagle-lint would pick up from cwd: the nearest .nagle-lint.toml, or
    pyproject.toml with a [tool.nagle-lint] table (a text check: tomllib is 3.11+)."""
    for folder in [cwd, *cwd.parents]:
        if (folder / ".nagle-lint.toml").is_file():
            return folder / ".nagle-lint.toml"
        pyproject = folder / "pyproject.toml"
        try:
            if pyproject.is_file() and re.search(r"^\s*\[tool\.nagle-lint[\].]", pyproject.read_text("utf-8", "replace"), re.M):
                return pyproject
        except OSError:
            pass
    return None


def _cache_state(folder: Path) -> dict:
    try:
        return {e.name: e.stat().st_mtime_ns for e in os.scandir(folder)}
    except OSError:
        return {}


def _failure(t: Tool, s: Sample, timeout: float) -> str | None:
    if s.timed_out:
        return f"timed out after {timeout:.0f} s"
    if s.rc not in t.ok_codes:
        last = s.stderr.decode("utf-8", "replace").strip().splitlines()[-1:]
        return f"exit {s.rc}" + (f": {last[0][:200]}" if last else "")
    return None


def run_corpus(label: str, target: Path, args, env: dict, planted: list | None, report: dict) -> None:
    """Measure every tool on one folder (or one file) and print its table."""
    cwd, arg = (target, ".") if target.is_dir() else (target.parent, target.name)
    config = nagle_config(cwd)
    cache_dir = (config.parent if config else cwd) / ".nagle_lint_cache"  # where nagle-lint keeps it
    env = {**env, "NAGLE_LINT_CACHE_DIR": str(cache_dir)}  # (the project's root would be the git top)
    tools = build_tools(args, env, cache_dir)
    changed = None
    if target.is_dir() and "--no-cache" in args.nagle_help and (not args.only or CHANGED in args.only):
        changed = OneFileChanged(target, args.changed_file, env, config)
        tools[1:1] = changed.tools(tools[0])  # beside the cold run
    try:
        _run_corpus(label, target, args, env, planted, report, cwd, arg, cache_dir, config, tools, changed)
    finally:
        if changed is not None:
            changed.close()


def _run_corpus(label, target, args, env, planted, report, cwd, arg, cache_dir, config, tools, changed) -> None:
    files, lines, size = source_stats(target)
    had_cache = cache_dir.exists()
    print(f"\n### {label}\n", flush=True)
    load0 = os.getloadavg() if hasattr(os, "getloadavg") else None
    # One untimed run of each tool first: it fills the page cache, checks that every command
    # works, and fills nagle-lint's cache for the warm row.
    for t in tools:
        if args.skip_warmup and t.name != "nagle-lint warm":
            continue
        if t.prepare:
            t.prepare()
        t.failed = _failure(t, measure(t.command(arg), t.cwd or cwd, t.env or env, args.timeout, False), args.timeout)
        if t.failed:
            print(f"bench: {t.name}: {t.failed}", file=sys.stderr, flush=True)
    misses = 0  # warm runs that wrote a cache entry, i.e. found none to reuse
    for _ in range(args.repeat):  # interleaved: A, B, C, A, B, C, ...
        for t in tools:
            if t.failed:
                continue
            if t.prepare:
                t.prepare()
            before = _cache_state(cache_dir) if t.name == "nagle-lint warm" else None
            s = measure(t.command(arg), t.cwd or cwd, t.env or env, args.timeout, not args.no_memory_sampling)
            if before is not None and _cache_state(cache_dir) != before:
                misses += 1
            t.failed = _failure(t, s, args.timeout)
            if t.failed:
                print(f"bench: {t.name}: {t.failed}", file=sys.stderr, flush=True)
            else:
                t.samples.append(s)
    load1 = os.getloadavg() if hasattr(os, "getloadavg") else None
    if not had_cache:
        shutil.rmtree(cache_dir, ignore_errors=True)

    med = statistics.median
    cold = tools[0]
    cold_wall = med([s.wall for s in cold.samples]) if cold.samples else None
    rows, json_rows, tool_notes = [], [], []
    bound_note = False
    for t in tools:
        if not t.samples:
            rows.append([t.name, f"{files:,}", f"{lines:,}", t.failed or "-", "", "", "", "", ""])
            json_rows.append({"tool": t.name, "command": t.command(arg), "error": t.failed})
            continue
        if t.failed:
            tool_notes.append(f"{t.name}: stopped after {len(t.samples)} timed run{'s' if len(t.samples) != 1 else ''}: {t.failed}")
        walls = [s.wall for s in t.samples]
        wall, cpu = med(walls), med([s.cpu for s in t.samples])
        exact = all(s.hwm_mb is not None for s in t.samples)
        rss = med([s.hwm_mb if exact else s.maxrss_mb for s in t.samples])
        tree_rss = [s.tree_mb for s in t.samples if s.tree_mb is not None] if exact else []
        findings = "-"
        if t.count:
            try:
                counted = [t.count(s.stdout) for s in t.samples]
            except (ValueError, KeyError, TypeError) as e:
                findings = f"unreadable output ({type(e).__name__})"
            else:
                findings = "/".join(str(x) for x in sorted({c[0] for c in counted}))
                seen = {c[1] for c in counted if c[1] is not None}
                if seen and seen != {files}:
                    tool_notes.append(f"{t.name} looked at {'/'.join(f'{x:,}' for x in sorted(seen))} files")
                errors = max(c[2] for c in counted)
                if errors:
                    tool_notes.append(f"{t.name} reported {errors} error{'s' if errors != 1 else ''}"
                                      " (files or rules it could not handle)")
        ratio = f"{wall / cold_wall:.2f}" if cold_wall else "-"
        rss_txt = (f"{rss:.0f}" if exact else f"<= {rss:.0f}") + (f" / {med(tree_rss):.0f}" if tree_rss else "")
        if not exact:
            bound_note = True
        rows.append([t.name, f"{files:,}", f"{lines:,}", f"{wall:.3f}", f"{min(walls):.3f}-{max(walls):.3f}",
                     f"{cpu:.3f}", rss_txt, findings, ratio])
        json_rows.append({"tool": t.name, "command": t.command(arg), "wall_s": walls, "cpu_s": [s.cpu for s in t.samples],
                          "peak_rss_mb": [s.hwm_mb for s in t.samples], "ru_maxrss_mb": [s.maxrss_mb for s in t.samples],
                          "tree_mb": tree_rss, "findings": findings})
    head = ["tool", "files", "lines", "wall s", "wall min-max", "CPU s", "peak MB (RSS / tree PSS)",
            "findings", "time / nagle-lint cold"]
    print("| " + " | ".join(head) + " |")
    print("|---|" + "---:|" * (len(head) - 1))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    notes = [f"{files:,} source file{'s' if files != 1 else ''}, {lines:,} lines, {size / 2**20:.1f} MB; "
             f"median of {args.repeat} interleaved run{'s' if args.repeat != 1 else ''} per tool"]
    if load0 and load1:
        notes.append(f"load average before / after: {load0[0]:.2f} / {load1[0]:.2f} on {os.cpu_count()} CPUs")
    if planted:
        notes.append(f"planted findings: {len(planted)} ({_by_rule(planted)})")
        if cold.samples:
            notes.append(recall_note(cold.samples[0].stdout, planted))
    elif planted is not None:
        notes.append("no planted findings: this corpus has no socket code")
    if config:
        notes.append(f"nagle-lint read its settings from {config}")
    notes += tool_notes + [f"{t.name}: {t.note}" for t in tools if t.note and t.samples]
    if changed is not None:
        notes += [changed.same_as_cold(cold, t) for t in tools if t.name.startswith(f"{CHANGED}: ")
                  and not t.name.endswith("touched")]
    if misses:
        notes.append(f"nagle-lint warm: {misses} of {args.repeat} timed runs wrote a new cache entry (a miss); the cache"
                     " key covers the linter's own code, so an edit to it during the benchmark causes this")
    if bound_note:
        notes.append("'<= N': a run too short to sample; N is its ru_maxrss, which also counts"
                     " this script's own memory, copied when the child was started")
    print()
    for n in notes:
        print(f"- {n}")
    sys.stdout.flush()
    report["corpora"].append({"label": label, "path": str(target), "files": files, "lines": lines, "bytes": size,
                              "load": [load0, load1], "planted": len(planted) if planted is not None else None,
                              "rows": json_rows})


def _by_rule(planted: list) -> str:
    counts: dict[str, int] = {}
    for p in planted:
        counts[p["rule"]] = counts.get(p["rule"], 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))


def recall_note(stdout: bytes, planted: list) -> str:
    try:
        found = json.loads(stdout)["findings"]
    except (ValueError, KeyError):
        return "nagle-lint output unreadable"
    got = {(os.path.normpath(f["path"]), f["line"], f["rule"]) for f in found}
    want = {(os.path.normpath(p["path"]), p["line"], p["rule"]) for p in planted}
    other = len(got - want)
    return (f"nagle-lint cold reported {len(got & want)} of the {len(want)} planted findings at their lines,"
            f" and {other} other{'s' if other != 1 else ''}")


def one_small_file(corpus: Path) -> Path | None:
    """The shortest Python file of a synthetic corpus that holds a planted finding."""
    manifest = json.loads((corpus / "MANIFEST.json").read_text())
    paths = sorted({p["path"] for p in manifest["planted"] if p["path"].endswith(".py")})
    if not paths:
        return None
    return min((corpus / p for p in paths), key=lambda p: (p.stat().st_size, str(p)))


# --------------------------------------------------------------------------------------------

def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scales", default="1000,10000", help="synthetic corpus sizes in files (default: 1000,10000)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the synthetic corpus (default: 1)")
    ap.add_argument("--work", metavar="DIR",
                    help="where synthetic corpora are written, and reused when present (default: a temporary folder, removed after)")
    ap.add_argument("--no-socket", action="store_true",
                    help="also measure each scale without its socket files (the 'no socket code' case)")
    ap.add_argument("--no-synthetic", action="store_true", help="skip the synthetic corpora")
    ap.add_argument("--tree", action="append", default=[], metavar="PATH", help="a real source tree to measure (repeatable)")
    ap.add_argument("--one-file", metavar="PATH",
                    help="file for the one-file table (default: a small Python file with a finding from the first corpus)")
    ap.add_argument("--no-one-file", action="store_true", help="skip the one-file table")
    ap.add_argument("--changed-file", metavar="PATH", action="append", default=[],
                    help=f"the file the '{CHANGED}' rows touch and edit, relative to the --tree (repeatable: each tree"
                         " takes the first that is one of its files; default: the middle source file by path)")
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per tool and corpus; the median is shown (default: 3)")
    ap.add_argument("--skip-warmup", action="store_true",
                    help="no untimed first run (except the one that fills nagle-lint's cache); saves time with slow peers")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds before one run is killed (default: 3600)")
    ap.add_argument("--python", default=sys.executable, help="interpreter that runs nagle-lint (default: this one)")
    ap.add_argument("--nagle-arg", action="append", default=[], metavar="ARG",
                    help="extra argument for nagle-lint, e.g. --nagle-arg=--jobs=1 (repeatable)")
    ap.add_argument("--semgrep", metavar="PATH", help="semgrep executable (default: 'semgrep' on PATH)")
    ap.add_argument("--ast-grep", dest="ast_grep", metavar="PATH", help="ast-grep executable (default: 'ast-grep' on PATH)")
    ap.add_argument("--no-peers", action="store_true", help="do not run semgrep or ast-grep")
    ap.add_argument("--compare", action="append", default=[], metavar="SRC",
                    help="another nagle-lint source tree (an earlier commit's, say), run cold in the same rounds as "
                         "its own row, 'nagle-lint cold (SRC's folder name)' (repeatable)")
    ap.add_argument("--only", metavar="NAMES", help="comma-separated row names to run ('nagle-lint cold' always runs)")
    ap.add_argument("--no-memory-sampling", action="store_true",
                    help="do not poll /proc for memory (then peak memory is ru_maxrss, an upper bound)")
    ap.add_argument("--json-out", metavar="FILE", help="also write every sample as JSON")
    ap.add_argument("--generate-only", action="store_true", help="write the synthetic corpora, print where, and stop")
    args = ap.parse_args(argv)
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    try:
        scales = [int(x) for x in args.scales.split(",") if x.strip()]
    except ValueError:
        ap.error("--scales takes comma-separated integers")
    if any(n < 1 for n in scales):
        ap.error("--scales: sizes must be positive")

    env = dict(os.environ)
    # An installed nagle-lint runs from compiled modules: never time it compiling its own source.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO_ROOT)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.update(SEMGREP_SEND_METRICS="off", SEMGREP_ENABLE_VERSION_CHECK="0", NO_COLOR="1")
    if os.sep in args.python:
        args.python = os.path.abspath(args.python)
    args.semgrep_exe = None if args.no_peers else find_exe(args.semgrep, ["semgrep"])
    args.astgrep_exe = None if args.no_peers else find_exe(args.ast_grep, ["ast-grep"])

    temp = None
    if args.work:
        work = Path(args.work).resolve()
        work.mkdir(parents=True, exist_ok=True)
    else:
        temp = tempfile.mkdtemp(prefix="nagle-bench-")
        work = Path(temp)
    try:
        corpora = []  # (label, path, planted or None)
        if not args.no_synthetic:
            for n in scales:
                root = generate(work, args.seed, n, False)
                corpora.append((f"synthetic, {n:,} files (seed {args.seed})", root, "MANIFEST"))
                if args.no_socket:
                    corpora.append((f"synthetic without its socket files, from {n:,} (seed {args.seed})",
                                    generate(work, args.seed, n, True), "MANIFEST"))
        for t in args.tree:
            p = Path(t).resolve()
            if not p.is_dir():
                ap.error(f"--tree {t}: not a folder")
            corpora.append((f"tree: {p.name}", p, None))
        if args.generate_only:
            for label, path, _ in corpora:
                print(f"{label}: {path}")
            return 0
        one = None
        if not args.no_one_file:
            if args.one_file:
                one = Path(args.one_file).resolve()
                if not one.is_file():
                    ap.error(f"--one-file {args.one_file}: not a file")
            elif corpora and corpora[0][2]:
                one = one_small_file(corpora[0][1])

        args.nagle_help = nagle_help(args.python, env)
        if not args.nagle_help:
            sys.exit(f"bench: '{args.python} -m nagle_lint --help' failed: run from a checkout, or install nagle-lint")
        compile_packages(args.python, env, args.compare)
        versions = {"python": tool_version([args.python, "--version"], env),
                    "nagle-lint": tool_version([args.python, "-m", "nagle_lint", "--version"], env)}
        print("## nagle-lint speed benchmark\n")
        print(f"- machine: {os.cpu_count()} CPUs, {platform.platform()}")
        print(f"- {versions['python']} ({args.python}); {versions['nagle-lint']}")
        only = {w.strip() for w in args.only.split(",")} if args.only else None
        for name, exe in (("semgrep", args.semgrep_exe), ("ast-grep", args.astgrep_exe)):
            if only is not None and name not in only:
                print(f"- {name}: not run (not named in --only)")
            elif exe:
                versions[name] = tool_version([exe, "--version"], env)
                print(f"- {name}: {versions[name]} ({exe})")
            else:
                print(f"- {name}: not found, row left out")
        print("- commands, run in the corpus folder ('.' is the corpus):")
        for t in build_tools(args, env, work / ".nagle_lint_cache"):
            print(f"  - {t.name}: `{shown_command(t, '.')}`")
        sys.stdout.flush()
        report = {"machine": {"cpus": os.cpu_count(), "platform": platform.platform()}, "versions": versions,
                  "repeat": args.repeat, "corpora": []}
        for label, path, planted in corpora:
            if planted:
                planted = json.loads((path / "MANIFEST.json").read_text())["planted"]
            run_corpus(label, path, args, env, planted, report)
        if one is not None:
            run_corpus(f"one small file ({one.name}, what an editor or a pre-commit hook does)", one, args, env, None, report)
        if args.json_out:
            Path(args.json_out).write_text(json.dumps(report, indent=1) + "\n")
    finally:
        if temp:
            shutil.rmtree(temp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
