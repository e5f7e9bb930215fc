"""How far long work got (selfplay, arena, audit, log): one line on stderr, rewritten in
place, while stderr is a terminal; nothing when it is not (a pipe, a file, a test) or with
``--quiet``.  The line is wiped when the work ends, so what the command prints stays as it was."""

from __future__ import annotations

import shutil
import sys
import time
from types import TracebackType
from typing import Annotated, TextIO

import typer

QuietOpt = Annotated[
    bool, typer.Option("--quiet", "-q", help="No progress line on the terminal (it is never shown off a terminal)")
]
#: Seconds between two rewrites of the line at least: a terminal need not be written faster than read.
EVERY = 0.1


class Progress:
    """``progress(text)`` shows ``text`` as the line; usable as a context manager that wipes it."""

    def __init__(self, quiet: bool = False, stream: TextIO | None = None) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.on = not quiet and self.stream.isatty()
        self.shown = 0  # characters on the line now
        self.last = 0.0

    def __call__(self, text: str) -> None:
        now = time.monotonic()
        if not self.on or now - self.last < EVERY:
            return
        self.last = now
        line = text[: max(10, shutil.get_terminal_size().columns - 1)]
        self.stream.write("\r" + line + " " * max(0, self.shown - len(line)))
        self.stream.flush()
        self.shown = len(line)

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * self.shown + "\r")
            self.stream.flush()
            self.shown = 0

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
