"""Start-up: what every command pays before it does anything.

Each figure is measured in a fresh interpreter (a subprocess), as a user's command
would be: the packaged world map loaded with its tables, and whole `pbem status`,
`pbem show` and `pbem where` processes on a 1939 game played past its first
deployment (about 280 units on the map).  ``PBEM_BENCH_TREE`` names another source
tree to time the same commands with (say, a checkout of an older commit), so that
before and after are measured on one machine at one time.
"""

from __future__ import annotations

import os
import shutil
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
ROOT = Path(__file__).resolve().parent.parent


def _fresh(code: str) -> float:
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def _timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    t = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    took = time.perf_counter() - t
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd[1:])} ({env.get('PYTHONPATH')}): exit {done.returncode}: {done.stderr}")
    return took


def _game(root: Path) -> tuple[Path, str, dict[str, str]]:
    """A 1939 game between two workspaces, played by the bot on both sides until both
    have units on the map and the first deployment is over; the allies' workspace."""
    from pbem import engine_link, exchange, games, keys, turn
    from pbem.localgame import LocalGame
    from pbem.store import Workspace

    env = dict(os.environ, PBEM_HOME=str(root / "home"), PYTHONPATH=str(ROOT))
    os.environ["PBEM_HOME"] = env["PBEM_HOME"]
    keys.keygen("alice", "", None)
    bot_key = keys.keygen("bot", "", None).public
    ws = {"allies": Workspace(root / "me"), "axis": Workspace(root / "bot")}
    for w in ws.values():
        w.inbox.mkdir(parents=True)
    gid, invitation = games.new_game(ws["allies"], "1939", "allies", "alice", bot_key, "")
    games.join(ws["axis"], invitation, "bot")
    delivered = {invitation.name}
    api = engine_link.api()
    for _ in range(40):
        for side, other in (("axis", "allies"), ("allies", "axis")):
            w = ws[side]
            for f in sorted(w.inbox.glob("*.pbem")):
                exchange.import_file(w.root, f)
            if exchange.game_info(w.root, gid).my_turn:
                turn.bot_play(w, gid)
            for f in sorted(w.outbox.glob("*.pbem")):
                if f.name not in delivered:
                    delivered.add(f.name)
                    shutil.copy(f, ws[other].inbox / f.name)
        game = LocalGame(ws["allies"], gid).game()
        assert game is not None
        placed = {game.state.countries[u.country].side for u in game.state.units.values() if u.on_map}
        if {"axis", "allies"} <= placed and api.decision(game.state).phase not in ("war_declaration", "deployment"):
            break
    return ws["allies"].root, gid, env


def bench_startup(report: Callable[..., None], repeat: int = 15) -> None:
    loads = [_fresh(MAP_LOAD) for _ in range(repeat)]
    report("world map with its tables (fresh process)", statistics.median(loads), min(loads), target_ms=60)
    trees = [("", ROOT)]
    if os.environ.get("PBEM_BENCH_TREE"):
        trees.append((" [other tree]", Path(os.environ["PBEM_BENCH_TREE"])))
    with tempfile.TemporaryDirectory() as tmp:
        me, gid, env = _game(Path(tmp))
        base = [sys.executable, "-m", "pbem.cli.main"]
        runs = [
            ("`pbem status GAME`", ["status", gid], 150),
            ("`pbem show GAME`", ["show", gid], 150),
            ("`pbem show GAME --enemy`", ["show", gid, "--enemy"], 150),
            ("`pbem where GAME #1`", ["where", gid, "#1"], 150),
            ("`pbem where GAME Berlin` (loads the engine)", ["where", gid, "Berlin"], None),
        ]
        # Interleaved rounds, after one warm-up round: a load on the machine touches every row alike.
        times: dict[tuple[str, str], list[float]] = {}
        for round_ in range(repeat + 1):
            for tag, tree in trees:
                tree_env = dict(env, PYTHONPATH=str(tree))
                for name, args, _ in runs if not tag else runs[:2]:  # an older tree lacks the new commands
                    t = _timed([*base, *args], me, tree_env)
                    if round_:
                        times.setdefault((tag, name), []).append(t)
            for name, code in (("`import typer`, the floor", "import typer"), ("a bare `python3 -c pass`", "pass")):
                t = _timed([sys.executable, "-c", code], me, env)
                if round_:
                    times.setdefault(("", name), []).append(t)
        targets = {name: target for name, _, target in runs}
        for (tag, name), samples in times.items():
            report(f"{name}{tag}", statistics.median(samples), min(samples), target_ms=targets.get(name))
