// The socket twin of temp_files_and_logs.java: the same header and record
// written apart on a socket's stream stall before the reply is read.
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.io.BufferedOutputStream;

final class SpillOverNetwork {
    static int spill(String host, int port, byte[] header, byte[] record) throws IOException {
        try (Socket socket = new Socket(host, port)) {
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            InputStream in = socket.getInputStream();
            out.write(header);
            out.write(record); // expect: NGL001
            out.flush();
            return in.read();
        }
    }
}
