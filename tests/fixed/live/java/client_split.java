// Live: the client writes a request header and its body with two write() calls on the socket's stream,
// then reads the reply. Nagle holds the body until the header is ACKed, and the server delays that ACK
// (~40 ms on Linux): every round trip stalls. Fixed twins: client_joined.java, client_gather.java.
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.io.BufferedOutputStream;

final class ClientSplit {
    static final int TIMEOUT_MS = 3000;
    static final int WARMUP = 2; // a new Linux connection ACKs at once at first (quick-ACK): skip them
    static final byte[] HEAD = "PUT 200\n".getBytes(StandardCharsets.US_ASCII);
    static final byte[] BODY = new byte[200];
    static final byte[] REPLY = "OK 0\n\n\n\n".getBytes(StandardCharsets.US_ASCII);

    /** Server thread: read each whole request, answer it with one write. */
    static void serve(ServerSocket listener) {
        try (Socket conn = listener.accept()) {
            conn.setSoTimeout(TIMEOUT_MS);
            InputStream in = conn.getInputStream();
            OutputStream out = conn.getOutputStream();
            byte[] request = new byte[HEAD.length + BODY.length];
            while (true) {
                int got = 0;
                while (got < request.length) {
                    int n = in.read(request, got, request.length - got);
                    if (n < 0) return;
                    got += n;
                }
                out.write(REPLY);
            }
        } catch (IOException e) {
            System.err.println("server: " + e);
        }
    }

    static void report(double[] ms) {
        Arrays.sort(ms);
        int n = ms.length;
        double median = n % 2 == 1 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2;
        System.out.printf(Locale.ROOT, "nagle-live: rounds=%d median_ms=%.3f p90_ms=%.3f%n",
                n, median, ms[(9 * n + 9) / 10 - 1]);
    }

    public static void main(String[] args) throws IOException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        if (rounds < 1) throw new IllegalArgumentException("rounds must be at least 1");
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        try (ServerSocket listener = new ServerSocket(0, 1, loopback)) {
            listener.setSoTimeout(TIMEOUT_MS);
            Thread server = new Thread(() -> serve(listener));
            server.setDaemon(true);
            server.start();
            try (Socket sock = new Socket()) {
                sock.connect(new InetSocketAddress(loopback, listener.getLocalPort()), TIMEOUT_MS);
                sock.setSoTimeout(TIMEOUT_MS);
                OutputStream out = new BufferedOutputStream(sock.getOutputStream());
                InputStream in = sock.getInputStream();
                byte[] reply = new byte[REPLY.length];
                double[] ms = new double[rounds];
                for (int i = -WARMUP; i < rounds; i++) {
                    long start = System.nanoTime();
                    out.write(HEAD);
                    out.write(BODY); // expect: NGL001
                    out.flush();
                    int got = 0;
                    while (got < reply.length) {
                        int n = in.read(reply, got, reply.length - got);
                        if (n < 0) throw new EOFException("server closed the connection");
                        got += n;
                    }
                    if (i >= 0) ms[i] = (System.nanoTime() - start) / 1e6;
                }
                report(ms);
            }
        }
    }
}
