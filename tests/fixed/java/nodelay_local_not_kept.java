// The look-alike: TCP_NODELAY is set on a local probe connection that is closed, and the
// field is given another connection, on which Nagle stays on: its split still stalls.
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.io.BufferedOutputStream;

final class ProbedClient {
    private Socket socket;

    void connect(String host, int port) throws IOException {
        Socket probe = new Socket();
        probe.setTcpNoDelay(true); // expect: NGL002
        probe.connect(new InetSocketAddress(host, port));
        probe.close();
        this.socket = new Socket(host, port);
    }

    int call(byte[] header, byte[] body, byte[] reply) throws IOException {
        OutputStream out = new BufferedOutputStream(socket.getOutputStream());
        out.write(header);
        out.write(body); // expect: NGL001
        out.flush();
        return socket.getInputStream().read(reply);
    }
}
