"""What Python's calls do to TCP connections (see `catalogue.Catalogue` for
what each field means).  The frontend (`python.py`) lowers from it and the
byte scan (`python_scan.py`) derives its words from it."""

from __future__ import annotations

from .catalogue import Catalogue, FrameworkProtocol, Library, Step

# http.client (httplib on Python 2): the request line and headers wait in the
# connection's buffer until endheaders() sends them.  A body given to
# endheaders(message_body) joins them in that one send: the argument exists for
# that (Python 2.7 and 3 before 3.6 append a string body to the headers; 3.6
# and later send it apart, on the connection their connect() made with TCP_NODELAY,
# so on no version do the two pieces wait for an ACK).  request() sends its body
# after the headers in sends of its own on Python 3.6 and later, and a body that
# is not the version's string type (a file, unicode on Python 2) on every version.
HTTP_CLIENT = Library(
    "http.client",
    makers={"HTTPConnection", "HTTPSConnection", "http.client.HTTPConnection", "http.client.HTTPSConnection",
            "httplib.HTTPConnection", "httplib.HTTPSConnection"},
    methods={
        "putrequest": [Step("buffer")],
        "putheader": [Step("buffer")],
        "endheaders": [Step("buffer", arg=0, keyword="message_body"), Step("flush")],
        "request": [Step("buffer"), Step("flush"), Step("send", arg=2, keyword="body")],
        "send": [Step("send")],
        "getresponse": [Step("read")],
    },
    own_methods={"putrequest", "putheader", "endheaders", "getresponse"},
)

# http.server's request handlers (socketserver's stream handlers: the connection is
# self.request, written through self.wfile, unbuffered unless the class sets wbufsize):
# send_response() and send_header() keep the status line and headers, end_headers() writes
# them in one write. The server reads a request and calls do_<METHOD>(); with
# protocol_version "HTTP/1.1" it then reads the next request on the same connection (with
# HTTP/1.0, the default, it closes the connection, which sends what Nagle held).
HTTP_SERVER = Library(
    "http.server",
    makers=(),
    methods={
        "send_response": [Step("buffer")],
        "send_response_only": [Step("buffer")],
        "send_header": [Step("buffer")],
        "end_headers": [Step("flush")],
    },
    bases={"BaseHTTPRequestHandler", "SimpleHTTPRequestHandler", "CGIHTTPRequestHandler"},
    through="self.wfile",
    requests="do_",
    keep_alive=("protocol_version", "HTTP/1.1"),
)

# asyncio's protocols: the loop gives the connection to connection_made in self.transport and
# calls data_received with what it read; its TCP transports turn Nagle off (Python 3.6 and later).
ASYNCIO_PROTOCOL = FrameworkProtocol("asyncio", marks={"data_received", "connection_made"}, field="self.transport",
                                     reads={"data_received"}, nodelay=True)

# Twisted's protocols: the reactor gives the connection to connectionMade in self.transport and
# calls dataReceived (lineReceived, ... in its receivers) with what it read.  The transport keeps
# what write() and writeSequence() give it until the method returns and the reactor writes it,
# all of it at once; Nagle stays on unless the protocol turns it off (setTcpNoDelay).
TWISTED_PROTOCOL = FrameworkProtocol("twisted", marks={"connectionMade"}, field="self.transport",
                                     reads={"dataReceived", "lineReceived", "rawDataReceived", "stringReceived"},
                                     buffered=True, module="twisted")

