"""What the server does before it loads its protocol library: read the
editor's first message, `initialize`, answer it, and start building the
indexes of the workspace folders it names.

Loading lsprotocol and pygls costs about 0.3 s of one core (some 550
attrs classes made and their annotations resolved), which is needed only
to speak the protocol beyond `initialize`.  So the indexes are built (the
command line's work, in its worker processes) by a process forked before
any thread exists, and taken when the server indexes its folders
(`Build`); the server answers `initialize` itself (`answer`) and loads the
library once the build's first round is done, when its later rounds leave
a core free, so that the load delays neither the answer nor the build.
What the indexes show is published as soon as the build is done.  The
first message is then replayed to the protocol (`Replay`), whose own
answer is not sent again (`Answered`)."""

from __future__ import annotations

import json
import os
import pickle
import select
import signal

from ..config import ConfigError, Resolver, check_rule_ids
from ..discover import project_tops
from ..site import CONFIDENCES

OPTIONS = {"select": "a list of rule ids or prefixes", "ignore": "a list of rule ids or prefixes",
           "min-confidence": "one of: " + ", ".join(CONFIDENCES)}


def read_options(options) -> tuple[dict, list[str]]:
    """The settings given in `initializationOptions` (select, ignore,
    min-confidence), and what is wrong with the others: a wrong setting is
    left out, the rest apply."""
    good, errors = {}, []
    if options is None:
        return good, errors
    if not isinstance(options, dict):
        return good, [f"initializationOptions must be an object with keys {', '.join(OPTIONS)}"]
    for key, value in options.items():
        name = key.replace("_", "-").replace("minConfidence", "min-confidence")
        if name not in OPTIONS:
            errors.append(f"unknown setting '{key}' (expected one of: {', '.join(OPTIONS)})")
            continue
        problem = f"setting '{key}' must be {OPTIONS[name]}"
        if name == "min-confidence":
            if value not in CONFIDENCES:
                errors.append(problem)
            else:
                good["min_confidence"] = value
            continue
        if isinstance(value, str):
            value = value.split(",")
        if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
            errors.append(problem)
            continue
        try:
            good[name] = tuple(check_rule_ids(value, f"setting '{key}'"))
        except ConfigError as e:
            errors.append(str(e))
    return good, errors


def read_message(stream) -> bytes:
    """One message of the protocol (its headers and its body) as read from
    `stream`; what was read, however little, at the end of the input or
    where the headers name no length."""
    data, length = b"", None
    while True:
        line = stream.readline()
        data += line
        if not line.strip():  # the blank line after the headers, or the end
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length" and value.strip().isdigit():
            length = int(value)
    return data + stream.read(length) if line and length is not None else data


def folders_of(message: bytes) -> tuple[list[str], dict]:
    """The workspace folders (existing paths) and the valid settings of an
    `initialize` message, read as the server reads them; ([], {}) for any
    other message."""
    from pygls.uris import to_fs_path  # small: no protocol types

    params = _initialize_params(message)
    if params is None:
        return [], {}
    folders = [to_fs_path(uri) for uri in _folder_uris(params)]
    folders = [os.path.abspath(f) for f in folders if f and os.path.isdir(f)]
    return folders, read_options(params.get("initializationOptions"))[0]


def _folder_uris(params: dict) -> list[str]:
    """The workspace folders' URIs, else the root's (as pygls takes them)."""
    from pygls.uris import from_fs_path

    uris = [f.get("uri") for f in params.get("workspaceFolders") or () if isinstance(f, dict)]
    if not uris:
        root, path = params.get("rootUri"), params.get("rootPath")
        uris = [root] if root else [from_fs_path(path)] if isinstance(path, str) else []
    return [uri for uri in uris if isinstance(uri, str)]


def _initialize_params(message: bytes) -> dict | None:
    request = _initialize_request(message)
    return request["params"] if request is not None else None


def _initialize_request(message: bytes) -> dict | None:
    request = _body(message)
    ok = isinstance(request, dict) and request.get("method") == "initialize" and isinstance(request.get("params"), dict)
    return request if ok else None


def _body(message: bytes):
    """The JSON of a message of the protocol, or None."""
    try:
        return json.loads(message.partition(b"\r\n\r\n")[2])
    except ValueError:
        return None


FIX_ALL = "source.fixAll.nagle-lint"  # the kind of the code action that applies every safe fix
_ENCODINGS = ("utf-8", "utf-16", "utf-32")  # the position encodings the protocol library supports


