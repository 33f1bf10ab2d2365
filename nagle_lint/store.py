"""The per-file store: re-linting a tree after some files changed costs
those files and the files whose findings depend on them, not a cold run.

A run with the cache on leaves a *record* in the cache folder (one per set
of paths linted, written and read as cache.py writes and reads every
entry): for each file, the digests of its content and of its settings, its
signature (a file whose signature is unchanged is not read again to find
its digest: see `cache.file_digests`) and what the first round made of it
(read or not, skipped by the byte scan or lowered, its problem); what each
later round wanted (`project.Wanted`), which skipped files it asked and
what they offered; for each file checked, which lowering was checked and
what the checks found there (before `lint.settle`); and the run's result.
Beside the record, each file's *lowering* (its model, suppressions, syntax
errors and choice: JSON data, see modeldata.py), an entry of its own keyed
on the tool, the file's path, content and settings, and what the round
that lowered it knew (`Store.key`).

The next run is a run like any other (`runner._run`), whose `Trace` takes
from them what is provably what the run would find itself:
- the first round's verdict on a file whose content and settings are the
  record's, and its lowering where it is kept;
- a later round's offer of a skipped file that the record's round asked,
  where the round wants what the record's did and the file is unchanged;
- a later round's lowering of a file kept under the same key (the same
  content and settings, the same wants, the same earlier lowering), or
  under the same part of the wants, the part lowering the file reads
  (`_part`: a round that wants otherwise only in names the file neither
  calls nor defines takes it too);
- the checks of a file checked on the same lowering with the same settings
  and rules, where no file whose lowering changed reaches into it or out
  of it by a call, now or before (`Project.dependents`).
Everything else is done again: lowering the files that changed, or whose
later round wants otherwise now, and checking them, their callers and
their callees.  Where every file that changed lowers to a model of the
outline its last one had (`project.outline`: what a project reads of a file
across files; a send added to a function that sends keeps it), each later
round wants what the record's did and each call resolves as it did: the
rounds' wants are the record's, not found again from every model, and the
files to check again are found without the project of before.

Cheaper still (`Store.replay`): where every change since the last run
cannot matter to other files, the last result is taken without loading
any lowering:
- a file the byte scan skips, before and after (or added or removed),
  that offered nothing to any later round, before and after: then no other
  file's model, no later round and no finding can change; only that file's
  problem and the count of files read can;
- a file the first round lowered, that no later round read again, with the
  same settings, whose new text lowers to exactly what its last text did
  (the same lowering, as data, as the one kept): a comment added at its end
  (not in Python, whose module spans the file), an edit in a function left
  out.  Every later phase reads the files only through their lowerings, so
  the run's result is the record's.

A record and a lowering are trusted as the cache's entries are; anything
unexpected in them (damage, a forgery, another layout) is ignored: a record
so is a full run, a lowering so is lowered again.  Nothing loaded from the
cache is code, or becomes objects other than JSON's, the standard
containers and the model's own records (modeldata.py): at worst a forged
entry gives a forged result, as a forged cache entry would."""

from __future__ import annotations

from collections import namedtuple

from .cache import _digest, content_hasher, tool

TYPE_CHECKING = False  # typing's own, without importing typing
if TYPE_CHECKING:
    from .cache import Cache
    from .report import Result

LAYOUT = 3  # bump whenever the record's layout changes
MANY = 20  # above one file in this many changed (and at least 8), `replay` does not try
FIRST = "first"  # the context of a first round's lowering (see `Store.key`)

# A lowering this run made or took from the store: its key and the digest of its data.
Held = namedtuple("Held", "prepared key sum")


