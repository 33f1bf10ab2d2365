"""Every linted file's model, for what spans files: a call resolved to a
function of another file, which functions have effects, which are entries.

A call that names no function of the run (or names one ambiguously) is left
unknown: it changes nothing the analysis knows, so it neither invents nor
hides a finding.
"""

from __future__ import annotations

import os

from .model import Bind, Call, FileModel, Flush, Function, Push, Recv, Send, SetOption, walk

EVENTS = (Send, Flush, Recv, Push, SetOption, Bind)


def _entry_name(qualname: str) -> str:
    """`Client.send` -> `Client` (reached by making a Client), `send_frame` -> `send_frame`."""
    return qualname.split(".", 1)[0]


class Project:
    def __init__(self, models):
        self.models: dict[str, FileModel] = {m.path: m for m in models}
        self._resolved: dict[tuple[str, str], Function | None] = {}
        self._local: dict[str, dict[str, Function]] = {}
        self._global: dict[tuple[str, str], list[Function]] = {}
        for m in self.models.values():
            local = self._local[m.path] = {}
            for fn in m.functions:
                fn.path = m.path
                local[fn.qualname] = fn
                if not fn.qualname.startswith("<"):
                    self._global.setdefault((m.language, fn.qualname), []).append(fn)
        self.effective = self._with_effects()
        self.called = {ev.callee for fn in self.functions() for ev in walk(fn.body) if isinstance(ev, Call)}
        self._events: dict[str, dict] = {}

    def functions(self):
        for m in self.models.values():
            yield from m.functions

    def resolve(self, caller: Function, callee: str) -> Function | None:
        """The function a call names: one of the caller's file first, else the
        only one of that name among the linted files of the language (or, when
        several have it, the only one in the caller's folder)."""
        key = (caller.path, callee)
        if key not in self._resolved:
            self._resolved[key] = self._resolve(caller, callee)
        return self._resolved[key]

    def _resolve(self, caller: Function, callee: str) -> Function | None:
        local = self._local.get(caller.path, {}).get(callee)
        if local is not None:
            return local
        language = self.models[caller.path].language if caller.path in self.models else None
        found = self._global.get((language, callee), ())
        if len(found) > 1:
            folder = os.path.dirname(caller.path)
            found = [fn for fn in found if os.path.dirname(fn.path) == folder]
        return found[0] if len(found) == 1 else None

    def _with_effects(self) -> set[int]:
        """ids of the functions that touch a connection, directly or through callees."""
        found: set[int] = set()
        calls: dict[int, tuple[Function, list[str]]] = {}
        for fn in self.functions():
            names = []
            for ev in walk(fn.body):
                if isinstance(ev, Call):
                    names.append(ev.callee)
                elif isinstance(ev, EVENTS):
                    found.add(id(fn))
            calls[id(fn)] = (fn, names)
        changed = True
        while changed:
            changed = False
            for key, (fn, names) in calls.items():
                if key in found:
                    continue
                for name in names:
                    target = self.resolve(fn, name)
                    if target is not None and id(target) in found:
                        found.add(key)
                        changed = True
                        break
        return found

    def wanted(self):
        """What a file the byte scan skipped may still matter for: calls no
        linted file defines yet (it may define one: a factory, a helper) and
        functions with effects (it may call one)."""
        from .lint import Wanted

        needed, again = set(), set()
        for fn in self.functions():
            for ev in walk(fn.body):
                if not isinstance(ev, Call):
                    continue
                target = self.resolve(fn, ev.callee)
                if target is None:
                    needed.add(_entry_name(ev.callee))
                elif target.qualname in self.models[target.path].stubs:
                    needed.update((target.qualname, _entry_name(target.qualname)))
                    again.add(target.path)
        keep = lambda names: frozenset(n for n in names if n.replace(".", "_").isidentifier() and not n.startswith("__"))  # noqa: E731
        return Wanted(keep(needed), keep(self.effective_names()), frozenset(again))

    def effective_names(self) -> frozenset[str]:
        """What another file would name to reach a function with effects: the
        function, or the class of a method (methods are reached through objects)."""
        return frozenset(_entry_name(fn.qualname) for fn in self.functions()
                         if id(fn) in self.effective and not fn.qualname.startswith("<"))

    def has_effects(self, fn: Function) -> bool:
        return id(fn) in self.effective

    def event_at(self, path: str, site):
        """The event at a site of a file (to tell a flush from a send)."""
        if path not in self._events:
            index = {}
            for fn in self.models[path].functions if path in self.models else ():
                for ev in walk(fn.body):
                    if getattr(ev, "site", None) is not None:
                        index.setdefault(ev.site, ev)
            self._events[path] = index
        return self._events[path].get(site)
