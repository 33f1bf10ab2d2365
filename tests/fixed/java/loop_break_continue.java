// Records are sent as key then value and each is acknowledged; continue skips
// empty values and break stops on a NAK, but the sent path is still split.
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.io.BufferedOutputStream;

final class RecordSender {
    private static final int ACK = 6;

    static int sendAll(Socket socket, Map<String, byte[]> records) throws IOException {
        OutputStream out = new BufferedOutputStream(socket.getOutputStream());
        InputStream in = socket.getInputStream();
        int sent = 0;
        for (Map.Entry<String, byte[]> record : records.entrySet()) {
            if (record.getValue().length == 0) {
                continue;
            }
            out.write((record.getKey() + "=").getBytes(StandardCharsets.UTF_8));
            out.write(record.getValue()); // expect: NGL001
            out.flush();
            if (in.read() != ACK) {
                break;
            }
            sent++;
        }
        return sent;
    }
}
