"""`pbem play` as a person runs it: prints the address, serves it, stops on Ctrl-C."""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import stat
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import unquote, urlsplit

from tests.protocol.conftest import Duo

ROOT = Path(__file__).resolve().parents[2]


def _pbem(duo: Duo, *args: str, browser: Path | None = None) -> subprocess.Popen[str]:
    env = {**os.environ, "PBEM_HOME": str(duo.axis.home), "PYTHONPATH": str(ROOT)}
    if browser is not None:
        env["BROWSER"] = str(browser)
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


def _get(port: int, path: str, **headers: str) -> tuple[int, str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("GET", path, headers={"Host": f"127.0.0.1:{port}", **headers})
        r = conn.getresponse()
        return r.status, r.read().decode()
    finally:
        conn.close()


def _refresh_target(page: str) -> str:
    found = re.search(r'http-equiv="refresh" content="0; url=([^"]+)"', page)
    assert found, page
    return found[1].replace("&amp;", "&")


def test_the_browser_is_started_without_the_token_on_its_command_line(game_1939: Duo, tmp_path: Path) -> None:
    """A command line is every local user's to read (/proc/PID/cmdline): the browser gets the
    path of a file only this user can read, which leads it into the page."""
    seen = tmp_path / "browser-argv"
    browser = tmp_path / "browser"
    browser.write_text(f'#!/bin/sh\ncat /proc/$$/cmdline | tr "\\0" "\\n" > "{seen}.tmp"\nmv "{seen}.tmp" "{seen}"\n')
    browser.chmod(0o755)
    proc = _pbem(game_1939, "play", game_1939.gid[:6], browser=browser)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        base, token = line.split("open ", 1)[1].split()[0].split("/?token=")
        port = int(base.rsplit(":", 1)[1])
        deadline = time.monotonic() + 60
        while not seen.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        argv = seen.read_text().splitlines()
        assert token not in "".join(argv) and len(argv) == 3 and argv[2].startswith("file://"), argv
        launch = Path(unquote(urlsplit(argv[2]).path))
        assert stat.S_IMODE(launch.stat().st_mode) == 0o600 and stat.S_IMODE(launch.parent.stat().st_mode) == 0o700
        # The file leads to /launch (a navigation from a page of no origin of ours) ...
        target = urlsplit(_refresh_target(launch.read_text()))
        assert target.netloc == f"127.0.0.1:{port}" and target.path == "/launch"
        status, page = _get(port, f"{target.path}?{target.query}", **{"Sec-Fetch-Site": "cross-site"})
        assert status == 200
        # ... and on to the page itself, which works as before.
        onward = _refresh_target(page)
        status, page = _get(port, onward, **{"Sec-Fetch-Site": "same-origin"})
        assert status == 200 and "<title>pbem play</title>" in page and token in page
        req = urllib.request.Request(f"{base}/api/overview", headers={"X-Pbem-Token": token})
        with urllib.request.urlopen(req, timeout=60) as r:
            assert json.loads(r.read())["game"] == game_1939.gid
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and not launch.exists()
