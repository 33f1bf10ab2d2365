"""`nagle-lint server`: a language server with the whole project in view
(pygls and lsprotocol, the optional `server` extra)."""

from __future__ import annotations


def main(argv: list[str]) -> int:
    from ..arguments import UsageError

    if argv:
        raise UsageError("'server' takes no arguments: it speaks the Language Server Protocol on stdin and stdout")
    try:
        import lsprotocol.types  # noqa: F401
        import pygls.lsp.server  # noqa: F401  (pygls 2)
    except ImportError as e:
        raise UsageError(f"'server' needs the server extra ({e.name} is missing): "
                         "pip install 'nagle-lint[server]'") from None
    from .server import main as serve

    return serve(argv)
