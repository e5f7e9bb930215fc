"""Run the `pbem` command line in a forked child of the test process (engine double).

A fresh interpreter spends most of a short command importing typer, pydantic and our
modules; a forked child starts with them already imported, and is still a process of
its own: it dies for real at a crash point (``os._exit``), its exit status and output
are what a player's shell would see, and nothing it does reaches the test process.
What a fork cannot show, that a command starts in a brand-new interpreter, the tests
that launch ``run_cli.py`` keep showing (the crash test's reference import among them).
"""

from __future__ import annotations

import functools
import io
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
import traceback

from pbem.cli import main
from pbem.protocol import engine_link
from tests.protocol import fakeengine

#: Exit status of a child whose command raised something other than SystemExit, as the
#: interpreter gives for an uncaught exception.
UNCAUGHT = 1


def run(args: list[str], env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``pbem ARGS`` with environment ``env``, stdin empty; like :func:`subprocess.run` with
    ``capture_output=True, text=True``."""
    if args and args[0] in main.COMMANDS:
        _prepare(main.COMMANDS[args[0]])
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child, which never returns
            _child(args, env, out.fileno(), err.fileno())
        status = _wait(pid, timeout, args)
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(
            ["pbem", *args], status, out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace")
        )


@functools.cache
def _prepare(module: str) -> None:
    """Import a command's module and typer's layer for it once, before any fork: no child pays."""
    main.module_commands(module)


def _wait(pid: int, timeout: float, args: list[str]) -> int:
    end = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > end:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise subprocess.TimeoutExpired(["pbem", *args], timeout)
        time.sleep(0.002)


def _child(args: list[str], env: dict[str, str], out: int, err: int) -> None:  # pragma: no cover
    code = UNCAUGHT
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115 - lives as long as the child
        sys.stdout = io.TextIOWrapper(open(1, "wb", closefd=False), encoding="utf-8", line_buffering=True)  # noqa: SIM115
        sys.stderr = io.TextIOWrapper(open(2, "wb", closefd=False), encoding="utf-8", line_buffering=True)  # noqa: SIM115
        logging.root.handlers.clear()  # the test run's log capture is not the child's to feed
        os.environ.clear()
        os.environ.update(env)
        sys.argv = ["pbem", *args]
        engine_link.use(fakeengine, fakeengine.ai)  # type: ignore[arg-type]
        try:
            main.run()
            code = 0
        except SystemExit as exc:
            if exc.code is None or isinstance(exc.code, int):
                code = exc.code or 0
            else:
                print(exc.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)
