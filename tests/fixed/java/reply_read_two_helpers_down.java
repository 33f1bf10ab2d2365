// The reply is read two helpers down: ask() calls status(), which calls firstOf(), the only
// method with the read. The read still follows the split write; and poll(), which reads
// through the same helpers but writes nothing, starts no finding.
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.io.BufferedOutputStream;

class ReplyReadTwoHelpersDown {
    private static int firstOf(InputStream in) throws IOException {
        return in.read();
    }

    private static boolean status(Socket s) throws IOException {
        return firstOf(s.getInputStream()) == '+';
    }

    static boolean poll(Socket s) throws IOException {
        return status(s);
    }

    static boolean ask(String host, byte[] verb, byte[] key) throws IOException {
        try (Socket s = new Socket(host, 6380)) {
            OutputStream out = new BufferedOutputStream(s.getOutputStream());
            out.write(verb);
            out.write(key); // expect: NGL001
            out.flush();
            return status(s);
        }
    }
}
