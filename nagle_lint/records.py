"""Record classes: the fields are the class's annotations, and `record`
writes their `__init__`, `__eq__`, `__hash__` (frozen records only) and
`__reduce__` (for pickling) as one short piece of source per class, with
`__slots__`; `__repr__`, `replace` and the frozen records' refusals are
defined once, over the field names.  What `dataclasses` gives the model
and the checks, without its import and its way of making a class (several
`exec`s and a second class each): about 35 ms that every run lowering a
file paid before its workers started."""

from __future__ import annotations


class Factory:
    """A field's default made anew for each record (a dict, a set, a list)."""

    __slots__ = ("make",)

    def __init__(self, make):
        self.make = make


class FrozenError(AttributeError):
    """A field of a frozen record was set or deleted."""


def record(cls=None, /, *, frozen: bool = True):
    """The record class for `cls` (usable as `@record` or `@record(frozen=False)`)."""
    if cls is None:
        return lambda c: _make(c, frozen)
    return _make(cls, frozen)


def _make(cls, frozen: bool):
    names = list(cls.__dict__.get("__annotations__", {}))
    namespace = {k: v for k, v in cls.__dict__.items() if k not in names and k not in ("__dict__", "__weakref__")}
    defaults = {n: cls.__dict__[n] for n in names if n in cls.__dict__}
    env = {"_missing": _MISSING, "_set": object.__setattr__}
    params, body = [], []
    for n in names:
        if n not in defaults:
            params.append(n)
            value = n
        elif isinstance(defaults[n], Factory):
            env[f"_make_{n}"] = defaults[n].make
            params.append(f"{n}=_missing")
            value = f"_make_{n}() if {n} is _missing else {n}"
        else:
            env[f"_default_{n}"] = defaults[n]
            params.append(f"{n}=_default_{n}")
            value = n
        body.append(f"    _set(self, {n!r}, {value})" if frozen else f"    self.{n} = {value}")
    # The methods that run often are written as source (as fast as written
    # by hand); the others share one definition each: compiling them for
    # every class cost most of the time it took to make it.
    fields = "".join(f"self.{n}, " for n in names)
    other = "".join(f"other.{n}, " for n in names)
    source = [
        f"def __init__(self, {', '.join(params)}):",
        *(body or ["    pass"]),
        "def __eq__(self, other):",
        f"    return ({fields}) == ({other}) if other.__class__ is self.__class__ else NotImplemented",
        # A pickle holds the fields' values only, and unpickling calls
        # __init__ (models come back from the workers this way).
        "def __reduce__(self):",
        f"    return (type(self), ({fields}))",
    ]
    if frozen:
        source += ["def __hash__(self):", f"    return hash(({fields}))"]
    methods: dict = {}
    exec("\n".join(source), env, methods)  # noqa: S102 - our own source, made from the field names above
    methods.update(_shared_methods(tuple(names), frozen))
    for name, function in methods.items():
        function.__qualname__ = f"{cls.__qualname__}.{name}"
    namespace.update(methods)
    if not frozen:
        namespace["__hash__"] = None  # mutable: equal records may not stay equal
    namespace["__slots__"] = tuple(names)
    return type(cls)(cls.__name__, cls.__bases__, namespace)


_MISSING = object()


def _shared_methods(names: tuple, frozen: bool) -> dict:
    def __repr__(self):
        return f"{type(self).__qualname__}({', '.join(f'{n}={getattr(self, n)!r}' for n in names)})"

    def replace(self, **changes):
        return type(self)(**{**{n: getattr(self, n) for n in names}, **changes})

    def __setattr__(self, name, value):
        raise FrozenError(f"cannot assign to field {name!r}")

    def __delattr__(self, name):
        raise FrozenError(f"cannot delete field {name!r}")

    methods = {"__repr__": __repr__, "replace": replace}
    if frozen:
        methods.update(__setattr__=__setattr__, __delattr__=__delattr__)
    return methods
