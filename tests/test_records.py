"""Record classes behave as the dataclasses they replace: the same
construction, equality, hashing, repr, immutability and copies."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from nagle_lint.records import Factory, FrozenError, record


@record
class Point:
    """A frozen record."""

    x: int
    y: int = 0
    tags: dict = Factory(dict)


@record
class Other:
    x: int
    y: int = 0
    tags: dict = Factory(dict)


@record(frozen=False)
class Box:
    label: str
    items: list = Factory(list)


@dataclasses.dataclass(frozen=True)
class PointDC:
    x: int
    y: int = 0
    tags: dict = dataclasses.field(default_factory=dict)


def test_construction_defaults_and_factories():
    p = Point(1)
    assert (p.x, p.y, p.tags) == (1, 0, {})
    assert Point(1).tags is not Point(1).tags  # made anew for each record
    assert Point(1, 2, {"a": 1}) == Point(x=1, y=2, tags={"a": 1})
    with pytest.raises(TypeError):
        Point()
    with pytest.raises(TypeError):
        Point(1, z=3)


def test_equality_hash_and_repr_as_a_dataclass_has_them():
    p, q = Point(1, 2), Point(1, 2)
    assert p == q and not (p != q) and p != Point(1, 3)
    assert p != Other(1, 2)  # another class with the same fields is not equal
    assert p.__eq__(PointDC(1, 2)) is NotImplemented
    assert hash(Point(1, 2, ())) == hash(Point(1, 2, ()))
    assert repr(Point(1, 2)) == repr(PointDC(1, 2)).replace("PointDC", "Point")
    assert {Point(1, 2, ()), Point(1, 2, ())} == {Point(1, 2, ())}


def test_frozen_records_refuse_changes_and_mutable_ones_are_not_hashable():
    p = Point(1)
    with pytest.raises(FrozenError):
        p.x = 2
    with pytest.raises(FrozenError):
        del p.y
    assert isinstance(FrozenError("x"), AttributeError)
    with pytest.raises(AttributeError):
        p.other = 1  # slots: no fields but the declared ones
    b = Box("a")
    b.label = "b"
    b.items.append(1)
    assert b == Box("b", [1])
    with pytest.raises(TypeError):
        hash(b)
    assert not hasattr(b, "__dict__") and Box.__slots__ == ("label", "items")


def test_replace_and_pickle_give_equal_copies():
    p = Point(1, 2, {"k": "v"})
    assert p.replace(y=5) == Point(1, 5, {"k": "v"}) and p == Point(1, 2, {"k": "v"})
    assert p.replace(y=5).tags is p.tags  # replace copies the fields, not their values
    for value in (p, Box("a", [1, 2])):
        back = pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))
        assert back == value and type(back) is type(value)


def test_the_class_keeps_its_name_doc_and_methods():
    assert Point.__name__ == "Point" and Point.__qualname__ == "Point"
    assert Point.__doc__ == "A frozen record."
    assert Point.__init__.__qualname__ == "Point.__init__"
    assert Point.__module__ == __name__
