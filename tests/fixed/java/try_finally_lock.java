// The two writes sit in a try block guarded by a lock; the finally block only
// unlocks, so the split still reaches the read after it.
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.locks.ReentrantLock;
import java.io.BufferedOutputStream;

final class LockedChannel {
    private final Socket socket;
    private final ReentrantLock writeLock = new ReentrantLock();

    LockedChannel(Socket socket) {
        this.socket = socket;
    }

    int call(byte[] head, byte[] body) throws IOException {
        OutputStream out = new BufferedOutputStream(socket.getOutputStream());
        InputStream in = socket.getInputStream();
        writeLock.lock();
        try {
            out.write(head);
            out.write(body); // expect: NGL001
            out.flush();
        } finally {
            writeLock.unlock();
        }
        return in.read();
    }
}
