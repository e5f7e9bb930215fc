"""Start-up: what every command pays before it does anything.

Each figure is measured in a fresh interpreter (a subprocess), as a user's command
would be: the packaged world map loaded with its tables, and whole `pbem status`
and `pbem show` processes on a game made for the purpose.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

#: The map and its tables, timed after the engine's modules are imported (they are
#: counted in the whole-process figures below).
MAP_LOAD = (
    "import time; from engine.newgame import world_map; t = time.perf_counter(); m = world_map(); "
    "m.digest(); m.land_neighbours; print(time.perf_counter() - t)"
)


def _fresh(code: str) -> float:
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def _timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, env=env, check=True, capture_output=True)
    return time.perf_counter() - t


def _game(root: Path) -> tuple[Path, str, dict[str, str]]:
    """A 1939 game between two workspaces, after the bot's first answer."""
    env = dict(os.environ, PBEM_HOME=str(root / "home"))
    pbem = [sys.executable, "-m", "pbem.cli.main"]

    def run(*args: str, cwd: Path = root) -> str:
        return subprocess.run([*pbem, *args], cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout

    run("keygen", "alice")
    run("keygen", "bot")
    run("key", "export", "bot", "-o", str(root / "bot.pub"))
    me, bot = root / "me", root / "bot"
    for d in (me, bot):
        (d / "inbox").mkdir(parents=True)
    gid = run(
        "new", "--scenario", "1939", "--side", "allies", "--me", "alice", "--opponent", str(root / "bot.pub"), cwd=me
    )
    gid = gid.split()[0][:12]
    for f in (me / "outbox").glob("*.pbem"):
        (bot / "inbox" / f.name).write_bytes(f.read_bytes())
    invitation = next((bot / "inbox").glob("*.pbem"))
    run("join", str(invitation), "--me", "bot", cwd=bot)
    run("bot", "play", gid, cwd=bot)
    for f in (bot / "outbox").glob("*.pbem"):
        (me / "inbox" / f.name).write_bytes(f.read_bytes())
    run("import", cwd=me)
    return me, gid, env


def bench_startup(report: Callable[..., None], repeat: int = 7) -> None:
    loads = [_fresh(MAP_LOAD) for _ in range(repeat)]
    report("world map with its tables (fresh process)", statistics.median(loads), min(loads), target_ms=60)
    with tempfile.TemporaryDirectory() as tmp:
        me, gid, env = _game(Path(tmp))
        base = [sys.executable, "-m", "pbem.cli.main"]
        for name, args in (("`pbem status GAME`", ["status", gid]), ("`pbem show GAME`", ["show", gid])):
            times = [_timed([*base, *args], me, env) for _ in range(repeat)]
            report(f"{name}, whole process", statistics.median(times), min(times), target_ms=150)
        bare = [_timed([sys.executable, "-c", "pass"], me, env) for _ in range(repeat)]
        report("a bare Python process, for comparison", statistics.median(bare), min(bare))
