"""Progress of long work (selfplay, audit, log, arena): a line on stderr rewritten in place
while stderr is a terminal, nothing off a terminal or with --quiet (pbem/cli/progress.py).

The commands run in processes of their own with stderr on a pseudo-terminal, as a person's
shell gives it, on the engine double (arena, which plays by the engine's own rules, on the
real engine with random players)."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pbem.cli import progress as progress_mod
from pbem.cli.progress import Progress
from tests.protocol.test_crash import RUN

ROOT = Path(__file__).resolve().parents[2]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_line_is_rewritten_in_place_and_wiped_at_the_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress_mod, "EVERY", 0.0)
    screen = Terminal()
    with Progress(stream=screen) as progress:
        progress("log: file 9 of 120")
        progress("log: file 10 of 120")
    assert screen.getvalue() == "\rlog: file 9 of 120\rlog: file 10 of 120" + "\r" + " " * 19 + "\r"
    for quiet, stream in ((True, Terminal()), (False, io.StringIO())):
        with Progress(quiet, stream) as progress:
            progress("log: file 1 of 2")
        assert stream.getvalue() == ""


def test_a_faster_stream_of_steps_is_shown_at_most_ten_times_a_second() -> None:
    screen = Terminal()
    progress = Progress(stream=screen)
    for i in range(1000):
        progress(f"step {i}")
    assert screen.getvalue() == "\rstep 0"


def on_terminal(args: list[str], home: Path, real: bool = False) -> tuple[str, str]:
    """``pbem ARGS`` with stderr on a pseudo-terminal: (stdout, what the terminal showed)."""
    main, child = pty.openpty()
    command = [sys.executable, "-c", "from pbem.cli.main import run; run()"] if real else [sys.executable, str(RUN)]
    env = dict(os.environ, PBEM_HOME=str(home), PYTHONPATH=str(ROOT))
    proc = subprocess.Popen(
        [*command, *args], stdout=subprocess.PIPE, stderr=child, stdin=subprocess.DEVNULL, env=env, text=True
    )
    os.close(child)
    shown: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                chunk = os.read(main, 4096)
            except OSError:  # the other end closed: the process has ended
                return
            if not chunk:
                return
            shown.append(chunk)

    reader = threading.Thread(target=drain)
    reader.start()
    out, _ = proc.communicate(timeout=300)
    reader.join(timeout=30)
    os.close(main)
    assert proc.returncode == 0, b"".join(shown).decode(errors="replace")
    return out, b"".join(shown).decode(errors="replace")


def test_selfplay_audit_and_log_show_progress_on_a_terminal_only(tmp_path: Path) -> None:
    rec = tmp_path / "rec"
    out, shown = on_terminal(["selfplay", "--scenario", "tiny", "--until", "1939-11", "--out", str(rec)], tmp_path)
    assert out.startswith("selfplay: game ") and out.count("\n") == 1  # stdout says what it always said
    assert "\rselfplay: file " in shown and shown.endswith("\r")  # the line was wiped at the end
    out, shown = on_terminal(["audit", str(rec)], tmp_path)
    assert out.startswith("audit OK") and "\raudit: game " in shown
    out, shown = on_terminal(["log", str(rec)], tmp_path)
    assert out.startswith("file 1 of game") and "\rlog: file " in shown
    for args in (["audit", str(rec), "--quiet"], ["log", str(rec), "-q"], ["selfplay", "-v", "--scenario", "tiny",
                 "--until", "1939-10", "--out", str(tmp_path / "again")]):  # fmt: skip
        out, shown = on_terminal(args, tmp_path)
        assert out and shown == "", args  # -v keeps its line per file on stdout, and shows no other
    # Off a terminal, nothing on stderr.
    env = dict(os.environ, PBEM_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    piped = subprocess.run([sys.executable, str(RUN), "audit", str(rec)], capture_output=True, text=True, env=env)
    assert piped.returncode == 0 and piped.stderr == "" and piped.stdout.startswith("audit OK")


def test_arena_shows_the_game_month_and_phase_on_a_terminal(tmp_path: Path) -> None:
    args = ["arena", "--until", "1939-10", "--axis", "random", "--allies", "random", "--no-ahead"]
    out, shown = on_terminal(args, tmp_path, real=True)
    assert "\rarena: game 1 of 1, 1939-09 " in shown and shown.endswith("\r")
    assert out.splitlines()[0].startswith("game ")  # each game's line, then the summary, on stdout
