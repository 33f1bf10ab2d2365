# socketserver's StreamRequestHandler has an unbuffered wfile by default
# (wbufsize = 0): each write is a send. The status line and the body leave apart,
# and the client waits for the body.
import socketserver


class Handler(socketserver.StreamRequestHandler):  # catalogue: stream_words.RequestHandler
    def handle(self):
        for line in self.rfile:
            self.wfile.write(b"+OK\r\n" + line.upper())  # expect: NGL001


if __name__ == "__main__":
    with socketserver.TCPServer(("127.0.0.1", 9999), Handler) as server:
        server.serve_forever()
