"""Every linted file's model, for what spans files: a call resolved to a
function of another file, which functions have effects, which are entries.

A call that names no function of the run (or names one ambiguously) is left
unknown: it changes nothing the analysis knows, so it neither invents nor
hides a finding.
"""

from __future__ import annotations

import os
from dataclasses import field, replace
from functools import cached_property

from .languages import frontend
from .languages.choice import Choice
from .languages.scan import n_is_root
from .model import (KEPT, MADE_BY, THROUGH_MEMBER, Bind, Call, FileModel, Flush, Function, If, Loop, Push, Recv, Return, Send,
                    SetOption, Try, binding, passed, record, walk)

EVENTS = (Send, Flush, Recv, Push, SetOption, Bind)
_NO_OVERLOAD = Function("", None, (), ())  # see `Project._overload`
_OVERLOADS = Function("", None, (), ())  # several fit: see `Project.alternatives`
_NO_CHOICE = Choice()  # a file parsed whole, every function lowered
# How far a connection handed on after TCP_NODELAY was turned on is followed (see
# `Project.handed_nodelay`): the files of the calls, the option's first (a server's accept
# loop, the factory it is given, the handler that makes the object writing the replies).
HANDED_DEPTH = 3
MAX_BELOW = 64  # the classes below a type looked at, at most


@record
class Wanted:
    """What makes a file the byte scan skipped matter after all: it names a
    function other files call but none defines (`needed`: it may define it),
    or it calls a function that touches a connection (`effects`) and shows
    socket code of its own (a read, a socket made or accepted)."""

    needed: frozenset = frozenset()
    effects: frozenset = frozenset()
    # Files already lowered that hold a stub another file calls: lowered again.
    again: frozenset = frozenset()
    # needed name -> the folders of its callers (a name many files define
    # resolves only to the definition in the caller's folder)
    callers: dict = field(default_factory=dict)
    # Those of the effects that set an option and send nothing, by no
    # callee either: a file that calls only these and sends nothing itself
    # has nothing for the option to act on.
    option_only: frozenset = frozenset()
    # File lowered already -> its functions without a body that functions of
    # other files call: needed there, when it is lowered again.
    called: dict = field(default_factory=dict)

    def __bool__(self):
        return bool(self.needed or self.effects or self.again)


def _entry_name(qualname: str) -> str:
    """`Client.send` -> `Client` (reached by making a Client), `send_frame` -> `send_frame`."""
    return qualname.split(".", 1)[0]


def _entry_names(qualname: str, qualified: bool = True) -> tuple[str, ...]:
    """The names a call reaches the function by (see `_entry_name`); with
    `qualified`, a method of a top-level class also by its qualified name
    (`Messages.sendReady(`: a static method, called with no object made)."""
    entry = _entry_name(qualname)
    return (entry, qualname) if qualified and qualname.count(".") == 1 else (entry,)


def _passes_conns(call: Call) -> bool:
    """Whether the call passes a connection (an object the caller made is none: see `Call.classes`)."""
    return any(a is not None and not (i < len(call.classes) and call.classes[i]) for i, a in enumerate(call.args))


def _only(found, path: str, path_of):
    """The one of `found` a call from `path` reaches: the only one, or else
    the only one in the caller's folder (None when there is no such one)."""
    if len(found) > 1:
        folder = os.path.dirname(path)
        found = [f for f in found if os.path.dirname(path_of(f)) == folder]
    return found[0] if len(found) == 1 else None


def _used_keys(fn: Function) -> set[str]:
    """The keys a function uses as connections: in events, and handed to calls."""
    used = set()
    for ev in walk(fn.body):
        if isinstance(ev, Call):
            used.update(a for a in ev.args if a is not None)
            if ev.receiver is not None:
                used.add(ev.receiver)
        elif isinstance(ev, EVENTS):
            used.add(ev.conn)
    return used


def _passes(arg: str | None, param: str | None, supers: set[str], param_declared: bool, conv) -> int | None:
    """Whether an argument of type `arg` can be passed for a parameter of type
    `param`, by the language's `Conversions` `conv`: 2 as it is,
    1 converted (widened, boxed, to a supertype), 0 where one of them is not
    known, None where it cannot (a primitive or an array for another, a string
    for no type of its, a type for a class of the linted files it does not
    extend: `supers` and `param_declared` say what they tell)."""
    if arg is None or param is None:
        return 0
    if arg == param:
        return 2
    root, boxes, string = conv.root, conv.boxes, conv.strings[0]
    if arg in boxes or param in boxes:
        return 1 if param in conv.widening.get(arg, ()) or boxes.get(arg) == param or boxes.get(param) == arg \
            or param == root and arg in boxes else None
    if arg.endswith("[]") or param.endswith("[]"):
        return 1 if param == root else None
    if arg == string:
        return 1 if param in conv.strings else None
    if param in supers or param == root:
        return 1
    return None if param_declared or param == string else 0


def _mentioned(key: str, used: set[str]) -> bool:
    return key in used or any(u.startswith((key + ".", key + "->", key + "[")) for u in used)


class _SendByDesign(Send):
    """The kind `_Facts` gives a send on a connection a framework makes with
    TCP_NODELAY on and buffers until a flush (`Function.by_design`): a send,
    that starts a finding only for the rules of `rules.ON_NODELAY_BY_DESIGN`."""


class _Held:
    """Part of the kinds `_Facts` gives the sends on a held connection
    (`ConnInfo.held`), and the options set there to a value written there:
    its callers see them, but no finding of theirs can start from one (the
    writes leave together, the option is judged where it is set)."""


class _SendHeld(_Held, Send):
    pass


class _OptionHeld(_Held, SetOption):
    pass


def _kind(fn: Function, ev) -> type:
    if isinstance(ev, Send) and fn.held(ev):
        return _SendHeld
    if isinstance(ev, SetOption) and ev.value is not None and not ev.option_param and fn.held(ev):
        return _OptionHeld
    return _SendByDesign if isinstance(ev, Send) and fn.by_design(ev) else type(ev)


