"""The one dataflow every check shares.

For each connection it follows, along every path of a function, what the
kernel has been handed since the peer last answered: how many separate
packets (0, 1, 2+), what sits in a cork or behind MSG_MORE, what sits
unflushed in a user-space buffer, and whether TCP_NODELAY is on.  States are
sets of possibilities (a may-analysis) joined at merges and iterated to a
fixpoint over loops.  Calls to functions of the same file are followed into
the callee (with its parameters bound to the caller's connections), so a
helper's effect applies where it is called.

The cost is polynomial in the size of the function, whatever its shape:
a loop entered again with a state that holds the one it was last entered
with starts from the fixpoint found then (with nested loops, starting each
inner loop from scratch on every pass of the outer one cost the product of
their passes); a `finally` block is followed once for the normal way out
and once for each kind of jump (return, break, continue), and inside the
latter a nested `finally` lets its jumps' connections start afresh;
calls are followed a bounded number of levels deep, and with the same state
at the same place once.  `Analysis.steps` counts the statements followed.
A deadline cuts the analysis (`Analysis.cut`): what was found until then
holds (each observation comes from a state the full analysis reaches too).

The analysis records observations; the rule modules decide what is a finding.
"""

from __future__ import annotations

import operator
import re
import time
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from ..model import (
    binding, blocks, lineage, passed, record, unpacks, walk,
    CALL_RESULT, DEFINED, EXISTS, HOLDS,
    Bind, Break, Call, ConnInfo, Continue, Failed, FileModel, Flush, Function, Hold, If, Loop,
    Pause, Push, Recv, Return, Send, SetOption, Site, Try,
)
from ..site import CONFIDENCES

MAX_CALL_DEPTH = 4
_READS_AND_CALLS = (Recv, Call)
_EFFECTS_AND_CALLS = (Send, Flush, Push, SetOption, Bind, Pause, Call)  # what tells whether a function is quiet
MAX_STATES_PER_CONN = 24
MAX_LOOP_ROUNDS = 12
# Statements one function's analysis may visit; past it, calls are no longer
# followed (bounded work on huge call graphs; an unknown call changes nothing).
MAX_VISITS = 40000
# How many `finally` blocks, one inside another's jumps, are followed for
# their jumps' states of their own (see `_Run.try_`).
MAX_JUMP_FINALLY = 1
# Statements followed between two looks at the clock.
CLOCK_EVERY = 512
_clock = time.monotonic  # the clock deadlines are told by


class Cut(Exception):
    """The analysis ran past its deadline."""


class Point(NamedTuple):
    """A site of file `path` reached through a chain of calls (`stack`: the
    call sites as (path, site), outermost first)."""

    site: Site
    stack: tuple[tuple[str, Site], ...] = ()
    path: str = ""


class ConnState(NamedTuple):
    units: tuple[Point, ...] = ()  # separate packets since the peer last answered (first two kept)
    held: Point | None = None  # first data held by a cork or MSG_MORE
    more: Point | None = None  # the latest MSG_MORE send still held
    corked: Point | None = None  # where the cork was put on
    dirty: Point | None = None  # first unflushed write into a user-space buffer
    nodelay: Point | None = None  # where TCP_NODELAY was turned on
    # The units were sent in an earlier pass of a loop that also reads this
    # connection: a read still pairs them, a new send starts a new message.
    carried: bool = False
    # What the path that led here gave the variables conditions test against states
    # (`Hold`): (variable, state), by variable; one not named may hold anything.
    holds: tuple[tuple[str, int | str], ...] = ()


EMPTY = ConnState()
# The state's entry for the path itself: what it gave the variables, where no connection
# has a state yet (its states carry `holds` only).
PATH = HOLDS
State = dict  # conn key -> frozenset[ConnState]


@record
class SplitRead:
    """Two separate sends, then a blocking read, on one connection."""

    conn: str
    info: ConnInfo
    first: Point
    second: Point
    read: Point
    nodelay: Point | None


@record
class SplitAtExit:
    """A function nobody in the file calls ends right after two separate sends."""

    conn: str
    info: ConnInfo
    first: Point
    second: Point
    # A read of the same connection in the function: called again for the
    # next request, the handler waits there (the event loop's back edge).
    next_read: Point | None = None
    callback: bool = False  # the function is registered with an event loop
    nodelay: Point | None = None  # where TCP_NODELAY was turned on
    end: Point | None = None  # the function that ends (its definition)


@record
class HeldData:
    """Data still corked (or behind MSG_MORE) at a read or at the function's end."""

    conn: str
    info: ConnInfo
    cork: Point | None
    more: Point | None
    held: Point
    at: Point
    at_read: bool


@dataclass(slots=True)
class Analysis:
    split_reads: set[SplitRead] = field(default_factory=set)
    split_exits: set[SplitAtExit] = field(default_factory=set)
    held: set[HeldData] = field(default_factory=set)
    # The best we know of the connection of each event's site, from any caller.
    info_at: dict[Site, ConnInfo] = field(default_factory=dict)
    project: object = None  # the Project the calls were resolved in
    steps: int = 0  # statements followed, in all (the analysis' cost, told without a clock)
    cut: bool = False  # the deadline came before the analysis ended: what is here holds, more may be missing


@dataclass(slots=True)
class _Flow:
    normal: State | None
    breaks: list[State] = field(default_factory=list)
    continues: list[State] = field(default_factory=list)
    returns: list[tuple[State, tuple]] = field(default_factory=list)  # with the value returned (see `_meets`)
    split: tuple | None = None  # ((state, value returned), ...): where the call just made returned what


@record
class _Frame:
    fn: Function
    keys: dict  # this function's connection keys -> the root function's keys
    stack: tuple[tuple[str, Site], ...]
    active: frozenset[int]  # ids of the functions being followed (no recursion)
    consts: dict = field(default_factory=dict)  # parameter -> truth of the constant passed
    receiver: str | None = None  # the root key of the object whose fields are self./this.
    returned: set = field(default_factory=set)  # root keys of the connections the function returns
    options: dict = field(default_factory=dict)  # parameter -> the socket option passed (see `Call.options`)
    # parameter -> (the flags' names passed or None, the truth of the constant passed or None,
    # the call that passed them): what decides a `Send.more_if`.
    flags: dict = field(default_factory=dict)


def class_of(qualname: str) -> str:
    return qualname.rsplit(".", 1)[0] if "." in qualname else ""


# A key that is a member of a variable: the variable, the separator, the rest (`c`, `->`, `fd`).
_MEMBER = re.compile(r"([A-Za-z_]\w*)(->|\.)(.+)$")


# A member's key split before its last member (`zh->fd->` and `sock` of `zh->fd->sock`).
_LAST_MEMBER = re.compile(r"(.+(?:->|\.))([A-Za-z_]\w*)$")


def member_of(key: str) -> str | None:
    """The variable whose member a key is (`c` of `c->fd` or `conn.sock`), or None."""
    member = _MEMBER.match(key)
    return member.group(1) if member else None


def _member_key(outer: str, rest: str) -> str:
    """The key of member `rest` (`->fd`) of the connection `outer` names (`&c` passed: `c.fd`)."""
    if outer.startswith("&") and rest.startswith("->"):
        return outer[1:] + "." + rest[2:]
    return outer + rest


