"""A token introspection endpoint (RFC 7662) on loopback, for Dovecot's oauth2 passdb.

The test decides which access tokens are active and whose they are; Dovecot posts
``token=...`` and reads ``active`` and ``username`` from the JSON answer. Every
question asked is remembered, so a test can tell which token a login presented.
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class TokenServer:
    def __init__(self) -> None:
        self.tokens: dict[str, str] = {}  # active token -> user name
        self.asked: list[str] = []
        self._lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0") or 0)
                form = urllib.parse.parse_qs(self.rfile.read(length).decode())
                token = (form.get("token") or [""])[0]
                with server._lock:
                    server.asked.append(token)
                    user = server.tokens.get(token)
                answer = {"active": True, "username": user} if user else {"active": False}
                body = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                return

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/introspect"

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def grant(self, token: str, user: str) -> None:
        with self._lock:
            self.tokens[token] = user

    def revoke(self, token: str) -> None:
        with self._lock:
            self.tokens.pop(token, None)
