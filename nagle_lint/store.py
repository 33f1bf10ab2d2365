"""The per-file store: re-linting a tree after some files changed costs
those files, not a cold run, where the change cannot matter to any other
file.

A full run leaves a *record* in the cache folder (one per set of paths
linted, written and read as cache.py writes and reads every entry): for
each file, the digests of its content and of its settings, its signature
(a file whose signature is unchanged is not read again to find its
digest: see `cache.file_digests`), what the first
phase made of it (read or not, skipped by the byte scan or lowered, its
problem), and what decided whether a skipped file mattered to the others:
what each later round wanted (`project.Wanted`) and which skipped files
offered something to it; and the run's result.  Beside the record, the
texts of the files the first round lowered (source text, never a pickle:
what is kept is data a run lints anyway).  The next run compares each
file's digests with the record's.

A changed file is taken without a full run in two cases; any other change
is a full run, which records again:
- the byte scan skips it, before and after (or it was added or removed),
  and it offered nothing to any later round, before and after (checked
  against the record's rounds): then no other file's model, no later round
  and no finding can change; only that file's problem and the count of
  files read can;
- the first round lowered it, no later round read it again (for what the
  first left out: `Wanted.again`), its settings are the same, and its new
  text lowers to exactly what its last text did (the same model,
  suppressions, syntax errors, choice of functions and problem): a comment
  added at its end (not in Python, whose module spans the file), an edit
  in a function left out.  Every later phase reads the files only through
  those, so the run's result is the record's.  What the last text lowered
  to is known by lowering its text kept beside the record, or, once a
  replay has lowered the file, by the digest of that lowering it kept
  (`_lowering_digest`): an edited file is lowered once per edit.
A change to a file's model (what other files see of it), an added or
removed file with a model, a change of settings, or many files changed
are full runs: taking them incrementally (as the language server's
`lsp.index.Index.update` does) needs every file's model and the
project's cross-file facts at hand, and on a big tree loading them and
bringing them up to date costs a good part of a cold run (see
benchmarks/README.md).

A record is trusted as the cache's entries are, and anything unexpected in
it (damage, a forgery, another layout) means a full run; a kept text is
used only where its digest is the record's digest of the file.  Nothing
loaded from the cache is code or becomes objects other than the JSON's
and the text's: at worst a forged record replays a forged result, as a
forged cache entry would."""

from __future__ import annotations

from types import SimpleNamespace

from .cache import _digest, content_hasher, tool

TYPE_CHECKING = False  # typing's own, without importing typing
if TYPE_CHECKING:
    from .cache import Cache
    from .report import Result

LAYOUT = 2  # bump whenever the record's layout changes
MANY = 20  # above one file in this many changed (and at least 8), a full run costs about as much


class Trace:
    """What a full run learns that decides whether a change to one of its
    files can matter to another (filled by runner.py as it goes)."""

    def __init__(self):
        self.first: dict[str, tuple[bool, bool, str | None]] = {}  # path -> (read, skipped, problem) of the first round
        self.rounds: list = []  # each later round's Wanted
        self.offered: set[str] = set()  # skipped files that offered something to a later round (lowered then or not)

    def took(self, item) -> None:
        """A file's first-round `runner.Lowered`."""
        prepared = item.prepared
        self.first[item.path] = (prepared is not None, prepared is not None and prepared.model is None, item.problem)