def _param_part(fn: Function, key: str, index: dict):
    """What of `fn`'s own a key names: a parameter (its index), a member of one ((index, the
    member's rest)), a field (the key), or nothing (None)."""
    if key in index:
        return index[key]
    if is_field(key):
        return key
    member = _MEMBER.match(key)
    if member is None:
        return None
    var = member.group(1)
    if var not in index and fn.aliases:
        var = dict(fn.aliases).get(var, var)  # a local pointer given a parameter: the parameter
    return (index[var], member.group(2) + member.group(3)) if var in index else None


def is_field(key: str) -> bool:
    return key.startswith(("self.", "this.")) or key in ("self", "this")


def analyse(model: FileModel, project=None, deadline: float | None = None, runs=None) -> Analysis:
    """Run the dataflow from every function of the file; calls are followed
    into the functions of every file of `project` (by default, this one).
    `deadline` (time.monotonic()): past it, the analysis stops (`cut`).
    `runs`: what the runs of an earlier analysis of the file observed, kept
    for the next (an edited buffer's): `runs.get(fn, project, field_nodelay)`
    gives a function's, where its run would observe the same, or None;
    `runs.put(...)` keeps one (see lsp/index.py).  Each function's run
    observes on its own, and the observations are merged in the order of
    the functions (as one run after the other would have made them)."""
    from ..project import Project

    project = project or Project([model])
    result = Analysis(project=project)
    field_nodelay = _fields_with_nodelay(model)
    for key, (site, path, chosen) in project.handed_nodelay(model.path).items():
        field_nodelay.setdefault(key, (Point(site, (), path), chosen))
    shared = _Shared()
    for fn in model.functions:
        if project.may_find(fn):
            part = runs.get(fn, project, field_nodelay) if runs is not None else None
            if part is None:
                part = Analysis(project=project)
                try:
                    _Run(project, part, fn, project.is_entry(fn), field_nodelay, shared, deadline).run()
                except Cut:  # the next functions are still followed, each up to its first look at the clock
                    part.cut = True
                if runs is not None and not part.cut:
                    runs.put(fn, project, field_nodelay, part)
            _merge(result, part)
    return result


def _merge(result: Analysis, part: Analysis) -> None:
    result.split_reads |= part.split_reads
    result.split_exits |= part.split_exits
    result.held |= part.held
    for site, info in part.info_at.items():  # the surest, the first of those as sure (see `_Run.event`)
        known = result.info_at.get(site)
        if known is None or CONFIDENCES.index(info.confidence) > CONFIDENCES.index(known.confidence):
            result.info_at[site] = info
    result.steps += part.steps
    result.cut = result.cut or part.cut


def _fields_with_nodelay(model: FileModel) -> dict[tuple[str, str], tuple[Point, bool]]:
    """(class, field key) -> (where a method of that class turns TCP_NODELAY on,
    whether a user setting chooses it): the other methods start with it on.
    A member of a parameter (`c->fd` of `connect(struct conn *c)`) is the
    field of a struct: the file's functions that name it so start with it on. An option set
    on a local the method keeps in a field (`self.sock = s`) is set on the field."""
    found: dict[tuple[str, str], tuple[Point, bool]] = {}
    setters = {fn.qualname: fn for fn in model.functions}
    for fn in model.functions:
        kept = dict((local, field) for field, local in fn.field_locals)
        for conn, site, setting in _nodelay_turned_on(fn, setters):
            conn = kept.get(conn, conn)  # set on a local the method keeps in a field (`self.sock = s`)
            if is_field(conn) or member_of(conn) in fn.params:
                found.setdefault((class_of(fn.qualname), conn), (Point(site, (), model.path), setting))
    _over_sessions(found, model.sessions)
    for cls in model.bases:  # a subclass's methods start with what its base classes' methods set
        for base in lineage(model.bases, cls)[1:]:
            for (c, key), where in list(found.items()):
                if c == base:
                    found.setdefault((cls, key), where)
    return found


def _over_sessions(found: dict, sessions: dict[str, tuple[str, ...]]) -> None:
    """The TLS sessions made over the sockets `found` holds TCP_NODELAY for have it too: their
    records leave on that socket (see `FileModel.sessions`)."""
    for (c, key), where in list(found.items()):
        member = _LAST_MEMBER.match(key)
        for session in sessions.get(member.group(2), ()) if member else ():
            found.setdefault((c, member.group(1) + session), where)


def _options_passed(call: Call, callee: Function) -> dict[str, str]:
    """The callee's parameters the call gives a socket option (see `Call.options`)."""
    if not call.options:
        return {}
    given = ((param, passed(call, callee, param, call.options)) for param in callee.params if param)
    return {param: option for param, option in given if option}


def _flags_passed(call: Call, callee: Function, frame: _Frame, at: Point) -> dict:
    """The callee's parameters the call gives flags to tell a `Send.more_if` by (see
    `_Frame.flags`): named there (`NET_F_MORE`), a constant's truth, or the caller's own
    parameter passed on as it was given."""
    if not call.flags and not any(c is not None for c in call.consts):
        return {}
    found = {}
    for param, i in zip(callee.params, binding(call, callee)):
        if param is None or i is None:
            continue
        given = call.flags[i] if i < len(call.flags) else None
        truth = call.consts[i] if i < len(call.consts) else None
        if isinstance(given, str):
            if given in frame.flags and given in frame.fn.steady:
                found[param] = frame.flags[given]
        elif given is not None or truth is not None:
            found[param] = (given, truth, at)
    return found


def _nodelay_turned_on(fn: Function, setters: dict[str, Function]):
    """(connection key, site, whether a user setting chooses it) of each TCP_NODELAY
    `fn` turns on: itself, or by calling a setter of the file that takes the
    option (`set_tcp_option(c->fd, TCP_NODELAY, 1)`, see `SetOption.option_param`)
    or that turns it on for the connection it is given (`set_nodelay(zh, zh->fd->sock)`)."""
    for ev in walk(fn.body):
        if isinstance(ev, SetOption) and ev.option == "nodelay" and ev.value:
            yield ev.conn, ev.site, ev.setting
        elif isinstance(ev, Call) and ev.callee in setters:
            yield from _nodelay_by_setter(ev, setters[ev.callee])


def _nodelay_by_setter(call: Call, setter: Function):
    """What `_nodelay_turned_on` finds in one call of a setter of the file."""
    for opt in walk(setter.body):
        if not isinstance(opt, SetOption):
            continue
        value = opt.value if opt.value is not None else passed(call, setter, opt.value_param, call.consts)
        option = opt.option if opt.option_param is None else passed(call, setter, opt.option_param, call.options)
        conn = passed(call, setter, opt.conn, call.args)
        if option == "nodelay" and value and conn:
            # A setter taking the option is set where the call names it; a helper's own option is
            # judged where it is written, as where the helper is no setter of a member.
            yield conn, call.site if opt.option_param is not None else opt.site, call.setting or opt.setting


