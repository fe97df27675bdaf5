"""Mail servers for the tests, on 127.0.0.1: one that accepts connections and never answers, and a small
working SMTP server that keeps what it receives and refuses the recipients it is told to (550)."""

import socket
import socketserver
import threading
from email import message_from_bytes


class SilentServer:
    """Accepts every connection and says nothing: a client waits for the greeting until its timeout."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(50)
        self.port = self.sock.getsockname()[1]
        self.held = []
        self.running = True
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self):
        self.sock.settimeout(0.2)
        while self.running:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.held.append(conn)  # kept open, never written to

    def close(self):
        self.running = False
        self.thread.join()
        for conn in self.held:
            conn.close()
        self.sock.close()


class _Handler(socketserver.StreamRequestHandler):
    def reply(self, line):
        self.wfile.write(line.encode() + b"\r\n")

    def handle(self):
        server = self.server.owner
        self.reply("220 test ESMTP")
        sender, recipients = None, []
        while True:
            line = self.rfile.readline()
            if not line:
                return
            command = line.decode(errors="replace").strip()
            upper = command.upper()
            if upper.startswith(("EHLO", "HELO")):
                self.reply("250 test")
            elif upper.startswith("MAIL FROM:"):
                sender, recipients = command[10:].strip(" <>"), []
                self.reply("250 OK")
            elif upper.startswith("RCPT TO:"):
                address = command[8:].strip(" <>")
                if address in server.refuse:
                    self.reply("550 5.1.1 No such mailbox here")
                else:
                    recipients.append(address)
                    self.reply("250 OK")
            elif upper == "DATA":
                self.reply("354 End data with <CR><LF>.<CR><LF>")
                data = b""
                while True:
                    chunk = self.rfile.readline()
                    if chunk in (b".\r\n", b".\n", b""):
                        break
                    data += chunk[1:] if chunk.startswith(b"..") else chunk
                server.received.append((sender, list(recipients), message_from_bytes(data)))
                self.reply("250 OK queued")
            elif upper == "RSET":
                self.reply("250 OK")
            elif upper == "QUIT":
                self.reply("221 Bye")
                return
            else:
                self.reply("502 Not implemented")


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


class WorkingServer:
    """A minimal SMTP server: ``received`` holds (sender, recipients, message); ``refuse`` addresses get 550."""

    def __init__(self, *, refuse=()):
        self.received = []
        self.refuse = set(refuse)
        self.server = _Server(("127.0.0.1", 0), _Handler)
        self.server.owner = self
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()
