"""What Java's calls and types do to TCP connections, as data: the frontend
(`java.py`) lowers from these tables, and the byte scan (`java_scan.py`)
derives its words and patterns from them, so that an idiom is never known
in one place and forgotten in the other."""

from __future__ import annotations

SOCKET_TYPES = {"Socket", "SSLSocket", "SocketChannel", "AsynchronousSocketChannel", "ServerSocket", "SSLServerSocket"}
# Netty: writes wait in the channel's outbound buffer until a flush; TCP_NODELAY is on by default.
NETTY_TYPES = {"ChannelHandlerContext", "Channel", "ChannelOutboundInvoker", "SocketChannelNetty"}
NETTY_CALLBACKS = {"channelRead", "channelRead0", "messageReceived"}
# Stream types and whether writes to them wait in a user-space buffer.
STREAM_TYPES = {
    "OutputStream": False, "DataOutputStream": False, "PrintStream": False, "FilterOutputStream": False,
    "BufferedOutputStream": True, "PrintWriter": True, "Writer": True, "BufferedWriter": True,
    "OutputStreamWriter": True, "ObjectOutputStream": True,
    "InputStream": False, "DataInputStream": False, "BufferedReader": False, "Reader": False,
    "InputStreamReader": False, "BufferedInputStream": False, "Scanner": False, "ObjectInputStream": False,
}
# Wrappers: does the wrapper buffer by itself (None: as buffered as what it wraps)?
WRAPPERS = {
    "BufferedOutputStream": True, "OutputStreamWriter": True, "BufferedWriter": True, "PrintWriter": True,
    "ObjectOutputStream": True, "DataOutputStream": None, "PrintStream": None, "FilterOutputStream": None,
    "BufferedReader": None, "InputStreamReader": None, "DataInputStream": None, "BufferedInputStream": None,
    "Scanner": None, "ObjectInputStream": None,
}
NOT_SOCKETS = {
    "DatagramSocket", "MulticastSocket", "ByteArrayOutputStream", "FileOutputStream", "FileWriter", "StringWriter",
    "StringBuilder", "StringBuffer", "ByteArrayInputStream", "FileInputStream", "FileReader", "CharArrayWriter",
    "PipedOutputStream", "PipedInputStream", "RandomAccessFile", "StringReader", "DatagramPacket",
}
# Library types whose methods we know (or that never reach a linted file).
KNOWN_TYPES = (SOCKET_TYPES | NETTY_TYPES | set(STREAM_TYPES) | set(WRAPPERS) | NOT_SOCKETS
               | {"String", "Object", "Integer", "Long", "System", "Math", "Arrays", "List", "Map", "Set", "ArrayList",
                  "HashMap", "ByteBuffer", "StandardCharsets", "Thread", "Objects", "Collections", "Optional",
                  "InetSocketAddress", "InetAddress", "SSLSocketFactory", "SSLContext", "Selector", "SelectionKey",
                  "ServerSocketChannel", "Channels", "StandardSocketOptions", "TimeUnit", "Executors"})
# The interfaces (and abstract classes) of the JDK that streams, sockets and
# channels have: a name declared as one may hold a connection.
CONNECTION_SUPERTYPES = {
    "Closeable", "AutoCloseable", "Flushable", "Appendable", "DataOutput", "DataInput", "ObjectOutput", "ObjectInput",
    "Channel", "WritableByteChannel", "ReadableByteChannel", "ByteChannel", "GatheringByteChannel",
    "ScatteringByteChannel", "NetworkChannel", "SelectableChannel", "AbstractSelectableChannel",
    "InterruptibleChannel", "AsynchronousByteChannel", "AsynchronousChannel", "SocketImpl",
}
WRITES = {"write", "writeInt", "writeBytes", "writeUTF", "writeLong", "writeShort", "writeByte", "writeChar",
          "writeChars", "writeDouble", "writeFloat", "writeBoolean", "writeObject", "print", "println", "printf",
          "format", "append", "writeAndFlush"}
ONE_WRITES = {"writeByte", "writeChar", "writeBoolean"}
SMALL_WRITES = {"writeInt", "writeLong", "writeShort", "writeDouble", "writeFloat"}
AUTOFLUSHING = {"println", "printf", "format"}
READS = {"read", "readLine", "readInt", "readFully", "readUTF", "readLong", "readShort", "readByte", "readChar",
         "readObject", "readNBytes", "readAllBytes", "readUnsignedByte", "readUnsignedShort", "readBoolean",
         "readDouble", "readFloat", "next", "nextLine", "nextInt", "nextLong", "hasNext", "hasNextLine", "hasNextInt"}
# Calls that set a socket option (TCP_NODELAY when it is their first argument;
# `setTcpNoDelay` always): on a socket, or on a bootstrap or config object.
OPTION_SETTERS = {"setTcpNoDelay", "setOption", "option", "childOption", "setSocketOption"}
# Other calls on a connection the lowering follows: what they give back is the
# connection (or a new one), or what they do is an event of its own.
CONNECTION_CALLS = {"getOutputStream", "getInputStream", "socket", "channel", "shutdownOutput", "accept", "close",
                    "flush"}
# Those of them that give a connection (the same, or an accepted one).
GIVEN_BY_CONNECTION = {"getOutputStream", "getInputStream", "socket", "channel", "accept"}
# Static calls that create a connection (`SocketChannel.open(...)`), and a factory's method.
OPENERS = {"SocketChannel": "open", "AsynchronousSocketChannel": "open"}
FACTORY_CALLS = {"createSocket"}
# The endings of the names of types whose `new` may make a connection, a
# stream over one, or what is none (`new Socket(..)`, `new PrintWriter(..)`,
# `new ByteArrayOutputStream()`).
CREATED_ENDINGS = ("Socket", "Stream", "Writer", "Reader", "Scanner")
# Types whose `new` creates a TCP socket.
SOCKET_CONSTRUCTORS = {"Socket", "SSLSocket", "ServerSocket"}

# Tests: what a mocking library makes (`mock(Socket.class)`, `Mockito.spy(..)`)
# stands in for a connection and sends nothing; so does an object of a class
# named as a stand-in (`FakeSocket`, `MockChannel`, `StubServer`).
MOCK_MAKERS = {"mock", "spy", "createMock", "createNiceMock", "createStrictMock", "niceMock", "strictMock"}
MOCK_LIBRARIES = {"Mockito", "EasyMock", "PowerMockito", "BDDMockito"}
FAKE_PREFIXES = ("Fake", "Mock", "Stub", "Dummy")

# TimeUnit.X.sleep(n): the seconds of X (Thread.sleep counts milliseconds).
SLEEP_UNITS = {"TimeUnit.MINUTES": 60.0, "TimeUnit.SECONDS": 1.0, "TimeUnit.MILLISECONDS": 1e-3,
               "TimeUnit.MICROSECONDS": 1e-6, "TimeUnit.NANOSECONDS": 1e-9}


def holds_no_connection(typ: str) -> bool:
    """Whether a name declared as `typ` (a type's simple name) never holds a
    connection: a class the tables do not know, not an interface a stream,
    socket or channel has (a field declared `DataOutput` may hold a stream),
    nor a type variable (`T`)."""
    return typ[:1].isupper() and not typ.isupper() and typ not in KNOWN_TYPES and typ not in CONNECTION_SUPERTYPES


def is_fake(typ: str) -> bool:
    """Whether `typ` names a test's stand-in (`FakeSocket`, not `Mockingbird`)."""
    return typ.startswith(FAKE_PREFIXES) and any(typ[len(p):len(p) + 1].isupper() for p in FAKE_PREFIXES
                                                if typ.startswith(p))