def answer(message: bytes) -> bytes | None:
    """The answer to an `initialize` request, as the protocol library
    answers it for this server's features (None for another message): so
    that the server answers at once, and loads the library once a core is
    free (see `Build.wait_for_a_free_core`).  The library's own answer, when
    the request is replayed to it, is not sent (`Answered`)."""
    request = _initialize_request(message)
    capabilities = request["params"].get("capabilities") if request is not None else None
    if not isinstance(capabilities, dict) or "id" not in request:
        return None
    encodings = _get(capabilities, "general", "positionEncodings")
    encoding = next((e for e in encodings if e in _ENCODINGS), "utf-16") if isinstance(encodings, list) else "utf-16"
    sync = {"openClose": True, "change": 2}  # 2: incremental
    for offer in ("willSave", "willSaveWaitUntil"):  # offered by the client, declined
        if _get(capabilities, "textDocument", "synchronization", offer) is not None:
            sync[offer] = False
    sync["save"] = True
    from .. import __version__

    result = {"capabilities": {
        "positionEncoding": encoding, "textDocumentSync": sync, "hoverProvider": True,
        "codeActionProvider": {"codeActionKinds": ["quickfix", FIX_ALL]}, "executeCommandProvider": {"commands": []},
        "workspace": {"workspaceFolders": {"supported": True, "changeNotifications": True}, "fileOperations": {}}},
        "serverInfo": {"name": "nagle-lint", "version": __version__}}
    body = json.dumps({"id": request["id"], "jsonrpc": "2.0", "result": result}).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _get(tree: dict, *keys):
    for key in keys:
        tree = tree.get(key) if isinstance(tree, dict) else None
    return tree


class Answered:
    """The server's output where `initialize` was answered already
    (`answer`): the protocol library's answer to it is not sent again, and
    where it differs, that is logged."""

    def __init__(self, out, sent: bytes):
        self.out, self.sent = out, _body(sent)

    def write(self, data: bytes) -> None:
        if self.sent is not None:
            got = _body(data)
            if isinstance(got, dict) and "method" not in got and got.get("id") == self.sent["id"]:
                if got != self.sent:
                    import logging

                    logging.getLogger(__name__).error(
                        "the answer sent to initialize, %s, is not the protocol library's, %s", self.sent, got)
                self.sent = None
                return
        self.out.write(data)

    def flush(self) -> None:
        self.out.flush()

    def close(self) -> None:
        self.out.close()


class Replay:
    """The server's input: the first message, read already, then the rest."""

    def __init__(self, first: bytes, rest):
        self.first, self.rest = first, rest

    def readline(self) -> bytes:
        line, self.first = self._take(self.first.find(b"\n") + 1 or len(self.first))
        return line or self.rest.readline()

    def read(self, n: int = -1) -> bytes:
        data, self.first = self._take(len(self.first) if n < 0 else n)
        return data or self.rest.read(n)

    def _take(self, n: int) -> tuple[bytes, bytes]:
        return self.first[:n], self.first[n:]


# Seconds at most that the server waits for a free core before it loads its protocol library:
# the editor's messages after `initialize` wait meanwhile (a shutdown, say), however big the tree.
# Netty's first round takes about 0.7 s on an idle machine.
WAIT = 2.0