class _Facts:
    """What the project asks of a function's body, found in one walk: its
    calls (in source order), the kinds of its events (`outward`: those on a
    connection its callers can see: not a local variable, or one returned),
    and (asked of few) the keys it uses as connections."""

    __slots__ = ("fn", "calls", "kinds", "outward", "_used")

    def __init__(self, fn: Function, by_name=lambda call: call.otherwise):
        """`by_name`: the events a call makes by its callee's name (see
        `Project.by_name`; by default, all it may make)."""
        self.fn, calls, kinds, events, returned = fn, [], set(), [], set()
        for ev in walk(fn.body):
            if isinstance(ev, Call) and ev.judged_only:
                continue
            if isinstance(ev, Call):
                calls.append(ev)
                named = by_name(ev) if ev.otherwise else ()
                kinds.update(_kind(fn, e) for e in named)
                if fn.locals:
                    events.extend(named)
            elif isinstance(ev, Return):
                returned.add(ev.value)
            elif fn.locals and isinstance(ev, EVENTS):
                events.append(ev)
            kinds.add(_kind(fn, ev))
        self.calls: tuple[Call, ...] = tuple(calls)
        self.kinds = frozenset(kinds)
        self.outward = self.kinds
        if fn.locals:
            hidden = fn.locals - returned  # ended with the call: nothing its callers see
            self.outward = frozenset({kind for kind in kinds if not issubclass(kind, EVENTS)}
                                     | {_kind(fn, ev) for ev in events if ev.conn not in hidden})
        self._used: set[str] | None = None

    def has(self, events, outward: bool = False, by_design: bool = True, held: bool = True) -> bool:
        """`by_design`: whether sends on a framework's TCP_NODELAY connections count as sends;
        `held`: whether events on a held connection (see `_Held`) count."""
        return any(issubclass(kind, events) and (by_design or kind is not _SendByDesign)
                   and (held or not issubclass(kind, _Held)) for kind in (self.outward if outward else self.kinds))

    @property
    def used(self) -> set[str]:
        if self._used is None:
            self._used = _used_keys(self.fn)
        return self._used


def outline(model: FileModel, choice: Choice | None) -> tuple:
    """What a Project reads of a file's lowering for its answers across files
    (resolving calls, which functions send, what later rounds want, `dependents`):
    the language, each function's name, parameters, fields kept and whether
    it has a body, its facts (each call once, without its place: how often
    a call is made, and in what order, changes no answer across files; see
    `_Facts`), and what lowering left out.  Two lowerings of a file with one
    outline give every project the same such answers; only the checks, which
    read the bodies, tell them apart."""
    out = []
    for fn in model.functions:
        facts = _Facts(fn)
        out.append((fn.qualname, fn.params, fn.param_types, bool(fn.body), fn.field_params,
                    tuple(dict.fromkeys((c.callee, c.args, c.receiver, c.result, c.types) for c in facts.calls)),
                    tuple(sorted(k.__name__ for k in facts.kinds)), tuple(sorted(k.__name__ for k in facts.outward)),
                    tuple(sorted(facts.used))))
    return model.language, tuple(out), choice, model.enums, model.op_tables


