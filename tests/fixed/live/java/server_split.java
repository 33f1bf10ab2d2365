// Live: the server answers each request with a header write and a body write on the socket's stream,
// while the client waits for the whole response. Nagle holds the body until the client ACKs the header,
// which the client delays (~40 ms on Linux): every round trip stalls. Fixed twin: server_buffered.java.
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

final class ServerSplit {
    static final int TIMEOUT_MS = 3000;
    static final int WARMUP = 2; // a new Linux connection ACKs at once at first (quick-ACK): skip them
    static final byte[] REQUEST = "GET 0\n\n\n".getBytes(StandardCharsets.US_ASCII);
    static final byte[] REPLY_HEAD = "OK 200\n\n".getBytes(StandardCharsets.US_ASCII);
    static final byte[] REPLY_BODY = new byte[200];

    /** Server thread: read each whole request, answer with a header write and a body write. */
    static void serve(ServerSocket listener) {
        try (Socket conn = listener.accept()) {
            conn.setSoTimeout(TIMEOUT_MS);
            InputStream in = conn.getInputStream();
            OutputStream out = new BufferedOutputStream(conn.getOutputStream());
            byte[] request = new byte[REQUEST.length];
            while (true) {
                int got = 0;
                while (got < request.length) {
                    int n = in.read(request, got, request.length - got);
                    if (n < 0) return;
                    got += n;
                }
                out.write(REPLY_HEAD);
                out.write(REPLY_BODY); // expect: NGL001
                out.flush();
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
                OutputStream out = sock.getOutputStream();
                InputStream in = sock.getInputStream();
                byte[] reply = new byte[REPLY_HEAD.length + REPLY_BODY.length];
                double[] ms = new double[rounds];
                for (int i = -WARMUP; i < rounds; i++) {
                    long start = System.nanoTime();
                    out.write(REQUEST);
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