class Build:
    """The indexes of some folders (`index.Index.build`), built in another
    process with the settings given: what they show (each file's findings
    and problems) is sent first, to be published at once, then their models
    and findings before settling, which an edit needs and the server takes
    once it has published (pickling Netty's costs the building process about
    0.3 s, and loading them the server 0.1 s).

    The first build is forked before the server loads its protocol library
    and before any thread runs, and builds meanwhile; a later one (`fork`
    False) is a new interpreter, since a process whose threads run (the
    protocol's loop, the analysis) cannot safely fork one, and a build forks
    its workers.  `texts`: path -> an open buffer read instead of its file
    (None: every file as on disk)."""

    def __init__(self, folders: list[str], options: dict, jobs: int | None = None, texts: dict | None = None,
                 fork: bool = True):
        self.options, self.texts = options, texts
        self.process = None  # the interpreter started, where not forked
        if fork:
            from .index import Index  # noqa: F401  loaded here, where the forked process inherits it

            read_end, write_end = os.pipe()
            self.free, free = os.pipe()
            self.pid = os.fork()
            if self.pid == 0:  # the building process: never returns
                os.close(read_end)
                os.close(self.free)
                code = 1
                try:
                    with os.fdopen(write_end, "wb") as out:
                        _build_and_send(folders, options, texts, jobs, out, lambda: _tell(free))
                    code = 0
                finally:  # a broken configuration file, say: the index builds itself
                    os._exit(code)
            os.close(write_end)
            os.close(free)
            self.stream = os.fdopen(read_end, "rb")
        else:
            self.free = None
            self.process = _started((folders, options, texts, jobs))
            self.pid, self.stream = self.process.pid, self.process.stdout
        self.shown: dict | None = None  # folder -> (shown, problems), once read
        self.models: dict | None = None  # folder -> (prepared, raw), once read

    def wait_for_a_free_core(self, limit: float = WAIT) -> None:
        """Wait until the forked build leaves a core free: its first round
        done (its workers idle while its later rounds run in its own
        process), or the build ended; `limit` seconds at most."""
        if self.free is not None:
            select.select([self.free], [], [], limit)
            os.close(self.free)
            self.free = None

    def read_as(self, texts: dict[str, bytes]) -> bool:
        """Whether the build read each of these texts at its path (a buffer
        given to it, or the file on disk)."""
        if self.texts is None:
            from .index import _as_on_disk

            return _as_on_disk(texts)
        return all(self.texts.get(path) == text for path, text in texts.items())

    def shown_of(self, folder: str, settings: Resolver):
        """(what the folder's index shows, its problems, the errors of the
        broken configuration files it met), as the index would find them,
        or None where the build was of other settings or folders, or failed."""
        if self.shown is None:
            self.shown = self._next()
        return self.shown.get(folder) if settings.overrides == self.options else None

    def models_of(self, folder: str):
        """(the folder's index's models, its findings before settling), or
        None where they did not come whole; asked after `shown_of`."""
        if self.models is None:
            self.models = self._next() if self.shown else {}
            self.close()
        return self.models.get(folder)

    def _next(self) -> dict:
        try:
            return pickle.load(self.stream)
        except Exception:  # it failed, and sent nothing whole
            return {}

    def close(self) -> None:
        """Wait for the building process (it ends once it has sent
        everything), or end it where its models were never asked for (the
        server built its indexes itself: open buffers, other settings)."""
        if self.pid is None:
            return
        if self.process is not None:
            if self.models is None:
                self.process.kill()
            self.stream.close()
            self.process.wait()
        else:
            if self.models is None:
                os.kill(self.pid, signal.SIGKILL)
            self.stream.close()
            os.waitpid(self.pid, 0)
        self.pid = None


def _build_and_send(folders: list[str], options: dict, texts: dict | None, jobs: int | None, out,
                    first_done=None) -> None:
    """Build the folders' indexes and send them to `out`, as `Build` reads
    them; `first_done`: called once the first folder's first round is done."""
    from .index import Index

    built = {}
    for folder in folders:
        broken: list[str] = []  # a broken configuration file's files take the defaults, as in the server
        settings = Resolver(options, start=folder, roots=project_tops([folder]),
                            broken=lambda e, b=broken: b.append(str(e)))
        built[folder] = ix = Index(folder, settings, jobs)
        ix.build(texts, first_done=first_done)
        ix.broken, first_done = broken, None
    pickle.dump({f: (ix.shown, ix.problems, ix.broken) for f, ix in built.items()}, out, pickle.HIGHEST_PROTOCOL)
    out.flush()
    pickle.dump({f: (ix.prepared, ix.raw) for f, ix in built.items()}, out, pickle.HIGHEST_PROTOCOL)


def _tell(fd: int) -> None:
    """One byte written to `fd`, which is then closed; where nobody reads
    it any more (the server waited no longer), nothing."""
    try:
        os.write(fd, b".")
    except BrokenPipeError:
        pass
    os.close(fd)


def _started(request: tuple):
    """A new interpreter building what `request` asks (see `serve`), the
    request written to it; this package first on its path, as it is here."""
    import subprocess
    import sys

    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    path = os.pathsep.join(filter(None, (top, os.environ.get("PYTHONPATH"))))
    process = subprocess.Popen([sys.executable, "-c", "from nagle_lint.lsp.early import serve; serve()"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": path})
    try:
        with process.stdin:
            pickle.dump(request, process.stdin, pickle.HIGHEST_PROTOCOL)
    except OSError:  # it ended already: it sends nothing, and the index builds itself
        pass
    return process


def serve() -> None:
    """A build process started by `Build` (not forked): the request
    (folders, settings, open buffers, workers) on its input, the indexes
    on its output."""
    import sys

    out, sys.stdout = sys.stdout.buffer, sys.stderr  # only the indexes go to the output
    folders, options, texts, jobs = pickle.load(sys.stdin.buffer)
    _build_and_send(folders, options, texts, jobs, out)
    out.flush()


def start(stream) -> tuple[bytes, Build | None]:
    """The first message of `stream`, and the build of the indexes of the
    folders it names (None where there are none, where this platform cannot
    fork, or where NAGLE_LINT_NO_EARLY_BUILD is set: the server then builds
    them itself, once the protocol library is loaded)."""
    first = read_message(stream)
    if os.environ.get("NAGLE_LINT_NO_EARLY_BUILD") or not hasattr(os, "fork"):
        return first, None
    folders, options = folders_of(first)
    return first, Build(folders, options) if folders else None
