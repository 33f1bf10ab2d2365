"""`nagle-lint server`: a language server with the whole project in view
(pygls and lsprotocol, the optional `server` extra)."""

from __future__ import annotations


def main(argv: list[str]) -> int:
    import gc
    import sys
    from importlib.util import find_spec

    from ..arguments import UsageError

    if argv:
        raise UsageError("'server' takes no arguments: it speaks the Language Server Protocol on stdin and stdout")
    need = "'server' needs the server extra ({} is missing or too old): pip install 'nagle-lint[server]'"
    missing = [name for name in ("lsprotocol", "pygls") if find_spec(name) is None]  # found, not loaded
    if missing:
        raise UsageError(need.format(missing[0]))
    from . import early

    try:
        first, build = early.start(sys.stdin.buffer)  # before the protocol library is loaded: see early.py
        answered = early.answer(first) if build is not None else None
        if answered is not None:
            # Answered at once; the library (0.3 s of a core) is then loaded once the build
            # leaves a core free, and it needs it only to publish what the build finds.
            sys.stdout.buffer.write(answered)
            sys.stdout.buffer.flush()
            build.wait_for_a_free_core()
        # What loading it makes (some 50,000 objects) lives as long as the server, and none is
        # garbage: the collector, which would walk them over and over meanwhile (0.1 s of the
        # 0.7 s it takes), is left off until it is done, and then leaves them be.
        gc.disable()
        try:
            from .server import main as serve
        finally:
            gc.freeze()
            gc.enable()
    except ImportError as e:  # pygls 1, say
        if (e.name or "").split(".")[0] not in ("lsprotocol", "pygls"):
            raise
        raise UsageError(need.format(e.name)) from None
    return serve(first, build, answered)
