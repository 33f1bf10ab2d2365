// notify() takes its connection from the pool and writes a line in two pieces, then returns:
// the peer waits for the second piece while Nagle holds it. The split is notify()'s own.
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.io.BufferedOutputStream;

final class Announcer {
    private final PeerPool pool;

    Announcer(PeerPool pool) {
        this.pool = pool;
    }

    private void notify(String peer, String line) throws IOException {
        Socket conn = pool.take(peer);
        OutputStream out = new BufferedOutputStream(conn.getOutputStream());
        out.write("note: ".getBytes(StandardCharsets.UTF_8));
        out.write(line.getBytes(StandardCharsets.UTF_8)); // expect: NGL001
        out.flush();
    }

    void announce(String peer) throws IOException {
        notify(peer, "starting\n");
    }
}
