"""How fast `nagle-lint server` answers an editor, measured with a real
client (pygls's) talking to the server over stdio, as an editor does.

    python benchmarks/lsp_latency.py                      # the two edit latencies
    python benchmarks/lsp_latency.py --tree ../netty      # and the index of a big tree

- Edit latency: the median time from sending `didChange` to receiving the
  `publishDiagnostics` it causes, for a small edit (one line: two sends
  joined into one, and back) of a 1,500-line and of a 200-line Python file.
  The edits are spaced apart (an isolated edit is analysed at once; a burst
  of typing waits for its pause, 150 ms).
- Index: with `--tree`, the time from starting the server to the
  diagnostics of a file opened at once (the index is built first), and the
  server's peak memory (VmHWM) once it is built; beside it, in turns with
  it (the same load on the machine), the cold command line on the same
  tree (`nagle-lint --no-cache -q --exit-zero .`), which the index is to
  take no longer than.  Beside each time, the CPU time it took (the
  process and the workers it forked), which the load does not change, and
  for the server the part of it spent starting (until it answers
  `initialize`: mostly importing the protocol library).

It needs the server extra (`pip install '.[server]'`).  It is a tool to run
by hand, not a test."""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

SPLIT = "    sock.sendall(head)\n    sock.sendall(body)\n"
JOINED = "    sock.sendall(head + body)\n"


def source(lines: int) -> str:
    """A Python file of about `lines` lines: socket functions, the first with a split write."""
    head = "import socket\n\n\n"
    first = ("def request(host, head, body):\n    sock = socket.create_connection((host, 80))\n"
             + SPLIT + "    return sock.recv(4096)\n\n\n")
    unit = ("def exchange_{n}(host, payload):\n"
            "    sock = socket.create_connection((host, 8000 + {n}))\n"
            "    message = b'%d:' % len(payload) + payload\n"
            "    sock.sendall(message)\n"
            "    reply = sock.recv(4096)\n"
            "    if not reply:\n"
            "        raise ConnectionError('closed')\n"
            "    total = 0\n"
            "    for chunk in reply.split(b','):\n"
            "        total += len(chunk)\n"
            "    sock.close()\n"
            "    return total\n\n\n")
    text, n = head + first, 0
    while text.count("\n") + unit.count("\n") <= lines:
        text += unit.format(n=n)
        n += 1
    return text


class Client(LanguageClient):
    def __init__(self):
        super().__init__("lsp-latency", "1")
        self.published: asyncio.Queue = asyncio.Queue()

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_publish(ls, params: types.PublishDiagnosticsParams):
            self.published.put_nowait((time.perf_counter(), params))

        @self.feature(types.WINDOW_SHOW_MESSAGE)
        def on_message(ls, params):
            print(f"server: {params.message}", file=sys.stderr)


async def start(root: Path, source: Path | None = None, env: dict | None = None) -> Client:
    """The server started in the folder `root`, as editors start it (from
    the nagle-lint source tree `source`, else the one installed: `python -m`
    puts the current folder first on its path; `env`: more of its
    environment), and initialized with it."""
    client = Client()
    env = dict(os.environ, **(env or {}), **({"PYTHONPATH": str(source)} if source is not None else {}))
    await client.start_io(sys.executable, "-m", "nagle_lint", "server", env=env, cwd=root)
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(),
        workspace_folders=[types.WorkspaceFolder(from_fs_path(str(root)), root.name)]))
    client.started = time.perf_counter()  # the server has answered `initialize`
    client.initialized(types.InitializedParams())
    return client


async def stop(client: Client):
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()


async def next_publish(client: Client, uri: str, timeout: float = 120.0):
    while True:
        at, params = await asyncio.wait_for(client.published.get(), timeout)
        if params.uri == uri:
            return at, params


