// A plain TCP client writes the request header and the body in two calls, then
// waits for the reply: Nagle holds the body until the header is ACKed.
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.io.BufferedOutputStream;

final class SplitWriteClient {
    static int store(String host, int port, String key, byte[] value) throws IOException {
        try (Socket socket = new Socket(host, port)) {
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            InputStream in = socket.getInputStream();
            byte[] header = ("STORE " + key + " " + value.length + "\r\n").getBytes(StandardCharsets.US_ASCII);
            out.write(header);
            out.write(value); // expect: NGL001
            out.flush();
            return in.read();
        }
    }
}
