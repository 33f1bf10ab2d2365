"""Which functions of a file are worth lowering, and parsing only those.

Most functions of a file cannot start a finding: they are kept as stubs
(see `Choice`), and where the language tells its functions from the bytes
(`Scanner.byte_functions`), only the functions worth lowering are parsed."""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace

from ..model import lineage
from .scan import FunctionTexts, n_is_root

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..model import FileModel
    from .base import Budget


@dataclass(frozen=True, slots=True)
class Relevance:
    """What `choose` tells of a file's functions."""

    worth: set  # the functions worth lowering
    stubs: set  # left out, with events (or run by making a class that has some) or quiet (see `Choice.stubs`)
    left_out_calls: set  # the names the functions left out call
    quiet: frozenset = frozenset()  # see `Choice.quiet_setters`
    quiet_options: frozenset = frozenset()  # the option-only functions of other files those call
    makers: frozenset = frozenset()  # see `Choice.makers`


@dataclass(frozen=True, slots=True)
class Choice:
    """What lowering a file left out, for the later rounds (see runner.py):
    the schedule's business, not the model's."""

    # Functions kept without a body (nothing in them can start a finding) but
    # with events (a constructor too, where making its class runs a method
    # with some), and the quiet setters (below): lowered when another file
    # turns out to call one.
    stubs: frozenset = frozenset()
    # The names called by the functions left without a body: one of them may
    # turn out to be another file's function that sends (lowered then too).
    left_out_calls: frozenset = frozenset()
    # The functions lowered, where they were told from the bytes (None where
    # the file was parsed whole): lowering the file again takes these from
    # its earlier model (see Frontend.lower).
    lowered: frozenset | None = None
    # Functions kept without a body that set a socket option through another
    # file's function (or call one that does), in a file that cannot send
    # after it: they count as setting an option, and are lowered (as stubs
    # are) when another file turns out to call one.
    quiet_setters: frozenset = frozenset()
    # The functions of other files that set an option and send nothing,
    # called by those: with no other, lowering the file again changes nothing.
    quiet_options: frozenset = frozenset()
    # Functions kept without a body that make an object of a class of the file
    # with events (a factory's method, where making an object runs no method):
    # lowered where a call of another file through an interface hands one a
    # connection, which the object may keep (see `Project.handed_nodelay`).
    makers: frozenset = frozenset()


def partial(fe, data: bytes, names: frozenset, needed: frozenset, own: bool,
            before: tuple[FileModel, Choice] | None = None, option_only: frozenset = frozenset(),
            budget: Budget | None = None):
    """Where the language can tell the file's functions from the bytes,
    parse only where the ones worth lowering are: (trees, found, the
    `Relevance` of its functions, the functions not parsed as (name, position),
    the functions taken from `before` as (start, function)), or Nones
    when the file is to be parsed whole (as it is when the trees do not
    have the functions expected, where they were expected).  The first
    tree holds the ranges parsed together; any other, a function parsed
    on its own.  The functions `before` lowered (told from the bytes too)
    are taken from it where they are still worth lowering."""
    from .base import Points

    spans = fe.scan.functions_of(data)
    if spans is None:
        return _WHOLE
    chosen = choose(fe.scan, spans, data, names, needed, own, option_only)
    point = Points(data)
    reused = _reused(before, spans, point, chosen.worth)
    todo = chosen.worth - {fn.qualname for _, fn in reused}
    ranges = parse_ranges(data, spans, todo)
    tree = fe.parse(data, ranges, point, budget) if ranges else None
    found = list(fe.functions(tree.root_node)) if tree is not None else []
    trees = [tree] if tree is not None else [fe.parse(b"", budget=budget)]
    lost = None
    if not partial_ok(found, spans, todo):
        found, lost = _parsed_apart(fe, data, point, spans, todo, found, trees, budget)
        if found is None:
            return _WHOLE
    parsed = {q for q, _, _ in found} | {fn.qualname for _, fn in reused}
    if lost:  # the file as a whole parse has it: without them
        spans = [span for span in spans if span[:3] not in lost]
        chosen = choose(fe.scan, spans, data, names, needed, own, option_only)
        if not chosen.worth <= parsed:  # another function is worth lowering now (rare): all is parsed
            return _WHOLE
    unparsed = [(q, SimpleNamespace(start_point=point(a), end_point=point(b)))
                for q, a, b, _ in spans if q not in parsed]
    return trees, found, chosen, unparsed, reused


