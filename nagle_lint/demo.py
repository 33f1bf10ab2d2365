"""`nagle-lint demo`: watch the Nagle / delayed-ACK stall happen on this machine.

Three small clients talk to a server thread on 127.0.0.1 and time their request/response round trips:

- ``split``: header and body sent with two ``sendall`` calls, then the reply is read (the pattern NGL001 reports);
- ``joined``: header and body sent with one ``sendall`` (the fix);
- ``split+nodelay``: the split sends with ``TCP_NODELAY`` on (the band-aid NGL002 reports).

Only the standard library, only loopback, bounded by a time budget so it ends within a few seconds
even where the delayed ACK is 200 ms. The formatting functions are pure so they can be tested alone.
"""

from __future__ import annotations

import argparse
import math
import socket
import statistics
import struct
import sys
import textwrap
import threading
import time
from dataclasses import dataclass
from typing import Optional, Sequence, TextIO

from .arguments import Parser, UsageError, print_error

HOST = "127.0.0.1"
DEFAULT_ROUNDS = 20
DEFAULT_BUDGET_S = 6.0
WARMUP_ROUNDS = 2  # a new Linux connection acknowledges at once at first (quick-ACK mode)
IO_TIMEOUT_S = 3.0
BODY = b"x" * 200
HEAD = struct.pack("!4sI", b"PUT ", len(BODY))
REPLY = struct.pack("!4sI", b"OK  ", 0)
TCP_INFO_SEGS_OUT = 136  # offset of tcpi_segs_out in Linux's struct tcp_info

# Bar chart: log scale from 1 microsecond, so sub-millisecond medians still get a visible bar.
SCALE_FLOOR_MS = 0.001
BAR_WIDTH = 40
TEXT_WIDTH = 88
UNICODE_BLOCKS = "▏▎▍▌▋▊▉█"  # 1/8 .. 8/8 of a cell
ASCII_BLOCK = "#"


@dataclass(frozen=True)
class Variant:
    name: str
    description: str
    split: bool
    nodelay: bool


VARIANTS = (
    Variant("split", "2 x sendall, then recv", split=True, nodelay=False),
    Variant("joined", "1 x sendall, then recv", split=False, nodelay=False),
    Variant("split+nodelay", "2 x sendall, TCP_NODELAY on", split=True, nodelay=True),
)


@dataclass(frozen=True)
class Result:
    variant: Variant
    samples_ms: tuple
    packets: Optional[int]  # client segments sent during the timed round trips (Linux TCP_INFO)

    @property
    def rounds(self) -> int:
        return len(self.samples_ms)

    @property
    def median_ms(self) -> float:
        return statistics.median(self.samples_ms)

    @property
    def p90_ms(self) -> float:
        return percentile(self.samples_ms, 90)

    @property
    def packets_per_trip(self) -> Optional[float]:
        if self.packets is None or not self.samples_ms:
            return None
        return self.packets / len(self.samples_ms)


# --------------------------------------------------------------------------- measuring


