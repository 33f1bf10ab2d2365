// One helper writes the request line and the body in two calls; its two callers
// read the reply. The single finding is inside the helper, at its second write.
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.io.BufferedOutputStream;

final class BlobClient {
    private static void writeRequest(Socket s, String verb, String name, byte[] body) throws IOException {
        OutputStream out = new BufferedOutputStream(s.getOutputStream());
        out.write((verb + " " + name + " " + body.length + "\n").getBytes(StandardCharsets.UTF_8));
        out.write(body); // expect: NGL001
        out.flush();
    }

    static int put(Socket s, String name, byte[] data) throws IOException {
        writeRequest(s, "PUT", name, data);
        return s.getInputStream().read();
    }

    static int append(Socket s, String name, byte[] data) throws IOException {
        writeRequest(s, "APPEND", name, data);
        return s.getInputStream().read();
    }
}
