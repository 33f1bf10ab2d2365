"""A file's lowering (its model, suppressions, syntax errors and choice) as
JSON data, and back, for the per-file store (store.py).

What is read back can only be the model's own records, the standard
containers and JSON's scalars: each object names its class, which must be
one of `CLASSES`, and is made from its fields' values by that class (never
by a name looked up anywhere else); anything else is `ValueError`.  A
tuple is a JSON array; every other container is an object naming its kind."""

from __future__ import annotations

import json
from dataclasses import MISSING, fields, is_dataclass

from . import model
from .languages.choice import Choice
from .site import Site

# The classes a lowering is made of, by name.
CLASSES: dict[str, type] = {cls.__name__: cls for cls in (
    model.ConnInfo, model.Send, model.Flush, model.Recv, model.Push, model.Pause, model.Failed, model.Hold,
    model.SetOption, model.Bind, model.Call, model.If, model.Loop, model.Try, model.Return, model.Break,
    model.Continue, model.Function, model.FileModel, Choice, Site)}
_FIELDS = {cls: tuple(f.name for f in fields(cls)) if is_dataclass(cls) else cls._fields for cls in CLASSES.values()}
_REQUIRED = object()
# Each class's fields' defaults: an object's trailing fields that hold theirs are left out (most do).
_DEFAULTS = {cls: tuple(f.default if f.default is not MISSING else f.default_factory()
                        if f.default_factory is not MISSING else _REQUIRED for f in fields(cls))
             if is_dataclass(cls) else (_REQUIRED,) * len(cls._fields) for cls in CLASSES.values()}
# A container is an array led by its kind's number; an object, by its class's name.
_TUPLE, _LIST, _SET, _FROZENSET, _DICT = range(5)
_MADE = {_TUPLE: tuple, _LIST: list, _SET: set, _FROZENSET: frozenset,
         _DICT: lambda values: dict(zip(values[::2], values[1::2]))}
_KIND = {tuple: _TUPLE, list: _LIST, set: _SET, frozenset: _FROZENSET}
_SHARED = {_TUPLE: (), _FROZENSET: frozenset()}  # empty and unchangeable: one for all (there are many)
_SCALARS = (str, int, float, bool, type(None))


def dumps(value) -> str:
    """`value` as JSON text (`TypeError` where it holds an object of no class of `CLASSES`)."""
    return json.dumps(_data(value), separators=(",", ":"), check_circular=False)


def _data(value):
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        return [_DICT, *(_data(x) for item in value.items() for x in item)]
    if kind in (set, frozenset):  # in an order of their own: the text is the same in every process
        return [_KIND[kind], *sorted((_data(v) for v in value), key=repr)]
    if kind in _KIND:
        return [_KIND[kind], *map(_data, value)]
    if CLASSES.get(kind.__name__) is kind:
        values = [getattr(value, name) for name in _FIELDS[kind]]
        defaults = _DEFAULTS[kind]
        while values and defaults[len(values) - 1] is not _REQUIRED and _same(values[-1], defaults[len(values) - 1]):
            values.pop()
        return [kind.__name__, *map(_data, values)]
    raise TypeError(f"{kind.__qualname__} is not part of a lowering")


def loads(text: str | bytes):
    """What `dumps` wrote; `ValueError` for anything else."""
    try:
        data = json.loads(text, object_hook=_no_object)
        return _value(data) if type(data) is list else data
    except (TypeError, KeyError, IndexError, RecursionError) as e:
        raise ValueError(f"not a lowering: {e!r}") from None


def _no_object(_):
    raise ValueError("a JSON object")


def _value(data: list):
    # Most values are scalars: told apart here, not in a call each (a third of the time).
    values = [v if type(v) is not list else _value(v) if len(v) > 1 or v[0] not in _SHARED else _SHARED[v[0]]
              for v in data[1:]]
    head = data[0]
    if type(head) is int:
        return _MADE[head](values)
    cls = CLASSES[head]
    if len(values) > len(_FIELDS[cls]):
        raise ValueError(f"{head} with {len(values)} fields")
    return cls(*values)  # (`TypeError` where some are missing)


def _same(value, default) -> bool:
    """Whether a field holds its default (of the same type: True is not 1)."""
    return type(value) is type(default) and value == default
