"""The language server's project index: a workspace folder analysed as the
command line analyses a tree (same discovery, settings and checks), its
results kept per file, and brought up to date one changed file at a time.

An edit re-analyses the changed file and the files that call into it,
directly or through other files (their findings use its functions'
summaries), never the whole tree.  Open buffers stand in for their files
(`runner.TEXTS`), and are always lowered: the byte scan that spares the
command line most files is for files nobody is looking at."""

from __future__ import annotations

import copy
import os
from contextlib import contextmanager

from .. import runner
from ..config import Resolver, Settings
from ..discover import excluded, excludes
from ..languages import frontend, language_of
from ..languages.edited import Earlier
from ..lint import raw_findings, selected, settle
from ..prepared import syntax_errors
from ..report import Result


@contextmanager
def buffers(texts: dict[str, bytes]):
    """The engine reads these texts instead of the files at their paths."""
    runner.TEXTS.update(texts)
    try:
        yield
    finally:
        runner.TEXTS.clear()


class Runs:
    """What the dataflow's run from each function of one open buffer
    observed (see `flow.analyse`), kept for its next analysis: after an
    edit, a function the lowering took over (edited.py) takes its run's
    observations, moved to their lines, where every function its calls
    reach was taken over too (then they are all of this file, its
    functions' names are the same, and the calls resolve as they did), it
    is as much an entry, and its class's fields are as much with
    TCP_NODELAY on."""

    def __init__(self, path: str):
        self.path = path
        self.kept: dict = {}  # id(function) -> (it, (is_entry, fields), what its run observed)
        self.next: dict = {}  # the same, of the analysis under way
        self.earlier = None  # the edited.Earlier of the buffer's lowering

    @staticmethod
    def _context(fn, project, field_nodelay):
        from ..checks.flow import class_of

        cls = class_of(fn.qualname)
        return project.is_entry(fn), tuple(sorted((key, found) for (c, key), found in field_nodelay.items() if c == cls))

    def get(self, fn, project, field_nodelay):
        from ..languages.edited import _moved, _Unmovable

        earlier = self.earlier
        taken = earlier.taken.get(id(fn)) if earlier is not None else None
        kept = self.kept.get(id(taken[1])) if taken is not None and taken[0] is fn else None
        if kept is None or kept[0] is not taken[1]:
            return None
        reached, todo = {id(fn)}, [fn]
        while todo:  # every function the run may follow
            member = todo.pop()
            entry = earlier.taken.get(id(member))
            if entry is None or entry[0] is not member:
                return None
            for call in project.facts(member).calls:
                for target in project.targets(member, call.callee, len(call.args), call.types):
                    if id(target) not in reached:
                        reached.add(id(target))
                        todo.append(target)
        context = self._context(fn, project, field_nodelay)
        try:
            if context != _moved(kept[1], earlier.line_of):
                return None
            part = _moved(kept[2], earlier.line_of)
        except _Unmovable:
            return None
        self.next[id(fn)] = fn, context, part
        return part

    def put(self, fn, project, field_nodelay, part):
        self.next[id(fn)] = fn, self._context(fn, project, field_nodelay), part

    def done(self) -> None:
        """The analysis under way is the one to take from next."""
        self.kept, self.next = self.next, {}


def _as_on_disk(texts: dict[str, bytes]) -> bool:
    """Whether every buffer is its file's text on disk (as an editor opens
    a file): then an early build, which read the files, analysed them."""
    return all(runner._read_bytes(path, 0)[0] == text for path, text in texts.items())