_WHOLE = (None, None, None, (), ())  # what `partial` answers where the file is to be parsed whole


def _reused(before: tuple[FileModel, Choice] | None, spans, point, worth: set) -> list:
    """(start, function) of the functions `before` lowered (told from the
    bytes) that are still worth lowering, where the bytes are those its
    model was made of (the same functions ending on the same lines)."""
    kept = before[1].lowered if before is not None else None
    if not kept:
        return []
    earlier = [fn for fn in before[0].functions if fn.qualname in kept]  # in the order of the spans
    places = [(a, q, point(b)[0] + 1) for q, a, b, _ in spans if q in kept]
    if [(q, end) for _, q, end in places] != [(fn.qualname, fn.site.end_line) for fn in earlier]:
        return []
    return [(a, fn) for (a, q, _), fn in zip(places, earlier) if q in worth]


def _parsed_apart(fe, data: bytes, point, spans, relevant, found, trees, budget: Budget | None = None):
    """(the functions worth lowering, those lost as (name, start, end)),
    when parsing the ranges together lost some (an error in one range,
    such as a brace in a preprocessor branch, can swallow the next):
    each lost one parsed on its own, its tree added to `trees`.  A
    function that is an error from end to end on its own is lost to a
    whole parse too (tree-sitter reads the same bytes from the same
    state: the top level), and is left out, unless one build's view of
    it (`one_build`) is a function, which a whole parse recovers too.  (None, None) when a parse
    on its own finds another function, or when a function was found
    where the bytes did not say."""
    got = {(q, n.end_byte) for q, n, _ in found}
    wanted = [(a, q, b) for q, a, b, _ in spans if q in relevant]
    if got - {(q, b) for _, q, b in wanted}:
        return None, None
    found, lost = list(found), set()
    for a, q, b in sorted(w for w in wanted if (w[1], w[2]) not in got):
        tree = fe.parse(data, [(a, b)], point, budget)
        alone = list(fe.functions(tree.root_node))
        if not alone:  # its braces unbalanced by the arms of a conditional: as one build sees it
            tree, alone = fe.one_build(data, a, b, point, budget) or (tree, alone)
        if not alone:
            lost.add((q, a, b))
        elif [(name, n.end_byte) for name, n, _ in alone] != [(q, b)]:
            return None, None
        found += alone
        trees.append(tree)
    return sorted(found, key=lambda f: f[1].start_byte), lost


def parse_ranges(data: bytes, spans, relevant) -> list[tuple[int, int]]:
    """The byte ranges to parse: the functions worth lowering, those
    apart by blanks only in one range (the same tree: each range costs
    tree-sitter time of its own, and a file of many small functions
    parsed as thousands of ranges took twice its whole parse)."""
    ranges: list[tuple[int, int]] = []
    for a, b in sorted((a, b) for q, a, b, _ in spans if q in relevant):
        if ranges and not data[ranges[-1][1]:a].strip():
            ranges[-1] = (ranges[-1][0], b)
        else:
            ranges.append((a, b))
    return ranges


def partial_ok(found, spans, relevant) -> bool:
    """Whether the partial tree has the functions worth lowering where
    the bytes said they are."""
    return {(q, n.end_byte) for q, n, _ in found} == {(q, b) for q, a, b, _ in spans if q in relevant}


