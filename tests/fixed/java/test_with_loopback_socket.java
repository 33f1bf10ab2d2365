// A test that talks to a real server on the loopback: its socket is TCP,
// and the split greeting waits for the delayed ACK as anywhere else.
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.io.BufferedOutputStream;

class EchoServerTest {
    void echoesTheGreeting(ServerSocket server) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.getLocalPort())) {
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            out.write("HELLO ".getBytes());
            out.write("v1\r\n".getBytes()); // expect: NGL001
            out.flush();
            InputStream in = socket.getInputStream();
            in.read();
        }
    }
}
