// Connections held in `var`s: what makes them (`new ServerSocket`, a static
// opener, a factory) and the calls only a socket has (`accept()`,
// `getOutputStream()`) say what they are, where no declared type does.
// fixture-confidence: low
// catalogue: library_types.ServerSocketChannel, socket_only.accept, socket_only.getInputStream, socket_only.getOutputStream, tcp_makers.AsynchronousSocketChannel.open, tcp_makers.ServerSocket, tcp_makers.SocketChannel.open, tcp_makers.createSocket
import java.io.IOException;
import java.net.InetSocketAddress;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import javax.net.SocketFactory;
import java.io.BufferedOutputStream;

final class VarConnections {
    static void serveOne(int port, byte[] header, byte[] body) throws IOException {
        try (var server = new ServerSocket(port)) {
            var client = server.accept();
            client.getOutputStream().write(header);
            client.getOutputStream().write(body); // expect: NGL001
            client.getInputStream().read();
        }
    }

    static int query(InetSocketAddress peer, ByteBuffer head, ByteBuffer body) throws IOException {
        try (var channel = SocketChannel.open(peer)) {
            channel.write(head);
            channel.write(body); // expect: NGL001
            return channel.read(ByteBuffer.allocate(256));
        }
    }

    static int queryAsync(InetSocketAddress peer, ByteBuffer head, ByteBuffer body)
            throws IOException, InterruptedException, ExecutionException {
        try (var channel = AsynchronousSocketChannel.open()) {
            channel.connect(peer).get();
            channel.write(head).get();
            channel.write(body).get(); // expect: NGL001
            return channel.read(ByteBuffer.allocate(256)).get();
        }
    }

    static int ask(String host, byte[] header, byte[] body) throws IOException {
        try (var socket = SocketFactory.getDefault().createSocket(host, 7000)) {
            var out = new BufferedOutputStream(socket.getOutputStream());
            out.write(header);
            out.write(body); // expect: NGL001
            out.flush();
            return socket.getInputStream().read();
        }
    }

    static int borrowed(BlockingQueue<Socket> pool, byte[] header, byte[] body)
            throws IOException, InterruptedException {
        var leased = pool.take();
        var in = leased.getInputStream();
        var out = new BufferedOutputStream(leased.getOutputStream());
        int acks = 0;
        for (int i = 0; i < 3; i++) {
            out.write(header);
            out.write(body); // expect: NGL001
            out.flush();
            acks += in.read();
        }
        leased.close();
        return acks;
    }

    /** A pooled connection, as a pool hands it out. */
    static final class Pooled {
        final Socket socket;
        final long since;

        Pooled(Socket socket, long since) {
            this.socket = socket;
            this.since = since;
        }
    }

    static int pooled(Pooled conn, byte[] header, byte[] body) throws IOException {
        InputStream in = conn.socket.getInputStream();
        OutputStream out = new BufferedOutputStream(conn.socket.getOutputStream());
        out.write(header);
        out.write(body); // expect: NGL001
        out.flush();
        return in.read();
    }

    static int accepted(int port, byte[] header, byte[] body) throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(port));
            var client = server.accept();
            client.write(ByteBuffer.wrap(header));
            client.write(ByteBuffer.wrap(body)); // expect: NGL001
            return client.read(ByteBuffer.allocate(256));
        }
    }

    private static void sendRequest(Socket socket, byte[] header, byte[] body) throws IOException {
        OutputStream out = new BufferedOutputStream(socket.getOutputStream());
        out.write(header);
        out.write(body); // expect: NGL001
        out.flush();
    }

    static int request(BlockingQueue<Socket> pool, byte[] header, byte[] body)
            throws IOException, InterruptedException {
        var socket = pool.take();
        sendRequest(socket, header, body);
        return socket.getInputStream().read();
    }

    static int halfClosed(BlockingQueue<Socket> pool, byte[] header, byte[] body)
            throws IOException, InterruptedException {
        var socket = pool.take();
        sendRequest(socket, header, body);
        socket.shutdownOutput(); // the peer reads to the end: nothing is held
        return socket.getInputStream().read();
    }
}
