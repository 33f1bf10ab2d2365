"""What the server does before it loads its protocol library: read the
editor's first message, `initialize`, and start the byte scan of the
workspace folders it names.

Loading lsprotocol and pygls costs about a second of one core (some 550
attrs classes made and their annotations resolved), while the other core
waits.  So the scan (the command line's phase 1, see runner.py) runs in a
forked process meanwhile, forked before any thread exists, and the files
it listed and its records are taken when the index is built
(`Scan.planned`).  The first message is
then replayed to the protocol (`Replay`)."""

from __future__ import annotations

import json
import os
import pickle

from ..config import ConfigError, Resolver, check_rule_ids
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
    try:
        request = json.loads(message.partition(b"\r\n\r\n")[2])
    except ValueError:
        return None
    ok = isinstance(request, dict) and request.get("method") == "initialize" and isinstance(request.get("params"), dict)
    return request["params"] if ok else None


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


class Scan:
    """The files of some folders and their byte scan (runner's Scanned
    records), worked out by a forked process, with the settings given."""

    def __init__(self, folders: list[str], options: dict, jobs: int | None = None):
        from .. import runner

        self.options = options
        read_end, write_end = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the scanning process: never returns
            code = 1
            try:
                os.close(read_end)
                found = {}
                for folder in folders:
                    settings = Resolver(options, start=folder)
                    files = runner.plan([folder], settings).files
                    found[folder] = files, runner.scan_all(files, settings, jobs or runner.default_jobs())
                with os.fdopen(write_end, "wb") as out:
                    pickle.dump(found, out, pickle.HIGHEST_PROTOCOL)
                code = 0
            finally:  # a broken configuration file, say: the index scans for itself
                os._exit(code)
        os.close(write_end)
        self.read_end = read_end
        self.found: dict | None = None

    def planned(self, folder: str, settings: Resolver):
        """(the folder's files, their Scanned records), as the index would
        list and scan them, or None where the scan was of other settings or
        folders, or failed."""
        if self.found is None:
            self.close()
        return self.found.get(folder) if settings.overrides == self.options else None

    def close(self) -> None:
        """Wait for the scanning process and take what it found."""
        if self.found is not None:
            return
        with os.fdopen(self.read_end, "rb") as fh:
            data = fh.read()
        os.waitpid(self.pid, 0)
        try:
            self.found = pickle.loads(data)
        except Exception:  # it failed, and sent nothing whole
            self.found = {}


def start(stream) -> tuple[bytes, Scan | None]:
    """The first message of `stream`, and the scan of the folders it names
    (None where there are none, where this platform cannot fork, or where
    NAGLE_LINT_NO_EARLY_SCAN is set: the index then lists and scans them
    itself, once the protocol library is loaded)."""
    first = read_message(stream)
    if os.environ.get("NAGLE_LINT_NO_EARLY_SCAN") or not hasattr(os, "fork"):
        return first, None
    folders, options = folders_of(first)
    return first, Scan(folders, options) if folders else None
