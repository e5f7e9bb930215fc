"""`pbem play` as a person runs it: prints the address, serves it, stops on Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.protocol.conftest import Duo

ROOT = Path(__file__).resolve().parents[2]


def _pbem(duo: Duo, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PBEM_HOME": str(duo.axis.home), "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "pbem.cli.main", *args, "-w", str(duo.axis.ws.root)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_play_serves_the_game_and_stops_cleanly_on_ctrl_c(game_1939: Duo) -> None:
    proc = _pbem(game_1939, "play", game_1939.gid[:6], "--no-browser")
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith(f"game {game_1939.gid}: open http://127.0.0.1:"), line
        url = line.split("open ", 1)[1].split()[0]
        base, token = url.split("/?token=")
        req = urllib.request.Request(f"{base}/api/overview", headers={"X-Pbem-Token": token})
        with urllib.request.urlopen(req, timeout=60) as r:
            assert json.loads(r.read())["game"] == game_1939.gid
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)  # a whole interpreter to end on a busy machine
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and "stopped" in out and "Traceback" not in err


def test_play_of_an_unknown_game_is_one_line_and_a_failure(game_1939: Duo) -> None:
    proc = _pbem(game_1939, "play", "zzzz", "--no-browser")
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1 and err.startswith("error: ") and len(err.strip().splitlines()) == 1
