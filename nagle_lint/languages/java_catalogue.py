"""What Java's calls and types do to TCP connections (see `catalogue.Catalogue`
for what each field means).  The frontend (`java.py`) lowers from it and the
byte scan (`java_scan.py`) derives its words and patterns from it.

Java names a type where Python names a call: `socket_types`, `stream_types`,
`wrappers` and `not_tcp` hold the types whose `new` (or whose declaration)
says what an object is; the methods that give a stream over the connection
they are called on (`getOutputStream()`) are wrappers too, by their
lower-case names."""

from __future__ import annotations

from .catalogue import Catalogue, Conversions

JAVA = Catalogue(
    stream_writes={"write", "writeInt", "writeBytes", "writeUTF", "writeLong", "writeShort", "writeByte", "writeChar",
                   "writeChars", "writeDouble", "writeFloat", "writeBoolean", "writeObject", "print", "println",
                   "printf", "format", "append", "writeAndFlush", "writeNow"},
    stream_reads={"read", "readLine", "readInt", "readFully", "readUTF", "readLong", "readShort", "readByte",
                  "readChar", "readObject", "readNBytes", "readAllBytes", "readUnsignedByte", "readUnsignedShort",
                  "readBoolean", "readDouble", "readFloat", "next", "nextLine", "nextInt", "nextLong", "hasNext",
                  "hasNextLine", "hasNextInt"},
    # Guava's and Apache Commons IO's reads of the stream they are given.
    stream_helpers={"ByteStreams.readFully": "readFully", "ByteStreams.read": "read", "IOUtils.readFully": "readFully",
                    "IOUtils.read": "read"},
    one_writes={"writeByte", "writeChar", "writeBoolean"},
    small_writes={"writeInt", "writeLong", "writeShort", "writeDouble", "writeFloat"},
    element_writes={"write"},  # OutputStream.write(int b), Writer.write(int c)
    counted_writes={"write": 2},  # write(byte[] b, int off, int len)
    one_reads={"read", "readByte", "readUnsignedByte", "readBoolean"},
    small_reads={"readInt", "readShort", "readLong", "readChar", "readUnsignedShort"},
    autoflush_writes={"println", "printf", "format"},
    flushing_writes={"writeAndFlush"},  # Netty's
    line_writes={"println"},
    # DataOutputStream's: `out.write(s.charAt(i))` for each character (two writes each for writeChars).
    char_writes={"writeBytes": 1, "writeChars": 2},
    # ByteBuffer's: `while (buf.hasRemaining()) ch.write(buf);` drains one buffer.
    drain_tests={"hasRemaining", "remaining"},
    gather_types={"ByteBuffer"},
    flushes={"flush"},
    closes={"close"},
    shutdowns={"shutdownOutput"},
    accepts={"accept"},
    # What these are called on is a connection, whatever it was known as.
    socket_only={"getOutputStream", "getInputStream", "accept"},
    # `new Socket(..)`, a static opener (`SocketChannel.open(..)`), a factory's method.
    tcp_makers={"Socket", "ServerSocket", "SocketChannel.open", "AsynchronousSocketChannel.open", "createSocket"},
    # An opener given the UNIX family or a Unix domain address (as written, or a name declared as
    # one) makes a local socket, which has no Nagle.
    no_nagle_words={"UNIX", "UnixDomainSocketAddress"},
    socket_types={"Socket", "SSLSocket", "SocketChannel", "AsynchronousSocketChannel", "ServerSocket",
                  "SSLServerSocket"},
    stream_types={
        "OutputStream": False, "DataOutputStream": False, "PrintStream": False, "FilterOutputStream": False,
        "BufferedOutputStream": True, "PrintWriter": True, "Writer": True, "BufferedWriter": True,
        "OutputStreamWriter": True, "ObjectOutputStream": True,
        "InputStream": False, "DataInputStream": False, "BufferedReader": False, "Reader": False,
        "InputStreamReader": False, "BufferedInputStream": False, "Scanner": False, "ObjectInputStream": False,
    },
    # Netty 4: writes wait in the channel's outbound buffer until a flush, and TCP_NODELAY is on by
    # default; Netty 3: each Channel.write is sent at once, with Nagle on.  Helidon: its servers' and
    # clients' DataWriter writes each write(..) or writeNow(..) to the socket as it comes.
    framework_types={"ChannelHandlerContext", "Channel", "ChannelOutboundInvoker", "DataWriter"},
    frameworks={"io.netty": "flush", "org.jboss.netty": "send", "io.helidon": "send"},
    # Helidon's connections are HTTP's (HTTP/1.1, HTTP/2): its server reads the next request on
    # the connection a response was written on, its client the response to the request.  A
    # Netty channel may carry any protocol, answered or not.
    answering={"io.helidon"},
    callbacks={"channelRead", "channelRead0", "messageReceived"},
    wrappers={
        # new X(stream): does X buffer by itself (None: as buffered as what it wraps)?
        "BufferedOutputStream": True, "OutputStreamWriter": True, "BufferedWriter": True, "PrintWriter": True,
        "ObjectOutputStream": True, "DataOutputStream": None, "PrintStream": None, "FilterOutputStream": None,
        "BufferedReader": None, "InputStreamReader": None, "DataInputStream": None, "BufferedInputStream": None,
        "Scanner": None, "ObjectInputStream": None,
        # socket.getOutputStream(): the socket's own unbuffered streams; channel.socket(),
        # socket.getChannel() and a framework's ctx.channel() are the same connection.
        "getOutputStream": False, "getInputStream": False, "socket": False, "channel": None,
        "getChannel": None,
    },
    # Streams over files, pipes and memory, which a stream may wrap or be declared for.
    not_tcp={
        "ByteArrayOutputStream", "FileOutputStream", "FileWriter", "StringWriter", "CharArrayWriter",
        "PipedOutputStream",
        # Only read: they keep a file's reads out of the model (a read alone is no finding).
        "ByteArrayInputStream", "FileInputStream", "FileReader", "StringReader", "PipedInputStream",
        # Never a stream: a datagram socket sends packets (no Nagle); a file opened for random
        # access and a string builder write to no network.  Their calls make no event either
        # way; the byte scan reads no file for the writes made on them.
        "DatagramSocket", "MulticastSocket", "DatagramPacket", "RandomAccessFile", "StringBuilder",
        "StringBuffer",
        # The console.
        "System.out", "System.err",
        # Tests: what a mocking library makes (`mock(Socket.class)`, `Mockito.spy(..)`) stands in
        # for a connection and sends nothing.
        "mock", "spy", "createMock", "createNiceMock", "createStrictMock", "niceMock", "strictMock",
        # What a mocking library gives back to check the calls a test double got: that double.
        "verify",
    },
    mock_libraries={"Mockito", "EasyMock", "PowerMockito", "BDDMockito"},
    fake_prefixes=("Fake", "Mock", "Stub", "Dummy"),
    # (java.nio.channels.Channel shares its simple name with Netty's, in framework_types.)
    supertypes={
        "Closeable", "AutoCloseable", "Flushable", "Appendable", "DataOutput", "DataInput", "ObjectOutput",
        "ObjectInput", "WritableByteChannel", "ReadableByteChannel", "ByteChannel", "GatheringByteChannel",
        "ScatteringByteChannel", "NetworkChannel", "SelectableChannel", "AbstractSelectableChannel",
        "InterruptibleChannel", "AsynchronousByteChannel", "AsynchronousChannel",
    },
    library_types={
        "String", "Object", "Integer", "Long", "System", "Math", "Arrays", "List", "Map", "Set", "ArrayList",
        "HashMap", "ByteBuffer", "StandardCharsets", "Thread", "Objects", "Collections", "Optional",
        "InetSocketAddress", "InetAddress", "SSLSocketFactory", "SSLContext", "Selector", "SelectionKey",
        "ServerSocketChannel", "Channels", "StandardSocketOptions", "TimeUnit", "Executors",
    },
    # setTcpNoDelay(on), or a setter given the option (`setOption(StandardSocketOptions.TCP_NODELAY, on)`,
    # Netty's `option(ChannelOption.TCP_NODELAY, on)`) on a socket, a bootstrap or a config object.
    option_setters={"setTcpNoDelay", "setOption", "option", "childOption"},
    # Netty 3 names a bootstrap's options by strings (`setOption("child.tcpNoDelay", true)`).
    options={"TCP_NODELAY": "nodelay", "setTcpNoDelay": "nodelay", "tcpNoDelay": "nodelay"},
    # java.io's failure of a read or a write.
    connection_failures={"IOException"},
    exits={"System.exit"},
    # Thread.sleep counts milliseconds; TimeUnit.X.sleep(n) the units of X.
    sleeps={"Thread.sleep": 1e-3, "TimeUnit.MINUTES.sleep": 60.0, "TimeUnit.SECONDS.sleep": 1.0,
            "TimeUnit.MILLISECONDS.sleep": 1e-3, "TimeUnit.MICROSECONDS.sleep": 1e-6,
            "TimeUnit.NANOSECONDS.sleep": 1e-9},
    # Maven's and Gradle's test sources (`src/test/java`), test and benchmark
    # modules (a `testsuite` module of integration tests), JMH's; classes of tests
    # and benchmarks named so.  Not `*Test.java`:
    # in a test folder already where it is a JUnit test, and elsewhere often a
    # runnable example's name (mina's HttpTest, an HTTP server that ships).
    test_folders={"test", "tests", "testsuite", "benchmark", "benchmarks", "jmh"},
    test_names={"*Tests.java", "*Benchmark.java"},
    # `import org.apache.commons.net.telnet.TelnetClient;`
    imports={r"(?m)^[ \t]*import[ \t]+(?:static[ \t]+)?([\w.]+)"},
)