def cpu_seconds(pid: int, workers: bool = False) -> float:
    """The CPU time a process has used (user and system), from /proc;
    `workers`: with that of the children it has waited for and of those
    still running, theirs likewise (the process building the index early,
    its workers)."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    seconds = sum(int(f) for f in fields[11:15 if workers else 13]) / os.sysconf("SC_CLK_TCK")
    for child in _children(pid) if workers else ():
        try:
            seconds += cpu_seconds(child, workers=True)
        except OSError:  # it ended meanwhile: counted by its parent once waited for
            pass
    return seconds


async def edit_latency(lines: int, edits: int) -> tuple[float, int, float]:
    """Median ms from didChange to publishDiagnostics, the file's length in
    lines, and the server's CPU ms per edit (what the machine's load does
    not change: on a busy machine the latency is mostly waiting for a core)."""
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        path = root / "service.py"
        text = source(lines)
        path.write_text(text)
        client = await start(root)
        uri = from_fs_path(str(path))
        client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))
        await next_publish(client, uri)
        # The index build and the open may each publish: the edits start once the server is quiet.
        while True:
            try:
                await asyncio.wait_for(client.published.get(), 1.0)
            except asyncio.TimeoutError:
                break
        start_line = text[:text.index(SPLIT)].count("\n")
        times, version, split = [], 1, True
        cpu = cpu_seconds(client._server.pid)
        for _ in range(edits):
            version += 1
            # One small edit: the two sends joined into one, or split again (the finding goes, or comes).
            old, new = (SPLIT, JOINED) if split else (JOINED, SPLIT)
            change = types.TextDocumentContentChangePartial(
                range=types.Range(types.Position(start_line, 0), types.Position(start_line + old.count("\n"), 0)),
                text=new)
            await asyncio.sleep(0.3)  # an isolated edit, not a burst
            sent = time.perf_counter()
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(uri=uri, version=version), [change]))
            at, params = await next_publish(client, uri)
            assert (len(params.diagnostics) == 0) == split, params.diagnostics
            times.append((at - sent) * 1000)
            split = not split
        cpu = cpu_seconds(client._server.pid) - cpu
        await stop(client)
        return statistics.median(times), text.count("\n"), cpu * 1000 / edits


def peak_memory_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


async def index_time(tree: Path, source: Path | None = None, env: dict | None = None
                     ) -> tuple[float, float, float, float, float, float]:
    """Seconds to build the index of `tree` (until the diagnostics of a file
    opened right after `initialized`), the server's CPU seconds by then (its
    workers' and its early build's too), the seconds and CPU seconds it took
    to answer `initialize`, its peak memory in MB once it holds the index,
    and that of its early build's process (0: none); `source`, `env`: see `start`."""
    files = sorted(p for p in tree.rglob("*") if p.suffix in (".py", ".java", ".c", ".h") and p.is_file())
    opened = files[0]
    started = time.perf_counter()
    client = await start(tree, source, env)
    start_cpu = cpu_seconds(client._server.pid)
    uri = from_fs_path(str(opened))
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=uri, language_id="java", version=1, text=opened.read_text(errors="replace"))))
    at, _ = await next_publish(client, uri, timeout=600)
    cpu = cpu_seconds(client._server.pid, workers=True)
    # The early build's process sends the models after the diagnostics: the server's peak is read once it
    # has taken them (it has waited for that process), and that process's own peak while it runs.
    early = 0.0
    for _ in range(600):
        children = _children(client._server.pid)
        if not children:
            break
        early = max([early] + [peak_memory_mb(c) for c in children])
        await asyncio.sleep(0.1)
    await asyncio.sleep(0.5)  # the project of the models taken, made
    memory = peak_memory_mb(client._server.pid)
    await stop(client)
    return at - started, cpu, client.started - started, start_cpu, memory, early


def _children(pid: int) -> list[int]:
    found = []
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as fh:
                found += map(int, fh.read().split())
        except OSError:
            pass
    return found


def cold_run(tree: Path) -> tuple[float, float]:
    """Seconds the command line takes on the tree without its cache, and its
    CPU seconds (its workers' too)."""
    import resource
    import subprocess

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "nagle_lint", "--no-cache", "-q", "--exit-zero", "."], cwd=tree, check=True,
                   stdout=subprocess.DEVNULL)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


