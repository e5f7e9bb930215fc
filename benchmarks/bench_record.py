"""Every file of a self-played 1939 record verified and applied, the state hash, and
`pbem scenario info` (issue 25's speed targets).

The record is the one the README makes, ``pbem selfplay --scenario 1939 --until
1940-06 --seed 1`` (about 220 files); it is played in a temporary folder (a minute or
two of CPU) unless ``PBEM_BENCH_RECORD`` names a folder holding it already.  Each file
is verified and applied from the game as it stood before it, as a receiver does: parse,
signature, chain link, re-execution of every record, state hash.  Files are timed in
CPU time (``time.process_time``), which a loaded machine disturbs less than the wall
clock, in rounds over the whole record: a file verified twice in a row would find the
supply maps of its states kept from the first time, which a receiver does not.
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

from pbem.play import audit
from pbem.protocol import machine, replay, turnfile

ROOT = Path(__file__).resolve().parent.parent
#: (file number, game snapshot before it, its bytes, what it holds) for each file of a record
Snapshots = list[tuple[int, bytes, bytes, str]]
#: calls timed together in one sample of a sub-millisecond measure: a virtual machine's
#: CPU clock read around one call of a quarter millisecond added a tenth of a millisecond
#: to the median (0.35 ms by CPU clock, 0.23 ms by the wall clock, on an idle machine)
BATCH = 20


def record_snapshots(record: Path) -> Snapshots:
    """(file number, game snapshot before it, its bytes, its first record's kind) for every
    turn file of ``record`` after the genesis and the join."""
    [(_, files)] = audit.game_files(record).items()
    files.sort(key=lambda f: f.seq)
    out = []
    before = b""
    for game in replay.walk(files):
        if game.seq >= 2:
            f = files[game.seq]
            records = f.body["records"]
            what = f"{len(records)} records, first {records[0][0] if records else '-'}"
            out.append((f.seq, before, f.raw, what))
        before = game.to_bytes()
    return out


def _selfplay_record(out: Path) -> Path:
    from pbem.play.selfplay import selfplay

    selfplay("1939", "1940-06", 1, out)
    return out


def bench_record_verify(report: Callable[..., None], files: Snapshots, rounds: int = 5) -> None:
    samples: dict[int, list[float]] = {seq: [] for seq, *_ in files}
    for round_ in range(rounds + 1):  # the first round warms the map's tables
        for seq, before, raw, _ in files:
            game = machine.Game.from_bytes(before)
            t0 = time.process_time()
            machine.apply_turn(game, machine.authenticate(game.genesis, turnfile.parse(raw), game))
            if round_:
                samples[seq].append(time.process_time() - t0)
    about = {seq: what for seq, _, _, what in files}
    medians = {seq: statistics.median(times) for seq, times in samples.items()}
    slowest = sorted(medians, key=medians.__getitem__, reverse=True)
    print(f"{len(files)} files, {rounds} rounds; the ten slowest by median (CPU):")
    for seq in slowest[:10]:
        median, most = medians[seq] * 1000, max(samples[seq]) * 1000
        print(f"  file {seq:4d} ({about[seq]}): median {median:6.1f} ms, max {most:6.1f} ms")
    worst_max = max(max(times) for times in samples.values())
    report("verify+apply: median of the slowest file", medians[slowest[0]], min(samples[slowest[0]]), target_ms=15)
    print(f"{'verify+apply: largest single time of any file':<48} {worst_max * 1000:9.2f} ms   (target < 25 ms)")
    everything = sorted(medians.values())
    report("verify+apply: median file", statistics.median(everything), everything[0])


def bench_state_hash(report: Callable[..., None], files: Snapshots) -> None:
    """The hash of the last state of the record, after a change to one unit (a hash that
    only repeated the last one's work would be no measure); CPU time, as above."""
    from pbem.protocol import engine_link

    api = engine_link.api()
    state = machine.Game.from_bytes(files[-1][1]).state
    unit = next(u for u in state.units.values() if u.on_map)
    samples = []
    for _ in range(101):
        t0 = time.process_time()
        for i in range(BATCH):
            unit.mp_used = i % 2
            api.state_hash(state)
        samples.append((time.process_time() - t0) / BATCH)
    samples.sort()
    report(f"state hash of the record's last state ({len(state.units)} units)", samples[50], samples[0], target_ms=0.3)


def bench_warm_supply(report: Callable[..., None], files: Snapshots) -> None:
    """Each side's supply map asked again, as the rules ask it, for every unit of the side
    on the record's last state: the map itself is kept (the state is unchanged), so this
    is the price of finding it (its stamp) and of the questions; CPU time."""
    from engine.supply import supply_of_side

    state = machine.Game.from_bytes(files[-1][1]).state
    for side in ("axis", "allies"):
        units = state.side_units(side)
        supply_of_side(state, side)
        samples = []
        for _ in range(101):
            t0 = time.process_time()
            for _ in range(BATCH):
                smap = supply_of_side(state, side)
                for u in units:
                    smap.in_supply(u)
            samples.append((time.process_time() - t0) / BATCH)
        samples.sort()
        report(f"warm supply map of the {side}, every unit ({len(units)})", samples[50], samples[0], target_ms=0.15)


def _whole_process(
    cmd: list[str], env: dict[str, str], repeat: int, before_each: Callable[[], None]
) -> tuple[list[float], list[float]]:
    """Wall and CPU (user + system) seconds of ``repeat`` runs of ``cmd``."""
    walls, cpus = [], []
    for _ in range(repeat):
        before_each()
        before = os.times()
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, env=env, check=True, capture_output=True)
        walls.append(time.perf_counter() - t0)
        after = os.times()
        cpus.append(after.children_user + after.children_system - before.children_user - before.children_system)
    return walls, cpus


def bench_scenario_info(report: Callable[..., None], repeat: int = 7) -> None:
    """`pbem scenario info 1939`, whole process, wall and CPU: cold (no answer kept in the
    cache folder: each run makes it) and warm (the answer kept by the run before, as a
    user's second run finds it: the target); and a bare interpreter, for scale."""
    cmd = [sys.executable, "-m", "pbem.cli.main", "scenario", "info", "1939"]
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=cache)
        for kind, before_each in (
            ("cold", lambda: shutil.rmtree(Path(cache, "pbem"), ignore_errors=True)),
            ("warm", lambda: None),
        ):
            walls, cpus = _whole_process(cmd, env, repeat, before_each)
            target = 150 if kind == "warm" else None
            report(f"`pbem scenario info 1939` {kind}, whole process", statistics.median(walls), min(walls), target)
            report("  CPU", statistics.median(cpus), min(cpus))
        walls, cpus = _whole_process([sys.executable, "-c", "pass"], env, repeat, lambda: None)
        report("a bare interpreter (python -c pass), whole process", statistics.median(walls), min(walls))
        report("  CPU", statistics.median(cpus), min(cpus))


def bench_record(report: Callable[..., None]) -> None:
    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    given = os.environ.get("PBEM_BENCH_RECORD")
    with tempfile.TemporaryDirectory() as tmp:
        if given:
            record = Path(given)
        else:
            t = time.process_time()
            record = _selfplay_record(Path(tmp) / "record")
            print(f"self-played the 1939 record to 1940-06 in {time.process_time() - t:.0f} s of CPU")
        files = record_snapshots(record)
    bench_record_verify(report, files)
    bench_state_hash(report, files)
    bench_warm_supply(report, files)
    bench_scenario_info(report)