class _Shared:
    """What the runs of one file's functions work out once and share, by the
    id of a function or loop of the project (which holds them as long as
    the analysis runs): what a function reads, the reads and calls in a
    loop or a callee, a callee's local keys.  Made for each analysis:
    nothing outlives it."""

    __slots__ = ("reads", "loops", "locals", "objects", "quiet", "events", "handed", "order")

    def __init__(self):
        self.reads: dict = {}
        self.loops: dict[int, tuple] = {}
        self.locals: dict[int, frozenset] = {}
        self.objects: dict[str, dict[str, str]] = {}  # class -> `_objects_in_fields` of it
        self.quiet: dict = {}
        self.events: dict[tuple[int, tuple], tuple] = {}
        self.handed: dict[int, frozenset] = {}  # id of a function -> the keys its calls are given
        self.order = _Order()


class _Run:
    def __init__(self, project, result: Analysis, root: Function, is_entry: bool, field_nodelay, shared: _Shared,
                 deadline: float | None = None):
        self.project = project
        self.shared = shared
        self._reads = shared.reads
        self.order = shared.order
        self.memo: dict = {}
        # (loop, call stack) -> (the state it was last entered with, the state its passes started from then)
        self.loops: dict = {}
        self.jump_finally = 0  # `finally` blocks being followed for jumps, one inside another
        self.visits = 0
        self.deadline = deadline
        self.next_look = CLOCK_EVERY
        self.result = result
        self.root = root
        self.is_entry = is_entry
        self.infos: dict[str, ConnInfo] = dict(root.conns)
        self.field_nodelay = field_nodelay
        self.first_read: dict[str, Point] = {}
        self.fields: dict[str, str] = {}  # an object's field -> the connection its constructor was given

    def run(self) -> None:
        cls = class_of(self.root.qualname)
        state: State = {}
        for (c, key), (point, chosen) in self.field_nodelay.items():
            if c == cls:
                on = EMPTY._replace(nodelay=point)
                # A user setting may leave it off: both ways are possible.
                state[key] = frozenset({on, EMPTY} if chosen else {on})
        if cls:
            fields, infos = self.objects_in_fields(cls)
            self.fields.update(fields)
            for key, info in infos.items():
                self.infos.setdefault(key, info)
        frame = _Frame(self.root, {}, (), frozenset({id(self.root)}))
        flow = self.block(self.project.live_body(self.root), state, frame)
        end = _join_all([flow.normal, *(st for st, _ in flow.returns)], self.order)
        if end is not None:
            # A function called in its file ends where its caller goes on,
            # but its local variables end with it: they are checked here.
            self.at_exit(end if self.is_entry else {k: v for k, v in end.items() if k in self.root.locals})

    # -- helpers ---------------------------------------------------------

    def objects_in_fields(self, cls: str) -> tuple[dict[str, str], dict[str, ConnInfo]]:
        """`this.out.wrapped` -> `this.in`: a connection that a method of the
        class (a constructor) is given and keeps in fields of objects it keeps
        (`this.out = new WordStream(socket.getOutputStream())`, whose
        constructor keeps it as `this.wrapped`), and maybe in a field of its
        own (`this.in = socket.getInputStream()`): in every method of the
        class, those are the same connection (named by the class's field, or
        else by the parameter); and what is known of those named by a parameter."""
        found = self.shared.objects.get(cls)
        if found is None:
            fields, infos = {}, {}
            for fn in self.project.models[self.root.path].functions:
                if class_of(fn.qualname) != cls:
                    continue
                held = {param: field for field, param in fn.field_params}
                for s in walk(fn.body):
                    if not (isinstance(s, Call) and s.receiver is not None and is_field(s.receiver)):
                        continue
                    callee = self.project.resolve(fn, s.callee, len(s.args), s.types)
                    for field, param in callee.field_params if callee is not None else ():
                        arg = _arg_for(s, callee, param)
                        if arg in fn.params and "." in field:
                            name = held.get(arg) or _callee_key(fn, arg)
                            fields.setdefault(s.receiver + field[field.index("."):], name)
                            if arg not in held and arg in fn.conns:
                                infos[name] = fn.conns[arg]
            found = self.shared.objects[cls] = (fields, infos)
        return found

    def reads(self, caller: Function, call: Call, active: frozenset, depth: int = 0) -> set:
        """What the function a call runs reads from, itself or through its callees: its
        parameters (by index) and its object's fields (self./this. keys)."""
        fn = self.project.resolve(caller, call.callee, len(call.args), call.types)
        if fn is None or id(fn) in active or depth > MAX_CALL_DEPTH or not self.project.has_effects(fn):
            return set()
        memo = (id(fn), active, depth)  # asked again on every pass of every loop that makes the call
        found = self._reads.get(memo)
        if found is None:
            found = self._reads[memo] = self._reads_of(fn, active, depth)
        return found

    def _reads_of(self, fn: Function, active: frozenset, depth: int) -> set:
        """See `reads`: a parameter by its index, a member of one as (index, the member's
        rest: `->fd`), a field by its key."""
        index = {p: i for i, p in enumerate(fn.params) if p is not None}
        found = set()
        for e in self._events(fn, _READS_AND_CALLS):
            if isinstance(e, Recv):
                found.add(_param_part(fn, e.conn, index))
            elif isinstance(e, Call):
                reads = self.reads(fn, e, active | {id(fn)}, depth + 1)
                given = binding(e, self.project.resolve(fn, e.callee, len(e.args), e.types)) if reads else ()
                for r in reads:
                    if isinstance(r, str):
                        found.add(r)
                    else:
                        i, rest = r if isinstance(r, tuple) else (r, "")
                        if given[i] is not None and e.args[given[i]] is not None:
                            found.add(_param_part(fn, _member_key(e.args[given[i]], rest), index))
        found.discard(None)
        return found

    def _events(self, fn: Function, kinds: tuple) -> tuple:
        """The function's statements of `kinds`, in order, found once: what it reads, and
        whether it is quiet, are asked again for every call stack that reaches it."""
        known = self.shared.events
        if (id(fn), kinds) not in known:
            known[id(fn), kinds] = tuple(e for e in walk(fn.body) if isinstance(e, kinds))
        return known[id(fn), kinds]

    def local_keys(self, fn: Function) -> frozenset:
        """The keys a callee's local variables have in its caller's analysis
        (see `key`: a callee is never the function analysed)."""
        known = self.shared.locals.get(id(fn))
        if known is None:
            known = self.shared.locals[id(fn)] = frozenset(_callee_key(fn, k) for k in fn.locals)
        return known

    def loop_parts(self, loop: Loop) -> tuple:
        """(the connections a loop reads directly, the calls in it, whether its body
        reads directly, the calls in its body, the variables it gives numbers (see `Hold`))."""
        parts = self.shared.loops.get(id(loop))
        if parts is None:
            recvs, calls, held = [], [], set()
            for e in walk(loop.head + loop.body):
                if isinstance(e, Recv):
                    recvs.append(e.conn)
                elif isinstance(e, Call):
                    calls.append(e)
                elif isinstance(e, Hold):
                    held.add(e.key)
            body = tuple(walk(loop.body))
            parts = self.shared.loops[id(loop)] = (tuple(recvs), tuple(calls), any(isinstance(e, Recv) for e in body),
                                                   tuple(e for e in body if isinstance(e, Call)), frozenset(held))
        return parts

    def read_keys(self, frame: _Frame, call: Call, active: frozenset | None = None) -> set[str]:
        """The connections (as keys of this run) that a call reads, itself or through its
        callees; `active`: the functions running, whose calls are not followed (default: the frame's)."""
        reads = self.reads(frame.fn, call, frame.active if active is None else active)
        given = binding(call, self.project.resolve(frame.fn, call.callee, len(call.args), call.types)) if reads else ()
        found = set()
        for r in reads:
            if isinstance(r, str):  # a field of the object the method works on
                if call.receiver is None:
                    found.add(self.key(frame, r))
                else:
                    found.add(self.key(frame, call.receiver) + r[r.index("."):] if "." in r
                              else self.key(frame, call.receiver))
            else:
                i, rest = r if isinstance(r, tuple) else (r, "")
                if given[i] is not None and call.args[given[i]] is not None:
                    found.add(_member_key(self.key(frame, call.args[given[i]]), rest))
        return found

    def quiet(self, fn: Function, active: frozenset, depth: int = 0) -> bool:
        """Whether a function sends nothing, nor changes a connection, itself or through its callees."""
        memo = (id(fn), active, depth)
        found = self.shared.quiet.get(memo)
        if found is None:
            found = self.shared.quiet[memo] = self._quiet(fn, active | {id(fn)}, depth)
        return found

    def _quiet(self, fn: Function, active: frozenset, depth: int) -> bool:
        # What it does once a call given the connection failed (a goodbye before it
        # closes) is no message: a reader that says goodbye on a broken connection reads.
        known = self.shared.events
        if (id(fn), None) not in known:
            known[id(fn), None] = tuple(e for e in _on_normal_paths(fn.body) if isinstance(e, _EFFECTS_AND_CALLS))
        for e in known[id(fn), None]:
            if not isinstance(e, Call) or e.otherwise:
                return False
            callee = self.project.resolve(fn, e.callee, len(e.args), e.types)
            if callee is None or not self.project.has_effects(callee):
                continue
            if id(callee) in active or depth >= MAX_CALL_DEPTH or not self.quiet(callee, active, depth + 1):
                return False
        return True

    def key(self, frame: _Frame, k: str) -> str:
        if k in frame.keys:
            return frame.keys[k]
        if is_field(k) and frame.receiver is not None:
            # A method called on an object: its self./this. fields are the object's.
            mapped = frame.receiver + k[k.index("."):] if "." in k else frame.receiver
            if mapped in self.fields:
                return self.fields[mapped]
            if mapped not in self.infos and k in frame.fn.conns:
                info = frame.fn.conns[k]
                # A field known only by its name, reached through an object from
                # another function, is a guess on a guess.
                sure = info.confidence if info.origin == "created" or info.confidence == "high" else "low"
                self.infos[mapped] = ConnInfo(mapped, info.tcp, sure, info.origin, info.nodelay, info.answered)
            return mapped
        member = _MEMBER.match(k) if not is_field(k) else None
        var = member.group(1) if member is not None else None
        if var is not None and var not in frame.keys and frame.fn.aliases:
            var = dict(frame.fn.aliases).get(var, var)  # a local pointer given a parameter: the parameter
        if var is not None and var in frame.keys:
            # A member of a parameter (`c->fd` of `struct conn *c`): that member of what the caller passed.
            outer = frame.keys[var]
            mapped = (outer[1:] + "." if outer.startswith("&") and member.group(2) == "->" else outer + member.group(2)) \
                + member.group(3)
            if mapped not in self.infos and k in frame.fn.conns:
                self.infos[mapped] = frame.fn.conns[k]
            return mapped
        if frame.fn is self.root or is_field(k):
            if is_field(k) and k not in self.infos and k in frame.fn.conns:
                self.infos[k] = frame.fn.conns[k]
            return k
        mapped = _callee_key(frame.fn, k)
        if mapped not in self.infos and k in frame.fn.conns:
            self.infos[mapped] = frame.fn.conns[k]
        return mapped

    def carried(self, fn: Function, var: str) -> bool:
        """Whether what a test of `var` tells is carried along the path: a macro's, or whether
        a parameter, a member or a connection handed to a call exists; not whether a local
        that no call is given exists, which only its own later tests could use (each told
        value splits the paths' states)."""
        if not var.startswith(EXISTS):
            return True
        key = var[len(EXISTS):]
        if key in fn.params or _MEMBER.match(key):
            return True
        handed = self.shared.handed.get(id(fn))
        if handed is None:
            handed = frozenset(k for c in walk(fn.body) if isinstance(c, Call) for k in c.args if k)
            self.shared.handed[id(fn)] = handed
        return key in handed

    def held_key(self, frame: _Frame, k: str) -> str:
        """The key of a variable `If.when` tests: a macro is the same in every function of
        the file, whether a connection exists is about the caller's connection."""
        if k.startswith(DEFINED):
            return f"{frame.fn.path}:{k}"
        if k.startswith(EXISTS):
            return EXISTS + self.key(frame, k[len(EXISTS):])
        return self.key(frame, k)

    def info(self, key: str) -> ConnInfo:
        return self.infos.get(key) or ConnInfo(key, None, "low")

    def point(self, frame: _Frame, site: Site) -> Point:
        return Point(site, frame.stack, frame.fn.path)

    # -- statements ------------------------------------------------------

    def block(self, stmts, state: State | None, frame: _Frame) -> _Flow:
        flow = _Flow(state)
        self.visits += len(stmts)
        self.result.steps += len(stmts)
        if self.deadline is not None and self.visits >= self.next_look:
            self.next_look = self.visits + CLOCK_EVERY
            if _clock() > self.deadline:
                raise Cut()
        for s in stmts:
            if flow.normal is None:
                break
            self.stmt(s, flow, frame)
        return flow

    def stmt(self, s, flow: _Flow, frame: _Frame) -> None:
        st, split, flow.split = flow.normal, flow.split, None  # a call's split serves the statement after it
        if isinstance(s, Return):
            self.return_(s, flow, frame, split)
        elif isinstance(s, Break):
            flow.breaks.append(st)
            flow.normal = None
        elif isinstance(s, Continue):
            flow.continues.append(st)
            flow.normal = None
        elif isinstance(s, If):
            self.if_(s, flow, frame, split)
        elif isinstance(s, Loop):
            self.loop(s, flow, frame)
        elif isinstance(s, Try):
            self.try_(s, flow, frame)
        elif isinstance(s, Call):
            self.call(s, flow, frame)
        elif isinstance(s, Pause):
            flow.normal = _afresh(st)
        elif isinstance(s, Hold):
            flow.normal = _holding(st, self.key(frame, s.key), s, self.order)
        elif isinstance(s, Failed) and s.call:
            flow.normal = _broken(st, self.key(frame, s.conn))
        else:
            flow.normal = self.event(s, st, frame)

    def return_(self, s: Return, flow: _Flow, frame: _Frame, split: tuple | None) -> None:
        if s.value is not None:
            frame.returned.add(self.key(frame, s.value))
        if s.raised:  # a raise ends this path: the caller does not go on after the call
            pass
        elif s.of_call and split is not None:  # `return abort(c);`: what abort returned, from where
            flow.returns += [(part, value) for part, value in split if part is not None]
        else:
            flow.returns.append((flow.normal, (s.truth, s.constant)))
        flow.normal = None

    def if_(self, s: If, flow: _Flow, frame: _Frame, split: tuple | None) -> None:
        branches, exhaustive = s.branches, s.exhaustive
        starts = [flow.normal] * len(branches)
        skipped = flow.normal  # where control skips them all
        if s.when is not None and s.when[0] in frame.consts:  # decided by a constant the caller passed
            param, truth = s.when
            if truth is not None and frame.consts[param] == truth:
                branches, exhaustive = branches[:1], True
            else:  # (a constant is never None)
                branches = branches[1:]
        elif s.when is not None and s.when[0] == CALL_RESULT and split is not None:
            meets = [(st, _meets(s.when, value)) for st, value in split]
            first = _join_all([st for st, m in meets if m is not False], self.order)
            others = _join_all([st for st, m in meets if m is not True], self.order)
            starts, skipped = [first] + [others] * (len(branches) - 1), others
        elif s.when is not None and s.when[0] == HOLDS and flow.normal is not None \
                and self.carried(frame.fn, s.when[1]):
            first, others = _tested(flow.normal, self.held_key(frame, s.when[1]), s.when[2])
            starts, skipped = [first] + [others] * (len(branches) - 1), others
        outs = [self.block(b, start, frame) for b, start in zip(branches, starts)]
        normals = [o.normal for o in outs]
        if not exhaustive:
            normals.append(skipped)
        for o in outs:
            flow.returns += o.returns
            flow.continues += o.continues
            if s.switch:
                normals += o.breaks
            else:
                flow.breaks += o.breaks
        flow.normal = _join_all(normals, self.order)

    def loop(self, s: Loop, flow: _Flow, frame: _Frame) -> None:
        recvs, calls, reads_in_body, body_calls, held = self.loop_parts(s)
        # What the passes give a variable is not followed from pass to pass.
        varied = {self.key(frame, k) for k in held}
        entry = _forgetting(flow.normal, varied)
        x = entry
        # A loop that reads in its body (`while len(buf) < n: buf += recv()`)
        # is there to read: take it to run at least once, as a do-while.
        body_first = s.body_first or reads_in_body
        # One that reads through a helper (`for cmd in cmds: readline(sock)`)
        # is there to read too: it is left after a pass, never before the first.
        once = not body_first and not s.infinite and any(self.reads(frame.fn, e, frame.active) for e in body_calls)
        # Sends of different passes of a loop that reads the connection are
        # different messages (a relay, a conversation), not one split message.
        talks = {self.key(frame, k) for k in s.answers}
        for conn in recvs:
            talks.add(self.key(frame, conn))
        for e in calls:
            talks |= self.read_keys(frame, e)
        # Entered again with a state that holds the one it was entered with
        # last (the next pass of an enclosing loop), the loop's fixpoint holds
        # the one found then: its passes start from there.
        where = (id(s), frame.stack)
        last = self.loops.get(where)
        if last is not None and entry is not None and _holds(entry, last[0]):
            x = _join_all([entry, last[1]], self.order)
        fresh = {self.key(frame, k) for k in s.varies - s.polled}
        element = None  # where a pass leaves the connection it was given
        for _ in range(MAX_LOOP_ROUNDS):
            if body_first:
                body = self.block(s.body, x, frame)
                head = self.block(s.head, _join_all([body.normal, *body.continues], self.order), frame)
                back = head.normal
            else:
                head = self.block(s.head, x, frame)
                body = self.block(s.body, head.normal, frame)
                back = _join_all([body.normal, *body.continues], self.order)
            if back is not None and talks:
                back = _carry(back, talks)
            if back is not None and fresh:  # `clients[i]`, `c = c->next`: another connection each pass
                element, back = back, _fresh(back, fresh)
            nxt = _join_all([entry, _forgetting(back, varied)], self.order)
            if nxt == x:
                break
            x = nxt
        if entry is not None:
            self.loops[where] = (entry, x)
        exits = list(body.breaks)
        if once:
            exits.append(self.block(s.head, back, frame).normal if back is not None else None)
        elif not s.infinite:
            exits.append(head.normal)
        if element is not None:  # each element is left as its pass left it (read by a later loop over them)
            exits = [_with(e, element, fresh) if e is not None else None for e in exits]
        flow.returns += head.returns + body.returns
        flow.normal = _join_all(exits, self.order)

    def try_(self, s: Try, flow: _Flow, frame: _Frame) -> None:
        st = flow.normal
        body = self.block(s.body, st, frame)
        failed = self.failed(s, st, frame)
        # A handler runs instead of the body's normal end: it is an
        # alternative to the body, entered as the body was (what the body sent
        # before it failed is the error path's, no message's first piece), with
        # the read the body starts with done.
        outs = [self.block(s.orelse, body.normal, frame)] + [self.block(h, failed, frame) for h in s.handlers]
        normal = _join_all([o.normal for o in outs], self.order)
        groups = {
            "returns": body.returns + [r for o in outs for r in o.returns],
            "breaks": body.breaks + [r for o in outs for r in o.breaks],
            "continues": body.continues + [r for o in outs for r in o.continues],
        }
        if s.final:
            fin = self.block(s.final, normal, frame) if normal is not None else _Flow(None)
            normal = fin.normal
            flow.returns += fin.returns
            # The jumps go through the finally block too, each kind on its
            # own.  Inside a finally block followed for jumps, a nested one
            # does not follow its own (each level doubling the passes of the
            # next cost a power of their depth): their connections start
            # afresh, as after a read (no finding can come of what was sent
            # before).
            for name, states in groups.items():
                if name == "returns":  # each value returned on its own
                    parts = ((self.through_final(s, [st for st, v in states if v == value], frame), value)
                             for value in dict.fromkeys(v for _, v in states))
                    states[:] = [(after, value) for after, value in parts if after is not None]
                else:
                    after = self.through_final(s, states, frame)
                    states[:] = [after] if after is not None else []
        flow.normal = normal
        flow.returns += groups["returns"]
        flow.breaks += groups["breaks"]
        flow.continues += groups["continues"]

    def through_final(self, s: Try, states: list, frame: _Frame) -> State | None:
        """Where jumps of one kind, from these states, leave the try: after
        its finally block."""
        joined = _join_all(states, self.order)
        if joined is None:
            return None
        if self.jump_finally >= MAX_JUMP_FINALLY:
            return _afresh(joined)
        self.jump_finally += 1
        try:
            return self.block(s.final, joined, frame).normal
        finally:
            self.jump_finally -= 1

    def failed(self, s: Try, st: State | None, frame: _Frame) -> State | None:
        """The state a try's handlers are entered with: the body's entry state,
        but a body that starts by reading fails in or after that read, which
        waited for the peer (an error answer, a timeout, a closed connection):
        the connections it reads are answered."""
        first = s.body[0] if s.body and not s.exposed and st is not None else None
        if isinstance(first, Recv):
            keys = {self.key(frame, first.conn)}
        elif isinstance(first, Call):
            keys = self.read_keys(frame, first)
        else:
            return st
        return {k: _answered(v) if k in keys else v for k, v in st.items()}

    def call(self, s: Call, flow: _Flow, frame: _Frame) -> None:
        if s.judged_only:
            return
        callee = self.project.resolve(frame.fn, s.callee, len(s.args), s.types)
        if callee is not None:
            if callee.field_params and s.receiver is not None:
                self.keep_fields(callee, s, frame)
            self.call_into(callee, s, flow, frame)
            return
        builds = self.project.alternatives(frame.fn, s.callee, len(s.args), s.types)
        if builds:  # defined once per build (#ifdef/#else), or overloads: the call runs one of them
            # A program is built one way: each path runs the same definition at every call,
            # told apart as a variable the path holds (not so overloads, or a table's functions).
            built = f"{builds[0].path}:#built {s.callee}" if builds == self.project.builds(frame.fn, s.callee) else None
            # One running already is not what its own call runs again (an overload passing to another).
            builds = [fn for fn in builds if id(fn) not in frame.active] or builds
            rest, outs = flow.normal, []
            for i, fn in enumerate(builds):
                flow.normal, rest = _tested(rest, built, i) if built is not None else (rest, rest)
                if flow.normal is not None:
                    self.call_into(fn, s, flow, frame)
                outs.append(flow.normal)
                if rest is None:
                    break
            flow.normal, flow.split = _join_all(outs, self.order), None
        else:  # a wrapper known by its name: its events, on a connection known to be TCP
            for e in self.project.by_name(frame.fn, s):
                if self.info(self.key(frame, e.conn)).tcp:
                    self.stmt(e, flow, frame)

    def call_into(self, callee: Function, s: Call, flow: _Flow, frame: _Frame) -> None:
        if not self.project.has_effects(callee) or id(callee) in frame.active \
                or len(frame.stack) >= MAX_CALL_DEPTH or self.visits > MAX_VISITS:
            if self.project.never_returns(callee):  # `fatal("...")`: no path goes on after it
                flow.normal = None
            elif flow.normal is not None:
                # Running already (a call back into a loop that serves the connection), too
                # deep or too much work to follow, it may still read: what it reads is
                # answered, as after a read, lest a request sent before it and one sent
                # after it, each waiting for its reply down there, pass for one message.
                answered = self.read_keys(frame, s, frame.active - {id(callee)})
                if not answered.isdisjoint(flow.normal):
                    flow.normal = {k: _answered(v) if k in answered else v for k, v in flow.normal.items()}
            return  # otherwise an unknown call changes nothing we know
        keys, consts = {}, {}
        options = _options_passed(s, callee)
        flags = _flags_passed(s, callee, frame, self.point(frame, s.site))
        defaults = callee.defaults if callee.defaults and not unpacks(s) else _NONE * len(callee.params)
        for param, i, default in zip(callee.params, binding(s, callee), defaults):
            if param is None:
                continue
            if i is None:  # not given: its default, if a constant
                if default is not None:
                    consts[param] = default
                continue
            arg = s.args[i]
            if arg is not None:
                outer = self.key(frame, arg)
                keys[param] = outer
                self.infos[outer] = _stronger(self.info(outer), callee.conns.get(param))
            if i < len(s.consts) and s.consts[i] is not None:
                consts[param] = s.consts[i]
            elif arg in frame.consts and arg in frame.fn.steady:  # passed on as the caller was given it
                consts[param] = frame.consts[arg]
        # A method called on an object works on that object's fields; one
        # called on self keeps the caller's object.
        receiver = self.key(frame, s.receiver) if s.receiver is not None else frame.receiver
        # The same call, reached again with the same state (a loop's next
        # round), gives the same result.
        memo_key = (id(callee), s.site, frame.stack, receiver, tuple(sorted(keys.items())),
                    tuple(sorted(consts.items())), tuple(sorted(options.items())), tuple(sorted(flags.items())),
                    frozenset(flow.normal.items()))
        if memo_key not in self.memo:
            self.memo[memo_key] = self.followed(callee, s, flow.normal, frame, keys, consts, receiver, options, flags)
        after, returned, flow.split = self.memo[memo_key]
        if after is not None and self.quiet(callee, frame.active):
            # A function that only reads (a buffered reader) is a read to its
            # callers: where it returns without reading, it returns what an
            # earlier read of the same answer brought.  (Its reads report what
            # was sent before: they start from the same state.)
            answered = self.read_keys(frame, s)
            if not answered.isdisjoint(after):
                after, flow.split = {k: _answered(v) if k in answered else v for k, v in after.items()}, None
        if after is not None and s.result is not None and len(returned) == 1:
            # `s = connect()`: the connection the callee made (and set up) is now `s`.
            (made,) = returned
            target = self.key(frame, s.result)
            after, flow.split = dict(after), None
            if made in after:
                after[target] = after[made]
                if made != target and made in self.local_keys(callee):
                    del after[made]  # the callee's local ends with the call; the next call's is another
            info = self.info(made)
            self.infos[target] = ConnInfo(s.result, info.tcp, info.confidence,
                                          "created" if info.origin == "created" else info.origin, info.nodelay,
                                          info.answered)
        flow.normal = after

    def followed(self, callee: Function, s: Call, entry: State, frame: _Frame, keys: dict, consts: dict,
                 receiver: str | None, options: dict, flags: dict) -> tuple:
        """(the state after the call, the callee's keys of the connections
        it returns, ((state, value returned), ...) for each value it returns, or
        None where all are the same)."""
        inner = _Frame(callee, keys, frame.stack + ((frame.fn.path, s.site),), frame.active | {id(callee)},
                       consts, receiver, options=options, flags=flags)
        out = self.block(self.project.live_body(callee), entry, inner)
        ends = [(out.normal, _UNTOLD_VALUE), *out.returns]
        # Where it returned each value, for a caller testing the result.
        values: dict[tuple, list] = {}
        for st, value in ends:
            values.setdefault(value, []).append(st)
        # The callee's local variables end with the call (its own
        # analysis checks them at its end), but for the one it returns; so
        # do the parameters the call gives a constant (`retry(c, -1)`):
        # none of the caller's connections, what the callee makes of them
        # is its own (another call's is another connection).
        ended = self.local_keys(callee) if callee.locals else frozenset()
        if consts.keys() - keys.keys():
            ended |= {_callee_key(callee, p) for p in consts.keys() - keys.keys()}
        ended -= inner.returned
        after = _without(_join_all([st for st, _ in ends], self.order), ended)
        if len(values) == 1:  # it returns one value (or none known): that join is the whole one
            return after, frozenset(inner.returned), None
        split = tuple((_without(_join_all(sts, self.order), ended), value) for value, sts in values.items())
        return after, frozenset(inner.returned), split if any(st != split[0][0] for st, _ in split) else None

    def keep_fields(self, callee: Function, s: Call, frame: _Frame) -> None:
        """`Client(sock)` keeping `sock` as `self.sock`: the object's field is
        the connection passed, in every method called on it."""
        receiver = self.key(frame, s.receiver)
        for field, param in callee.field_params:
            arg = _arg_for(s, callee, param)
            if arg is not None and "." in field:
                self.fields[receiver + field[field.index("."):]] = self.key(frame, arg)

    # -- events ----------------------------------------------------------

    def event(self, ev, state: State, frame: _Frame) -> State:
        key = self.key(frame, ev.conn)
        info = self.info(key)
        known = self.result.info_at.get(ev.site)
        if known is None or CONFIDENCES.index(info.confidence) > CONFIDENCES.index(known.confidence):
            self.result.info_at[ev.site] = info
        if info.tcp is False or info.origin == "passed":  # passed: no caller gave it a connection's send
            return state
        p = self.point(frame, ev.site)
        if isinstance(ev, SetOption) and ev.option_param is not None:
            if ev.option_param not in frame.options:
                return state  # an option no call named: not one that matters here
            # The call naming the option is where it is set (`set_tcp_option(fd, TCP_NODELAY, 1)`).
            ev = replace(ev, option=frame.options[ev.option_param])
            (path, site), stack = frame.stack[-1], frame.stack[:-1]
            p = Point(site, stack, path)
        if isinstance(ev, SetOption) and ev.value is None and ev.value_param in frame.consts:
            ev = replace(ev, value=frame.consts[ev.value_param])
        if isinstance(ev, Send) and ev.more_if is not None:
            ev, p = _more_passed(ev, frame, p)
        before = state[key] if key in state else _fresh_states(state)
        after = set()
        for cs in before:
            after.add(self.transfer(ev, cs, p, key))
        new = dict(state)
        new[key] = _bounded(after, self.order)
        return new

    def transfer(self, ev, cs: ConnState, p: Point, key: str) -> ConnState:
        if isinstance(ev, Send):
            if ev.buffered:
                return cs if cs.dirty else cs._replace(dirty=p)
            if cs.units and (ev.rest or ev.partial and cs.units[-1] == p):
                return cs  # the rest of the same data: a retry loop, or what a send left
            if cs.carried:
                cs = cs._replace(units=(), carried=False)
            if ev.more_if is not None:  # MSG_MORE or not, as the code decides when more follows
                return cs._replace(held=cs.held or p, more=None)
            return _send(cs, p, ev.more)
        if isinstance(ev, Flush):  # the buffered data leaves here
            if not cs.dirty:
                return cs
            if cs.carried:
                cs = cs._replace(units=(), carried=False)
            return _send(cs._replace(dirty=None), p, False)
        if isinstance(ev, Recv):
            self.at_read(key, cs, p)
            return cs._replace(units=(), held=None, more=None, carried=False)
        if isinstance(ev, (Push, Failed)):
            return EMPTY._replace(nodelay=cs.nodelay, holds=cs.holds)
        if isinstance(ev, Bind):  # a sentinel keeps the option the code sets on what the name holds
            return EMPTY._replace(nodelay=cs.nodelay if ev.dropped else None, holds=cs.holds)
        if isinstance(ev, SetOption):
            if ev.value is None:
                return cs
            if ev.option == "nodelay":
                return cs._replace(nodelay=p if ev.value else None)
            if ev.option == "cork":
                if ev.value:
                    return cs if cs.corked else cs._replace(corked=p)
                released = cs._replace(corked=None, held=None, more=None)
                return _add_unit(released, cs.held) if cs.held else released
        return cs

    def at_read(self, key: str, cs: ConnState, p: Point) -> None:
        if key not in self.first_read or p.site < self.first_read[key].site:
            self.first_read[key] = p
        info = self.info(key)
        if len(cs.units) >= 2:
            self.result.split_reads.add(SplitRead(key, info, cs.units[0], cs.units[1], p, cs.nodelay))
        if cs.held:
            self.result.held.add(HeldData(key, info, cs.corked, cs.more, cs.held, p, True))

    def at_exit(self, state: State) -> None:
        end = Point(self.root.site, (), self.root.path)
        for key, states in state.items():
            info = self.info(key)
            for cs in states:
                if len(cs.units) >= 2 and info.origin != "created":
                    self.result.split_exits.add(SplitAtExit(key, info, cs.units[0], cs.units[1], self.first_read.get(key),
                                                            self.root.callback, cs.nodelay, end))
                if cs.held:
                    self.result.held.add(HeldData(key, info, cs.corked, cs.more, cs.held, end, False))


