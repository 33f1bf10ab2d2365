"""The neutral model every frontend lowers into and every check reads.

A function is a tree of structured statements (`If`, `Loop`, `Try`, jumps) whose leaves are socket events.  There is one `Loop` for every kind of
loop in every language.  Events name connections by a key that is local to the
function; `Function.conns` says what is known about each key.  Every node keeps
its source position.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .site import Site

# A record of the model (and of the analyses made from it) is a value: compared
# and hashed by its fields, never changed once made (`dataclasses.replace` makes
# a changed copy).  It is not declared frozen: the methods a frozen dataclass
# generates cost a run on one file a tenth of its instructions (benchmarks/README.md).
record = dataclass(slots=True, unsafe_hash=True)


@record
class ConnInfo:
    """What is known about one connection key.

    `tcp` is False for things that have no Nagle (UDP, AF_UNIX, files,
    in-memory buffers), True when created or typed as TCP, None when unknown.
    `origin` is "created" when the function itself made the connection
    (socket(), accept(), new Socket ...), else "param", "field" or "unknown";
    "passed" for a parameter called as a function (`write` of `def
    relay(write, data)`): its events are a connection's only where a caller
    passes one of that connection's sends (`relay(sock.sendall, data)`);
    "either" for a member or global the file makes both without Nagle and
    otherwise (`AF_UNIX` on one platform, TCP on another): no use of it
    makes it surer.
    """

    name: str
    tcp: bool | None
    confidence: str
    origin: str = "unknown"
    # TCP_NODELAY is on without the code asking (asyncio transports, Netty
    # channels): split writes cost packets there, not a stall.
    nodelay: bool = False
    # The framework reads the peer's answer to each message written on it
    # (Helidon's HTTP connections): a split that ends the function waits.
    answered: bool = False
    # The framework gives it to the object's methods and writes what they send
    # on it once the method returns, all together (Twisted's transports): no
    # caller of a method can split those writes or read between them.
    held: bool = False


# --- events -----------------------------------------------------------------

# Payload sizes a frontend can tell from the code.
ONE = "one"  # a single byte or element
SMALL = "small"  # a short constant
UNKNOWN = "unknown"

# The name of an argument that unpacks any number of arguments (`*args`, `**options`).
UNPACKED = "*"


@record
class Send:
    """Data handed to the connection.

    `buffered`: it goes into a user-space buffer (BufferedOutputStream, a
    makefile('wb') writer, a stdio FILE) and leaves on the next `Flush`.
    `gather`: several pieces in one call (writev, sendmsg, ByteBuffer[]).
    `more`: the MSG_MORE flag (the kernel holds it for the next send).
    `partial`: the caller looks at how much was sent (`n = write(...)`): in a
    loop, the same call sends the rest of the same data, not a new piece.
    `rest`: its data or its count is worked out from what an earlier send on
    the connection returned (`send(fd, buf + n, len - n, 0)` after
    `n = send(fd, buf, len, 0)`): what that send left, not a new piece.
    `more_if`: (parameter, flag, own) where the flags come from the caller:
    MSG_MORE is set exactly where the call passes, for that parameter, flags
    naming `flag` (MORE_FLAG: MSG_MORE itself; None: any true value), either
    passed on to the send as they are (`own` False: a send wrapper's
    `send(fd, buf, n, flags)`) or turned into MSG_MORE by the function itself
    (`own` True: `if (flags & NET_F_MORE) sflags |= MSG_MORE;`,
    `if (more) sflags = MSG_MORE;`).  Where the call does not tell (a
    variable), a send passing the flags on sets nothing, and one the function
    gives MSG_MORE may hold the data or not: the code decides when more
    follows, and no finding is made of either.
    """

    conn: str
    site: Site
    size: str = UNKNOWN
    buffered: bool = False
    gather: bool = False
    more: bool = False
    partial: bool = False
    more_if: tuple[str, str | None, bool] | None = None
    rest: bool = False


# `Send.more_if`'s flag for MSG_MORE itself (or a name a file defines to it), and what
# `Call.flags` holds for it.
MORE_FLAG = "MSG_MORE"


@record
class Flush:
    conn: str
    site: Site


@record
class Recv:
    """A blocking read on the connection; `size` is how much it asks for,
    when the code says (ONE or SMALL: an acknowledgement, a status code)."""

    conn: str
    site: Site
    size: str = UNKNOWN


@record
class Push:
    """shutdown(SHUT_WR), shutdownOutput(), close(): held data leaves at once."""

    conn: str
    site: Site


@record
class Hold:
    """A variable that conditions test against states (a state machine's
    phase: a number or a constant's name, `if (p->phase == 3)`,
    `if (c->state == ST_AUTH)`) is given a state (`value`), changed by a
    number (`step`: `++p->phase`, `p->phase += 2`), or given anything else
    (both None)."""

    key: str
    value: int | str | None
    step: int | None
    site: Site


@record
class Pause:
    """Time passes (a sleep at least as long as the peer's delayed ACK), or
    the path goes on only with a message of full-size segments (which the
    peer acknowledges at once): what was sent before has been acknowledged,
    on every connection."""

    site: Site


@record
class Failed:
    """The branch taken because a send on `conn` failed (`if (send(...) < 0)`):
    the connection is broken, and what was sent before waits for nothing.
    `call`: the branch is taken because a call given `conn` failed
    (`if (net_write(c, ...) < 0)`, `n = net_write(c, ...); if (n < 1)`): the
    connections it worked on, `conn` and its members (`c->fd`), are broken
    or gave no answer, and what the function does then (a goodbye before it
    closes) is no part of its messages."""

    conn: str
    site: Site
    call: bool = False


@record
class SetOption:
    """A socket option change.  `option` is "nodelay" or "cork" (TCP_CORK and
    TCP_NOPUSH); `value` is True/False, or None when it cannot be told;
    `value_param` names the parameter the value comes from, if it does;
    `option_param` the parameter the option itself comes from, in a setter
    taking it (`set_tcp_option(fd, TCP_NODELAY, 1)`): `option` is then ""
    until a call tells which option it is (see `Call.options`).
    `comment` is the text of the comments on the option's line and the line
    above (a justification, if any, is judged by the check).

    What justifies the option by its nature, as the frontend tells it:
    `setting`: the user chooses it (the value, or the branch that sets it,
    comes from a setting named for the option: `if (conf->tcp_nodelay)`);
    `interactive`: the connection speaks an interactive protocol (SSH, X11,
    VNC, telnet), where each keystroke or event must leave at once;
    `tunnel`: the code hands both of the connection's streams to another
    layer (a tunnel, a relay, a proxied session), whose traffic it carries
    without knowing where its messages end;
    `local_pair`: the function makes a socket pair over loopback TCP (it
    connects a socket to the address another of its sockets is bound to,
    and accepts the other end), a stand-in for a pipe, whose bytes (a
    wake-up) must leave at once: no reason is needed, where no message is
    split on it."""

    conn: str
    option: str
    value: bool | None
    site: Site
    comment: str = ""
    value_param: str | None = None
    setting: bool = False
    interactive: bool = False
    tunnel: bool = False
    option_param: str | None = None
    local_pair: bool = False


@record
class Bind:
    """The key now names a new connection (assignment from socket()/accept()), or
    none (`dropped`: `sock = None`, a sentinel until the code connects again)."""

    conn: str
    site: Site
    # A sentinel, not a connection: what was sent before waits for nothing after, but the
    # socket options the code sets on what the name holds are its own, not the connection's.
    dropped: bool = False


@record
class Call:
    """A call to a function that may be defined in a linted file.
    `args[i]` is the connection key passed as parameter i, or None;
    `consts[i]` its truth when it is a constant (None otherwise);
    `receiver` the key of the object a method is called on (its fields are
    the callee's `self.`/`this.` fields); `names[i]` the name argument i is
    passed by (`noreply=False`), None when passed by position, UNPACKED
    when it stands for any number of them (`*args`, `**options`); no names:
    all are passed by position (see `binding`)."""

    callee: str
    args: tuple[str | None, ...]
    site: Site
    consts: tuple[bool | None, ...] = ()
    receiver: str | None = None
    result: str | None = None  # the key the returned connection is bound to (`s = connect()`)
    # For a call named for a socket option (`set_nodelay(fd)`), what justifies
    # it where it is made, as on `SetOption`: the comments near the call,
    # whether a setting named for the option decides it, whether the caller
    # speaks an interactive protocol.
    comment: str = ""
    setting: bool = False
    interactive: bool = False
    # What the call does where it names no function of the linted files, on
    # a connection known to be TCP: a wrapper known only by its name and its
    # arguments (`net_send(fd, buf, n)`), whose name alone is weak evidence.
    otherwise: tuple = ()
    names: tuple[str | None, ...] = ()
    # types[i]: the static type of positional argument i where the caller's
    # code tells it (`String` for a literal, a declared variable's type, `Cls.NAME`
    # for a static member), else None; none known: empty. A call of an
    # overloaded method is resolved by them (see `Project.resolve`).
    types: tuple[str | None, ...] = ()
    # classes[i]: the class of the object passed as positional argument i, where the
    # caller made it (`t` of `t = Transport(host)`), else None; none known: empty.
    # What a constructor keeps of it in a field tells that field's class (see `KEPT`).
    classes: tuple[str | None, ...] = ()
    # A constructor of another file's class made only with such objects (`MethodWriter(t)`):
    # it matters where the class's methods are called on the object, which names the class
    # to the later rounds already; by itself it is no reason to lower that file.
    keeps: bool = False
    # made[i]: the factory (a function of no class) whose result is passed as positional
    # argument i (`MethodWriter(self.transport)` after `self.transport = create_transport(..)`),
    # else None; none known: empty. The classes it returns are that argument's (see `classes`).
    made: tuple[str | None, ...] = ()
    # A call named for an option passing nothing this code knows as a connection
    # (`conn_nodelay(c)`): kept only so that the option's wrapper is judged where
    # it is called (see `comment`); it changes nothing the dataflow follows.
    judged_only: bool = False
    # options[i]: the socket option argument i names ("nodelay" for TCP_NODELAY),
    # for a setter whose option is its parameter (see `SetOption.option_param`);
    # none named: empty.
    options: tuple[str | None, ...] = ()
    # flags[i]: the names a flags argument i is made of where it is nothing but names joined by
    # `|` (`NET_F_MORE`, `MSG_MORE | MSG_NOSIGNAL`; MORE_FLAG for the file's names of MSG_MORE),
    # or the caller's own parameter's name where it passes that on as it was given (what its
    # caller passed decides then), else None; none told: empty. They decide a callee's
    # `Send.more_if`.
    flags: tuple[frozenset | str | None, ...] = ()


# --- structure --------------------------------------------------------------


CALL_RESULT = "()"  # `If.when`'s name for the result of the call just made (no parameter is named so)
HOLDS = "=="  # `If.when`'s (HOLDS, variable, state): the first branch runs exactly when the variable holds the state
# The variable `If.when` tests for `#ifdef NAME` is DEFINED + NAME: one per file, not per function, as the
# file is built one way (held 1 where defined, 0 where not).
DEFINED = "#defined "
# ... and for a test of whether connection KEY exists (`if (c->ssl)`, `if sock is not None`), EXISTS + KEY:
# held 1 where it does, 0 where not.
EXISTS = "#exists "


@record
class If:
    """Alternatives; when not `exhaustive`, control may also skip them all.
    A `switch`'s cases: a `Break` inside leaves the switch, not a loop.
    `when`: (parameter, truth) where the first branch runs exactly when the
    parameter's value has that truth (`if noreply:` is ("noreply", True),
    `if not noreply:` ("noreply", False)), or is None (`if noreply is None:`,
    ("noreply", None)); else the others run, or none.  A call that passes
    the parameter a constant (or leaves it its default) decides it.  Where
    the condition tests only the result of the call just made
    (`if (!poll_ok(fd)) return;`), `when` is (CALL_RESULT, truth): the
    first branch goes on from where the callee returned a value of that
    truth, the others from where it returned one of the other; where it
    compares that result with a constant (`if (auth(fd) != OK)`), `when` is
    (CALL_RESULT, operator, constant), the first branch going on from where
    the callee returned a value that meets the comparison.  Where it
    compares a variable with a state (`if (p->phase == 4)`), `when` is
    (HOLDS, variable, state), and `Hold`s say what the variable is given."""

    branches: tuple[tuple["Stmt", ...], ...]
    exhaustive: bool
    site: Site
    switch: bool = False
    when: tuple | None = None


@record
class Loop:
    """Every loop.  `head` runs before each iteration (a while condition);
    `body_first` for do-while.  `infinite` loops leave only by break/return.
    `varies` are the connection keys rebound on every iteration (the loop
    variable of `for c in clients`)."""

    head: tuple["Stmt", ...]
    body: tuple["Stmt", ...]
    site: Site
    infinite: bool = False
    body_first: bool = False
    varies: frozenset[str] = frozenset()
    # Those of `varies` an event loop hands out (`events[i].data.fd`): a later
    # pass may be given the same connection again.
    polled: frozenset[str] = frozenset()
    # Each pass sends one piece of the same data (a loop over a collection of
    # buffers: what one gathering write sends at once), not a message of its own.
    pieces: bool = False
    # The connections whose data, just read, the loop goes through (`for (i = 0; i < n; i++)`
    # after `n = read(fd, buf, ...)`): each pass handles what the peer sent, so what
    # different passes send answers different requests, as in a loop that reads.
    answers: frozenset[str] = frozenset()


@record
class Try:
    body: tuple["Stmt", ...]
    handlers: tuple[tuple["Stmt", ...], ...]
    orelse: tuple["Stmt", ...]
    final: tuple["Stmt", ...]
    site: Site
    # The body can fail before its first event: a statement with no event
    # (or a call no check follows) comes first.
    exposed: bool = True


@record
class Return:
    site: Site
    value: str | None = None  # the connection key returned (a factory), if any
    raised: bool = False  # an exception raised: an error path, not the function's end (no caller goes on)
    truth: bool | None = None  # the truth of the value returned, where a literal tells (`return FALSE;`)
    constant: int | str | None = None  # the constant returned (`-1`, or a name as the code spells it: `FAIL`), where one is
    of_call: bool = False  # the value returned is the result of the call just made (`return abort(c);`)


@record
class Break:
    site: Site


@record
class Continue:
    site: Site


Event = Send | Flush | Recv | Push | SetOption | Bind | Call
Stmt = Event | If | Loop | Try | Return | Break | Continue | Hold


@dataclass(slots=True)
class Function:
    """One function, method or module body.  `params[i]` is the connection
    key of parameter i (None when it is not a connection), which is its
    name where a language passes arguments by name."""

    qualname: str
    site: Site
    params: tuple[str | None, ...]
    body: tuple[Stmt, ...]
    conns: dict[str, ConnInfo] = field(default_factory=dict)
    # Named as a value somewhere (registered as a callback, stored in a
    # handler table): an event loop calls it, once per event.
    callback: bool = False
    path: str = ""  # the file it is in
    # The connection keys that name its local variables (a C static, a
    # global, a parameter or a field is none): bound anew at every call,
    # they are nothing to its callers.
    locals: frozenset = frozenset()
    # (field key, parameter) for each field it sets to a parameter (a constructor
    # keeping the connection it is given): on an object, that field is the argument.
    field_params: tuple = ()
    # (field key, local key) for each field it sets to a connection it holds in a local
    # (`s = socket(...); ...; self.sock = s`): an option set on the local is the field's.
    field_locals: tuple = ()
    # defaults[i]: the truth of parameter i's default when it is a constant
    # (`noreply=False`), else None.
    defaults: tuple[bool | None, ...] = ()
    # The parameters the body never rebinds (but to give one a value where
    # it is None): a constant passed for one holds all through the function.
    steady: frozenset = frozenset()
    # param_types[i]: the type parameter i is declared with, by its last name
    # (`byte[]`, `Word`), in a language with overloads; none known: empty.
    param_types: tuple[str | None, ...] = ()
    # The class of the objects it returns (`return Transport(host)`), where it makes
    # objects of one class to return: a factory (see `MADE_BY`).
    returns: str | None = None
    # The classes of the objects it returns where it makes objects of several classes to
    # return (a factory choosing a plain or a TLS transport by a setting), in order.
    returns_one_of: tuple[str, ...] = ()
    # (local, parameter) for each local pointer given a parameter where it is declared and
    # nothing else (`struct tcp_sock *self = (struct tcp_sock *)base;`): its members are the
    # parameter's, which are what the caller passed.
    aliases: tuple[tuple[str, str], ...] = ()
    # Defined under a condition where a language runs definitions as statements (Python's
    # `if sys.platform == "win32": def f(..)`): another definition of its name in the file may
    # be the one a run makes, so the two are alternatives (see `Project.builds`).
    conditional: bool = False

    def by_design(self, send: Send) -> bool:
        """Whether the send is made on a connection a framework makes with
        TCP_NODELAY on and buffers until a flush (Netty's channels): nothing
        stalls there, nor leaves until the flush."""
        info = self.conns.get(send.conn)
        return send.buffered and info is not None and info.nodelay

    def held(self, event) -> bool:
        """Whether the event (a send, an option set) is on a held connection (see `ConnInfo.held`)."""
        info = self.conns.get(event.conn)
        return info is not None and info.held


@dataclass(slots=True)
class FileModel:
    path: str
    language: str
    functions: list[Function]
    error_count: int = 0  # ERROR/MISSING nodes tree-sitter recovered from
    # How this language spells each fix ("join", "gather", "buffer", "cork"),
    # so that messages suggest code the reader can type.
    idioms: dict[str, str] = field(default_factory=dict)
    # The connections reached through a member (`peer->sd`) that some call of
    # the file named like a read takes, in any function (lowered or not): a
    # receive handler reads the peer's answers there.
    read_paths: frozenset[str] = frozenset()
    # Class -> its base classes defined in the file, in order: a subclass's
    # methods start with what its bases' methods set on their fields.
    bases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Class -> the types it extends or implements, by their last names,
    # wherever they are defined (an anonymous class under a name of its own):
    # a call through an interface or a base class of another file reaches
    # the methods of the project's classes (see `Project.resolve`).
    supertypes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # `Class.method` of the methods declared without a body (an interface's,
    # an abstract one), by the class's last name: a call of one runs another
    # class's (a function left unlowered has no body either, and is no such).
    abstract: frozenset[str] = frozenset()
    # A test's or a benchmark's source, by the language's conventions
    # (`Catalogue.test_source`): code that does not run in production.
    test_source: bool = False
    # The enums the file declares, by their last names: `Code.OPEN` passed to an
    # overloaded method is a `Code` (see `Call.types`).
    enums: frozenset[str] = frozenset()
    # Member -> the functions of the file that send or read themselves and that an
    # operations table of the file holds in it (`{ .send = tcp_send }`): a call
    # through that member in another file (`t->ops->send(...)`, see `THROUGH_MEMBER`)
    # may call each.
    op_tables: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Member -> the members holding the TLS sessions the file makes over the socket it holds
    # (`SSL_set_fd(fd->ssl_sock, fd->sock)`: `sock` -> (`ssl_sock`,)): a session writes on that
    # socket, so what is set on the socket (TCP_NODELAY) holds for the session's writes too.
    sessions: dict[str, tuple[str, ...]] = field(default_factory=dict)


# The callee of a method called on what a function returned (`t = make(); t.send(x)` calls
# `make().send`): that method of the class the function returns (`Function.returns`).
MADE_BY = "()."

# The callee of a call through a member (`t->ops->send(...)` calls `->send`): it runs one of
# the functions the operations tables of the linted files hold there (`FileModel.op_tables`).
THROUGH_MEMBER = "->"

# The callee of a method called on a field its class keeps from a parameter (`self.dest.write_frame(x)`
# in a class whose constructor keeps `self.dest = dest` calls `MethodWriter#self.dest#write_frame`): that
# method of the class of the objects the callers give for it (see `Call.classes`).
KEPT = "#"


def binding(call: Call, fn: Function) -> tuple[int | None, ...]:
    """For each parameter of `fn`, the index in `call.args` of the argument
    it is given: by name, else by position; None where it keeps its default
    or, past an unpacked argument (see `unpacks`), where it cannot be told."""
    if not call.names:
        n = len(call.args)
        return tuple(i if i < n else None for i in range(len(fn.params)))
    given: list[int | None] = [None] * len(fn.params)
    by_position = True
    for i, name in enumerate(call.names):
        if name == UNPACKED:
            by_position = False
            continue
        j = (i if by_position else -1) if name is None else fn.params.index(name) if name in fn.params else -1
        if 0 <= j < len(given):
            given[j] = i
    return tuple(given)


def passed(call: Call, fn: Function, param: str | None, values: tuple):
    """What `call` passes, among `values` (its args, constants or options), for `fn`'s `param`."""
    if param is None or param not in fn.params:
        return None
    i = binding(call, fn)[fn.params.index(param)]
    return values[i] if i is not None and i < len(values) else None


def unpacks(call: Call) -> bool:
    """Whether an argument of the call stands for any number of them: a
    parameter it gives none to may still be given one (not its default)."""
    return UNPACKED in call.names


def lineage(bases: dict[str, tuple[str, ...]], cls: str) -> list[str]:
    """`cls` and then its base classes of `bases`, depth first (the method
    order of single inheritance), each once."""
    order, todo = [], [cls]
    while todo:
        c = todo.pop()
        if c not in order:
            order.append(c)
            todo.extend(reversed(bases.get(c, ())))
    return order


def blocks(s) -> tuple:
    """The statement lists a statement holds, in source order (none: an event or a jump)."""
    if isinstance(s, If):
        return s.branches
    if isinstance(s, Loop):
        return s.head, s.body
    if isinstance(s, Try):
        return (s.body, *s.handlers, s.orelse, s.final)
    return ()


def walk(stmts):
    """Every statement, depth first, in source order."""
    for s in stmts:
        yield s
        for block in blocks(s):
            yield from walk(block)
