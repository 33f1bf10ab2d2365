// Socket and both streams opened as try-with-resources; the request is still
// written in two calls before the read inside the block.
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.io.BufferedOutputStream;

final class ResourceSplitClient {
    static int exchange(String host, int port, byte[] head, byte[] body, byte[] reply) throws IOException {
        try (Socket socket = new Socket(host, port);
             OutputStream out = new BufferedOutputStream(socket.getOutputStream());
             InputStream in = socket.getInputStream()) {
            out.write(head);
            out.write(body); // expect: NGL001
            out.flush();
            return in.read(reply);
        }
    }
}
