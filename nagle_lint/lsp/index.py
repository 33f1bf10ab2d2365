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
from ..config import Settings, selected_rules
from ..discover import matches
from ..languages import language_of
from ..lint import raw_findings, settle
from ..report import Result


@contextmanager
def buffers(texts: dict[str, bytes]):
    """The engine reads these texts instead of the files at their paths."""
    runner.TEXTS.update(texts)
    try:
        yield
    finally:
        runner.TEXTS.clear()


def _names(model) -> set[str]:
    """The names a call to one of the model's functions may be written with."""
    names = set()
    for fn in model.functions if model is not None else ():
        q = fn.qualname
        names.update((q, q.split(".", 1)[0], q.rsplit(".", 1)[-1]))
    return names


class Index:
    """The files under `root` (None: only the files given to `update`)."""

    def __init__(self, root: str | None, settings: Settings, jobs: int | None = None):
        self.root, self.settings = root, settings
        self.jobs = jobs or runner.default_jobs()
        self.rules_for = runner._rules_for(settings)
        self.rules = selected_rules(settings)  # every file's rules are among these
        self.prepared: dict = {}  # path -> Prepared, of the files lowered
        self.project = None
        self.raw: dict = {}  # analysed path -> its findings before `settle`
        self.shown: dict = {}  # path -> the findings that lie there, settled (suppressed ones marked)
        self.problems: dict[str, str] = {}  # path -> why it is not (fully) analysed
        self.texts: dict[str, bytes] = {}  # path -> its open buffer

    def owns(self, path: str) -> bool:
        """Whether `path` is a file of this folder to lint: a known language,
        under the folder, not excluded (patterns read as the command line reads them)."""
        if self.root is None or language_of(path) is None:
            return False
        rel = os.path.relpath(path, self.root)
        if rel.startswith(".."):
            return False
        base = os.path.dirname(os.path.abspath(self.settings.source)) if self.settings.source else self.root
        names = {rel, os.path.relpath(path, base)}
        return not any(matches(n, p) for n in names for p in self.settings.exclude)

    def build(self, texts: dict[str, bytes] | None = None) -> None:
        """Analyse every file under the folder, as `nagle-lint ROOT` would."""
        texts = {p: t for p, t in (texts or {}).items() if self.owns(p)}
        if self.root is not None:
            result = Result([])
            files = runner.plan([self.root], self.settings).files
            with buffers(texts):
                self.prepared, self.project = runner.lower_all(files, self.settings, self.jobs, result)
            self.problems = {}
            for path, problem in result.problems:
                self.problems[path] = "; ".join(filter(None, (self.problems.get(path), problem)))
            self.raw = runner.check_each(self.prepared, self.project, self.settings, self.jobs) if self.prepared else {}
        self._settle()
        for path, text in texts.items():  # an open buffer is lowered even where the scan would skip it
            self.update(path, text)

    def update(self, path: str, text: bytes | None, opened: bool = True) -> set[str]:
        """Analyse `path` again (`text`: its buffer; None: as it is on disk,
        or gone), and the files whose findings depend on it; the paths whose
        findings changed.  `opened`: lower it even if the scan would skip it."""
        from ..project import Project

        if text is None:
            self.texts.pop(path, None)
        else:
            self.texts[path] = text
        old = {path: self.prepared.pop(path, None)}
        self.problems.pop(path, None)
        prep = None
        if text is not None or os.path.isfile(path):
            prep = self._read(path, scanned=opened or old[path] is not None)
        if self.prepared or prep is not None and prep.model is not None:
            self.project = Project([p.model for p in self.prepared.values()], self.project)
            # What the others need of the file, or the file of the others, now
            # (a later round of the command line): those files lowered again.
            wanted = self.project.wanted()
            redo = set(wanted.again) | ({path} if prep is not None and prep.model is None and wanted else set())
            for p in sorted(redo):
                old.setdefault(p, self.prepared.get(p))
                self._read(p, wanted=wanted, before=self.prepared.get(p))
            if redo:
                self.project = Project([p.model for p in self.prepared.values()], self.project)
        else:
            self.project = None
        names = set().union(*(_names(p and p.model) | _names(self.prepared.get(q) and self.prepared[q].model)
                              for q, p in old.items()))
        for p in self._dependents(set(old), names):
            if p in self.prepared:
                self.raw[p] = raw_findings([self.prepared[p]], self.project, self.rules)
            else:
                self.raw.pop(p, None)
        return self._settle()

    def _read(self, path: str, scanned: bool = False, wanted=None, before=None):
        """Read and lower one file (its buffer where it is open), as
        `runner.read_file` does; kept in `prepared` where it has a model."""
        prep, problem = runner.read_file(path, self.settings, data=self.texts.get(path), scanned=scanned,
                                         wanted=wanted, before=before and before.model)
        if problem:
            self.problems[path] = problem
        if prep is not None and prep.errors:
            errors = f"{prep.errors} syntax error{'s' if prep.errors != 1 else ''}; analysed what parsed"
            self.problems[path] = "; ".join(filter(None, (problem, errors)))
        if prep is not None and prep.model is not None:
            self.prepared[path] = prep
        return prep

    def forget(self, path: str) -> set[str]:
        """`path` is no file of the index any more (a closed buffer of no folder)."""
        changed = self.update(path, None, opened=False) if path in self.prepared else set()
        self.raw.pop(path, None)
        self.problems.pop(path, None)
        return changed | self._settle()

    def _dependents(self, paths: set[str], names: set[str]) -> set[str]:
        """`paths` and the files that call, directly or through other files,
        a function of one of these names (a superset of the files whose
        analysis uses what the changed file's functions do)."""
        calling: dict[str, set[str]] = {}  # a name calls are written with -> the files making them
        for p, prep in self.prepared.items():
            for fn in prep.model.functions:
                if fn.body:
                    for call in self.project.facts(fn).calls:
                        for name in (call.callee, call.callee.rsplit(".", 1)[-1]):
                            calling.setdefault(name, set()).add(p)
        found, todo = set(paths), list(names)
        while todo:
            for p in calling.get(todo.pop(), ()):
                if p not in found:
                    found.add(p)
                    todo.extend(_names(self.prepared[p].model))
        return found

    def _settle(self) -> set[str]:
        """Settle every file's findings again (a place may be found from
        several files; settling marks findings, so copies are settled); the
        paths whose findings changed."""
        found = [copy.copy(f) for p in sorted(self.raw) for f in self.raw[p]]
        by_path: dict[str, list] = {}
        for f in settle(found, list(self.prepared.values()), self.rules_for, self.settings.min_confidence):
            by_path.setdefault(f.path, []).append(f)
        changed = {p for p in set(by_path) | set(self.shown) if by_path.get(p) != self.shown.get(p)}
        self.shown = by_path
        return changed

    def findings(self, path: str) -> list:
        """The findings shown in `path` (not suppressed)."""
        return [f for f in self.shown.get(path, ()) if f.suppressed is None]
