"""A language's socket knowledge, as data.

Each language keeps one `Catalogue` (e.g. `python_catalogue.PYTHON`): the
names of the calls that send, read, flush, wrap or make a connection, the
options that matter, and what library calls do.  The frontend lowers calls
by looking them up here, and the byte scan (the prefilter that skips files
and functions before any parse) builds its words and patterns from the same
entries, so an idiom is never known in one place and forgotten in the other.
Adding an idiom is one entry here, plus a fixture that fails without it.

Names are as the code writes them: a method's name (`sendall`), a
function's (`send`, `SSL_write`), or a dotted call (`io.BytesIO`), as each
field says.  Where a call's connection is an argument (C's `send(fd, ...)`)
rather than its receiver (Python's `sock.send(...)`), it is the first one
unless `connection_argument` says otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from pathlib import PurePath
from types import MappingProxyType


# A message at least this long (some 45 segments of ~1448 bytes) leaves in
# full-size segments but for its tail, and the peer acknowledges every second
# one: what was sent before it waits for no delayed ACK.  The same in every language.
FULL_SIZE = 65536


def _frozen(mapping) -> MappingProxyType:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Step:
    """One effect of a library call on its connection, in order.

    `event`: "buffer" (the bytes wait in the library's buffer), "send" (a
    send of its own: a segment on the wire), "flush" (the buffer goes out as
    one send), "read" (blocks for the peer's answer).  `arg`/`keyword`: the
    step happens only when that argument is given (its index among the
    positional arguments, or its keyword) and is not a literal None; both
    None: always."""

    event: str
    arg: int | None = None
    keyword: str | None = None


@dataclass(frozen=True)
class Library:
    """A library object that owns a TCP connection and sends through calls of
    its own (`http.client.HTTPConnection`).  `name`: what messages call it;
    `makers`: the calls that create one (as written: `HTTPConnection`,
    `http.client.HTTPConnection`); `methods`: method name -> its steps, in
    order (see `Step`; a method not listed does nothing to the connection);
    `own_methods`: those no other object has: whatever one is called on in a
    file is such an object there.

    A framework's request handler is such an object too, in a class of its
    own: `bases`, the framework's classes (by their last name) that make a
    subclass one, whose methods called on the object itself (`self`) are the
    library's, on the connection `through` holds (a field the framework
    fills); `requests`, the prefix of the methods the framework calls once
    for each request it has read; `keep_alive`, the class attribute and
    value (as written) under which it reads the next request on the same
    connection after the answer (else it closes the connection, and closing
    sends what Nagle held)."""

    name: str
    makers: frozenset[str]
    methods: MappingProxyType  # str -> tuple[Step, ...]
    own_methods: frozenset[str]
    bases: frozenset[str]
    through: str | None
    requests: str | None
    keep_alive: tuple[str, str] | None

    def __init__(self, name, makers, methods, own_methods=(), bases=(), through=None, requests=None,
                 keep_alive=None):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "makers", frozenset(makers))
        object.__setattr__(self, "methods", _frozen((k, tuple(v)) for k, v in methods.items()))
        object.__setattr__(self, "own_methods", frozenset(own_methods))
        object.__setattr__(self, "bases", frozenset(bases))
        object.__setattr__(self, "through", through)
        object.__setattr__(self, "requests", requests)
        object.__setattr__(self, "keep_alive", keep_alive)


@dataclass(frozen=True)
class FrameworkProtocol:
    """A framework's protocol class (asyncio's, Twisted's; `name`): a class that defines
    every method of `marks`, in a file naming `module` (any file when None), is
    one.  The framework gives its methods the connection in the field `field`
    and calls `reads` with data it read.  `buffered`: writes on the field wait
    in the framework's buffer until the method returns to the framework, which
    writes them together (the connection is `held`, see `model.ConnInfo`);
    `nodelay`: the framework turns Nagle off itself."""

    name: str
    marks: frozenset[str]
    field: str
    reads: frozenset[str]
    buffered: bool = False
    nodelay: bool = False
    module: str | None = None

    def __init__(self, name, marks, field, reads, buffered=False, nodelay=False, module=None):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "marks", frozenset(marks))
        object.__setattr__(self, "field", field)
        object.__setattr__(self, "reads", frozenset(reads))
        object.__setattr__(self, "buffered", buffered)
        object.__setattr__(self, "nodelay", nodelay)
        object.__setattr__(self, "module", module)


@dataclass(frozen=True)
class Conversions:
    """How a language with overloads passes an argument to a parameter of
    another type (see `Project.resolve`): `widening`, primitive type -> the
    types it widens to; `boxes`, primitive type -> its box; `root`, the type
    every object is; `strings`, the string type and then the types it is."""

    widening: dict[str, tuple[str, ...]]
    boxes: dict[str, str]
    root: str
    strings: tuple[str, ...]


@dataclass(frozen=True)
class Catalogue:
    """What one language's calls do to TCP connections.

    Calls made on (or with) a connection:
      sends          send their payload at once: each call is a segment
                     (`send`, `sendall`, C's `write`).
      gather_sends   send several buffers in one call (`sendmsg`, `writev`).
      file_sends     send a file's content (`sendfile`): big, never small.
      reads          block until the peer's data arrives (`recv`, `read`).
      gather_reads   reads into several buffers (C's `readv`, `recvmsg`).
      stream_writes  writes on a stream object (a file-like wrapper): a send
                     when the stream is unbuffered, held until a flush when
                     it buffers.
      stream_reads   reads on a stream object.
      one_byte_writes  stream writes of one byte (a character) per call.
      flushes        send what a buffered stream holds.
      closes         close: a buffered stream flushes, then the connection
                     pushes out what Nagle holds.
      stream_closes  close a stream (C's `fclose`), where a stream's calls
                     are not a descriptor's.
      shutdowns      half-close: push out what Nagle holds.
      accepts        return a new connection (with the peer's address).
      handshakes     exchange messages with the peer before they return (a
                     TLS handshake): as a read, nothing sent before them is
                     held any longer.
      socket_only    calls only a socket (or its stream) has: whatever they
                     are made on is one (in Python, at least medium-sure).
      addressed      calls given the peer's address (C's fifth argument,
                     every Python `sendto`) with each datagram; a connected
                     TCP socket needs none.
      stream_flags   flags that make such a call one of a stream socket
                     (TCP Fast Open's `MSG_FASTOPEN`: the first data goes out
                     with the SYN, to the address given): no datagram then.
      connection_argument  call -> the index of its connection among its
                     arguments, where that is not the first
                     (`fputs(text, stream)`).
      count_argument call -> the index of the argument that says how many
                     bytes it sends or reads (`recv(1)`, C's
                     `send(fd, buf, 1, 0)`).
      flags_argument call -> (index, arguments): its flags (`MSG_MORE`) are
                     the argument of that index when it is given at least
                     that many arguments (Python's `sendto(data, flags,
                     address)` takes them only before an address).
      descriptor_calls  call (dotted, as written) -> the connection's call
                     it is when given a connection's descriptor as its first
                     argument (Python's `os.write(fd, data)` is a `send`);
                     on any other descriptor (a file's, a pipe's, one of
                     unknown origin) it is nothing.
      descriptors    methods that give the descriptor of what they are
                     called on (`sock.fileno()`).
      stream_helpers a library's static helper (dotted, as written) -> the
                     stream's call it is on its first argument, given the
                     rest (Guava's `ByteStreams.readFully(in, b)` is
                     `in.readFully(b)`).
    Endpoints:
      tcp_makers     create an endpoint that is TCP unless its arguments
                     name a family or type of `no_nagle_words`.
      socket_modules the modules whose `tcp_makers` they are (the last part
                     of a module's name): the same names imported from
                     another module are that module's (`from websocket
                     import create_connection`).
      message_modules  packages whose connections carry whole messages over
                     a transport they frame themselves (websockets, SSH
                     channels, QUIC streams): what their calls make, and
                     what the methods of that return, is no TCP connection.
      kind_arguments call -> (family, type): where a maker of `tcp_makers`
                     takes the family and the type of its endpoint among its
                     arguments (`socket(AF_INET, SOCK_STREAM)`); a maker not
                     listed takes none (`create_connection`).
      plain_tcp_words  the words of a creation's arguments that keep it
                     plain TCP; any other upper-case word makes it unsure.
      no_nagle_words the words of a creation's arguments that make an
                     endpoint without Nagle (`AF_UNIX`, `SOCK_DGRAM`).
      no_nagle_addresses  the types of a peer's address that make what an
                     accept takes into it a connection without Nagle (C's
                     `struct sockaddr_un`: a local peer), whatever the
                     listener's origin.
      not_tcp        calls that create something that is never a TCP
                     connection: files, pipes, in-memory buffers, socket
                     pairs (as written, plain or dotted).
      not_tcp_endings  the endings of names of such calls: a wrapper named
                     for what it wraps (`xfopen`) opens a file too.
      consoles       names of the process's standard output descriptors
                     (C's `STDOUT_FILENO`): a terminal, a pipe or a file,
                     never a connection of the program's own.
      pair_makers    call -> the index of the array argument it fills with
                     two descriptors that have no Nagle (C's `pipe`).
      own_address_getters  call -> the index of the argument it fills with
                     the address a socket is bound to, or None where it
                     returns it (`getsockname`).
      connects       call -> the index of the address it connects a socket
                     to: a function connecting one of its sockets to the
                     address another is bound to, and accepting the other
                     end, makes a socket pair over loopback TCP, a stand-in
                     for a pipe (a wake-up channel), whose bytes must leave
                     at once.
      wrappers       name -> does the wrapper buffer writes: True, False,
                     or None (as its arguments say, e.g. a mode, or as
                     buffered as what it wraps); the result reaches the
                     same connection.
      socket_types   type names (annotations, declarations) that make a
                     parameter or variable a TCP socket.
      stream_types   type name -> do writes on a stream declared so wait
                     in a user-space buffer (until a flush).
      framework_types  types of a framework's connection objects, where the
                     file names one of `frameworks`.
      frameworks     word in a file (a package) -> how its connection
                     objects write: "flush" (writes wait until a flush,
                     and TCP_NODELAY is on: Netty 4) or "send" (each
                     write is a send, Nagle on: Netty 3).
      answering      of `frameworks`, those whose connections carry the
                     peer's answer to each message written on them (an
                     HTTP/1.1 server reads the next request on the same
                     connection, a client the response): a split that ends
                     the function still waits for that answer.
      supertypes     the interfaces and abstract classes that streams,
                     sockets and channels have: a name declared as one
                     may hold a connection.
      library_types  other library types that hold no connection and
                     whose methods are never the project's (`String`).
      mock_libraries classes whose `not_tcp` calls make test doubles
                     (`Mockito.mock(..)`).
      fake_prefixes  how the names of test doubles' classes begin
                     (`FakeSocket`, `MockChannel`).
      binders        calls that put a session (their first argument) over a
                     connection (their second): C's `SSL_set_fd`.
      buffer_setters call -> the word of its arguments that makes a stream
                     unbuffered (`setvbuf`'s `_IONBF`).
      containers     call -> the index of its argument that points at a
                     member of a structure, whose holder it gives (C's
                     `container_of(ptr, type, member)`): the same object
                     seen whole, as a cast gives it, so a connection among
                     its members is the argument's.
      container_endings  the endings of names of such calls: a project's
                     own copy is named for the one it copies
                     (`esp_container_of`, `kcontainer_of`).
    Options:
      option_setters the calls that set a socket option.
      options        option name -> what it does: "nodelay" or "cork".
      more_flags     send flags that hold the data for more (`MSG_MORE`).
    Writes:
      one_writes     stream writes whose payload is one element (a byte,
                     a character).
      small_writes   stream writes whose payload is a few bytes (an int).
      element_writes stream writes given one scalar (`write(int)`: a byte,
                     a character) write that one element.
      counted_writes stream writes given (buffer, offset, count): write ->
                     the index of the count; a count of 1 is one element.
      one_reads      stream reads that read one element when given no
                     argument (`read()`, `readByte()`).
      small_reads    stream reads of a few bytes (`readInt()`).
      autoflush_writes  stream writes that flush a stream made to flush
                     by itself (`println` on an autoflush `PrintWriter`).
      flushing_writes  stream writes that flush after writing.
      line_writes    stream writes that write their text, then a line
                     separator, in two writes (`PrintStream.println(x)`):
                     two sends where the stream does not buffer.
      char_writes    stream writes of a string that write it a character at
                     a time: write -> the writes each character takes
                     (`DataOutputStream.writeBytes(s)`: 1, `writeChars(s)`:
                     2): a send per byte where the stream does not buffer.
      drain_tests    methods of a buffer that tell whether some of it is
                     left to send (`buf.hasRemaining()`): a loop testing
                     one writes the rest of that buffer when a write was
                     partial, not a new piece.
      gather_types   buffers a gathering write takes an array of (Java's
                     `ByteBuffer`): a write of such an array sends them at
                     once, and a loop writing each of a collection of them
                     sends the pieces of one message.
    Ends:
      connection_failures  the exceptions a failed read or write raises
                     (Java's `IOException`, Python's `OSError`): a handler
                     catching one runs because the connection its try's
                     sends, reads and calls were given broke, as C's branch
                     of `if (net_write(c, ...) < 1)` does (see `Failed.call`).
      exits          calls that end the process (`exit`, `sys.exit`): its
                     connections close, which sends what they held, and
                     nothing after the call runs.
    Time:
      sleeps         sleeping calls -> seconds per unit of their argument
                     (1.0: seconds); a sleep long enough lets every ACK in.
      readiness_waits  calls that wait until a connection has data to read
                     -> (the argument listing the connections watched for
                     reading, the timeout's argument): a wait for the peer,
                     as a read is, unless the timeout is zero (a glance).
      watch_adders   calls adding a descriptor to a set a readiness wait
                     watches (C's FD_SET) -> (the descriptor's argument, the
                     set's argument).
    Libraries:
      libraries      library objects that own a connection (see `Library`).
      protocols      frameworks' protocol classes, whose methods the
                     framework calls on a connection (see `FrameworkProtocol`).
    Fixes (what the renderer of fixes may rewrite, see fixes.py):
      joinable_sends the sends and writes whose one argument is the payload
                     (bytes or text): two may become one call with the
                     payloads joined (`sendall(a + b)`); in C, the
                     descriptor sends one `writev` can gather.
      whole_sends    those that send every byte or raise (`sendall`): two
                     joined behave as before on errors too.
      bytes_calls    calls whose result is bytes: a function as written
                     (`bytes`, `pack`), or `.name` for a method of that
                     name on anything (`.encode`).
    Files, as the byte scan reads them:
      evidence_words words in a file that make its connections at least
                     medium-sure (a socket made or named there).
      stream_words   words in a file that put its stream writes and reads
                     on connections (a stream wrapper, a framework's
                     connection object); elsewhere they are file I/O.
      callbacks      functions a framework calls on a connection with data
                     to read (their end is where the peer waits).
    Wrappers known by their names:
      named_sends    words that name a send (`send` of `bt_send_nosigpipe`):
                     a function of such a name defined in no linted file (a
                     header's static inline) and called as the catalogue's
                     sends are (connection, buffer, count) is taken for one,
                     on a connection known to be TCP.
      named_reads    the same for reads (`recv` of `bt_socket_recv`).
    Sources that do not run in production (see `test_source`):
      test_folders   folder names that hold tests or benchmarks (Java's
                     `src/test/`: `test`), any of the path's folders.
      test_names     file-name patterns (fnmatch) of tests and benchmarks
                     (`*Test.java`, `test_*.py`).
    What a file uses:
      imports        patterns whose first group is each module, package or
                     header the file imports (`import serial.rfc2217`,
                     `#include <arpa/telnet.h>`): one named for an
                     interactive protocol makes the file speak it."""

    sends: frozenset[str] = frozenset()
    gather_sends: frozenset[str] = frozenset()
    file_sends: frozenset[str] = frozenset()
    reads: frozenset[str] = frozenset()
    gather_reads: frozenset[str] = frozenset()
    stream_writes: frozenset[str] = frozenset()
    stream_reads: frozenset[str] = frozenset()
    one_byte_writes: frozenset[str] = frozenset()
    flushes: frozenset[str] = frozenset()
    closes: frozenset[str] = frozenset()
    stream_closes: frozenset[str] = frozenset()
    shutdowns: frozenset[str] = frozenset()
    accepts: frozenset[str] = frozenset()
    handshakes: frozenset[str] = frozenset()
    socket_only: frozenset[str] = frozenset()
    addressed: frozenset[str] = frozenset()
    stream_flags: frozenset[str] = frozenset()
    connection_argument: MappingProxyType = field(default_factory=lambda: _frozen({}))
    count_argument: MappingProxyType = field(default_factory=lambda: _frozen({}))
    flags_argument: MappingProxyType = field(default_factory=lambda: _frozen({}))
    descriptor_calls: MappingProxyType = field(default_factory=lambda: _frozen({}))
    descriptors: frozenset[str] = frozenset()
    stream_helpers: MappingProxyType = field(default_factory=lambda: _frozen({}))
    tcp_makers: frozenset[str] = frozenset()
    socket_modules: frozenset[str] = frozenset()
    message_modules: frozenset[str] = frozenset()
    kind_arguments: MappingProxyType = field(default_factory=lambda: _frozen({}))
    plain_tcp_words: frozenset[str] = frozenset()
    no_nagle_words: frozenset[str] = frozenset()
    no_nagle_addresses: frozenset[str] = frozenset()
    not_tcp: frozenset[str] = frozenset()
    not_tcp_endings: frozenset[str] = frozenset()
    consoles: frozenset[str] = frozenset()
    pair_makers: MappingProxyType = field(default_factory=lambda: _frozen({}))
    own_address_getters: MappingProxyType = field(default_factory=lambda: _frozen({}))
    connects: MappingProxyType = field(default_factory=lambda: _frozen({}))
    wrappers: MappingProxyType = field(default_factory=lambda: _frozen({}))
    socket_types: frozenset[str] = frozenset()
    stream_types: MappingProxyType = field(default_factory=lambda: _frozen({}))
    framework_types: frozenset[str] = frozenset()
    frameworks: MappingProxyType = field(default_factory=lambda: _frozen({}))
    answering: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    library_types: frozenset[str] = frozenset()
    mock_libraries: frozenset[str] = frozenset()
    fake_prefixes: tuple[str, ...] = ()
    binders: frozenset[str] = frozenset()
    buffer_setters: MappingProxyType = field(default_factory=lambda: _frozen({}))
    containers: MappingProxyType = field(default_factory=lambda: _frozen({}))
    container_endings: frozenset[str] = frozenset()
    option_setters: frozenset[str] = frozenset()
    options: MappingProxyType = field(default_factory=lambda: _frozen({}))
    more_flags: frozenset[str] = frozenset()
    one_writes: frozenset[str] = frozenset()
    small_writes: frozenset[str] = frozenset()
    element_writes: frozenset[str] = frozenset()
    counted_writes: MappingProxyType = field(default_factory=lambda: _frozen({}))
    one_reads: frozenset[str] = frozenset()
    small_reads: frozenset[str] = frozenset()
    autoflush_writes: frozenset[str] = frozenset()
    flushing_writes: frozenset[str] = frozenset()
    line_writes: frozenset[str] = frozenset()
    char_writes: MappingProxyType = field(default_factory=lambda: _frozen({}))
    drain_tests: frozenset[str] = frozenset()
    gather_types: frozenset[str] = frozenset()
    connection_failures: frozenset[str] = frozenset()
    exits: frozenset[str] = frozenset()
    sleeps: MappingProxyType = field(default_factory=lambda: _frozen({}))
    readiness_waits: MappingProxyType = field(default_factory=lambda: _frozen({}))
    watch_adders: MappingProxyType = field(default_factory=lambda: _frozen({}))
    libraries: tuple[Library, ...] = ()
    protocols: tuple[FrameworkProtocol, ...] = ()
    joinable_sends: frozenset[str] = frozenset()
    whole_sends: frozenset[str] = frozenset()
    bytes_calls: frozenset[str] = frozenset()
    evidence_words: tuple[str, ...] = ()
    stream_words: tuple[str, ...] = ()
    callbacks: frozenset[str] = frozenset()
    named_sends: frozenset[str] = frozenset()
    named_reads: frozenset[str] = frozenset()
    test_folders: frozenset[str] = frozenset()
    test_names: frozenset[str] = frozenset()
    imports: frozenset[str] = frozenset()

    def __post_init__(self):
        for name, value in list(vars(self).items()):  # literal sets and dicts become immutable
            if isinstance(value, (set, frozenset)):
                object.__setattr__(self, name, frozenset(value))
            elif isinstance(value, dict):
                object.__setattr__(self, name, _frozen(value))
            elif isinstance(value, list):
                object.__setattr__(self, name, tuple(value))

    # -- what the lowering and the byte scan derive ------------------------

    def test_source(self, path: str) -> bool:
        """Whether the file at `path` (written from its project's top, see
        `Settings.in_project`) is a test's or a
        benchmark's, by the language's conventions: a folder of `test_folders`
        on its path, or a name matching one of `test_names`."""
        *folders, name = PurePath(path).parts or ("",)
        return not self.test_folders.isdisjoint(folders) or any(fnmatchcase(name, p) for p in self.test_names)

    @property
    def all_sends(self) -> frozenset[str]:
        """Every call that puts bytes on the wire by itself."""
        return self.sends | self.gather_sends | self.file_sends

    def library_methods(self, *events: str) -> frozenset[str]:
        """The methods of its libraries with a step of one of `events` (any, with none)."""
        return frozenset(m for lib in self.libraries for m, steps in lib.methods.items()
                         if not events or any(s.event in events for s in steps))
