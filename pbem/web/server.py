"""The HTTP side of ``pbem play``: the standard library's threading HTTP server on
127.0.0.1, a random token on every request, and no request from another site.

Why these checks: any web page the player opens can make the browser send requests to
127.0.0.1, and a DNS name pointed at 127.0.0.1 can make them look same-origin.  So a
request must name this server exactly in ``Host``, must not come from another origin
(``Origin``, ``Sec-Fetch-Site``), must carry the token printed in the URL, and an order
must come as JSON (which a plain cross-site form cannot send).

The browser is not started with that URL: a command line is readable by every local
user.  It is started with a file only this user can read (:meth:`PlayServer.launch_file`),
which leads it to ``/launch``, the one way in from outside the page: a navigation with
the token and nothing else, answered with a page that takes the browser on to ``/``.
"""

from __future__ import annotations

import hmac
import html
import json
import os
import secrets
import sys
import threading
from collections.abc import Callable
from email.message import Message
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from pbem.errors import PbemError
from pbem.web.desk import Desk, Filter

HOST = "127.0.0.1"
MAX_BODY = 1 << 20
STATIC = {
    "/static/play.js": "application/javascript; charset=utf-8",
    "/static/play.css": "text/css; charset=utf-8",
}
HEADERS = {
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "frame-ancestors 'none'",
}

Query = dict[str, list[str]]


class Refused(Exception):
    """A request this server does not answer (403), with why."""


def _static(name: str) -> bytes:
    return resources.files("pbem.web").joinpath("static", name).read_bytes()


class PlayServer(ThreadingHTTPServer):
    """Serves one game's page; ``url`` (with the token) is the only way in."""

    daemon_threads = True

    def __init__(self, desk: Desk, port: int = 0) -> None:
        super().__init__((HOST, port), _Handler)
        self.desk = desk
        self.token = secrets.token_urlsafe(24)
        # One request at a time reaches the game: the store is one player's.
        self.lock = threading.Lock()

    def handle_error(self, request: object, client_address: object) -> None:
        """A page closed before its answer came is no error; anything else is one line."""
        exc = sys.exc_info()[1]
        if not isinstance(exc, ConnectionError):
            print(f"pbem play: {type(exc).__name__}: {exc}"[:300], file=sys.stderr)

    @property
    def port(self) -> int:
        return int(self.server_address[1])

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}/?token={self.token}"

    def launch_file(self, directory: Path) -> Path:
        """Write the page the browser is started with (mode 0600, in ``directory``, which
        should be private too): it leads to ``/launch`` with the token."""
        target = html.escape(f"http://{HOST}:{self.port}/launch?token={self.token}")
        page = (
            f'<!doctype html>\n<html><head><meta charset="utf-8"><title>pbem play</title>\n'
            f'<meta http-equiv="refresh" content="0; url={target}"></head>\n'
            f'<body><p><a href="{target}">Open the game</a></p></body></html>\n'
        )
        path = directory / "pbem-play.html"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(page)
        return path

    def _check_host_and_token(self, headers: Message, query: Query) -> None:
        if headers.get("Host", "") not in {f"{HOST}:{self.port}", f"localhost:{self.port}"}:
            raise Refused("unknown host")
        given = headers.get("X-Pbem-Token") or (query.get("token") or [""])[0]
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            raise Refused("missing or wrong token")

    def check_launch(self, headers: Message, query: Query) -> None:
        """``/launch`` is entered from the launch file, a page of no origin of ours, so only
        the host and the token are checked; it answers nothing but the way on to ``/``."""
        self._check_host_and_token(headers, query)

    def check(self, method: str, headers: Message, query: Query) -> None:
        """Refuse a request from anywhere but this server's own page."""
        hosts = {f"{HOST}:{self.port}", f"localhost:{self.port}"}
        self._check_host_and_token(headers, query)
        origin = headers.get("Origin")
        if origin is not None and origin not in {f"http://{h}" for h in hosts}:
            raise Refused("cross-origin request")
        if headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            raise Refused("cross-site request")
        if method == "POST" and headers.get("Content-Type", "").split(";")[0].strip() != "application/json":
            raise Refused("orders come as JSON")


def _one(query: Query, name: str) -> str | None:
    values = query.get(name)
    return values[0] if values else None


def _ints(query: Query, name: str) -> tuple[int, ...]:
    out = []
    for v in query.get(name, []):
        for part in v.split(","):
            digits = part.strip().removeprefix("#")
            if digits:
                if not digits.isdigit():
                    raise PbemError(f"'{part[:20]}' is not a unit number", "usage")
                out.append(int(digits))
    return tuple(out)


def _number(text: str | None, what: str) -> float:
    try:
        return float(text or "")
    except ValueError:
        raise PbemError(f"{what} must be a number", "usage") from None


#: What each field of a reaction order takes, for the one line a wrong value gets.
REACT_FIELDS = {
    "intercept": "ask, bot or pass",
    "land": "ask or bot",
    "only": "aircraft numbers such as #7, #31",
    "retreat": "ask, bot or toward:PLACE",
}


def _mode(body: dict[str, object], name: str) -> str | None:
    value = body.get(name)
    if value is not None and not isinstance(value, str):
        raise PbemError(f"{name} is text: {REACT_FIELDS[name]}", "usage")
    return value


