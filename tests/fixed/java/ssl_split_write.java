// TLS does not hide the problem: each write on an SSLSocket becomes its own record
// and its own segment, so the body waits for the ACK of the head.
// catalogue: library_types.SSLSocketFactory
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.BufferedOutputStream;

final class TlsUploader {
    static int upload(String host, String path, byte[] body) throws IOException {
        SSLSocketFactory factory = (SSLSocketFactory) SSLSocketFactory.getDefault();
        try (SSLSocket socket = (SSLSocket) factory.createSocket(host, 443)) {
            socket.startHandshake();
            OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            InputStream in = socket.getInputStream();
            String head = "POST " + path + " HTTP/1.1\r\nHost: " + host
                    + "\r\nContent-Length: " + body.length + "\r\n\r\n";
            out.write(head.getBytes(StandardCharsets.US_ASCII));
            out.write(body); // expect: NGL001
            out.flush();
            byte[] reply = new byte[4096];
            return in.read(reply);
        }
    }
}
