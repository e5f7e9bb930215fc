"""Start-up: what every command pays before it does anything.

Each figure is measured in a fresh interpreter (a subprocess), as a user's command
would be: the packaged world map loaded with its tables, and whole `pbem status`,
`pbem show` and `pbem where` processes on a 1939 game played past its first
deployment (about 280 units on the map).  ``PBEM_BENCH_TREE`` names another source
tree to time the same commands with (say, a checkout of an older commit), so that
before and after are measured on one machine at one time.

Wall time is what a player waits; on a machine other jobs load, it measures the load
as much as the work, so each process's CPU time (user + system) is printed too.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

#: The map and its tables, timed after the engine's modules are imported (they are
#: counted in the whole-process figures below): the land table alone (what the figure
#: of earlier days measured), then every neighbour table the engine reads.
MAP_LOAD = (
    "import time; from engine.newgame import world_map; t, c = time.perf_counter(), time.process_time(); "
    "m = world_map(); m.digest(); m.land_neighbours; print(time.perf_counter() - t, time.process_time() - c)"
)
ALL_TABLES = (
    "import time; from engine.newgame import world_map; t, c = time.perf_counter(), time.process_time(); "
    "m = world_map(); m.digest(); m.land_neighbours; m.frozen_neighbours; m.sea_links; m.sea_neighbours; "
    "m.naval_zoc_neighbours; m.land_table; m.sea_table; print(time.perf_counter() - t, time.process_time() - c)"
)
ROOT = Path(__file__).resolve().parent.parent


def _fresh(code: str, tree: Path = ROOT) -> tuple[float, float]:
    """The wall and CPU seconds that ``code`` prints, run in a fresh interpreter."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    # Run in the tree: `python3 -c` puts the current folder first on the module path.
    run = subprocess.run([sys.executable, "-c", code], cwd=tree, check=True, capture_output=True, text=True, env=env)
    out = run.stdout
    wall, cpu = out.split()
    return float(wall), float(cpu)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU time of one process (this process runs one child at a time)."""
    cpu = _children_cpu()
    t = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    took = time.perf_counter() - t
    if done.returncode:
        raise RuntimeError(f"{' '.join(cmd[1:])} ({env.get('PYTHONPATH')}): exit {done.returncode}: {done.stderr}")
    return took, _children_cpu() - cpu


def _game(root: Path) -> tuple[Path, str, dict[str, str]]:
    """A 1939 game between two workspaces, played by the bot on both sides until both
    have units on the map and the first deployment is over; the allies' workspace."""
    from pbem.play import exchange, games, turn
    from pbem.protocol import engine_link
    from pbem.store import keys
    from pbem.store.localgame import LocalGame
    from pbem.store.store import Workspace

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
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    trees = [("", ROOT)]
    if os.environ.get("PBEM_BENCH_TREE"):
        trees.append((" [other tree]", Path(os.environ["PBEM_BENCH_TREE"])))
    for name, code in (("world map with its land table", MAP_LOAD), ("world map with all its tables", ALL_TABLES)):
        loads: dict[str, list[tuple[float, float]]] = {}
        for _ in range(repeat):  # interleaved, as below
            for tag, tree in trees:
                loads.setdefault(tag, []).append(_fresh(code, tree))
        for tag, seconds in loads.items():
            walls, cpus = [wall for wall, _ in seconds], [cpu for _, cpu in seconds]
            report(f"{name}{tag}", statistics.median(walls), min(walls), target_ms=60)
            report(f"  CPU: {name}{tag}", statistics.median(cpus), min(cpus))
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
        times: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for round_ in range(repeat + 1):
            for tag, tree in trees:
                tree_env = dict(env, PYTHONPATH=str(tree))
                for name, args, _ in runs if not tag else runs[:2]:  # an older tree lacks the new commands
                    t = _timed([*base, *args], me, tree_env)
                    if round_:
                        times.setdefault((tag, name), []).append(t)
            for name, code in (("`import typer`", "import typer"), ("a bare `python3 -c pass`", "pass")):
                t = _timed([sys.executable, "-c", code], me, env)
                if round_:
                    times.setdefault(("", name), []).append(t)
        targets = {name: target for name, _, target in runs}
        for (tag, name), samples in times.items():
            walls = [wall for wall, _ in samples]
            report(f"{name}{tag}", statistics.median(walls), min(walls), target_ms=targets.get(name))
        for (tag, name), samples in times.items():
            cpus = [cpu for _, cpu in samples]
            report(f"  CPU: {name}{tag}", statistics.median(cpus), min(cpus))
