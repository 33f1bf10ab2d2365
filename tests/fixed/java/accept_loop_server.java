// Server loop: each response is written as header then body at the bottom of
// the loop, and the next request is read at the top, across the back edge.
// catalogue: socket_types.ServerSocket
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.io.BufferedOutputStream;

final class LineServer {
    static void serve(ServerSocket serverSocket) throws IOException {
        try (Socket client = serverSocket.accept()) {
            BufferedReader reader = new BufferedReader(
                    new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
            OutputStream out = new BufferedOutputStream(client.getOutputStream());
            String line;
            while ((line = reader.readLine()) != null) {
                byte[] body = line.toUpperCase().getBytes(StandardCharsets.UTF_8);
                out.write(("LEN " + body.length + "\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body); // expect: NGL001
                out.flush();
            }
        }
    }
}