_UNTOLD = (None, None, None)

# A value returned, as `(truth, constant)` (see `Return`): the end of a function's body returns
# one nothing tells of.
_UNTOLD_VALUE = (None, None)
_COMPARISONS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
                ">": operator.gt, ">=": operator.ge}


def _meets(when: tuple, value: tuple) -> bool | None:
    """Whether a value returned meets the test `If.when` makes of the call's result, where
    that is told: its truth, or its comparison with a constant.  Numbers compare as numbers;
    two names are the same value only where they are the same name."""
    truth, constant = value
    if len(when) == 2:
        return None if truth is None else truth == when[1]
    _, op, tested = when
    if isinstance(constant, int) and isinstance(tested, int):
        return _COMPARISONS[op](constant, tested)
    if op in ("==", "!=") and isinstance(constant, str) and isinstance(tested, str):
        return (constant == tested) == (op == "==")
    return None


def _more_passed(ev: Send, frame: _Frame, p: Point) -> tuple[Send, Point]:
    """A send whose MSG_MORE comes from the caller (`Send.more_if`): with MSG_MORE where the
    flags passed name its flag (or the constant passed is true, for a flag of no name), and
    then held from the call that passed them, which the caller could have passed without;
    a plain send where they tell it is not; else as it was lowered (see `_send`)."""
    param, flag, own = ev.more_if
    names, truth, at = frame.flags.get(param, _UNTOLD) if param in frame.fn.steady else _UNTOLD
    more = (flag in names) if flag is not None and names is not None else truth if flag is None else None
    if more:
        return replace(ev, more=True, more_if=None), at
    if more is False or not own:
        return replace(ev, more_if=None), p
    return ev, p