class Index:
    """The files under `root` (None: only the files given to `update`)."""

    def __init__(self, root: str | None, settings: Settings | Resolver, jobs: int | None = None):
        """`settings`: one Settings for every file, or a Resolver (each file's nearest configuration's)."""
        self.root, self.settings = root, settings
        self.jobs = jobs or runner.default_jobs()
        self.rules_for = runner._rules_for(settings)
        self.prepared: dict = {}  # path -> Prepared, of the files lowered
        self.project = None
        self.raw: dict = {}  # analysed path -> its findings before `settle`
        self.shown: dict = {}  # path -> the findings that lie there, settled (suppressed ones marked)
        self.problems: dict[str, str] = {}  # path -> why it is not (fully) analysed
        # The errors of the broken configuration files an early build met (a build here tells
        # them through its settings)
        self.broken: list[str] = []
        self.texts: dict[str, bytes] = {}  # path -> its open buffer
        # path -> what the last lowering of its open buffer left: an edit lowers again only what it changed
        self.earlier: dict[str, Earlier] = {}
        self.runs: dict[str, Runs] = {}  # path -> what the last analysis of its open buffer observed
        self._early = None  # an early.Build whose models are still to be taken (see `ready`)
        self._opened: dict[str, bytes] = {}  # the open buffers an early build's index is to analyse once `ready`

    def holds(self, path: str) -> bool:
        """Whether `path` lies under the folder."""
        return self.root is not None and not os.path.relpath(path, self.root).startswith("..")

    def owns(self, path: str) -> bool:
        """Whether `path` is a file of the folder to lint: a known language,
        under the folder, not excluded (as the command line's walk would
        leave it out)."""
        if not self.holds(path) or language_of(path) is None:
            return False
        return not excluded(path, excludes(self.settings.of(path)))

    def build(self, texts: dict[str, bytes] | None = None, early=None, first_done=None) -> None:
        """Analyse every file under the folder, as `nagle-lint ROOT` would;
        `early`: an `early.Build` that may have done it already (then what
        it shows is taken at once, and its models by `ready`, where it read
        each open buffer as it is now); `first_done`: see `runner.lower_all`."""
        texts = {p: t for p, t in (texts or {}).items() if self.owns(p)}
        shown = early.shown_of(self.root, self.settings) if early is not None and early.read_as(texts) else None
        if shown is not None:
            self.shown, self.problems, self.broken = shown
            self._early, self._opened = early, texts
            return
        if self.root is not None:
            result = Result([])
            files = runner.plan([self.root], self.settings).files
            # The collector as seldom as in the command line's run (see `runner._fewer_collections`).
            with buffers(texts), runner._fewer_collections():
                self.prepared, self.project = runner.lower_all(files, self.settings, self.jobs, result,
                                                               first_done=first_done)
                self.raw = runner.check_each(self.prepared, self.project, self.settings, self.jobs) \
                    if self.prepared else {}
            self.problems = {}
            for path, problem in result.problems:
                self.problems[path] = "; ".join(filter(None, (self.problems.get(path), problem)))
        self._settle()
        for path, text in texts.items():  # an open buffer is lowered even where the scan would skip it
            self.update(path, text)

    def ready(self) -> None:
        """The models of an early build taken (built here where they did not come whole)."""
        early, self._early = self._early, None
        if early is None:
            return
        models, opened, self._opened = early.models_of(self.root), self._opened, {}
        if models is None:
            self.build(opened)
            return
        self.prepared, self.raw = models
        self.project = runner.project_of(self.prepared, self.settings) if self.prepared else None
        for path, text in opened.items():  # what was shown of them stands; their buffers' lowerings are kept for edits
            self.update(path, text)

    def update(self, path: str, text: bytes | None, opened: bool = True) -> set[str]:
        """Analyse `path` again (`text`: its buffer; None: as it is on disk,
        or gone), and the files whose findings depend on it; the paths whose
        findings changed.  `opened`: lower it even if the scan would skip it."""
        self.ready()
        if text is None:
            self.texts.pop(path, None)
            self.earlier.pop(path, None)
            self.runs.pop(path, None)
        else:
            self.texts[path] = text
        before = self.project
        old = self.prepared.pop(path, None)
        lowered = {path}  # the files lowered again
        self.problems.pop(path, None)
        prep = None
        if text is not None or os.path.isfile(path):
            earlier = self.earlier.setdefault(path, Earlier()) if text is not None else None
            if earlier is not None:
                self.runs.setdefault(path, Runs(path)).earlier = earlier
            prep = self._read(path, scanned=opened or old is not None, earlier=earlier)
        if self.prepared or prep is not None and prep.model is not None:
            self.project = runner.project_of(self.prepared, self.settings, self.project)
            # What the others need of the file, or the file of the others, now
            # (a later round of the command line): those files lowered again.
            wanted = self.project.wanted()
            redo = set(wanted.again) | self._again(path, prep, wanted)
            for p in sorted(redo):
                lowered.add(p)
                self._read(p, wanted=wanted, before=self.prepared.get(p))
            if redo:
                self.project = runner.project_of(self.prepared, self.settings, self.project)
        else:
            self.project = None
        for p in self.project.dependents(lowered, before) if self.project is not None else lowered:
            if p in self.prepared:
                # Every file's rules, as the command line's checks run them: a finding may lie in another file.
                self.raw[p] = raw_findings([self.prepared[p]], self.project,
                                           selected(list(self.prepared.values()), self.rules_for), runs=self.runs)
                if p in self.runs:
                    self.runs[p].done()
            else:
                self.raw.pop(p, None)
        return self._settle()

    def _again(self, path: str, prep, wanted) -> set[str]:
        """{path} where the file just read is to be lowered again with what the others want:
        it had no model (the scan skipped it), or it left out what they need (see `_left_out_kept`)."""
        if prep is None:
            return set()
        if prep.model is None:
            return {path} if wanted else set()
        return {path} if self._left_out_kept(path, prep, wanted) else set()

    def _left_out_kept(self, path: str, prep, wanted) -> bool:
        """Whether the file, lowered before what the other files need of it was known, left
        out a method of a class that calls, on an object it keeps, a method that sends (see
        `Scanner.on_kept`): lowered again knowing it, as a later round of the command line does."""
        left = {fn.qualname.rpartition(".")[0] for fn in prep.model.functions if not fn.body and "." in fn.qualname}
        if not left or not wanted.effects:
            return False
        data = self.texts.get(path)
        if data is None:
            data = runner._reread(path)  # as the runner reads it: a file gone since is not lowered again
        return data is not None and bool(frontend(language_of(path)).scan.on_kept(data, left, wanted.effects))

    def _read(self, path: str, scanned: bool = False, wanted=None, before=None, earlier=None):
        """Read and lower one file (its buffer where it is open), as
        `runner.read_file` does; kept in `prepared` where it has a model."""
        prep, problem = runner.read_file(path, self.settings, data=self.texts.get(path), scanned=scanned,
                                         wanted=wanted, before=before, earlier=earlier)
        if problem:
            self.problems[path] = problem
        if prep is not None and prep.errors:
            self.problems[path] = "; ".join(filter(None, (problem, syntax_errors(prep.errors))))
        if prep is not None and prep.model is not None:
            self.prepared[path] = prep
        return prep

    def forget(self, path: str) -> set[str]:
        """`path` is no file of the index any more (a closed buffer of no folder)."""
        self.ready()
        changed = self.update(path, None, opened=False) if path in self.prepared else set()
        self.raw.pop(path, None)
        self.problems.pop(path, None)
        return changed | self._settle()

    def _settle(self) -> set[str]:
        """Settle every file's findings again (a place may be found from
        several files; settling marks findings, so copies are settled); the
        paths whose findings changed."""
        found = [copy.copy(f) for p in sorted(self.raw) for f in self.raw[p]]
        by_path: dict[str, list] = {}
        for f in settle(found, list(self.prepared.values()), self.rules_for, runner._confidence_for(self.settings)):
            by_path.setdefault(f.path, []).append(f)
        changed = {p for p in set(by_path) | set(self.shown) if by_path.get(p) != self.shown.get(p)}
        self.shown = by_path
        return changed

    def findings(self, path: str) -> list:
        """The findings shown in `path` (not suppressed)."""
        return [f for f in self.shown.get(path, ()) if f.suppressed is None]