def percentile(values: Sequence[float], pct: float) -> float:
    """Nearest-rank percentile (the value below which pct percent of the samples lie)."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no samples")
    rank = max(1, math.ceil(pct * len(ordered) / 100 - 1e-9))
    return ordered[rank - 1]


def segs_out(sock: socket.socket) -> Optional[int]:
    """Segments the kernel has sent on this socket (Linux TCP_INFO), or None where not available."""
    if not sys.platform.startswith("linux") or not hasattr(socket, "TCP_INFO"):
        return None
    try:
        info = sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 256)
    except OSError:
        return None
    if len(info) < TCP_INFO_SEGS_OUT + 4:
        return None
    return struct.unpack_from("I", info, TCP_INFO_SEGS_OUT)[0]


def _serve(listener: socket.socket) -> None:
    """Server thread: read each whole request, answer it with one send."""
    request_size = len(HEAD) + len(BODY)
    try:
        conn, _ = listener.accept()
    except OSError:
        return
    conn.settimeout(IO_TIMEOUT_S)
    with conn:
        try:
            while True:
                request = b""
                while len(request) < request_size:
                    chunk = conn.recv(request_size - len(request))
                    if not chunk:
                        return
                    request += chunk
                conn.sendall(REPLY)
        except OSError:
            return


def _recv_reply(sock: socket.socket) -> None:
    reply = b""
    while len(reply) < len(REPLY):
        chunk = sock.recv(len(REPLY) - len(reply))
        if not chunk:
            raise ConnectionError("the demo server closed the connection")
        reply += chunk


def run_variant(variant: Variant, rounds: int, budget_s: float) -> Result:
    """Time up to `rounds` round trips of one variant, stopping early when `budget_s` has passed."""
    deadline = time.perf_counter() + budget_s
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.settimeout(IO_TIMEOUT_S)
        listener.bind((HOST, 0))
        listener.listen(1)
        server = threading.Thread(target=_serve, args=(listener,), daemon=True)
        server.start()
        with socket.create_connection(listener.getsockname(), timeout=IO_TIMEOUT_S) as sock:
            if variant.nodelay:
                # nagle-lint: ignore[NGL002] -- the demo shows what the band-aid does to split sends
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            samples = []
            before = None
            for i in range(WARMUP_ROUNDS + rounds):
                if i == WARMUP_ROUNDS:
                    before = segs_out(sock)
                if i > WARMUP_ROUNDS and time.perf_counter() >= deadline:
                    break
                start = time.perf_counter()
                if variant.split:
                    sock.sendall(HEAD)
                    # nagle-lint: ignore[NGL001] -- the demo measures this stall on purpose
                    sock.sendall(BODY)
                else:
                    sock.sendall(HEAD + BODY)
                _recv_reply(sock)
                if i >= WARMUP_ROUNDS:
                    samples.append((time.perf_counter() - start) * 1000.0)
            after = segs_out(sock)
        server.join(IO_TIMEOUT_S)
    packets = after - before if before is not None and after is not None else None
    return Result(variant, tuple(samples), packets)


def run_all(rounds: int = DEFAULT_ROUNDS, budget_s: float = DEFAULT_BUDGET_S) -> list:
    """Run every variant, splitting the time budget evenly between them."""
    share = budget_s / len(VARIANTS)
    return [run_variant(v, rounds, share) for v in VARIANTS]


# --------------------------------------------------------------------------- formatting (pure)


def format_ms(value: float) -> str:
    """Milliseconds with about three significant digits: 44.0, 4.40, 0.021."""
    if value >= 100:
        return f"{value:.0f}"
    if value >= 10:
        return f"{value:.1f}"
    if value >= 1:
        return f"{value:.2f}"
    return f"{value:.3f}"


def format_table(results: Sequence[Result]) -> str:
    header = ("variant", "what the client does", "trips", "median ms", "p90 ms", "packets/trip")
    rows = [header]
    for r in results:
        ppt = r.packets_per_trip
        rows.append(
            (
                r.variant.name,
                r.variant.description,
                str(r.rounds),
                format_ms(r.median_ms),
                format_ms(r.p90_ms),
                "n/a" if ppt is None else f"{ppt:.1f}",
            )
        )
    widths = [max(len(row[c]) for row in rows) for c in range(len(header))]
    lines = []
    for row in rows:
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])]
        cells += [cell.rjust(w) for cell, w in zip(row[2:], widths[2:])]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def bar_cells(value_ms: float, top_ms: float, width: int = BAR_WIDTH) -> float:
    """Length of a bar in character cells on a log scale from SCALE_FLOOR_MS to top_ms.

    Every positive value gets at least one eighth of a cell, and top_ms gets the full width."""
    top = max(top_ms, SCALE_FLOOR_MS * 10)
    span = math.log10(top / SCALE_FLOOR_MS)
    fraction = math.log10(max(value_ms, SCALE_FLOOR_MS) / SCALE_FLOOR_MS) / span
    return min(float(width), max(1 / 8, fraction * width))


def draw_bar(cells: float, unicode: bool = True) -> str:
    """A horizontal bar `cells` long: block characters in eighths, or '#' per whole cell."""
    if not unicode:
        return ASCII_BLOCK * max(1, round(cells))
    eighths = max(1, round(cells * 8))
    full, rest = divmod(eighths, 8)
    return UNICODE_BLOCKS[-1] * full + (UNICODE_BLOCKS[rest - 1] if rest else "")


def format_chart(results: Sequence[Result], unicode: bool = True, width: int = BAR_WIDTH) -> str:
    if not results:
        return ""
    top = max(r.median_ms for r in results)
    name_width = max(len(r.variant.name) for r in results)
    lines = [f"median round trip (log scale, {format_ms(SCALE_FLOOR_MS)} ms to {format_ms(max(top, 0.01))} ms)"]
    for r in results:
        bar = draw_bar(bar_cells(r.median_ms, top, width), unicode)
        lines.append(f"{r.variant.name.ljust(name_width)}  {bar} {format_ms(r.median_ms)} ms")
    return "\n".join(lines)


def explain(results: Sequence[Result]) -> str:
    """One or two sentences on what the numbers mean and how to fix the code."""
    by_name = {r.variant.name: r for r in results}
    split, joined = by_name.get("split"), by_name.get("joined")
    if split is None or joined is None:
        return ""
    fix = (
        "Send each message with one call (build it in one buffer, use sendmsg/writev, "
        "or write to a buffered stream and flush once)"
    )
    if split.median_ms > 20 and split.median_ms > 10 * max(joined.median_ms, 0.1):
        nodelay = by_name.get("split+nodelay")
        band_aid = ""
        if nodelay is not None:
            band_aid = "; TCP_NODELAY hides the stall too, but sends every piece as its own packet"
        return (
            f"Sending a request in two pieces and then waiting for the reply cost "
            f"{format_ms(split.median_ms)} ms per round trip instead of {format_ms(joined.median_ms)} ms: "
            "Nagle's algorithm held the second piece until the first was acknowledged, and the receiver "
            "delayed that acknowledgement (about 40 ms on Linux, 200 ms on Windows and macOS).\n"
            f"{fix}{band_aid}."
        )
    return (
        f"No stall showed up here (split {format_ms(split.median_ms)} ms, joined "
        f"{format_ms(joined.median_ms)} ms): this system did not delay the acknowledgement on loopback, "
        "but split sends followed by a read can still wait 40-200 ms on other systems and networks.\n"
        f"{fix}."
    )


def _supports_blocks(out: TextIO) -> bool:
    encoding = getattr(out, "encoding", None)
    if encoding is None:  # an in-memory text stream holds any character
        return True
    try:
        UNICODE_BLOCKS.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def render(results: Sequence[Result], unicode: bool = True) -> str:
    """The whole report: title, table, chart and explanation."""
    title = f"nagle-lint demo: request/response round trips over TCP on {HOST} ({sys.platform})"
    text = "\n".join(textwrap.fill(p, TEXT_WIDTH) for p in explain(results).splitlines())
    parts = [title, "", format_table(results), "", format_chart(results, unicode), "", text]
    return "\n".join(parts) + "\n"


# --------------------------------------------------------------------------- entry point


def _parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="nagle-lint demo",
        description="Measure the Nagle/delayed-ACK stall of split sends on this machine (loopback only).",
    )
    parser.add_argument(
        "--rounds", type=int, default=DEFAULT_ROUNDS, help=f"round trips per variant (default {DEFAULT_ROUNDS})"
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=DEFAULT_BUDGET_S,
        help=f"seconds for all variants together (default {DEFAULT_BUDGET_S:g})",
    )
    return parser


def main(argv: Optional[Sequence[str]] = None, out: Optional[TextIO] = None) -> int:
    out = sys.stdout if out is None else out
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help
        return 0 if exc.code == 0 else 2
    except UsageError as exc:
        print_error(f"demo: {exc}")
        return 2
    if args.rounds < 1 or args.budget <= 0:
        print_error("demo: --rounds must be at least 1 and --budget positive")
        return 2
    try:
        results = run_all(args.rounds, args.budget)
    except OSError as exc:
        print_error(f"demo: could not run on {HOST}: {exc}")
        return 2
    out.write(render(results, unicode=_supports_blocks(out)))
    out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
