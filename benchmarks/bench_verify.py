"""Verifying and applying one received turn file (pbem/protocol/machine.py); goal < 50 ms.

A 1939 game is played by the computer in memory (real signed files, real dice and
commitments) into its second month; the Axis main-phase file with the most
actions is then verified and applied from the state before it, as a receiver does:
parse, signature, chain link, re-execution of every action, state hash.

The naval-heavy files are those of the recorded air and sea game (1939, seed 1, to
1940-07) that move ships by destination only: the receiver must find each such path.
They are timed in CPU time (``time.process_time``), which a loaded machine disturbs
less than the wall clock, in rounds over all of them (see :func:`bench_recorded_naval_verify`).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from pbem.play import audit
from pbem.play.memplay import MemoryMatch
from pbem.protocol import machine, replay, turnfile
from pbem.protocol.records import Act


def typical_file(scenario: str = "1939", seed: int = 1) -> tuple[bytes, bytes, int]:
    """(game snapshot before the file, the file's bytes, its record count)."""
    match = MemoryMatch(scenario, seed)
    start = getattr(match.game.state, "date", 0)
    match.play(lambda g: getattr(g.state, "date", 0) > start + 1, max_files=2000)
    files = match.files
    best = max(
        (f for f in files[2:] if f.side == "axis"), key=lambda f: sum(1 for r in f.records if isinstance(r, Act))
    )
    game = replay.replay(files, upto=best.seq - 1)
    return game.to_bytes(), best.raw, len(best.records)


def _naval_orders(f: turnfile.TurnFile) -> int:
    return sum(1 for r in f.body["records"] if r[0] == "act" and "naval" in repr(r[1:2]))


def naval_file(scenario: str = "1939", seed: int = 1, months: int = 4) -> tuple[bytes, bytes, int, int]:
    """(snapshot before, the file, records, naval attacks) for the main-phase file with the
    most naval attacks in the first ``months`` months (the naval-heavy case)."""
    match = MemoryMatch(scenario, seed)
    start = getattr(match.game.state, "date", 0)
    match.play(lambda g: getattr(g.state, "date", 0) > start + months, max_files=6000)
    files = match.files
    best = max(files[2:], key=_naval_orders)
    game = replay.replay(files, upto=best.seq - 1)
    return game.to_bytes(), best.raw, len(best.body["records"]), _naval_orders(best)


def bench_naval_verify(report: Callable[..., None]) -> None:
    before, raw, n, naval = naval_file()
    print(f"naval-heavy file: {n} records, {naval} naval attacks, {len(raw)} bytes")
    samples = []
    for _ in range(11):
        game = machine.Game.from_bytes(before)
        t0 = time.perf_counter()
        machine.apply_turn(game, machine.authenticate(game.genesis, turnfile.parse(raw), game))
        samples.append(time.perf_counter() - t0)
    samples.sort()
    report(f"verify+apply the naval-heavy file ({n} records)", samples[5], samples[0], target_ms=50)


def bench_verify(report: Callable[..., None]) -> None:
    t = time.perf_counter()
    try:
        before, raw, n = typical_file()
    except Exception as exc:  # the engine or its data may not be ready
        print(f"verify a turn file: skipped ({type(exc).__name__}: {exc})")
        return
    print(f"recorded a 1939 game in memory in {time.perf_counter() - t:.1f} s; file of {n} records, {len(raw)} bytes")
    repeat = 15
    games = [machine.Game.from_bytes(before) for _ in range(repeat + 1)]

    def verify() -> None:
        game = games.pop()
        machine.apply_turn(game, machine.authenticate(game.genesis, turnfile.parse(raw)))

    samples = []
    for _ in range(repeat + 1):
        t0 = time.perf_counter()
        verify()
        samples.append(time.perf_counter() - t0)
    samples = sorted(samples[1:])
    median = samples[len(samples) // 2]
    report(f"verify+apply one main-phase file ({n} records)", median, samples[0], target_ms=50)
    report("  per record", median / n, samples[0] / n)

    loaded = machine.Game.from_bytes(before)
    genesis, state = loaded.genesis, loaded.state
    from pbem.protocol import engine_link

    api = engine_link.api()

    def protocol_only() -> None:
        machine.authenticate(genesis, turnfile.parse(raw))
        api.state_hash(state)

    samples = []
    for _ in range(50):
        t0 = time.perf_counter()
        protocol_only()
        samples.append(time.perf_counter() - t0)
    samples.sort()
    report("  of which parse + signature + state hash", samples[25], samples[0])

    def load_and_save() -> None:
        machine.Game.from_bytes(before).to_bytes()

    t0 = time.perf_counter()
    for _ in range(5):
        load_and_save()
    per = (time.perf_counter() - t0) / 5
    report("load + save the game snapshot (import overhead)", per, per)


AIR_RECORD = Path(__file__).resolve().parent.parent / "tests" / "data" / "records" / "1939-air-seed1"


def _ships_by_destination(game: machine.Game, f: turnfile.TurnFile) -> int:
    """Moves of ships in ``f`` that name only their destination (``move SHIP HEX``)."""
    units = game.state.units
    return sum(
        1
        for r in f.body.get("records", ())
        if r[0] == "act" and r[1][0] == "move" and len(r[1]) == 3 and r[1][1] in units and units[r[1][1]].is_naval
    )


class _NavalFiles(replay.Visitor):
    """The files that move ships by destination only, each with the game just before it."""

    def __init__(self) -> None:
        self.found: list[tuple[int, bytes, bytes, int, int]] = []

    def before(self, game: machine.Game, tf: turnfile.TurnFile) -> None:
        if n := _ships_by_destination(game, tf):
            self.found.append((tf.seq, game.to_bytes(), tf.raw, len(tf.body["records"]), n))


def recorded_naval_files(record: Path = AIR_RECORD) -> list[tuple[int, bytes, bytes, int, int]]:
    """(file number, game snapshot before it, its bytes, its records, its ships moved by
    destination only) for every file of ``record`` that moves ships by destination only."""
    [(_, files)] = audit.game_files(record).items()
    naval = _NavalFiles()
    replay.replay(files, visitor=naval)
    return naval.found


def bench_recorded_naval_verify(report: Callable[..., None], repeat: int = 9) -> None:
    """Each file of the air record whose ships move by destination only, verified and
    applied ``repeat`` times from its snapshot (CPU time); the slowest is the target's case.

    The files are timed in rounds, each verifying every file once: a file verified twice
    in a row would find the supply maps of its states kept from the first time (they are
    shared by equal states), which a receiver, verifying it once, does not."""
    files = recorded_naval_files()
    samples: dict[int, list[float]] = {seq: [] for seq, *_ in files}
    for round_ in range(repeat + 1):  # the first round warms the map's tables
        for seq, before, raw, _, _ in files:
            game = machine.Game.from_bytes(before)
            t0 = time.process_time()
            machine.apply_turn(game, machine.authenticate(game.genesis, turnfile.parse(raw), game))
            if round_:
                samples[seq].append(time.process_time() - t0)
    worst: tuple[float, float, str] | None = None
    for seq, _, _, n, ships in files:
        name = f"  air record file {seq} ({n} records, {ships} ships by destination)"
        median, best = statistics.median(samples[seq]), min(samples[seq])
        report(name, median, best)
        if worst is None or median > worst[0]:
            worst = (median, best, name.strip())
    if worst is not None:
        report(f"slowest: {worst[2]}", worst[0], worst[1], target_ms=50)