def _broken(state: State, key: str) -> State:
    """The state where a call given connection `key` failed (see `Failed.call`): nothing sent
    before on it, or on a member of it, waits for an answer any more."""
    base = key[1:] if key.startswith("&") else key
    members = (base + "->", base + ".")
    return {**state, **_afresh({k: v for k, v in state.items() if k == key or k.startswith(members)})}


def _on_normal_paths(stmts):
    """Every statement, depth first, in source order, but those of a branch taken because a
    call failed (see `Failed.call`): an if's, or a handler's of the failure."""
    for s in stmts:
        yield s
        for block in blocks(s):
            if not (isinstance(s, (If, Try)) and _after_failed_call(block)):
                yield from _on_normal_paths(block)


def _after_failed_call(block: tuple) -> bool:
    for s in block:
        if not isinstance(s, Failed):
            return False
        if s.call:
            return True
    return False


def _holds(big: State, small: State) -> bool:
    """Whether every state `small` allows, `big` allows too."""
    return all(small.get(k, _EMPTY_SET) <= big.get(k, _EMPTY_SET) for k in big.keys() | small.keys())


def _without(state: State | None, keys) -> State | None:
    """The state but for these connections (ended)."""
    if state is None or keys.isdisjoint(state):
        return state
    return {k: v for k, v in state.items() if k not in keys}