def choose(scan, spans, data: bytes, outside: frozenset = frozenset(), needed: frozenset = frozenset(),
           own: bool = True, option_only: frozenset = frozenset()) -> Relevance:
    """Which of the functions at `spans` (qualified name, start, end,
    class or None) are worth lowering, and what is known of the others.

    Every finding starts where a function may send or set an option (a
    start): worth lowering are the starts and the functions calling them
    (they may read after the call); then, to a fixpoint, the functions of
    the file called by any of these that may reach an event (one has an
    event, or calls by its bare name (or on the object itself) one of the file's that may: a
    factory, a read helper, and those in between), the constructors making
    a class runs where the class has events (its own or a base class's:
    `Response(sock)` may read in `__init__`, or in `super().__init__`),
    and those with events sharing a class with one (a constructor setting
    up fields).  A
    function that neither starts nor leads to a start is not lowered for
    calling one that was: nothing it does can start a finding.
    `outside`: functions of other files that send (calling one is a
    start); `needed`: names other files call (lowered when they have
    events; a class, its constructors as above); `own`: whether the file's own sends are starts;
    `option_only`: those of `outside` that set an option and send
    nothing.  In a file that cannot send (no send in its text, no call
    of an outside function that sends), a call of one of those starts
    nothing here: the functions making one, and their callers, are kept
    as `quiet` setters, lowered only where another file needs one or a
    function lowered calls one.
    Module-level code is always lowered.  Each pattern is matched once
    over the file; a match belongs to every function whose text holds it."""
    texts = FunctionTexts([(q, a, b) for q, a, b, _ in spans], data)
    classes = {q: c for q, _, _, c in spans if c is not None}
    with_events = texts.matching(scan.events_in(data))
    scan.through_members(texts, data, with_events)
    starts, quiet, quiet_options = _starts(scan, texts, data, with_events, outside, own, option_only)
    # The methods calling, on an object their class keeps, a method of another file that sends:
    # they send, as it were (see `Scanner.kept_starts`).
    kept = scan.kept_starts(data, spans, outside - option_only)
    starts |= kept
    with_events |= kept
    relevant = texts.calling(starts) | {q for q, _, _, _ in spans if n_is_root(q)}
    bases = scan.class_bases(data, set(classes.values())) if classes else {}
    constructors = _constructors(scan, spans, classes, bases, with_events)
    relevant |= _factories(texts, constructors, classes)
    relevant |= _keeping(kept, classes, constructors)
    makers = _makers(scan, texts, classes, with_events)
    reading = scan.reading(texts, with_events)
    if needed:
        relevant |= {q for q in with_events | reading | quiet | makers
                     if q in needed or short_name(q) in needed or classes.get(q) in needed}
        relevant |= {q for name in needed & constructors.keys() for q in constructors[name]}
    reaching = texts.calling(with_events, bare=True)
    inits = {q for q in classes if short_name(q) == scan.constructor}
    # A function that never returns ends its callers' paths: lowered where they call it.
    ending = scan.ending(texts)
    relevant = _closure(texts, relevant, reaching | quiet | ending, with_events, classes, bases, inits, constructors)
    left_out = set().union(*(c for q, c in texts.calls.items() if q not in relevant))
    quiet -= relevant
    # A constructor left out that making its class runs has events as much
    # as the class's methods do: a stub too, lowered where another file makes one;
    # so is a function reading through the file's functions it calls.
    made = set().union(*constructors.values())
    return Relevance(relevant, ((with_events | reading | made) - relevant) | quiet, left_out, frozenset(quiet),
                     frozenset(quiet_options) if quiet else frozenset(), frozenset(makers - relevant))


def _makers(scan, texts: FunctionTexts, classes: dict[str, str], with_events: set[str]) -> set[str]:
    """Where making an object runs no method (see `_constructors`), the functions making
    one of a class of the file with events (a factory's method handing the socket it is
    given to a handler's constructor): what that object keeps is told only where they are
    lowered (see `Choice.makers`)."""
    if scan.made_runs_constructors or not classes:
        return set()
    eventful = {short_name(classes[q]) for q in with_events if q in classes}
    return {q for name in eventful for q in texts.callers_of(name) if classes.get(q, "").rpartition(".")[2] != name}


def _keeping(kept: set[str], classes: dict[str, str], constructors: dict[str, set[str]]) -> set[str]:
    """The constructors of the classes of the `kept` methods: the object they keep tells
    which method those call."""
    return {init for q in kept for init in constructors.get(short_name(classes[q]), ())}