class Project:
    def __init__(self, models, earlier: Project | None = None, choices: dict[str, Choice] | None = None,
                 nodelay_by_design=None):
        """`earlier`: the project of an earlier round, whose functions'
        facts are not found again (most functions are in both); `choices`:
        path -> what lowering the file left out (none where not told);
        `nodelay_by_design`: path -> whether a rule runs on the file that finds
        something in sends on a connection a framework makes with TCP_NODELAY
        on (`rules.ON_NODELAY_BY_DESIGN`); where none runs, such a send starts
        no finding (None: one runs on every file)."""
        self.models: dict[str, FileModel] = {m.path: m for m in models}
        self._nodelay_by_design = nodelay_by_design
        self._by_design: dict[str, bool] = {}  # path -> what `nodelay_by_design` answers
        self.choices = {path: c for path, c in (choices or {}).items() if c is not None}
        # id -> facts of a function of this project (each entry holds its
        # function, so an id is not taken for another function's meanwhile).
        self._facts: dict[int, _Facts] = {}
        if earlier is not None:  # only those still here: an editor's project does not grow with every edit
            old = earlier._facts
            self._facts = {id(fn): old[id(fn)] for fn in self.functions() if id(fn) in old and old[id(fn)].fn is fn}
        self._resolved: dict[tuple[str, str], Function | None] = {}
        self._local: dict[str, dict[str, Function | None]] = {}  # None: defined twice, as alternatives
        self._global: dict[tuple[str, str], list[Function]] = {}
        self._methods: dict[tuple[str, str], list[str]] = {}  # (language, class) -> the files of its methods
        # (language, class) -> its supertypes, and the classes declaring each
        # type a supertype, by last names (see `FileModel.supertypes`).
        self._supers: dict[tuple[str, str], dict[str, None]] = {}  # (in order: a base class before interfaces)
        self._subs: dict[tuple[str, str], set[str]] = {}
        self._abstract: set[tuple[str, str]] = set()  # (language, `Class.method`) declared without a body
        self._enums: set[tuple[str, str]] = set()  # (language, enum)
        self._typed: dict[tuple, Function | None] = {}  # see `_through_types`
        self._fitting: dict[tuple, list[Function] | None] = {}  # see `_overloads`
        self._leaves: dict[tuple[str, str], str | None] = {}  # see `_implementation`
        for m in self.models.values():
            self._index_types(m)
            self._index_functions(m)
        # Most functions are stubs (not worth lowering): nothing to walk in them.
        self._bodied = [fn for fn in self.functions() if fn.body]
        self._events: dict[str, dict] = {}
        self._definers: dict[tuple[str, str], set[str]] = {}
        self._live: dict[int, tuple] = {}
        self._ending: dict[int, bool] = {}

    def _index_types(self, m: FileModel) -> None:
        """The file's classes' supertypes, and its methods declared without a body."""
        if m.abstract:
            self._abstract.update((m.language, q) for q in m.abstract)
        if m.enums:
            self._enums.update((m.language, e) for e in m.enums)
        for cls, supers in m.supertypes.items():
            self._supers.setdefault((m.language, cls), {}).update(dict.fromkeys(supers))
            for sup in supers:
                self._subs.setdefault((m.language, sup), set()).add(cls)

    def _index_functions(self, m: FileModel) -> None:
        """Every function of the file, stubs too, by name in the file and in its language."""
        local = self._local[m.path] = {}
        alternatives = frontend(m.language).same_name_alternatives
        glob, methods, path, language = self._global, self._methods, m.path, m.language
        for fn in m.functions:
            q = fn.qualname
            fn.path = path
            local[q] = None if q in local and (alternatives or fn.conditional) else fn
            if not n_is_root(q):
                glob.setdefault((language, q), []).append(fn)
                if "." in q:
                    methods.setdefault((language, _entry_name(q)), []).append(path)

    def functions(self):
        for m in self.models.values():
            yield from m.functions

    def choice(self, path: str) -> Choice:
        return self.choices.get(path, _NO_CHOICE)

    def resolve(self, caller: Function, callee: str, arity: int | None = None, types: tuple = ()) -> Function | None:
        """The function a call names: one of the caller's file first (none
        where the file has two, in a language where they are alternatives),
        else the only one of that name among the linted files of the language
        (or, when several have it, the only one in the caller's folder).  In
        a language whose methods are overloaded (Java), where several have
        the name, the only one lowered that takes `arity` arguments of the
        arguments' `types` (see `Call.types`), if any (the caller's file's first)."""
        if callee in caller.params:  # a parameter's name calls the value passed, whatever it is
            return None
        key = (caller.path, callee, arity, types)
        if key not in self._resolved:
            self._resolved[key] = self._resolve(caller, callee, arity, types)
        return self._resolved[key]

    def _resolve(self, caller: Function, callee: str, arity: int | None, types: tuple) -> Function | None:
        if MADE_BY in callee:
            return self._made_by(caller, callee, arity, types)
        if KEPT in callee:
            return self._kept(caller, callee, arity, types)
        if arity is not None:
            overload = self._overload(caller, callee, arity, types)
            if overload is not None:
                return None if overload is _NO_OVERLOAD or overload is _OVERLOADS else overload
        language = self.models[caller.path].language if caller.path in self.models else None
        local = self._local.get(caller.path, {})
        if callee in local:
            found = local[callee]
        else:
            found = self._nested_in_scope(caller, callee, language, local) \
                or _only(self._global.get((language, callee), ()), caller.path, lambda fn: fn.path)
        if "." in callee and (found is None or not found.body and self._is_abstract(found)):
            return self._through_types(language, callee, arity, types) or found
        return found

    @staticmethod
    def _nested_in_scope(caller: Function, callee: str, language: str | None, local: dict) -> Function | None:
        """`Inner.name` of a class nested in one around the caller (the nearest first), where the
        language names nested classes so (see `Frontend.nested_by_simple_name`)."""
        if "." not in callee or language is None or not frontend(language).nested_by_simple_name:
            return None
        scope = caller.qualname.rpartition(".")[0]
        while scope:
            found = local.get(f"{scope}.{callee}")
            if found is not None:
                return found
            scope = scope.rpartition(".")[0]
        return None

    def _made_by(self, caller: Function, callee: str, arity: int | None, types: tuple) -> Function | None:
        """`make().send`: method `send` of the class of the objects `make` (a function of no
        class) returns, as its file names the class (see `Function.returns`)."""
        factory, _, method = callee.rpartition(MADE_BY)
        made = self.resolve(caller, factory)
        if made is None or "." in made.qualname:  # a function, not a method
            return None
        if made.returns is None:
            return self._one_acting(made, made.returns_one_of, method, arity, types)
        return self.resolve(made, f"{made.returns}.{method}", arity, types)

    def _kept(self, caller: Function, callee: str, arity: int | None, types: tuple) -> Function | None:
        """`Writer#self.dest#write_frame`: method `write_frame` of the class of the objects the
        callers give the field `dest` of `Writer` (its constructor's parameter), where all
        that the linted files give are of one class."""
        cls, held, method = callee.split(KEPT)
        language = self.models[caller.path].language if caller.path in self.models else None
        classes = self._field_classes.get((language, cls, held), ())
        if len(classes) == 1:
            return self.resolve(caller, f"{next(iter(classes))}.{method}", arity, types)
        return self._one_acting(caller, classes, method, arity, types)

    def _one_acting(self, caller: Function, classes, method: str, arity: int | None, types: tuple) -> Function | None:
        """Of the methods `method` of objects that may be of any of several `classes` (what a
        factory choosing a plain or a TLS transport makes), the only one with an event of its
        own (the plain transport's send, where the other's writes are none known here), if any:
        one they all inherit, lowered alike for each, counts once (the base class's `read_frame`)."""
        acting = {(fn.path, fn.site, fn.body): fn for fn in (self.resolve(caller, f"{c}.{method}", arity, types)
                                                    for c in sorted(classes))
                  if fn is not None and fn.body and self.facts(fn).has(EVENTS)}
        return next(iter(acting.values())) if len(acting) == 1 else None

    @cached_property
    def _field_classes(self) -> dict[tuple[str, str, str], set[str]]:
        """(language, class, field) -> the classes of the objects the calls of the linted
        files give a method of the class (a constructor) that keeps them in that field."""
        found: dict[tuple[str, str, str], set[str]] = {}
        for fn in self._bodied:
            for ev in self.facts(fn).calls:
                if not (ev.classes or ev.made) or KEPT in ev.callee:  # a method of a kept object keeps nothing of its caller's
                    continue
                target = self.resolve(fn, ev.callee, len(ev.args), ev.types)
                if target is None or not target.field_params:
                    continue
                given = binding(ev, target)
                for kept, param in target.field_params:
                    i = given[target.params.index(param)] if param in target.params else None
                    made = self._classes_given(fn, ev, i) if i is not None else ()
                    if made:
                        language = self.models[fn.path].language
                        found.setdefault((language, target.qualname.rpartition(".")[0], kept), set()).update(made)
        return found

    def _classes_given(self, caller: Function, call: Call, i: int) -> tuple[str, ...]:
        """The classes of the object a call passes as argument i: the one the caller made, or
        those the factory that made it returns (see `Call.made`)."""
        if i < len(call.classes) and call.classes[i] is not None:
            return (call.classes[i],)
        factory = self.resolve(caller, call.made[i]) if i < len(call.made) and call.made[i] is not None else None
        if factory is None or "." in factory.qualname:
            return ()
        return (factory.returns,) if factory.returns is not None else factory.returns_one_of

    @cached_property
    def _nested(self) -> dict[tuple[str, str, str], list[Function]]:
        """(language, class, method) -> the methods of that name of the nested
        classes of that last name (a top-level class's are `_global`'s)."""
        found: dict[tuple[str, str, str], list[Function]] = {}
        for (language, q), fns in self._global.items():
            if q.count(".") > 1:
                cls, _, name = q.rpartition(".")
                found.setdefault((language, cls.rpartition(".")[2], name), []).extend(fns)
        return found

    def _methods_of(self, language: str, cls: str, name: str) -> list[Function]:
        """The methods `name` of the classes whose last name is `cls`."""
        return [*self._global.get((language, f"{cls}.{name}"), ()), *self._nested.get((language, cls, name), ())]

    @cached_property
    def _nested_classes(self) -> set[tuple[str, str]]:
        return {(language, cls) for language, cls, _ in self._nested}

    def _declares(self, language: str, cls: str) -> bool:
        """Whether a class of that last name has a method in the linted files."""
        return (language, cls) in self._methods or (language, cls) in self._nested_classes

    def _is_abstract(self, fn: Function) -> bool:
        cls, name = fn.qualname.rsplit(".", 1)
        return (self.models[fn.path].language, f"{cls.rsplit('.', 1)[-1]}.{name}") in self._abstract

    def _through_types(self, language: str, callee: str, arity: int | None, types: tuple) -> Function | None:
        """A method `Type.name` that `Type` does not define, or declares without
        a body: the one it inherits from its bases, else, where `Type` (an
        interface, an abstract class of the linted files, not a library's)
        has exactly one implementation in the linted files, that
        implementation's (an anonymous class counts, and runs no method known
        here).  Implementations in files the run did not lower are not seen."""
        cls, name = callee.rsplit(".", 1)
        cls = cls.rsplit(".", 1)[-1]
        if (language, cls) not in self._supers and (language, cls) not in self._subs:
            return None  # a type with no known base and no known implementation: most calls
        key = (language, cls, name, arity, types)  # the same for every caller
        if key not in self._typed:
            self._typed[key] = self._through(language, cls, name, arity, types)
        return self._typed[key]

    def _through(self, language: str, cls: str, name: str, arity: int | None, types: tuple) -> Function | None:
        defines, inherited = self._inherited(language, cls, name, arity, types)
        if defines:
            return inherited
        leaf = self._implementation(language, cls)
        if leaf is None or not self._declares(language, cls):
            return None  # a library's type (a JDK interface) has implementations the project does not hold
        defines, found = self._defined(language, leaf, name, arity, types)
        return found if defines else self._inherited(language, leaf, name, arity, types)[1]

    def _implementation(self, language: str, cls: str) -> str | None:
        """The one class below type `cls` that no class extends, or None."""
        if (language, cls) not in self._leaves:
            subs, every = self._below(language, cls)
            leaves = [sub for sub in subs if not self._subs.get((language, sub))]
            self._leaves[(language, cls)] = leaves[0] if len(leaves) == 1 and every else None
        return self._leaves[(language, cls)]

    def _inherited(self, language: str, cls: str, name: str, arity: int | None,
                   types: tuple = ()) -> tuple[bool, Function | None]:
        """Method `name` as class `cls` inherits it, from the nearest of its bases
        that defines it (see `_defined`), and whether one does."""
        for base in self._above(language, cls):
            defines, found = self._defined(language, base, name, arity, types)
            if defines:
                return True, found
        return False, None

    def _above(self, language: str, cls: str):
        """The types `cls` extends or implements that the linted files tell, the nearest first, each once."""
        seen, todo = {cls}, [cls]
        while todo:
            for base in self._supers.get((language, todo.pop(0)), ()):
                if base not in seen:
                    seen.add(base)
                    yield base
                    todo.append(base)

    def _defined(self, language: str, cls: str, name: str, arity: int | None,
                 types: tuple = ()) -> tuple[bool, Function | None]:
        """Whether a class named `cls` defines method `name` other than without a
        body, and the one it defines where it is lowered (of those taking
        `arity` arguments of `types`, where several are; None where it is not
        lowered, or several classes have the name)."""
        found = [fn for fn in self._methods_of(language, cls, name)
                 if (language, f"{cls}.{name}") not in self._abstract or fn.body]
        defines = bool(found)
        if len(found) > 1 and arity is not None:
            fits = [fn for fn in found if len(fn.params) == arity]
            found = self._by_types(language, fits, types) if fits else found
        return defines, found[0] if len(found) == 1 and found[0].body else None

    def _overload(self, caller: Function, callee: str, arity: int, types: tuple) -> Function | None:
        """Of the methods named `callee` (several, in a language with overloads),
        the one lowered that takes `arity` arguments of `types`, where only one
        does (of the caller's file's, where it has some); `_NO_OVERLOAD` where the
        types rule out every one lowered that takes `arity`; `_OVERLOADS` where
        several of one file fit (one class's: classes of one name in two files are
        two classes); None otherwise."""
        typed = self._overloads(caller, callee, arity, types)
        if typed is None:
            return None
        if len(typed) > 1:
            return _OVERLOADS if len({fn.path for fn in typed}) == 1 else None
        return typed[0] if typed else _NO_OVERLOAD

    def _overloads(self, caller: Function, callee: str, arity: int, types: tuple) -> list[Function] | None:
        """The overloads `_overload` chooses from, those the arguments' types fit (none fits:
        an empty list), or None where the name has not several lowered that take `arity`."""
        key = (caller.path, callee, arity, types)
        if key not in self._fitting:
            self._fitting[key] = self._fits(caller, callee, arity, types)
        return self._fitting[key]

    def _fits(self, caller: Function, callee: str, arity: int, types: tuple) -> list[Function] | None:
        language = self.models[caller.path].language if caller.path in self.models else None
        if language is None or frontend(language).conversions is None:
            return None
        found = self._global.get((language, callee), ())
        if len(found) < 2:
            return None
        fits = [fn for fn in ([fn for fn in found if fn.path == caller.path] or found)
                if fn.body and len(fn.params) == arity]
        return self._by_types(language, fits, types) if fits else None

    def _by_types(self, language: str, fits: list[Function], types: tuple) -> list[Function]:
        """Of the overloads `fits` (each taking as many arguments as given), those
        the arguments' `types` can be passed to (every one where the types tell
        nothing), the most exactly typed first: Java's choice of the most
        specific, where the types known tell it."""
        if not types or len(fits) < 1:
            return fits
        types = tuple(self._static_type(language, t) for t in types)
        conv, scored = frontend(language).conversions, []
        for fn in fits:
            scores = [_passes(t, p, set(self._above(language, t)), self._known_type(language, p), conv)
                      for t, p in zip(types, fn.param_types or (None,) * len(types))]
            if None not in scores:
                scored.append((sum(scores), fn))
        best = max((score for score, _ in scored), default=0)
        return [fn for score, fn in scored if score == best]

    def _known_type(self, language: str, typ: str | None) -> bool:
        """Whether the linted files declare a type of that last name."""
        key = (language, typ)
        return typ is not None and (self._declares(language, typ) or key in self._subs or key in self._supers
                                    or key in self._enums)

    def _static_type(self, language: str, typ: str | None) -> str | None:
        """`Code.OPEN` is a `Code` where `Code` is an enum of the linted files; another
        static member's type is not known here."""
        if typ is None or "." not in typ:
            return typ
        cls = typ.split(".", 1)[0]
        return cls if (language, cls) in self._enums else None

    def targets(self, caller: Function, callee: str, arity: int | None = None, types: tuple = ()) -> list[Function]:
        """The functions a call may run: the one it resolves to, or each alternative definition."""
        target = self.resolve(caller, callee, arity, types)
        return [target] if target is not None else self.alternatives(caller, callee, arity, types)

    def alternatives(self, caller: Function, callee: str, arity: int | None = None, types: tuple = ()) -> list[Function]:
        """The definitions of `callee` in the caller's file where it has several that are
        alternatives (one per build), in the order of the file; the overloads that the
        arguments' types do not tell apart (the call runs one of them); for a call through a
        member, the functions the other files' operations tables hold there; else none."""
        if callee.startswith(THROUGH_MEMBER):
            return self._held(caller, callee[len(THROUGH_MEMBER):])
        if arity is not None and callee not in caller.params:
            if self._overload(caller, callee, arity, types) is _OVERLOADS:
                return self._overloads(caller, callee, arity, types)
        return self.builds(caller, callee)

    def builds(self, caller: Function, callee: str) -> list[Function]:
        """The definitions of `callee` in the caller's file where it has several, one per
        build (`#ifdef`/`#else`, a definition under `if`), in the order of the file; else none."""
        if callee in caller.params or self._local.get(caller.path, {}).get(callee, caller) is not None:
            return []
        return [fn for fn in self.models[caller.path].functions if fn.qualname == callee]

    def _held(self, caller: Function, member: str, bodied: bool = True) -> list[Function]:
        """The functions (with a body, where `bodied`) the operations tables of the other
        files of the caller's language hold in `member` (see `FileModel.op_tables`)."""
        language = self.models[caller.path].language if caller.path in self.models else None
        return [fn for path, names in self._op_tables.get((language, member), ()) if path != caller.path
                for name in names for fn in self.models[path].functions
                if fn.qualname == name and (fn.body or not bodied)]

    @cached_property
    def _members_sending(self) -> set[str]:
        """The members of operations tables that hold a function that sends: a call through
        one (`t->ops->send(`) may start a finding, as a call of the function by its name does."""
        return {member for (_, member), held in self._op_tables.items()
                if any(id(fn) in self.sending for path, names in held
                       for fn in self.models[path].functions if fn.qualname in names)}

    @cached_property
    def _op_tables(self) -> dict[tuple[str, str], list[tuple[str, tuple[str, ...]]]]:
        found: dict[tuple[str, str], list] = {}
        for m in self.models.values():
            for member, names in m.op_tables.items():
                found.setdefault((m.language, member), []).append((m.path, names))
        return found

    def handed_nodelay(self, path: str) -> dict[tuple[str, str], tuple]:
        """(class, field key) -> (site and file of the option, whether a user setting chooses
        it), for the classes of file `path` whose constructor keeps in a field a connection
        that a function turned TCP_NODELAY on for before handing it on, to the constructor or
        through calls that hand it on again (a server handing each accepted socket to a
        handler run on a thread of its own, or to a factory that makes one): the class's
        methods start with it on."""
        return self._handing[0].get(path, {})

    @cached_property
    def _handing(self) -> tuple[dict[str, dict[tuple[str, str], tuple]], dict[str, set[str]]]:
        """(see `handed_nodelay`, file of a class so found -> the files of the calls that handed
        the connection to it, where a change can take the option away: see `dependents`)."""
        found: dict[str, dict[tuple[str, str], tuple]] = {}
        through: dict[str, set[str]] = {}
        setters = self._nodelay_setters
        for fn in self._bodied:
            options = self._nodelay_to_hand_on(fn, setters)
            for call in self.facts(fn).calls if options else ():
                for conn, line, option in options:
                    if conn in call.args and line < call.site.line:  # the option's file too, where a helper's
                        self._hand_on(fn, call, conn, option, (found, through), tuple(dict.fromkeys((fn.path, option[1]))))
        return found, through

    def _nodelay_to_hand_on(self, fn: Function, setters: dict) -> list[tuple[str, int, tuple]]:
        """(connection, line, option: see `handed_nodelay`) of each TCP_NODELAY `fn` turns on for
        a connection of its own or given to it: itself, or by calling a function that turns it
        on for the connection it is given (a helper setting a socket's options).  Not the flow's
        `_nodelay_turned_on`: that one is a file's setters given the option itself, for its run."""
        found = [(ev.conn, ev.site.line, (ev.site, fn.path, ev.setting))
                 for ev in (walk(fn.body) if self.facts(fn).has(SetOption) else ())
                 if isinstance(ev, SetOption) and ev.option == "nodelay" and ev.value
                 and not ev.conn.startswith(("this.", "self."))]
        for call in self.facts(fn).calls:
            if call.callee.rpartition(".")[2] not in setters:
                continue
            for target in self.targets(fn, call.callee, len(call.args), call.types):
                for ev in setters[call.callee.rpartition(".")[2]].get(id(target), ()):
                    conn = passed(call, target, ev.conn, call.args)
                    if conn is not None:
                        found.append((conn, call.site.line, (ev.site, target.path, ev.setting)))
        return found

    @cached_property
    def _nodelay_setters(self) -> dict[str, dict[int, list[SetOption]]]:
        """Short name -> id of each function of that name that turns TCP_NODELAY on for one
        of its parameters -> those options (`setSockOpts(Socket sock)`)."""
        found: dict[str, dict[int, list[SetOption]]] = {}
        for fn in self._bodied:
            if self.facts(fn).has(SetOption):
                on = [ev for ev in walk(fn.body) if isinstance(ev, SetOption) and ev.option == "nodelay" and ev.value
                      and ev.conn in fn.params]
                if on:
                    found.setdefault(fn.qualname.rpartition(".")[2], {})[id(fn)] = on
        return found

    def _hand_on(self, caller: Function, call: Call, conn: str, option: tuple, into: tuple, chain: tuple) -> None:
        """Where `call` hands connection `conn` on (see `handed_nodelay`): the fields the
        functions it may run keep it in, and the calls they hand it on by, HANDED_DEPTH deep.
        A call of an interface's method may run each implementation's: whichever makes the
        object, it is made over the connection that has the option."""
        found, through = into
        for target in self._may_run(caller, call):
            given = {p for p, i in zip(target.params, binding(call, target))
                     if p is not None and i is not None and i < len(call.args) and call.args[i] == conn}
            cls = target.qualname.rpartition(".")[0]
            for field, param in target.field_params:
                if param in given:
                    found.setdefault(target.path, {}).setdefault((cls, field), option)
                    through.setdefault(target.path, set()).update(chain)
            for inner in self.facts(target).calls if given and len(chain) < HANDED_DEPTH else ():
                for param in given & set(inner.args):
                    self._hand_on(target, inner, param, option, into, (*chain, target.path))

    def _may_run(self, caller: Function, call: Call) -> list[Function]:
        """The functions a call may run (see `targets`), and where it names an interface's
        (or an abstract) method, the implementations the linted files lowered."""
        found = self.targets(caller, call.callee, len(call.args), call.types)
        abstract = len(found) == 1 and not found[0].body and "." in found[0].qualname and self._is_abstract(found[0])
        return found if found and not abstract else self._implementing(caller, call)

    def _below(self, language: str, cls: str) -> tuple[set[str], bool]:
        """The classes that extend or implement type `cls`, directly or not (MAX_BELOW at most:
        a type with so many has several of each kind), and whether that is every one."""
        subs, todo = set(), [cls]
        while todo and len(subs) < MAX_BELOW:
            for sub in self._subs.get((language, todo.pop()), ()):
                if sub not in subs and sub != cls:
                    subs.add(sub)
                    todo.append(sub)
        return subs, not todo

    def facts(self, fn: Function) -> _Facts:
        facts = self._facts.get(id(fn))
        if facts is None or facts.fn is not fn:
            facts = self._facts[id(fn)] = _Facts(fn, lambda call: self.by_name(fn, call))
        return facts

    @cached_property
    def _callers(self) -> dict[int, list[int]]:
        """id of a function -> ids of the functions calling it (as the calls resolve)."""
        callers: dict[int, list[int]] = {}
        for fn in self._bodied:
            for ev in self.facts(fn).calls:
                for target in self.targets(fn, ev.callee, len(ev.args), ev.types):
                    callers.setdefault(id(target), []).append(id(fn))
        return callers

    @cached_property
    def _called(self) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
        """((file, name) of the functions a call resolves to: overloads of a
        name in one file are told apart by their arguments, which a call is
        not resolved by; (language, name) of the calls that resolve to none:
        any function of that name may be theirs)."""
        found, names = set(), set()
        for fn in self._bodied:
            for ev in self.facts(fn).calls:
                targets = self.targets(fn, ev.callee, len(ev.args), ev.types)
                if targets:
                    found |= {(target.path, target.qualname) for target in targets}
                else:
                    names.add((self.models[fn.path].language, ev.callee))
        return found, names

    def is_entry(self, fn: Function) -> bool:
        """Whether no call of the run may reach the function: only calls of
        its own language, as they resolve, count (a Python script's main()
        says nothing of a C main)."""
        found, names = self._called
        return (fn.path, fn.qualname) not in found and (self.models[fn.path].language, fn.qualname) not in names

    def _with_effects(self, events=EVENTS, starts: bool = False) -> set[int]:
        """ids of the functions with one of `events` that their callers see
        (see `_Facts.outward`), directly or through callees; `starts`: only
        the events a finding of a rule run on the function's file can start from in a caller."""
        found = [id(fn) for fn in self._bodied
                 if self.facts(fn).has(events, outward=True, by_design=not starts or self._by_design_in(fn.path),
                                       held=not starts)]
        callers = self._callers
        reached = set(found)
        while found:  # up the calls, from the functions with events
            for caller in callers.get(found.pop(), ()):
                if caller not in reached:
                    reached.add(caller)
                    found.append(caller)
        return reached

    def wanted(self):
        """What a file the byte scan skipped may still matter for: calls no
        linted file defines yet (it may define one: a factory, a helper), and
        functions that send or set an option (it may call one and read after).
        Only calls that can change what is known of a connection count: those
        passing one, made on an object, or whose result is used as one."""
        needed, again, callers, called = self._unresolved()
        starts, through = self._start_names()
        sends = self._with_effects((Send,))
        option_only = starts - {n for fn in self._bodied if id(fn) in sends for n in _entry_names(fn.qualname)} \
            - through
        # A file is lowered again where a function left out calls one that
        # starts a finding, unless it was left out for calling one that only
        # sets an option in a file that cannot send, and still only does.
        again.update(path for path, c in self.choices.items()
                     if any(self.reaches(path, self.models[path].language, n)
                            for n in (c.left_out_calls & starts) - (c.quiet_options & option_only)))
        keep = lambda names: frozenset(n for n in names if n.replace(".", "_").isidentifier() and not n.startswith("__"))  # noqa: E731
        return Wanted(keep(needed), keep(starts), frozenset(again), {n: frozenset(f) for n, f in callers.items()},
                      keep(option_only), {p: frozenset(names) for p, names in called.items() if p in again})

    def _start_names(self) -> tuple[set[str], set[str]]:
        """The names a call that may start a finding calls (see `wanted`), and those of them
        that send through what they name (a member of an operations table, a factory of a
        class that sends), not by a function of their own."""
        # By its qualified name, only a method defined once (a call names no
        # overload among several) that sends or sets an option itself.
        starts = {n for fn in self._bodied if id(fn) in self.sending and not n_is_root(fn.qualname)
                  for n in _entry_names(fn.qualname, self._qualified_start(fn))}
        starts.update(n for c in self.choices.values() for q in c.quiet_setters for n in _entry_names(q))
        through = self._members_sending | {fn.qualname for fn in self._bodied if self._makes_senders(fn)}
        return starts | through, through

    def _qualified_start(self, fn: Function) -> bool:
        """Whether a call by the method's qualified name (see `_entry_names`)
        can only be of it, and starts a finding there: its file defines no
        other of that name (an overload), and it sends or sets an option itself."""
        return sum(f.qualname == fn.qualname for f in self.models[fn.path].functions) == 1 \
            and self.facts(fn).has((Send, SetOption))

    def _unresolved(self) -> tuple[set, set, dict, dict]:
        """Of the calls that can change what is known of a connection: the
        names they call that no linted file defines (`needed`, and for each
        the folders of its `callers`), the files holding a stub one reaches
        (lowered `again`), and the functions without a body they reach in
        another file (`called`, by file)."""
        needed, again, callers, called = set(), set(), {}, {}
        for fn in self._bodied:
            facts = self.facts(fn)
            for ev in facts.calls:
                if ev.keeps or ev.receiver is None and not _passes_conns(ev) and \
                        (ev.result is None or not _mentioned(ev.result, facts.used)):
                    continue
                target = self.resolve(fn, ev.callee, len(ev.args), ev.types)
                if ev.callee.startswith(THROUGH_MEMBER):
                    for held in self._held(fn, ev.callee[len(THROUGH_MEMBER):], bodied=False):
                        if held.qualname in self.choice(held.path).stubs:
                            needed.add(held.qualname)
                            again.add(held.path)
                elif target is None:
                    if KEPT in ev.callee:  # its class's file is the caller's: what a caller gives is looked for no further
                        continue
                    name = _entry_name(ev.callee)
                    if ev.callee not in fn.params and name not in frontend(self.models[fn.path].language).builtins:
                        needed.add(name)
                        callers.setdefault(name, set()).add(os.path.dirname(fn.path))
                elif target.qualname in self.choice(target.path).stubs:
                    needed.update((target.qualname, _entry_name(target.qualname)))
                    again.add(target.path)
                elif not target.body and target.path != fn.path:
                    called.setdefault(target.path, set()).add(target.qualname)
                for made in self._stubs_handed(fn, ev, target):
                    needed.add(made.qualname)
                    again.add(made.path)
        return needed, again, callers, called

    def _stubs_handed(self, caller: Function, call: Call, target: Function | None) -> list[Function]:
        """The implementations of the interface's method a call hands a connection that were
        kept without a body for making objects (see `Choice.makers`): one may make an object
        keeping it (see `handed_nodelay`)."""
        if target is not None and target.body or not _passes_conns(call):
            return []
        return [fn for fn in self._implementing(caller, call, bodied=False)
                if fn.qualname in self.choice(fn.path).makers]

    def _handed_from(self, paths: set[str]) -> set[str]:
        """The files whose classes start with TCP_NODELAY on where calls from one of `paths`
        handed them their connection (see `handed_nodelay`): the option's file, and those between."""
        return {path for path, through in self._handing[1].items() if not through.isdisjoint(paths)}

    def _implementing(self, caller: Function, call: Call, bodied: bool = True) -> list[Function]:
        """Where a call names a method of a type of the linted files (`Type.name`) that the
        classes below it define (an interface's, an abstract one), those definitions (with a
        body, where `bodied`; without one: kept as stubs, lowered where such a call hands
        them a connection: see `handed_nodelay`)."""
        typ, _, name = call.callee.rpartition(".")
        language, typ = self.models[caller.path].language, typ.rpartition(".")[2]
        if not typ or (language, typ) not in self._subs:
            return []
        found = [fn for sub in self._below(language, typ)[0] for fn in self._methods_of(language, sub, name)
                 if (len(fn.params) == len(call.args) if bodied else not fn.body)]
        # Interfaces are known by their last names: one of another interface of that name takes other types.
        return self._by_types(language, found, call.types) if bodied else found

    def dependents(self, paths: set[str], before: Project | None = None) -> set[str]:
        """The files to analyse again after the models of `paths` changed
        (`before`: the project before the change): `paths`, the files with a
        call that resolves otherwise now, the files with a call that reaches
        into one of those, directly or through other files, now or before
        (their analysis uses what the changed functions do), and the files
        a call of a changed file or a call resolving otherwise reaches, now
        or before (whether their functions are entries, and the calls made
        of them, changed).  Each call is resolved once: the files are then
        followed from callee to caller."""
        found, reached = set(paths), set()
        callers: dict[str, set[str]] = {}  # a file -> the files with a call into it, now or before
        for fn in self._bodied:
            compared = before is not None and fn.path not in paths and fn.path in before.models
            for call in self.facts(fn).calls:
                now = self.targets(fn, call.callee, len(call.args), call.types)
                then = before.targets(fn, call.callee, len(call.args), call.types) if compared else now
                into = self._into(fn, call.callee, now) | self._into(fn, call.callee, then)
                for target in into:
                    callers.setdefault(target, set()).add(fn.path)
                if fn.path in paths or list(map(id, now)) != list(map(id, then)):
                    found.add(fn.path)
                    reached |= into
        for fn in before._bodied if before is not None else ():
            if fn.path in paths or fn.path not in self.models:  # its calls as they were
                for call in before.facts(fn).calls:
                    into = before._into(fn, call.callee, before.targets(fn, call.callee, len(call.args), call.types))
                    for target in into:
                        callers.setdefault(target, set()).add(fn.path)
                    reached |= into
        reached |= self._handed_from(paths) | (before._handed_from(paths) if before is not None else set())
        todo = list(found)
        while todo:
            for p in callers.get(todo.pop(), ()):
                if p not in found:
                    found.add(p)
                    todo.append(p)
        return found | reached

    def _into(self, caller: Function, callee: str, targets: list[Function]) -> set[str]:
        """The files of the functions a call may run (`targets`), or, where
        it resolves to none, of those of its name (none of them is an entry:
        see `is_entry`)."""
        if not targets and callee not in caller.params:
            targets = self._global.get((self.models[caller.path].language, callee), ())
        return {target.path for target in targets}

    def definers(self, language: str, name: str) -> set[str]:
        """The linted files of a language that define `name` (a function, or a class by its methods)."""
        key = (language, name)
        found = self._definers.get(key)
        if found is None:
            found = self._definers[key] = {fn.path for fn in self._global.get(key, ())} | set(self._methods.get(key, ()))
        return found

    def reaches(self, path: str, language: str, name: str) -> bool:
        """Whether a call to `name` (a function, or a class by its methods)
        from the file `path` resolves to another file's function that sends (a member:
        one an operations table of another file holds there, see `_members_sending`)."""
        if any(p != path for p, _ in self._op_tables.get((language, name), ())) and name in self._members_sending:
            return True
        where = _only(sorted(self.definers(language, name) - {path}), path, lambda p: p)
        if where is None:
            return False
        quiet = self.choice(where).quiet_setters
        return any((id(fn) in self.sending or fn.qualname in quiet) and name in _entry_names(fn.qualname)
                   or fn.qualname == name and self._makes_senders(fn) for fn in self.models[where].functions)

    def _makes_senders(self, fn: Function) -> bool:
        """Whether the function is a factory (see `Function.returns`) of a class with a method
        that sends: a method called on what it returns may start a finding."""
        if "." in fn.qualname:
            return False
        return any(self._sends_from(fn, cls) for cls in ((fn.returns,) if fn.returns else fn.returns_one_of))

    def _sends_from(self, fn: Function, cls: str) -> bool:
        """Whether class `cls`, as `fn`'s file names it, has a method that sends."""
        made = self.resolve(fn, f"{cls}.{frontend(self.models[fn.path].language).scan.constructor}")
        where = made.path if made is not None else fn.path
        prefix = cls.rsplit(".", 1)[-1] + "."
        return any(id(m) in self.sending and m.qualname.startswith(prefix) for m in self.models[where].functions)

    def live_body(self, fn: Function) -> tuple:
        """The function's body without the statements that change nothing the
        analysis knows: calls that reach no event, and structures holding only
        such calls.  Most statements of a big function are such; following
        them, over every pass of every loop, was most of the checks' work."""
        body = self._live.get(id(fn))
        if body is None:
            body = self._live[id(fn)] = self._pruned(fn, fn.body)
        return body

    def _pruned(self, fn: Function, stmts: tuple) -> tuple:
        kept = [p for p in (self._pruned_one(fn, s) for s in stmts) if p is not None]
        return stmts if len(kept) == len(stmts) and _same(kept, stmts) else tuple(kept)

    def _pruned_one(self, fn: Function, s):
        """`s` with what changes nothing left out, or None when that is all of it.
        Jumps are kept (they move the state elsewhere), and so is an infinite
        loop (nothing runs after it but what breaks out)."""
        prune = _PRUNED.get(type(s))
        return s if prune is None else prune(self, fn, s)

    def _pruned_call(self, fn: Function, s: Call):
        targets = self.targets(fn, s.callee, len(s.args), s.types)
        keeps = any(t.field_params for t in targets) and s.receiver is not None  # a constructor keeping a connection
        ends = bool(targets) and all(self.never_returns(t) for t in targets)  # `fatal("...")`: it logs and exits
        return s if any(self.has_effects(t) for t in targets) or keeps or ends or self.by_name(fn, s) else None

    def never_returns(self, fn: Function) -> bool:
        """Whether no call of the function returns: on each of its paths it ends
        the process or raises, itself or through a function that never returns."""
        known = self._ending.get(id(fn))
        if known is None:
            self._ending[id(fn)] = False  # a call of itself on the way returns, as far as it can tell
            known = self._ending[id(fn)] = self._ends(fn, fn.body) and not any(
                isinstance(s, Return) and not s.raised for s in walk(fn.body))
        return known

    def _ends(self, fn: Function, stmts) -> bool:
        """Whether the block never goes on after its end: its last statement raises,
        ends the process or calls a function that never returns, on every path."""
        last = stmts[-1] if stmts else None
        if isinstance(last, Return):
            return last.raised
        if isinstance(last, Call) and not last.judged_only:
            targets = self.targets(fn, last.callee, len(last.args), last.types)
            return bool(targets) and all(self.never_returns(t) for t in targets)
        return isinstance(last, If) and last.exhaustive and all(self._ends(fn, b) for b in last.branches)

    def by_name(self, caller: Function, call: Call) -> tuple:
        """The events of a call that names no function of the linted files,
        as its name tells them (see `Call.otherwise`)."""
        if not call.otherwise or self.definers(self.models[caller.path].language, call.callee):
            return ()
        return call.otherwise

    def _pruned_branches(self, fn: Function, s):
        branches = tuple(self._pruned(fn, b) for b in s.branches)
        if not any(branches):
            return None
        return s if _same(branches, s.branches) else replace(s, branches=branches)

    def _pruned_loop(self, fn: Function, s: Loop):
        head, body = self._pruned(fn, s.head), self._pruned(fn, s.body)
        if not (head or body or s.infinite):
            return None
        return s if head is s.head and body is s.body else replace(s, head=head, body=body)

    def _pruned_try(self, fn: Function, s: Try):
        parts = tuple(self._pruned(fn, b) for b in (s.body, s.orelse, s.final))
        handlers = tuple(self._pruned(fn, h) for h in s.handlers)
        if not (any(parts) or any(handlers)):
            return None
        exposed = s.exposed or bool(s.body) and self._pruned_one(fn, s.body[0]) is None  # a call that does nothing came first
        if _same(parts, (s.body, s.orelse, s.final)) and _same(handlers, s.handlers) and exposed == s.exposed:
            return s
        return replace(s, body=parts[0], orelse=parts[1], final=parts[2], handlers=handlers, exposed=exposed)

    @cached_property
    def effective(self) -> set[int]:
        """ids of the functions with an event their callers see, directly or
        through callees: found where asked (the checks ask; the later rounds'
        projects, and a project only compared with, do not)."""
        return self._with_effects()

    def has_effects(self, fn: Function) -> bool:
        return id(fn) in self.effective

    @cached_property
    def sending(self) -> set[int]:
        """ids of the functions that send or set an option, directly or
        through callees (as their callers see it, a held connection's events
        left out: see `_Held`): where every finding starts; see `may_find`."""
        return self._with_effects((Send, SetOption), starts=True)

    def may_find(self, fn: Function) -> bool:
        """Whether a finding can start in the function's own analysis: it
        sends or sets an option (on its local variables too), or calls one
        that does."""
        return id(fn) in self.sending or bool(fn.body) and \
            self.facts(fn).has((Send, SetOption), by_design=self._by_design_in(fn.path))

    def _by_design_in(self, path: str) -> bool:
        """Whether sends on a connection a framework makes with TCP_NODELAY on
        start findings in the file (see `nodelay_by_design`)."""
        if self._nodelay_by_design is None:
            return True
        if path not in self._by_design:
            self._by_design[path] = bool(self._nodelay_by_design(path))
        return self._by_design[path]

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


# How `Project._pruned_one` prunes each kind of statement (any other is kept as it is).
_PRUNED = {Call: Project._pruned_call, If: Project._pruned_branches,
           Loop: Project._pruned_loop, Try: Project._pruned_try}


def _same(these, those) -> bool:
    """Whether two sequences hold the same objects, pairwise."""
    return all(a is b for a, b in zip(these, those))
