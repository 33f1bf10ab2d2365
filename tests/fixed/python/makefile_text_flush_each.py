# The text stream from makefile('w') flushed after every line: each flush is a
# send, so the second line waits for the first one's ACK before the reply is read.
import socket


def submit(host, port, sender, recipient):
    sock = socket.create_connection((host, port))
    writer = sock.makefile("w", encoding="ascii", newline="")
    reader = sock.makefile("r", encoding="ascii", newline="")
    writer.write(f"MAIL FROM:<{sender}>\r\n")
    writer.write(f"RCPT TO:<{recipient}>\r\n")
    writer.flush()  # expect: NGL001
    first = reader.readline()
    second = reader.readline()
    writer.close()
    reader.close()
    sock.close()
    return first.startswith("250") and second.startswith("250")
