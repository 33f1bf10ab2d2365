// The connection arrives as a parameter typed Socket; the question and its
// newline are two writes, then Scanner.nextLine blocks for the answer.
// catalogue: wrappers.Scanner, wrappers.getInputStream
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Scanner;
import java.io.BufferedOutputStream;

final class QuestionAsker {
    static String ask(Socket socket, String question) throws IOException {
        OutputStream out = new BufferedOutputStream(socket.getOutputStream());
        out.write(question.getBytes(StandardCharsets.UTF_8));
        out.write('\n'); // expect: NGL001
        out.flush();
        Scanner answers = new Scanner(socket.getInputStream(), StandardCharsets.UTF_8);
        return answers.nextLine();
    }
}