def _afresh(state: State) -> State:
    """Every connection as after a read that also ends any cork: nothing
    sent before counts (but TCP_NODELAY stays as it was)."""
    return {k: frozenset(EMPTY._replace(nodelay=cs.nodelay, holds=cs.holds) for cs in v) for k, v in state.items()}


def _fresh_states(state: State) -> frozenset:
    """The states of a connection nothing was sent on yet: one for each thing the paths here
    may have given the variables (see `ConnState.holds`)."""
    path = state.get(PATH)
    return frozenset(ConnState(holds=cs.holds) for cs in path) if path else _EMPTY_SET


def _holding(state: State, var: str, s: Hold, order: _Order) -> State:
    """The state after `s` gives the variable `var` a number, changes it, or gives it anything."""
    def given(cs: ConnState) -> ConnState:
        held = dict(cs.holds)
        old = held.pop(var, None)
        value = s.value if s.value is not None else old + s.step if isinstance(old, int) and s.step is not None else None
        if value is not None:
            held[var] = value
        return cs._replace(holds=tuple(sorted(held.items())))
    out = {k: _bounded({given(cs) for cs in v}, order) for k, v in state.items()}
    if PATH not in out and s.value is not None:
        out[PATH] = frozenset({EMPTY._replace(holds=((var, s.value),))})
    return out