# An argument's conversions to a parameter's type (JLS 5.3): `f('x')` may call `f(int)`.
CONVERSIONS = Conversions(
    widening={"byte": ("short", "int", "long", "float", "double"), "short": ("int", "long", "float", "double"),
              "char": ("int", "long", "float", "double"), "int": ("long", "float", "double"),
              "long": ("float", "double"), "float": ("double",)},
    boxes={"boolean": "Boolean", "byte": "Byte", "short": "Short", "char": "Character", "int": "Integer",
           "long": "Long", "float": "Float", "double": "Double"},
    root="Object",
    strings=("String", "CharSequence", "Comparable", "Serializable", "Object"),
)

# A socket's two streams (see `wrappers`): code that hands both to other code
# (another object's methods, or its callers through getters) gives the
# connection to another layer, whose traffic it carries.
STREAM_PAIR = ("getInputStream", "getOutputStream")


def is_type(name: str) -> bool:
    """Whether a catalogue's name is a type's (`Socket`), not a method's (`accept`) or a dotted call's."""
    return name[:1].isupper() and "." not in name


class JavaTypes:
    """What the catalogue says of a type's simple name, worked out once."""

    def __init__(self, cat: Catalogue):
        self.catalogue = cat
        # The wrappers made by `new` (type -> buffers by itself).
        self.wrappers = {t: b for t, b in cat.wrappers.items() if is_type(t)}
        # Library types whose methods we know (or that never reach a linted file).
        self.known = frozenset(cat.socket_types | cat.framework_types | set(cat.stream_types) | cat.library_types
                               | {t for t in set(cat.wrappers) | cat.not_tcp if is_type(t)})

    def holds_no_connection(self, typ: str) -> bool:
        """Whether a name declared as `typ` never holds a connection: a class
        the catalogue does not know, not an interface a stream, socket or
        channel has (a field declared `DataOutput` may hold a stream), nor a
        type variable (`T`)."""
        return typ[:1].isupper() and not typ.isupper() and typ not in self.known \
            and typ not in self.catalogue.supertypes

    def is_fake(self, typ: str) -> bool:
        """Whether `typ` names a test's stand-in (`FakeSocket`, not `Mockingbird`)."""
        prefixes = self.catalogue.fake_prefixes
        return typ.startswith(prefixes) and any(typ[len(p):len(p) + 1].isupper() for p in prefixes
                                                if typ.startswith(p))