PYTHON = Catalogue(
    sends={"send", "sendall", "sendto"},
    gather_sends={"sendmsg"},
    file_sends={"sendfile"},
    reads={"recv", "recv_into", "recvfrom", "recvfrom_into", "recvmsg", "recvmsg_into"},
    stream_writes={"write", "writelines"},
    stream_reads={"read", "readline", "readlines", "readinto", "read1", "peek", "readexactly", "readuntil"},
    flushes={"flush"},
    closes={"close"},
    shutdowns={"shutdown"},
    accepts={"accept"},
    handshakes={"wrap_socket", "do_handshake"},  # wrap_socket: unless do_handshake_on_connect=False
    count_argument={"recv": 0, "recvfrom": 0, "read": 0},
    flags_argument={"send": (1, 2), "sendall": (1, 2), "sendto": (1, 3), "sendmsg": (2, 3)},
    # os.write/os.read on a socket's descriptor (sock.fileno()): a send, a read.
    descriptor_calls={"os.write": "send", "os.read": "recv"},
    descriptors={"fileno"},
    # sendto(data[, flags], address): each datagram names where it goes; a connected TCP socket
    # takes no address.
    addressed={"sendto"},
    stream_flags={"MSG_FASTOPEN"},
    socket_only={"sendall", "sendmsg", "recv_into", "recvfrom_into", "setsockopt", "makefile", "shutdown"},
    # socket.socket(), socket.create_connection(), ... or the same names imported from the module
    tcp_makers={"socket", "create_connection", "create_server", "fromfd"},
    # The modules whose tcp_makers they are, by the last part of their names (gevent's and
    # eventlet's green socket modules too): the same names imported from elsewhere are not.
    socket_modules={"socket"},
    # Packages whose connections carry whole messages over a transport they frame themselves
    # (websockets, SSH channels): what they make, and what its methods return,
    # is no TCP connection of the program's own writes.
    message_modules={"websocket", "websockets", "paramiko"},
    kind_arguments={"socket": (0, 1), "fromfd": (1, 2)},  # fromfd(fd, family, type)
    plain_tcp_words={"AF_INET", "AF_INET6", "SOCK_STREAM"},
    no_nagle_words={"AF_UNIX", "AF_BLUETOOTH", "AF_NETLINK", "AF_PACKET", "AF_CAN", "SOCK_DGRAM", "SOCK_RAW"},
    # As written plain, or as a module's (`multiprocessing.Pipe`, `mock.create_autospec`): files and
    # pipes, socket pairs, test doubles made by a function, signals (whose send() calls their receivers).
    # A class (`mock.MagicMock`, `blinker.Signal`) makes an object of its own anyway.
    not_tcp={"open", "Pipe", "socketpair", "create_autospec", "signal"},
    # sock.getsockname() returns the address; sock.connect(address)
    own_address_getters={"getsockname": None},
    connects={"connect": 0},
    wrappers={"makefile": None, "wrap_socket": False},  # makefile: buffered when its mode writes
    socket_types={"socket.socket", "socket", "ssl.SSLSocket", "SSLSocket"},
    # setsockopt(level, name, value), or a setter named for its option (Twisted's
    # transport.setTcpNoDelay(on)).
    option_setters={"setsockopt", "setTcpNoDelay"},
    options={"TCP_NODELAY": "nodelay", "TCP_CORK": "cork", "TCP_NOPUSH": "cork"},
    more_flags={"MSG_MORE"},
    # What a failed read or write on a socket raises.
    connection_failures={"OSError"},
    exits={"sys.exit", "os._exit", "os.abort", "exit", "quit"},
    sleeps={"time.sleep": 1.0, "asyncio.sleep": 1.0, "sleep": 1.0},
    readiness_waits={"select.select": (0, 3)},  # select(rlist, wlist, xlist, timeout)
    evidence_words=("socket", "asyncio", "RequestHandler", "data_received", "start_server"),
    stream_words=("makefile", "asyncio", "RequestHandler", "data_received", "start_server"),
    callbacks={"data_received", "handle", "handle_one_request"},
    libraries=(HTTP_CLIENT, HTTP_SERVER),
    protocols=(ASYNCIO_PROTOCOL, TWISTED_PROTOCOL),
    joinable_sends={"send", "sendall", "write"},  # write: on a raw makefile(..., buffering=0) stream
    whole_sends={"sendall"},
    # bytes(), bytearray(), struct's pack() as imported or as a method (struct.pack, Struct.pack),
    # str.encode(), memoryview.tobytes()
    bytes_calls={"bytes", "bytearray", "pack", ".pack", ".encode", ".tobytes"},
    # pytest's and unittest's test modules and packages, and benchmark folders.
    test_folders={"test", "tests", "testsuite", "benchmarks"},
    test_names={"test_*.py", "*_test.py"},
    # `import serial.rfc2217`, `from telnetlib import Telnet`
    imports={r"(?m)^[ \t]*(?:import|from)[ \t]+([\w.]+)"},
)