def _tested(state: State, var: str, value: int | str) -> tuple[State | None, State | None]:
    """(the state where the variable holds `value`, where it holds another): each
    connection's states split by what their paths gave it (a state whose path gave it
    nothing told goes both ways, told `value` on the first); None where no path can."""
    def holds(cs: ConnState) -> int | str | None:
        return next((v for k, v in cs.holds if k == var), None)
    first, others = {}, {}
    for k, v in state.items():
        one, two = set(), set()
        for cs in v:
            told = holds(cs)
            if told is None:
                one.add(cs._replace(holds=tuple(sorted(cs.holds + ((var, value),)))))
                two.add(cs)
            elif told == value:
                one.add(cs)
            else:
                two.add(cs)
        if one:
            first[k] = frozenset(one)
        if two:
            others[k] = frozenset(two)
    if PATH in state:  # the path itself tells whether it can go either way
        return (first if PATH in first else None), (others if PATH in others else None)
    first[PATH] = frozenset({EMPTY._replace(holds=((var, value),))})
    return first, others


def _forgetting(state: State | None, variables: set[str]) -> State | None:
    """The state, forgetting what the paths gave these variables."""
    if state is None or not variables or PATH not in state:
        return state
    def forgot(cs: ConnState) -> ConnState:
        return cs._replace(holds=tuple(h for h in cs.holds if h[0] not in variables)) if cs.holds else cs
    return {k: frozenset(forgot(cs) for cs in v) for k, v in state.items()}