def _get_routes(desk: Desk) -> dict[str, Callable[[Query], object]]:
    def at(q: Query) -> object:
        return {"hex": desk.hex_at(_one(q, "window") or "", _number(_one(q, "x"), "x"), _number(_one(q, "y"), "y"))}

    def map_(q: Query) -> object:
        seq = _one(q, "at")
        if seq is not None and not seq.isdigit():
            raise PbemError("at must be a file number", "usage")
        return desk.map(_one(q, "region"), _one(q, "window"), None if seq is None else int(seq), _one(q, "have") or "")

    def legal(q: Query) -> object:
        flt = Filter(_ints(q, "unit"), tuple(q.get("place", [])), tuple(q.get("country", [])), tuple(q.get("kind", [])))
        return desk.legal(flt, _one(q, "window"))

    return {
        "/api/version": lambda q: {"version": desk.version()},
        "/api/overview": lambda q: desk.overview(),
        "/api/map": map_,
        "/api/at": at,
        "/api/hex": lambda q: desk.hex_info(_one(q, "where") or "", _ints(q, "attackers")),
        "/api/odds": lambda q: desk.odds(_one(q, "order") or ""),
        "/api/stack": lambda q: desk.stack(_one(q, "where") or ""),
        "/api/drop": lambda q: desk.drop(_ints(q, "unit"), _one(q, "to") or "", _one(q, "window")),
        "/api/legal": legal,
        "/api/offers": lambda q: desk.offers(),
        "/api/free": lambda q: desk.free(_one(q, "window")),
        "/api/purchases": lambda q: desk.purchases(),
        "/api/suggestion": lambda q: {"text": desk.suggestion()},
        "/api/reports": lambda q: {"reports": desk.reports()},
        "/api/changes": lambda q: desk.changes(_one(q, "window") or ""),
        "/api/ahead": lambda q: desk.ahead(),
        "/api/help": lambda q: desk.help(),
        "/api/ahead/suggestion": lambda q: desk.ahead_suggestion(_one(q, "step") or ""),
    }


def _post_routes(desk: Desk) -> dict[str, Callable[[dict[str, object]], object]]:
    def orders(body: dict[str, object]) -> object:
        lines = body.get("lines")
        if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
            raise PbemError("orders come as a list of lines", "usage")
        return {"message": desk.give(lines, bool(body.get("force")))}

    def take_back(body: dict[str, object]) -> object:
        index = body.get("index")
        if not isinstance(index, int) or isinstance(index, bool):
            raise PbemError("say which pending order to take back by its number", "usage")
        return desk.take_back(index)

    def ahead(body: dict[str, object]) -> object:
        step, lines, fallback = body.get("step"), body.get("lines"), body.get("fallback", "ask")
        if not isinstance(step, str) or not step:
            raise PbemError("say which coming step the orders are for", "usage")
        if not isinstance(lines, list) or not all(isinstance(x, str) for x in lines):
            raise PbemError("orders come as a list of lines", "usage")
        if not isinstance(fallback, str):
            raise PbemError("the fallback is a word: ask, bot or none", "usage")
        return {"message": desk.give_ahead(step, lines, fallback)}

    return {
        "/api/orders": orders,
        "/api/ahead": ahead,
        "/api/undo": lambda body: {"message": desk.undo()},
        "/api/takeback": take_back,
        "/api/send": lambda body: {"message": desk.send(bool(body.get("force")))},
        "/api/react": lambda body: {"message": desk.react(*(_mode(body, name) for name in REACT_FIELDS))},
    }


class _Handler(BaseHTTPRequestHandler):
    server: PlayServer

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the terminal shows the URL and errors, not every request."""

    def _reply(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in HEADERS.items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, doc: object) -> None:
        self._reply(status, json.dumps(doc, ensure_ascii=False).encode(), "application/json; charset=utf-8")

    def _handle(self, method: str) -> None:
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        path = parts.path
        launch = method == "GET" and path == "/launch"
        try:
            if launch:
                self.server.check_launch(self.headers, query)
            else:
                self.server.check(method, self.headers, query)
        except Refused as exc:
            self._json(HTTPStatus.FORBIDDEN, {"error": f"refused: {exc}"})
            return
        if launch:
            onward = html.escape(f"/?token={self.server.token}")
            way_on = f'<!doctype html>\n<meta http-equiv="refresh" content="0; url={onward}">\n'
            self._reply(HTTPStatus.OK, way_on.encode(), "text/html; charset=utf-8")
            return
        if method == "GET" and path == "/":
            page = _static("index.html").replace(b"{{token}}", self.server.token.encode())
            self._reply(HTTPStatus.OK, page, "text/html; charset=utf-8")
            return
        if method == "GET" and path in STATIC:
            self._reply(HTTPStatus.OK, _static(path.rsplit("/", 1)[1]), STATIC[path])
            return
        try:
            if method == "GET" and path in (gets := _get_routes(self.server.desk)):
                with self.server.lock:
                    doc = gets[path](query)
            elif method == "POST" and path in (posts := _post_routes(self.server.desk)):
                body = self._body()
                with self.server.lock:
                    doc = posts[path](body)
            else:
                self._json(HTTPStatus.NOT_FOUND, {"error": f"no such page: {path[:80]}"})
                return
        except PbemError as exc:
            self._json(HTTPStatus.BAD_REQUEST, {"error": str(exc), "rule": exc.rule, "code": exc.code})
            return
        except Exception as exc:  # one line for the page, as the command line prints it
            line = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
            self._json(HTTPStatus.INTERNAL_SERVER_ERROR, {"error": f"internal error: {line}"})
            return
        self._json(HTTPStatus.OK, doc)

    def _body(self) -> dict[str, object]:
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY:
            raise PbemError("request too large", "usage")
        try:
            doc = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            raise PbemError("the request is not JSON", "usage") from None
        if not isinstance(doc, dict):
            raise PbemError("the request is not a JSON object", "usage")
        return doc

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")
