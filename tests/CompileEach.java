// Compiles each Java file named after the output folder on its own, in one JVM (a javac process per file
// costs seconds each), and prints "ok PATH" or "error PATH" for each. Run as: java CompileEach.java OUT FILE...
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

public class CompileEach {
    public static void main(String[] args) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Path out = Path.of(args[0]);
        for (int i = 1; i < args.length; i++) {
            Path dir = Files.createDirectories(out.resolve("f" + i)); // one folder each: fixtures share class names
            int status = javac.run(null, OutputStream.nullOutputStream(), OutputStream.nullOutputStream(),
                    "-nowarn", "-d", dir.toString(), args[i]);
            System.out.println((status == 0 ? "ok " : "error ") + args[i]);
        }
    }
}