def _answered(states: frozenset) -> frozenset:
    """The states of a connection as after a read."""
    return frozenset(cs._replace(units=(), held=None, more=None, carried=False) for cs in states)


def _carry(state: State, keys: set[str]) -> State:
    out = dict(state)
    for k in keys:
        if k in out:
            out[k] = frozenset(cs._replace(carried=True) if cs.units else cs for cs in out[k])
    return out


def _fresh(state: State, keys: set[str]) -> State:
    out = dict(state)
    for k in keys & out.keys():
        out[k] = frozenset(EMPTY._replace(holds=cs.holds) for cs in out[k]) or _EMPTY_SET
    return out


def _with(state: State, other: State, keys: set[str]) -> State:
    """`state`, where `keys` may also be as in `other`."""
    out = dict(state)
    for k in keys & other.keys():
        out[k] = (out[k] if k in out else _fresh_states(state)) | other[k]
    return out


def _send(cs: ConnState, p: Point, more: bool) -> ConnState:
    if cs.corked or more:
        return cs._replace(held=cs.held or p, more=p if more else cs.more)
    if cs.held:  # the held pieces leave together with this one
        return _add_unit(cs._replace(held=None, more=None), cs.held)
    return _add_unit(cs, p)


def _add_unit(cs: ConnState, p: Point) -> ConnState:
    return cs if len(cs.units) >= 2 else cs._replace(units=cs.units + (p,))


_NONE = (None,)


def _arg_for(call: Call, fn: Function, param: str) -> str | None:
    """The connection key of the argument `call` gives `fn`'s parameter `param`, if any."""
    if param not in fn.params:
        return None
    i = binding(call, fn)[fn.params.index(param)]
    return call.args[i] if i is not None else None


def _callee_key(fn: Function, k: str) -> str:
    """The key, in the analysis of another function, of a connection a
    called function names `k` that is none of its parameters or fields."""
    return f"{fn.path}:{fn.qualname}::{k}"


def _order(cs: ConnState):
    # Each field, with () for None (a Point is a non-empty tuple), so that any two compare;
    # a held state by its repr (a member holds a number on one path, a constant's name on another).
    # One flat tuple, ordered as the nested one it spells out (each part before the held states
    # has a fixed length, each held state is a pair): the states sorted past the bound mostly
    # differ only in those, and a comparison of nested tuples walks the equal fields once a level.
    units, held, more, corked, dirty, nodelay, carried, holds = cs
    return (-len(units), held is None, units, held or (), more or (), corked or (), dirty or (), nodelay or (),
            carried, *(part for name, state in holds for part in (name, repr(state))))


class _Order(dict):
    """A connection's state -> its `_order`, worked out where first asked for: the same few
    states come back at join after join that passes the bound (curl at --min-confidence low:
    205,440 sorted, 6,668 distinct).  Kept by one analysis, so nothing outlives a run."""

    def __missing__(self, cs: ConnState):
        key = self[cs] = _order(cs)
        return key


def _bounded(states: set, order: _Order) -> frozenset:
    if len(states) <= MAX_STATES_PER_CONN:
        return frozenset(states)
    # Keep the states that can still prove something; drop the rest in an order
    # that does not depend on hashing (output must be the same on every run).
    return frozenset(sorted(states, key=order.__getitem__)[:MAX_STATES_PER_CONN])


_EMPTY_SET = frozenset({EMPTY})


def _join_all(states, order: _Order) -> State | None:
    """The states joined (`order`: see `_bounded`)."""
    live = [s for s in states if s is not None]
    if not live:
        return None
    first = live[0]
    if all(s is first for s in live):
        return first
    # A connection a state lacks stands for its fresh states: made once a join, not once a key.
    if len(live) == 2:  # most joins: the two ways around an `if`
        other, out = live[1], {}
        keys = first.keys() | other.keys()
        fresh_first = _fresh_states(first) if len(first) < len(keys) else None
        fresh_other = _fresh_states(other) if len(other) < len(keys) else None
        for k in keys:
            one = first.get(k, fresh_first)
            two = other.get(k, fresh_other)
            out[k] = one if one is two or one == two else _bounded(one | two, order)
        return out
    out = {}
    keys = set().union(*live)
    fresh = [_fresh_states(s) if len(s) < len(keys) else None for s in live]
    for k in keys:
        sets = [s.get(k, f) for s, f in zip(live, fresh)]
        one = sets[0]
        out[k] = one if all(x is one or x == one for x in sets) else _bounded(set().union(*sets), order)
    return out


def _stronger(outer: ConnInfo, inner: ConnInfo | None) -> ConnInfo:
    """The caller's connection, with what the callee's declaration adds (a typed parameter)."""
    if inner is None or outer.origin == "either":
        return outer
    if inner.origin == "passed" and outer.tcp is not True and outer.confidence == "low":
        return ConnInfo(outer.name, outer.tcp, outer.confidence, "passed")  # a function value, not a connection's send
    if outer.tcp is False or inner.tcp is False:
        return outer if outer.tcp is False else inner
    if CONFIDENCES.index(inner.confidence) > CONFIDENCES.index(outer.confidence):
        return ConnInfo(outer.name, outer.tcp if outer.tcp is not None else inner.tcp, inner.confidence, outer.origin,
                        outer.nodelay or inner.nodelay, outer.answered or inner.answered)
    return outer
