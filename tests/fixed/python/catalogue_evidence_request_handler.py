# A request handler of http.server, used for a line protocol: its wfile is
# unbuffered, so the two writes of each answer are two sends, and the client
# waits for the second.
from http.server import BaseHTTPRequestHandler  # catalogue: evidence_words.RequestHandler


class LineEcho(BaseHTTPRequestHandler):
    def handle(self):
        for line in self.rfile:
            self.wfile.write(b"+OK\r\n" + line.upper())  # expect: NGL001