def _factories(texts: FunctionTexts, constructors: dict[str, set[str]], classes: dict[str, str]) -> set[str]:
    """The functions of no class that make an object of a class with events (see
    `_constructors`): each may be its factory (`return Transport(host)`), and what it
    returns is told only where it is lowered (see `Function.returns`)."""
    return {q for name in constructors for q in texts.callers_of(name) if q not in classes and "." not in q}


def _starts(scan, texts: FunctionTexts, data: bytes, with_events: set[str], outside: frozenset, own: bool,
            option_only: frozenset) -> tuple[set[str], set[str], set[str]]:
    """(the functions where a finding may start, the quiet setters, the
    option-only functions of other files those call): see `choose`."""
    starts = texts.matching(scan.starts_in(data), among=with_events) if own else set()
    if not outside:
        return starts, set(), set()
    starts |= _calling_any(texts, outside - option_only)
    setters = _calling_any(texts, option_only)
    if setters and not starts and not texts.matching(scan.send_calls):
        return starts, texts.calling(setters), set().union(*(texts.calls[q] for q in setters)) & option_only
    return starts | setters, set(), set()


def _calling_any(texts: FunctionTexts, names) -> set[str]:
    """The functions whose text calls one of `names`."""
    return {q for q, called in texts.calls.items() if not names.isdisjoint(called)}


def _constructors(scan, spans, classes: dict[str, str], bases: dict[str, tuple[str, ...]],
                  with_events: set[str]) -> dict[str, set[str]]:
    """Class (its short name) -> the constructors making one runs (its own
    and its base classes', `super().__init__(...)`), for the classes of
    the file with events in a method of theirs or of a base class."""
    if not scan.made_runs_constructors or not classes:
        return {}
    inits = {classes[q]: q for q, _, _, _ in spans if q in classes and short_name(q) == scan.constructor}
    eventful = {classes[q] for q in with_events if q in classes}
    made: dict[str, set[str]] = {}
    for cls in set(classes.values()):
        order = lineage(bases, cls)
        if eventful.intersection(order):  # two classes of one name (nested in others): a call may make either
            made.setdefault(short_name(cls), set()).update(inits[c] for c in order if c in inits)
    return made


def _closure(texts: FunctionTexts, relevant: set[str], leading: set[str], with_events: set[str],
             classes: dict[str, str], bases: dict[str, tuple[str, ...]], inits: set[str],
             constructors: dict[str, set[str]]) -> set[str]:
    """`relevant` and, to a fixpoint, those of `leading` a relevant function
    calls by their name, those with events sharing a class (or a base
    class of `bases`) with one, the constructors (of `inits`) of such a
    class that a relevant function calls (`new WordWriter(out)`): one keeps
    what it is given (`this.out = out`) for the methods, with no event of its own;
    and the `constructors` of the classes a relevant function makes (see `_constructors`)."""
    while True:
        called = set().union(*(texts.calls[q] for q in relevant))
        # A class's fields are set in its methods, in those of its base classes
        # and, for an inner class, in those of the classes around it (a prefix of its name).
        mates = {c.rsplit(".", n)[0] for q in relevant if q in classes for c in lineage(bases, classes[q])
                 for n in range(c.count(".") + 1)}
        more = {q for q in leading - relevant if short_name(q) in called}
        more |= {q for name in called & constructors.keys() for q in constructors[name] - relevant}
        more |= {q for q in with_events - relevant if classes.get(q) in mates}
        more |= {q for q in inits - relevant if classes[q] in mates and _made_elsewhere(texts, relevant, classes, q)}
        if not more:
            return relevant
        relevant |= more


def _made_elsewhere(texts: FunctionTexts, relevant: set[str], classes: dict[str, str], init: str) -> bool:
    """Whether a relevant function of another class makes an object of `init`'s class
    (`new WordWriter(..)`): one of its own (a copy, a builder's) keeps nothing new."""
    cls = classes[init]
    return any(short_name(cls) in texts.calls[q] for q in relevant if classes.get(q) != cls)


def short_name(qualname: str) -> str:
    return qualname.rsplit(".", 1)[-1]