# What the index costs beside the command line's work, each part timed in a process of its own started
# in the tree; it prints its CPU seconds (its own and its workers').
PART = """
import gc, os, resource, time
def cpu():
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime
from nagle_lint import runner
from nagle_lint.config import Resolver
from nagle_lint.lsp.index import Index
here = os.getcwd()
"""
PARTS = {
    "the command line's run (runner.run)": "c = cpu(); runner.run([here], Resolver({}))",
    "the index build (Index.build)": "c = cpu(); Index(here, Resolver({}, start=here)).build()",
    "listing the files (runner.plan)": "c = cpu(); runner.plan([here], Resolver({}, start=here))",
    "loading the protocol library (lsprotocol, pygls, cattrs, the server module), collector off":
        "c = cpu(); gc.disable(); import nagle_lint.lsp.server",
    "converting the first publishDiagnostics (one diagnostic per finding of the tree)": (
        "import nagle_lint.lsp.server\n"
        "from lsprotocol import types\n"
        "from pygls.protocol import default_converter\n"
        "ix = Index(here, Resolver({}, start=here)); ix.build(); converter = default_converter()\n"
        "c = cpu()\n"
        "p = types.Position(0, 0)\n"
        "at = types.Range(p, p)\n"
        "converter.unstructure(types.PublishDiagnosticsParams('file:///x', [types.Diagnostic(\n"
        "    at, f.message, code=f.rule, source='nagle-lint', code_description=types.CodeDescription('x'),\n"
        "    related_information=[types.DiagnosticRelatedInformation(types.Location('file:///x', at), 'x')])\n"
        "    for fs in ix.shown.values() for f in fs]))"),
}


def components(tree: Path, rounds: int) -> None:
    """The median CPU time of each of PARTS over `rounds` processes, in turns."""
    import subprocess

    times: dict[str, list[float]] = {name: [] for name in PARTS}
    for _ in range(rounds):
        for name, code in PARTS.items():
            out = subprocess.run([sys.executable, "-c", f"{PART}{code}\nprint(cpu() - c)\nos._exit(0)"], cwd=tree,
                                 check=True, capture_output=True, text=True).stdout
            times[name].append(float(out.split()[-1]))
    for name, values in times.items():
        print(f"{name}: CPU {statistics.median(values):.3f} s (each {', '.join(f'{v:.3f}' for v in values)})")


def each(values: list[float]) -> str:
    return ", ".join(f"{v:.2f}" for v in values)


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=30, help="edits per file (default 30)")
    parser.add_argument("--tree", type=Path, help="a big tree to index (e.g. netty)")
    parser.add_argument("--rounds", type=int, default=5, help="index builds and cold runs, in turns (default 5)")
    parser.add_argument("--compare", type=Path, action="append", default=[], metavar="SRC",
                        help="also index with the server of another nagle-lint source tree (an earlier "
                             "commit's `git archive`, say), in the same turns (repeatable)")
    parser.add_argument("--without-early-build", action="store_true",
                        help="also index with the early build switched off (NAGLE_LINT_NO_EARLY_BUILD=1), "
                             "in the same turns")
    parser.add_argument("--components", action="store_true",
                        help="with --tree: the CPU time of what the index does beside the command line's "
                             "work, each part in a process of its own (--rounds each)")
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    print("load average at the start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    for lines in (1500, 200) if args.edits else ():
        median, real, cpu = await edit_latency(lines, args.edits)
        print(f"didChange -> publishDiagnostics, {real}-line file: median {median:.1f} ms over {args.edits} edits; "
              f"server CPU {cpu:.1f} ms per edit")
    if args.tree and args.components:
        components(args.tree.resolve(), args.rounds)
    elif args.tree:
        tree = args.tree.resolve()
        servers = [("server", None, None)] + [(f"server from {src}", src.resolve(), None) for src in args.compare]
        if args.without_early_build:
            servers.append(("server without the early build", None, {"NAGLE_LINT_NO_EARLY_BUILD": "1"}))
        builds = {name: [] for name, _, _ in servers}  # name -> (seconds, CPU, start seconds, start CPU, MB, early MB) per round
        colds = []
        for _ in range(args.rounds):  # in turns: the load of the moment weighs on every row alike
            colds.append(cold_run(tree))
            for name, source, env in servers:
                builds[name].append(await index_time(tree, source, env))
        median = statistics.median
        for name, _, _ in servers:
            seconds, cpus, starts, start_cpus, memories, earlies = zip(*builds[name])
            print(f"index of {args.tree}, {name}: median {median(seconds):.2f} s over {args.rounds} builds "
                  f"(start to the first file's diagnostics; each {each(seconds)}), CPU {median(cpus):.2f} s "
                  f"(each {each(cpus)}); of which starting the server (to its answer to initialize) "
                  f"{median(starts):.2f} s, CPU {median(start_cpus):.2f} s; "
                  f"server peak memory {max(memories):.0f} MB at most (its early build's process: "
                  f"{max(earlies):.0f} MB)")
        seconds, cpus = zip(*colds)
        print(f"cold command line on {args.tree}: median {median(seconds):.2f} s (each {each(seconds)}), "
              f"CPU {median(cpus):.2f} s (each {each(cpus)})")
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    asyncio.run(main())