class Trace:
    """What a run learns that the next one takes over (filled by runner.py
    as it goes), and what it takes over from the last (see the module's
    text): runner.py asks it where it would scan, lower or check."""

    def __init__(self, store: Store):
        self.store = store
        self.first: dict[str, tuple[bool, bool, str | None]] = {}  # path -> (read, skipped, problem) of the first round
        self.rounds: list = []  # each later round's Wanted
        self.offered: set[str] = set()  # skipped files that offered something to a later round (lowered then or not)
        self.asked: dict[str, dict] = {}  # round -> the skipped files it did not ask, and the offers
        self.final: dict[str, Held] = {}  # path -> the lowering checked
        self.rules: list[str] | None = None  # the rules checked
        self.checks: dict[str, list] = {}  # path -> [its checks' findings, their problems], as data

    def took(self, item) -> None:
        """A file's first-round `runner.Lowered`."""
        prepared = item.prepared
        self.first[item.path] = (prepared is not None, prepared is not None and prepared.model is None, item.problem)
        if prepared is not None and prepared.model is not None:
            self.store.hold(item, self.store.key(item.path, FIRST))

    def first_round(self, files: list[str], settings, workers) -> list:
        """`runner._first_round`: the verdicts and lowerings the store has, the others found."""
        from .runner import _first_round

        known = self.store.first(files)
        found = iter(_first_round([p for p in files if p not in known], settings, workers))
        return [known[p] if p in known else next(found) for p in files]

    def offers(self, skipped: list[str], wanted, facts: dict, workers=None) -> list:
        """`runner._offers`: those of files the record's round asked too, where it wanted the same, taken over."""
        from .runner import _offers

        data = _wanted_data(wanted)
        last = self.store.asked(len(self.rounds) - 1, data)
        same = {p for p in skipped if p in last[0] and self.store.unchanged(p)} if last is not None else set()
        offers = _offers([p for p in skipped if p not in same], wanted, facts, workers)
        offers += [last[1][p] for p in sorted(same) if p in last[1]]
        first_skipped = {p for p, (_, was_skipped, _) in self.first.items() if was_skipped}
        self.asked[str(len(self.rounds) - 1)] = {
            "unasked": sorted(first_skipped - set(skipped)),
            "offers": [[o.path, sorted(o.defined), sorted(o.worth), sorted(o.called)] for o in offers]}
        return offers

    def wanted(self, project):
        """`project.wanted()` of this round: the record's round's, where every
        project of this run answers across files as the record's did
        (`Store.same_outlines`), else found."""
        data = self.store._read()
        round_ = len(self.rounds)
        if data and round_ < len(data["rounds"]) and self.store.same_outlines():
            try:
                return _wanted(data["rounds"][round_], whole=True)
            except (TypeError, ValueError, AttributeError):  # damaged or not ours: found
                pass
        return project.wanted()

    def relowered(self, items: list, settings, wanted, workers) -> list:
        """`runner._relowered`: the lowerings the store has, the others made.
        A later round's lowering is kept under two keys, each with the file
        and its earlier lowering: the round's wants, and the part of them
        that lowering the file reads (`_part`), so that a round wanting
        otherwise only where the file cannot tell takes it too (found by the
        first, without reading the file, where the round wants the same)."""
        from .runner import _relowered

        wants = _digest(_json(_wanted_data(wanted)).encode())
        found, todo, keys, parts = [], [], {}, {}
        for path, before in items:
            held = self.store.held.get(id(before)) if before is not None else None
            item = None
            if before is None or held is not None:  # (a lowering not held cannot be told apart: made again)
                earlier = held.sum if held is not None else None
                keys[path] = self.store.key(path, ("later", wants, earlier))
                item = self.store.load(path, keys[path])
                part = _part(wanted, path, self.store.digests[path][0]) if item is None else None
                if part is not None:
                    parts[path] = self.store.key(path, ("later, reading", part, earlier))
                    item = self.store.load(path, parts[path])
                    if item is not None:
                        self.store.also(item, keys[path])
            if item is not None:
                found.append(item)
            else:
                todo.append((path, before))
        for item in _relowered(todo, settings, wanted, workers):
            found.append(item)
            if item.path in keys and item.prepared is not None and item.prepared.model is not None:
                self.store.hold(item, keys[item.path], (parts[item.path],) if item.path in parts else ())
        return found

    def checks_kept(self, prepared: dict, project, rules: set[str], settings) -> dict:
        """path -> the `runner.Checked` of the record, for the files whose checks cannot have changed."""
        self.final = {p: self.store.held[id(prep)] for p, prep in prepared.items() if id(prep) in self.store.held}
        self.rules = sorted(rules)
        try:
            return self.store.checks_kept(prepared, project, self.rules, settings)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # damaged or not ours: checked again
            return {}

    def checked(self, checked: dict) -> None:
        """Every file's `runner.Checked` (before `lint.settle` marks its findings)."""
        from .findings import to_data

        self.checks = {p: [[to_data(f) for f in c.findings], [list(problem) for problem in c.problems]]
                       for p, c in checked.items()}


