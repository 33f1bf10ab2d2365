"""The dataflow's join of states: the quick way for two states gives what
the general way gives (the union of each connection's states, bounded)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from nagle_lint.checks.flow import EMPTY, MAX_STATES_PER_CONN, Point, _join_all, _Order
from nagle_lint.site import Site

POINTS = [Point(Site(line, 1, line, 9), (), "a.c") for line in range(1, 40)]
CONN_STATES = st.builds(
    lambda units, held, nodelay, carried: EMPTY._replace(units=units, held=held, nodelay=nodelay, carried=carried),
    st.lists(st.sampled_from(POINTS), max_size=2).map(tuple),
    st.none() | st.sampled_from(POINTS), st.none() | st.sampled_from(POINTS), st.booleans())
STATES = st.dictionaries(st.sampled_from(["fd", "sock", "self.conn"]),
                         st.frozensets(CONN_STATES, min_size=1, max_size=MAX_STATES_PER_CONN), max_size=3)


@settings(max_examples=300, deadline=None)
@given(STATES, STATES)
def test_two_states_join_as_any_number_do(one, two):
    quick = _join_all([one, None, two], _Order())
    general = _join_all([one, two, dict(two)], _Order())  # a third state, equal to the second: the general way
    assert quick == general
    assert set(quick) == set(one) | set(two)
    assert all(len(states) <= MAX_STATES_PER_CONN for states in quick.values())
    assert _join_all([one, one], _Order()) is one and _join_all([None, None], _Order()) is None


def test_states_a_member_holds_as_numbers_and_as_names_are_bounded_in_one_order():
    """More states than the bound, where one member holds a number on some paths and a
    constant's name on others (`c->state = 1`, `c->state = ST_DONE`): the states kept
    are chosen in an order of their own, which compares the two kinds of value."""
    values = [*range(MAX_STATES_PER_CONN), "ST_DONE", "ST_WAIT", True]
    many = {EMPTY._replace(units=(POINTS[i % 3],), holds=(("c->state", v),)) for i, v in enumerate(values)}
    joined = _join_all([{"fd": frozenset(many)}, {"fd": frozenset({EMPTY})}], _Order())
    assert len(joined["fd"]) == MAX_STATES_PER_CONN
    assert joined == _join_all([{"fd": frozenset(sorted(many, key=repr))}, {"fd": frozenset({EMPTY})}], _Order())
