"""The log line of the mail daemon and the bot service: one line per event, naming the
worker and the game it concerns, so a service's log can be searched by game.

    2026-11-25T10:41:27 INFO worker=w1 game=3f9c0a12b4d5 bot: played game ... as allies

``game=-`` marks a line about no game in particular.
"""

from __future__ import annotations

import contextlib
import contextvars
import logging
import sys
from collections.abc import Iterator

_game: contextvars.ContextVar[str] = contextvars.ContextVar("pbem_mail_game", default="-")
FORMAT = "%(asctime)s %(levelname)s worker=%(worker)s game=%(game)s %(message)s"


@contextlib.contextmanager
def game_context(game_id: str) -> Iterator[None]:
    """Every log line written inside names ``game_id``."""
    token = _game.set(game_id)
    try:
        yield
    finally:
        _game.reset(token)


class _Context(logging.Filter):
    def __init__(self, worker: str) -> None:
        super().__init__()
        self.worker = worker or "-"

    def filter(self, record: logging.LogRecord) -> bool:
        record.worker = self.worker
        record.game = _game.get()
        return True


def setup(verbose: bool, worker: str = "") -> None:
    """Log to stderr in the line format above (a service manager keeps stderr)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter(FORMAT, datefmt="%Y-%m-%dT%H:%M:%S"))
    handler.addFilter(_Context(worker))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    # Library chatter (imapclient logs every command at DEBUG) is not for players.
    for name in ("imapclient", "aiosmtplib", "asyncio"):
        logging.getLogger(name).setLevel(logging.WARNING)