class Store:
    """The record of the runs over one set of paths, in one cache, and the
    lowerings beside it; this run's `digests` and `signatures` are set once
    known (see `cache.file_digests`)."""

    def __init__(self, cache: Cache, paths: list[str], force_exclude: bool):
        self.cache = cache
        self.digests: dict[str, tuple[str, str]] = {}
        self.signatures: dict[str, list | None] = {}
        self.name = "files-" + _digest(repr((tool(), LAYOUT, sorted(paths), force_exclude)).encode(
            "utf-8", "surrogateescape"))
        self.trace = Trace(self)
        self.held: dict[int, Held] = {}  # id(Prepared) -> what it is in the store (it is held: its id stays its own)
        self._last: dict | None = None  # the last run's record, once read (and checked)
        self._record: dict | None = None  # this run's, when replayed from the last one
        self._loaded: dict[str, object] = {}  # key -> the runner.Lowered kept under it, or None
        self._new: dict[str, bytes] = {}  # key -> a lowering to keep
        self._same: bool | None = None  # see `same_outlines`, once asked
        self._changed: set[str] | None = None  # see `changed`, once asked
        self._also: set[str] = set()  # the other keys of the lowerings held (see `hold`)

    # -- the last run's record

    def _read(self) -> dict | None:
        if self._last is None:
            data = self.cache.load_record(self.name)
            self._last = data if _well_formed(data, self.name) else {}
        return self._last or None

    def known(self) -> dict:
        """path -> (signature, content digest) of the files the last run read (see `cache.file_digests`)."""
        data = self._read()
        return {p: (v[5], v[0]) for p, v in data["files"].items() if isinstance(v[5], list)} if data else {}

    def changed(self) -> set[str]:
        """The files whose content or settings are not the last record's (those added or gone too)."""
        if self._changed is None:
            old = (self._read() or {}).get("files", {})
            self._changed = {p for p in old.keys() | self.digests.keys()
                             if (tuple(old[p][:2]) if p in old else None) != self.digests.get(p)}
        return self._changed

    def unchanged(self, path: str) -> bool:
        """Whether the file's content and settings are the last record's."""
        return path not in self.changed() and path in self.digests

    def first(self, files: list[str]) -> dict:
        """path -> the first round's `runner.Lowered` of those of `files` the
        record and the store have (unchanged, or lowered already this run by `replay`)."""
        from .prepared import SKIPPED
        from .runner import Lowered

        changed, record = self.changed(), (self._read() or {}).get("files", {})
        out = {}
        for path in files:
            if path in changed:
                item = self._loaded.get(self.key(path, FIRST))
            else:
                read, skipped, problem = record[path][2:5]
                item = Lowered(path, SKIPPED if skipped else None, problem) if skipped or not read else \
                    self.load(path, self.key(path, FIRST))
            if item is not None:
                out[path] = item
        return out

    def asked(self, round_: int, wanted: dict):
        """(the skipped files the record's round `round_` asked, path -> the
        `runner.Offer` of those that offered something), where that round
        wanted `wanted` (as data); else None."""
        from .runner import Offer

        data = self._read()
        asked = data["asked"].get(str(round_)) if data else None
        if asked is None or round_ >= len(data["rounds"]) or data["rounds"][round_] != wanted:
            return None
        files = data["files"]
        skipped = {p for p, v in files.items() if v[3]} - set(asked["unasked"])
        offers = {o[0]: Offer(o[0], set(o[1]), set(o[2]), set(o[3])) for o in asked["offers"]}
        return skipped, offers

    def checks_kept(self, prepared: dict, project, rules: list[str], settings) -> dict:
        """See `Trace.checks_kept`."""
        from .findings import from_data
        from .runner import Checked, project_of

        data = self._read()
        if not data or data["rules"] != rules:
            return {}
        final, checks = data["final"], data["checks"]
        changed = {p for p in prepared.keys() | final.keys() if self._checked_otherwise(p, prepared.get(p), final)}
        if changed and self.same_outlines():  # every call resolves as it did: no project of before to compare with
            changed = project.dependents(changed)
        elif changed:
            before = self._checked_before(prepared, final, changed)
            if before is None:
                return {}  # what a file was is not known: everything is checked again
            changed = project.dependents(changed, project_of(before, settings, project))
        return {p: Checked(p, [from_data(f) for f in checks[p][0]], [tuple(problem) for problem in checks[p][1]])
                for p in prepared if p not in changed and p in checks}

    def same_outlines(self) -> bool:
        """Whether every file changed since the record is one both runs'
        first rounds lowered, with the same settings, that no later round of
        the record's run lowered again, and whose lowering has the outline
        its last one had (`project.outline`): then every project of this run
        answers across files as the record's did, round by round (the other
        files' lowerings are the same, and so are the rounds' wants and the
        skipped files' offers).  Asked once the first round is done."""
        if self._same is None:
            try:
                self._same = self._same_outlines()
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):  # damaged or not ours
                self._same = False
        return self._same

    def _same_outlines(self) -> bool:
        from .project import outline

        data = self._read()
        if not data:
            return False
        old, new = data["files"], self.digests
        for path in self.changed():
            then, now = old.get(path), new.get(path)
            if then is None or now is None or not _lowered(then[2:5]) or then[1] != now[1]:
                return False
            key = self.key(path, FIRST, tuple(then[:2]))
            was, made = self.load(path, key), self._loaded.get(self.key(path, FIRST))
            if data["final"].get(path, [None])[0] != key or was is None or made is None or \
                    outline(was.prepared.model, was.prepared.choice) != outline(made.prepared.model, made.prepared.choice):
                return False
        return True

    def _checked_otherwise(self, path: str, prepared, final: dict) -> bool:
        """Whether the file's lowering or settings are not those the record's run checked (or it has none now)."""
        held = self.held.get(id(prepared)) if prepared is not None else None
        return held is None or path not in final or final[path][1:] != [held.sum, self.digests[path][1]]

    def _checked_before(self, prepared: dict, final: dict, changed: set[str]) -> dict | None:
        """path -> the Prepared the record's run checked (those of the changed files loaded), or None
        where one is not kept."""
        before = {}
        for path, (key, *_) in final.items():
            item = self.load(path, key) if path in changed else None
            if path in changed and item is None:
                return None
            before[path] = item.prepared if item is not None else prepared[path]
        return before

    # -- lowerings

    def key(self, path: str, context, digests: tuple[str, str] | None = None) -> str:
        """The key of a file's lowering: the tool, the file (its content and
        settings: `digests`, else this run's) and what the round lowering it
        knew (`context`: FIRST, or what a later round wanted and the file's
        earlier lowering)."""
        return "lowering-" + _digest(repr((tool(), path, digests or self.digests[path], context)).encode(
            "utf-8", "surrogateescape"))

    def load(self, path: str, key: str):
        """The `runner.Lowered` kept under `key`, or None (none kept, or not one to trust)."""
        if key not in self._loaded:
            raw = self.cache.load_lowering(key)
            self._loaded[key] = None if raw is None else self._lowered(path, key, raw)
        return self._loaded[key]

    def _lowered(self, path: str, key: str, raw: bytes):
        import gc
        import json

        from . import modeldata
        from .languages.choice import Choice
        from .model import FileModel
        from .prepared import Prepared
        from .runner import Lowered

        collecting = gc.isenabled()
        gc.disable()  # thousands of objects made, none in a cycle: the collector would run many times for nothing
        try:
            head, _, payload = raw.partition(b"\n")
            head = json.loads(head)
            model, marks, errors, choice = modeldata.loads(payload)
            if head["key"] != key or head["sum"] != _digest(payload) or type(model) is not FileModel \
                    or model.path != path or type(marks) is not dict or type(errors) is not int \
                    or type(choice) is not Choice or not isinstance(head["spent"], float) \
                    or not isinstance(head["problem"], (str, type(None))):
                return None
        except (ValueError, TypeError, KeyError, UnicodeError):
            return None
        finally:
            if collecting:
                gc.enable()
        item = Lowered(path, Prepared(path, model, marks, errors, head["spent"], choice), head["problem"])
        self.held[id(item.prepared)] = Held(item.prepared, key, head["sum"])
        also = head.get("also", [])
        if type(also) is list and all(type(k) is str for k in also):
            self._also.update(also)  # the same lowering's other entries: used still
        return item

    def hold(self, item, key: str, also: tuple[str, ...] = ()) -> None:
        """A lowering made this run, kept under `key`, and under each of
        `also` (the other keys it is found by: see `Trace.relowered`), once
        stored (see `keep`)."""
        prepared = item.prepared
        if id(prepared) in self.held:
            return
        total = self._keep_under(item, (key, *also))
        if total is not None:
            self.held[id(prepared)] = Held(prepared, key, total)
            self._also.update(also)

    def also(self, item, key: str) -> None:
        """A lowering taken from the store (held), kept under `key` too."""
        held = self.held.get(id(item.prepared))
        if held is not None and key != held.key and key not in self._new:
            if self._keep_under(item, (key, held.key)) is not None:
                self._also.add(key)

    def _keep_under(self, item, keys: tuple[str, ...]) -> str | None:
        """Keep a lowering under the first of `keys`, and under the others
        where they are new, each entry naming the others (which the record
        then uses: see `keep`); the digest of its data, or None where it is
        not spelt out whole (then it is not kept: lowered again next time)."""
        import json

        from . import modeldata

        prepared = item.prepared
        try:
            payload = modeldata.dumps((prepared.model, prepared.marks, prepared.errors, prepared.choice)).encode()
        except TypeError:
            return None
        total = _digest(payload)
        for key in [keys[0], *(k for k in keys[1:] if k not in self._new and self._loaded.get(k) is None)]:
            head = json.dumps({"key": key, "sum": total, "problem": item.problem, "spent": float(prepared.spent),
                               "also": [k for k in keys if k != key]})
            self._new[key] = head.encode() + b"\n" + payload
            self._loaded[key] = item
        return total

    # -- this run's record

    def keep(self, result: Result) -> None:
        """Record this run (its result before the paths that could not be found are added)."""
        from .findings import to_data

        record = self._record if self._record is not None else self._this_run()
        if record is None:
            return
        record["result"] = {"files": result.files, "problems": [list(p) for p in result.problems],
                            "findings": [to_data(f) for f in result.findings]}
        also = record.get("also")  # a replayed record's: the other keys of the lowerings its run kept
        record["also"] = sorted(self._also.union(also if type(also) is list and all(type(k) is str for k in also)
                                                 else ()))
        self.cache.store_record(self.name, record, self._new, sorted(
            {v[0] for v in record["final"].values()} | {h.key for h in self.held.values()} | set(record["also"])
            | {self.key(p, FIRST, tuple(v[:2])) for p, v in record["files"].items() if v[2] and not v[3]}))

    def _this_run(self) -> dict | None:
        trace = self.trace
        if set(trace.first) != set(self.digests):
            return None  # not a whole run's trace
        return {"name": self.name, "files": {p: [*self.digests[p], *trace.first[p], self.signatures.get(p)]
                                             for p in sorted(trace.first)},
                "rounds": [_wanted_data(w) for w in trace.rounds], "offered": sorted(trace.offered),
                "asked": trace.asked, "rules": trace.rules,
                "final": {p: [h.key, h.sum, self.digests[p][1]] for p, h in sorted(trace.final.items())},
                "checks": trace.checks}

    # -- the last run's result again

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
        changed = sorted(self.changed())
        if len(changed) > max(8, len(self.digests) // MANY):
            return None
        rounds = [_wanted(w) for w in data["rounds"]]
        verdicts = {}  # path -> what the first round makes of it now (None: gone)
        for path in changed:
            verdicts[path] = verdict = self._alone(path, data, rounds, settings)
            if verdict is False:
                return None
        return self._replayed(data, verdicts)

    def _alone(self, path: str, data: dict, rounds: list, settings):
        """What the first round makes of a changed file ((read, skipped,
        problem), or None where it is gone), where the change cannot matter
        to other files; else False."""
        old = data["files"].get(path)
        lowered = old is not None and old[2] and not old[3]
        if lowered:
            again = set().union(*(w.again for w in rounds))  # lowered again by a later round
            if path not in self.digests or self.digests[path][1] != old[1] or path in again:
                return False  # gone, its settings changed, or a later round read it again
            return self._same_lowering(path, old, data["final"].get(path), settings) or False
        if old is not None and (not old[2] or path in data["offered"]):
            return False  # unread, or offered something to a later round: other files may change with it
        if path not in self.digests:
            return None
        verdict = _first_round(path, settings)
        return False if verdict is None or verdict[1] and _offers(path, rounds) else verdict

    def _same_lowering(self, path: str, old: list, checked: list | None, settings):
        """(read, skipped, problem) of a changed file the first round lowered,
        where it lowers to what the record's content did (the lowering the
        record's run checked, `checked`: its key and the digest of its data,
        which tell it without reading it back); else None."""
        from .runner import Lowered, _read_bytes, read_file

        text = _read_bytes(path, 0)[0]
        if text is None or _content_digest(text) != self.digests[path][0]:
            return None  # the file changed again since it was digested
        if checked is None or checked[0] != self.key(path, FIRST, tuple(old[:2])):
            return None  # the lowering checked was not the first round's
        prepared, problem = read_file(path, settings, text)
        if prepared is None or prepared.model is None or problem != old[4]:
            return None
        self.hold(Lowered(path, prepared, problem), self.key(path, FIRST))
        now = self.held.get(id(prepared))
        return (True, False, problem) if now is not None and now.sum == checked[1] else None

    def _replayed(self, data: dict, verdicts: dict) -> Result | None:
        """The record's result with the changed files' verdicts (none of which matters to other files)."""
        result = _result_with(data, verdicts)
        if result is not None:
            self._record = self._record_with(data, verdicts)
        return result

    def _record_with(self, data: dict, verdicts: dict) -> dict:
        """The record `data` with the changed files' verdicts, and the signatures as this run found them."""
        record = dict(data, files={p: v for p, v in data["files"].items() if p not in verdicts},
                      final=dict(data["final"]))
        for path, verdict in verdicts.items():
            if verdict is not None:
                record["files"][path] = [*self.digests[path], *verdict]
            if _lowered(verdict):  # lowered as before: its lowering's new key
                record["final"][path] = [self.key(path, FIRST), *data["final"][path][1:]]
        for path, entry in record["files"].items():
            entry[5:] = [self.signatures.get(path)]
        return record


def _lowered(verdict) -> bool:
    """Whether the first round's verdict (read, skipped, problem) is a lowering."""
    return verdict is not None and verdict[0] and not verdict[1]


def _result_with(data: dict, verdicts: dict) -> Result | None:
    """The record's result with the changed files' verdicts: the files
    counted, the problems (a file lowering as before keeps both)."""
    from .findings import from_data
    from .report import Result

    old, stored = data["files"], data["result"]
    gone = {p for p, v in verdicts.items() if not _lowered(v) and p in old}
    fresh = {p: v for p, v in verdicts.items() if v is not None and not _lowered(v)}
    files = stored["files"] - sum(bool(old[p][2]) for p in gone) + sum(v[0] for v in fresh.values())
    problems = sorted([(p, m) for p, m in stored["problems"] if p not in verdicts or _lowered(verdicts[p])]
                      + [(p, v[2]) for p, v in fresh.items() if v[2]])
    if not all(isinstance(p, str) and isinstance(m, str) for p, m in problems):
        return None
    return Result([from_data(f) for f in stored["findings"]], files, problems)


def _well_formed(data, name: str) -> bool:
    """Whether a record has the layout this code writes (its parts' types; what they say is checked where used)."""
    try:
        return data["name"] == name and all(
            isinstance(p, str) and len(v) == 6 and isinstance(v[0], str) and isinstance(v[1], str)
            and isinstance(v[2], bool) and isinstance(v[3], bool) and isinstance(v[4], (str, type(None)))
            for p, v in data["files"].items()) and all(
            isinstance(data[k], t) for k, t in (("rounds", list), ("offered", list), ("asked", dict),
                                                ("final", dict), ("checks", dict), ("result", dict)))
    except (KeyError, TypeError, AttributeError):
        return False


def _json(data) -> str:
    import json

    return json.dumps(data, sort_keys=True, separators=(",", ":"))


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


_WORD = None  # the words of a text (see `_part`), compiled where first needed


def _part(wanted, path: str, digest: str):
    """The part of a later round's wants that lowering the file reads
    (`lint.prepare`, `choice.choose`: the names its functions call, and the
    names of its functions and classes, looked up in them): of the names of
    the functions that send, or set an option only, and of those other files
    call, those the file's text may hold, and whether the file's own sends
    start findings.  A name of plain words (`Client.send`) is left out
    where one of its words is not a word of the text: the file neither calls
    nor defines it; any other is kept.  None where the file is not the text
    digested (`digest`: it changed since) or cannot be read."""
    global _WORD
    import re

    from .runner import _as_text, _read_bytes

    data = _read_bytes(path, 0)[0]
    if data is None or _content_digest(data) != digest:
        return None
    text = _as_text(data)[0]
    if text is None:
        return None
    if _WORD is None:
        _WORD = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
    words = {w.decode() for w in _WORD.findall(text)}

    def named(names) -> list[str]:
        return sorted(n for n in names if not all(p.isascii() and p.isidentifier() for p in n.split("."))
                      or all(p in words for p in n.split(".")))

    return (named(wanted.effects), named(wanted.option_only),
            named(wanted.needed | wanted.called.get(path, frozenset())), path in wanted.again)


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
        out[f.name] = {k: sorted(v) for k, v in sorted(value.items())} if isinstance(value, dict) else sorted(value)
    return out


def _wanted(data: dict, whole: bool = False):
    """A round's `project.Wanted` as a later look reads it (without loading
    the model), or (`whole`) the Wanted itself."""
    from types import SimpleNamespace

    values = {}
    for name, value in data.items():
        if isinstance(value, dict):
            values[name] = {str(k): frozenset(map(str, v)) for k, v in value.items()}
        elif isinstance(value, list):
            values[name] = frozenset(map(str, value))
        else:
            raise TypeError(name)
    if not whole:
        return SimpleNamespace(**values)
    from dataclasses import fields

    from .project import Wanted

    if set(values) != {f.name for f in fields(Wanted)}:
        raise ValueError("not a round's wants")
    return Wanted(**values)