class Store:
    """The record of the runs over one set of paths, in one cache; this
    run's `digests` and `signatures` are set once known (see
    `cache.file_digests`)."""

    def __init__(self, cache: Cache, paths: list[str], force_exclude: bool):
        self.cache = cache
        self.digests: dict[str, tuple[str, str]] = {}
        self.signatures: dict[str, list | None] = {}
        self.name = "files-" + _digest(repr((tool(), LAYOUT, sorted(paths), force_exclude)).encode(
            "utf-8", "surrogateescape"))
        self.trace = Trace()
        self._last: dict | None = None  # the last run's record, once read
        self._record: dict | None = None  # this run's, when replayed from the last one
        self._blob: bytes | None = None  # the texts kept beside the last record, once read
        self._texts: dict[str, bytes] = {}  # path -> its text, where it differs from the last record's
        self._lowerings: dict[str, list[str]] = {}  # path -> [content digest, digest of what it lowered to]

    def _read(self) -> dict | None:
        if self._last is None:
            self._last = self.cache.load_record(self.name) or {}
        return self._last if isinstance(self._last, dict) else None

    def known(self) -> dict:
        """path -> (signature, content digest) of the files the last run read (see `cache.file_digests`)."""
        try:
            files = self._read()["files"]
            return {p: (v[5], v[0]) for p, v in files.items() if isinstance(v[5], list) and isinstance(v[0], str)}
        except (KeyError, TypeError, AttributeError, IndexError):
            return {}

    def replay(self, settings) -> Result | None:
        """The result of this run from the last one's record, where every
        change since cannot matter to other files; else None."""
        data = self._read()
        if not data:
            return None
        try:
            return self._replay(data, settings)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # damaged or not ours: a full run
            return None

    def _replay(self, data: dict, settings) -> Result | None:
        from .findings import from_data
        from .report import Result

        if data["name"] != self.name:
            return None
        old, new = data["files"], self.digests
        changed = sorted(p for p in old.keys() | new.keys()
                         if (tuple(old[p][:2]) if p in old else None) != (new[p] if p in new else None))
        if len(changed) > max(8, len(new) // MANY):
            return None
        offered = set(data["offered"])
        rounds = [_wanted(w) for w in data["rounds"]]
        again = set().union(*(w.again for w in rounds))  # lowered again by a later round, for what the first left out
        lowered = {p for p in changed if p in old and old[p][2] and not old[p][3]}
        for path in changed:
            if path in lowered:
                if path not in new or new[path][1] != old[path][1] or path in again:
                    return None  # gone, its settings changed, or a later round read it again
            elif path in old and (not old[path][3] or path in offered):
                return None  # unread, or offered something to a later round: other files may change with it
        same, fresh = {}, {}  # lowered files that lower as before; files the byte scan skips
        for path in changed:
            if path in lowered:
                found = self._same_lowering(path, data, old[path][0], new[path][0], settings)
                if found is None:
                    return None
                same[path], text, digest = found
                if digest is None:
                    self._texts[path] = text  # known by its text next time
                else:
                    self._lowerings[path] = [new[path][0], digest]
            elif path in new:
                verdict = _first_round(path, settings)
                if verdict is None or verdict[1] and _offers(path, rounds):
                    return None
                fresh[path] = verdict
        gone = set(changed) - lowered  # (a file lowering as before keeps its problems, and its count)
        stored = data["result"]
        files = stored["files"] - sum(bool(old[p][2]) for p in gone if p in old) + sum(v[0] for v in fresh.values())
        problems = sorted([(p, m) for p, m in stored["problems"] if p not in gone]
                          + [(p, v[2]) for p, v in fresh.items() if v[2]])
        if not all(isinstance(p, str) and isinstance(m, str) for p, m in problems):
            return None
        result = Result([from_data(f) for f in stored["findings"]], files, problems)
        record = dict(data, files={p: v for p, v in old.items() if p not in gone})
        record["files"].update({p: [*new[p], *v] for p, v in (fresh | same).items()})
        record["lowerings"] = {p: v for p, v in {**data.get("lowerings", {}), **self._lowerings}.items()
                               if p in record["files"]}
        for path, entry in record["files"].items():  # the signatures as this run found them
            entry[5:] = [self.signatures.get(path)]
        self._record = record
        return result

    def keep(self, result: Result) -> None:
        """Record this run (its result before the paths that could not be found are added)."""
        from .findings import to_data

        record, texts = self._record, None
        if record is None:
            trace = self.trace
            if set(trace.first) != set(self.digests):
                return  # not a whole run's trace
            record = {"name": self.name, "files": {p: [*self.digests[p], *trace.first[p], self.signatures.get(p)]
                                                   for p in sorted(trace.first)},
                      "rounds": [_wanted_data(w) for w in trace.rounds], "offered": sorted(trace.offered)}
            texts = self._lowered_texts()
        elif self._texts:  # the texts of the files that lower as before, as they are now
            texts = {p: self._texts.get(p) or self._text(record, p) for p in record["texts"]}
        if texts is not None:
            record["texts"], offset, parts = {}, 0, []
            for path in sorted(texts):
                record["texts"][path] = [offset, len(texts[path])]
                offset += len(texts[path])
                parts.append(texts[path])
            texts = b"".join(parts)
        record["result"] = {"files": result.files, "problems": [list(p) for p in result.problems],
                            "findings": [to_data(f) for f in result.findings]}
        self.cache.store_record(self.name, record, texts)

    def _lowered_texts(self) -> dict[str, bytes]:
        """path -> the text of each file this (full) run lowered first, read
        again (it is in the page cache) and kept where it is still what the
        run read."""
        from .runner import _read_bytes

        texts = {}
        for path, (read, skipped, _) in self.trace.first.items():
            if read and not skipped:
                text = _read_bytes(path, 0)[0]
                if text is not None and _content_digest(text) == self.digests[path][0]:
                    texts[path] = text
        return texts

    def _text(self, record: dict, path: str) -> bytes:
        """The text of `path` kept beside the last record (b"" where there is none)."""
        if self._blob is None:
            self._blob = self.cache.load_texts(self.name) or b""
        start, size = record["texts"].get(path, (0, 0))
        return self._blob[start:start + size] if isinstance(start, int) and isinstance(size, int) else b""

    def _same_lowering(self, path: str, data: dict, before: str, now: str, settings):
        """((read, skipped, problem), its text, the digest of its lowering)
        where the changed file (content digest `now`) lowers as it did with
        content `before`: the same model, suppressions, syntax errors,
        choice and problem; else None.  What it lowered to is known by the
        digest an earlier replay kept for that content (`_lowering_digest`),
        else by lowering its text kept beside the record."""
        from .runner import _read_bytes, read_file

        text = _read_bytes(path, 0)[0]
        if text is None or _content_digest(text) != now:
            return None  # the file changed again since it was digested
        prepared, problem = read_file(path, settings, text)
        if prepared is None or prepared.model is None:
            return None
        digest = _lowering_digest(prepared, problem)
        known = data.get("lowerings", {}).get(path)
        if isinstance(known, list) and known[:1] == [before]:
            return ((True, False, problem), text, digest) if digest is not None and [before, digest] == known else None
        old = self._text(data, path)
        if _content_digest(old) != before:
            return None  # no text kept, or damaged
        was, problem_was = read_file(path, settings, old)
        if was is None or was.model is None or (
                (was.model, was.marks, was.errors, was.choice, problem_was)
                != (prepared.model, prepared.marks, prepared.errors, prepared.choice, problem)):
            return None
        return (True, False, problem), text, digest


_STATE: dict[type, tuple[str, ...]] = {}  # class -> the attributes that are all of an object's state


def _lowering_digest(prepared, problem: str | None) -> str | None:
    """A digest of what lowering a file gave (model, suppressions, syntax
    errors, choice, problem) that is the same in every process for the same
    lowering (sets and dicts taken in sorted order, whatever the hash
    seed); None where it holds an object this cannot spell out whole."""
    try:
        text = _spelled((prepared.model, prepared.marks, prepared.errors, prepared.choice, problem))
    except TypeError:
        return None
    return _digest(text.encode("utf-8", "surrogatepass"))


def _spelled(value) -> str:
    """`value` spelt out so that different values are spelt differently:
    each part is a repr or a type's name and its parts in brackets."""
    kind = type(value)
    if value is None or kind in (str, int, bool, float):
        return repr(value)
    if kind in (tuple, list):
        return f"{kind.__name__}({','.join(map(_spelled, value))})"
    if kind in (set, frozenset):
        return f"set({','.join(sorted(map(_spelled, value)))})"
    if kind is dict:
        return f"dict({','.join(sorted(_spelled(k) + ':' + _spelled(v) for k, v in value.items()))})"
    names = _STATE.get(kind)
    if names is None:
        names = _STATE[kind] = _state_of(kind)
    return f"{kind.__module__}.{kind.__qualname__}({','.join(_spelled(getattr(value, n)) for n in names)})"


def _state_of(kind: type) -> tuple[str, ...]:
    """The fields of a slotted dataclass or a named tuple: all its state."""
    from dataclasses import fields, is_dataclass

    if kind.__dictoffset__ == 0:  # no attributes beyond its slots
        if is_dataclass(kind) and {f.name for f in fields(kind)} == set(_slots(kind)):
            return tuple(f.name for f in fields(kind))
        if issubclass(kind, tuple) and hasattr(kind, "_fields") and not _slots(kind):
            return kind._fields
    raise TypeError(f"{kind.__qualname__} cannot be spelt out")


def _slots(kind: type) -> list[str]:
    return [name for k in kind.__mro__ for name in vars(k).get("__slots__", ())]


def _content_digest(text: bytes) -> str:
    """The digest `cache.file_digests` finds for a file of this text."""
    h = content_hasher(len(text))
    h.update(text)
    return h.hexdigest()


def _first_round(path: str, settings):
    """(read, skipped, problem) as the first round finds the file, or None
    where it is to be lowered."""
    from .runner import _scan_many

    (scanned,) = _scan_many(([path], settings))
    if scanned.settled is None:
        return None
    prepared, problem = scanned.settled
    if prepared is not None and prepared.model is not None:
        return None
    return prepared is not None, prepared is not None, problem


def _offers(path: str, rounds: list) -> bool:
    """Whether a skipped file offers anything to a later round (where that
    round asked the skipped files at all)."""
    from .runner import _offers as offered

    facts: dict = {}  # the file's byte facts, worked out once for every round
    return any((w.needed or w.effects) and offered([path], w, facts) for w in rounds)


def _wanted_data(wanted) -> dict:
    from dataclasses import fields  # here: a run that only replays never loads dataclasses

    out = {}
    for f in fields(wanted):
        value = getattr(wanted, f.name)
        out[f.name] = {k: sorted(v) for k, v in value.items()} if isinstance(value, dict) else sorted(value)
    return out


def _wanted(data: dict) -> SimpleNamespace:
    """A round's `project.Wanted` as a later look reads it (without loading the model)."""
    values = {}
    for name, value in data.items():
        if isinstance(value, dict):
            values[name] = {str(k): frozenset(map(str, v)) for k, v in value.items()}
        elif isinstance(value, list):
            values[name] = frozenset(map(str, value))
        else:
            raise TypeError(name)
    return SimpleNamespace(**values)
