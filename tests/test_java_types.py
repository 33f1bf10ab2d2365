"""Java calls through an interface or a base class of another file: what the
byte scan reads of the classes (supertypes, methods without a body) and how
the project resolves a call with it."""

from __future__ import annotations

from nagle_lint.languages import frontend
from nagle_lint.languages.java_scan import class_facts, enum_names
from nagle_lint.project import Project

TRANSPORT = b"""
interface Transport {
    void write(byte[] data) throws IOException;
    int receive() throws IOException;
}
"""
SOCKET_TRANSPORT = b"""
final class SocketTransport implements Transport {
    private final OutputStream out;
    SocketTransport(Socket socket) throws IOException { this.out = socket.getOutputStream(); }
    public void write(byte[] data) throws IOException { out.write(data); }
    public int receive() throws IOException { return 0; }
}
"""
MEMORY_TRANSPORT = b"""
final class MemoryTransport implements Transport {
    private final ByteArrayOutputStream sink = new ByteArrayOutputStream();
    public void write(byte[] data) throws IOException { sink.write(data); }
    public int receive() { return -1; }
}
"""
ANONYMOUS_TRANSPORT = b"""
final class Transports {
    static Transport discard() {
        return new Transport() {
            public void write(byte[] data) {}
            public int receive() { return -1; }
        };
    }
}
"""
CLIENT = b"""
final class Client {
    int call(Transport transport, RawLink link, QueuedLink queued, byte[] a) throws IOException {
        transport.write(a);
        link.write(a);
        queued.write(a);
        return 0;
    }
}
"""
LINKS = b"""
class BaseLink {
    protected final OutputStream out;
    BaseLink(Socket socket) throws IOException { out = socket.getOutputStream(); }
    void write(byte[] data) throws IOException { out.write(data); }
}
final class RawLink extends BaseLink {
    RawLink(Socket socket) throws IOException { super(socket); }
}
final class QueuedLink extends BaseLink {
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    QueuedLink(Socket socket) throws IOException { super(socket); }
    @Override
    void write(byte[] data) throws IOException { pending.write(data); }
}
"""


def test_supertypes_read_from_class_heads():
    found, _ = class_facts(b"""
        public abstract class A<T extends Map<K, V>> extends b.Base<T> implements I1, p.I2<X> {
            Runnable r = new Runnable() { public void run() {} };
            Object o = new Object();
            String s = Foo.class.getName(); // class Fake extends Nothing
        }
        record R(int a) implements Q {}
        enum E implements Z { A, B }
        interface J extends I1, I2 {}
        class Plain {}
    """)
    anonymous = [k for k in found if k.startswith("Runnable@")]
    assert {k: v for k, v in found.items() if k not in anonymous} == {
        "A": ("Base", "I1", "I2"), "R": ("Q",), "E": ("Z",), "J": ("I1", "I2")}
    assert len(anonymous) == 1 and found[anonymous[0]] == ("Runnable",)


def test_abstract_methods_are_those_without_a_body():
    _, found = class_facts(b"""
        enum E { A(1), B(2); E(int x) {} abstract int f(); }
        abstract class C<T> implements I {
            Foo x = new Foo(a);
            private final int n = size(3);
            abstract void g(int a, Map<K, V> m) throws IOException;
            native int peek();
            void h() { foo(a); int y = bar(1); }
            interface In { void z(); default void d() { z(); } }
        }
    """)
    assert found == {"E.f", "C.g", "In.z"}


def _project(*sources: bytes):
    fe = frontend("java")
    models = [fe.lower(f"f{i}.java", src) for i, src in enumerate(sources)]
    project = Project(models)
    caller = next(fn for m in models for fn in m.functions if fn.qualname == "Client.call")
    return project, caller


def _resolved(project, caller, callee: str, arity: int = 1):
    fn = project.resolve(caller, callee, arity)
    return None if fn is None else (fn.qualname, fn.path)


def test_a_call_through_an_interface_runs_its_one_implementation():
    project, caller = _project(CLIENT, TRANSPORT, SOCKET_TRANSPORT)
    assert _resolved(project, caller, "Transport.write") == ("SocketTransport.write", "f2.java")


def test_two_implementations_leave_the_call_unknown():
    project, caller = _project(CLIENT, TRANSPORT, SOCKET_TRANSPORT, MEMORY_TRANSPORT)
    assert _resolved(project, caller, "Transport.write") == ("Transport.write", "f1.java")  # the declaration only
    assert not project.resolve(caller, "Transport.write", 1).body


def test_an_anonymous_implementation_counts():
    project, caller = _project(CLIENT, TRANSPORT, SOCKET_TRANSPORT, ANONYMOUS_TRANSPORT)
    assert not project.resolve(caller, "Transport.write", 1).body


def test_a_library_interface_is_not_resolved_to_the_projects_one_implementation():
    """A JDK interface (WritableByteChannel) has implementations no linted file holds: a
    call through it is not a call of the project's one class that implements it."""
    sink = b"""
final class Accumulator implements WritableByteChannel {
    private final OutputStream out;
    Accumulator(Socket socket) throws IOException { out = socket.getOutputStream(); }
    public int write(ByteBuffer b) throws IOException { out.write(b.array()); return 0; }
}
"""
    project, caller = _project(CLIENT, sink)
    assert project.resolve(caller, "WritableByteChannel.write", 1) is None


def test_an_inherited_method_is_the_base_class_one_and_an_override_wins():
    project, caller = _project(CLIENT, LINKS)
    assert _resolved(project, caller, "RawLink.write") == ("BaseLink.write", "f1.java")
    # QueuedLink's own write() (left without a body: it has no socket event) is no base class's.
    assert _resolved(project, caller, "QueuedLink.write") == ("QueuedLink.write", "f1.java")


def test_enums_are_read_from_their_heads():
    assert enum_names(b"""
        public enum Opcode implements WireEnum, Serializable { OPEN, CLOSE }
        enum Plain { A }
        class Holder { enum Inner { X } }
        // enum Commented { NO }
        String s = "enum Quoted { NO }";
        class Myenum {}
    """) == {"Opcode", "Plain", "Inner"}
