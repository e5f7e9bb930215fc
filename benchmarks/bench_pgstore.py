"""What the PostgreSQL store costs the bot service per step, apart from mail and the game layer.

``python -m benchmarks.bench_pgstore [--games N] [--steps N] [--workers 1,2,4,8] [--url postgresql://...]``

Without ``--url`` it starts a private PostgreSQL as the tests do (tests/mail/pgserver.py;
Debian's ``postgresql`` package), but with fsync on, as a service runs it. It fills
``games`` games with files of the sizes the options give (by default 40 history files
of 4 KiB and a 64 KiB snapshot: an assumption, not a measured game), then times
``steps`` steps taken on games chosen at random, each as a worker takes it: the game's
lock, its files read and opened, three files sealed and written back (the snapshot, a
new history file, its copy for outbox/), the look owed, and one mail queued; first with
the game copied in whole (a worker that does not hold the game's latest version), then
with only the files' hashes read (one that does). It prints steps a second, the median
and 95th percentile of one step, and the database's size per game. With ``--workers``,
it then runs that many worker processes at once, each its own connection taking steps
(the game copied in whole) on games chosen at random, ``steps`` in all: what the
database gives several workers together, apart from mail and the game layer.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.mail.pgstore import Outgoing, Store, new_key, parse_key

if TYPE_CHECKING:
    from multiprocessing.queues import Queue

ROOT = Path(__file__).resolve().parent.parent


def _game_files(gid: str, files: int, file_kib: int, snapshot_kib: int) -> dict[str, bytes]:
    made = {f".pbem/games/{gid}/files/{seq:05d}": os.urandom(file_kib * 1024) for seq in range(files)}
    made[f".pbem/games/{gid}/snapshot"] = os.urandom(snapshot_kib * 1024)
    made[f".pbem/games/{gid}/meta.json"] = b'{"me": "allies"}'
    return made


def _step(store: Store, gid: str, n: int, file_kib: int, snapshot_kib: int) -> None:
    """One step as a worker not holding the game's version takes it (see ``bench``)."""
    with store.game_step(gid) as step:
        assert step is not None and step.files is not None
        now = dict(step.files)
        seq = sum(1 for rel in now if "/files/" in rel)
        now[f".pbem/games/{gid}/snapshot"] = os.urandom(snapshot_kib * 1024)
        new_file = os.urandom(file_kib * 1024)
        now[f".pbem/games/{gid}/files/{seq:05d}"] = new_file
        now[f"outbox/{gid}-{seq:05d}-allies.pbem"] = new_file
        mail = Outgoing(f"<{gid}.{seq}.{n}.{os.getpid()}@bench>", "bench", "to@bench", new_file + os.urandom(2048))
        step.save(now, True, False, [(mail, [f"{gid}-{seq:05d}:{n}:{os.getpid()}"])])


def _worker(
    url: str, key: bytes, gids: list[str], steps: int, seed: int, kib: tuple[int, int], out: Queue[list[float]]
) -> None:
    store = Store(url, key)
    rng = random.Random(seed)
    times = []
    for n in range(steps):
        began = time.perf_counter()
        _step(store, rng.choice(gids), n, *kib)
        times.append(time.perf_counter() - began)
    store.close()
    out.put(times)


def bench_workers(url: str, key: bytes, games: int, steps: int, workers: list[int], kib: tuple[int, int]) -> list[str]:
    """``steps`` steps shared by each number of worker processes in ``workers``, at once."""
    gids = [f"{i:012x}" for i in range(games)]
    lines = []
    ctx = multiprocessing.get_context("fork")
    for count in workers:
        out = ctx.Queue()
        each = steps // count
        procs = [ctx.Process(target=_worker, args=(url, key, gids, each, w, kib, out)) for w in range(count)]
        started = time.perf_counter()
        for proc in procs:
            proc.start()
        times = [t for _ in procs for t in out.get()]
        wall = time.perf_counter() - started
        for proc in procs:
            proc.join()
        times.sort()
        lines.append(
            f"{count} worker(s), {len(times)} steps in {wall:.1f} s: {len(times) / wall:.0f} a second together, "
            f"median {statistics.median(times) * 1000:.1f} ms, p95 {times[int(0.95 * len(times))] * 1000:.1f} ms"
        )
    return lines


def bench(
    url: str, games: int, steps: int, files: int, file_kib: int, snapshot_kib: int, workers: list[int]
) -> list[str]:
    key = parse_key(new_key())
    store = Store(url, key)
    store.migrate()
    gids = [f"{i:012x}" for i in range(games)]
    state = {}
    fill_started = time.perf_counter()
    for gid in gids:
        state[gid] = _game_files(gid, files, file_kib, snapshot_kib)
        with store.game_step(gid) as step:
            assert step is not None
            step.save(state[gid], False, False, [])
    fill = time.perf_counter() - fill_started
    versions = dict.fromkeys(gids, 1)
    lines = []
    for cached in (False, True):
        rng = random.Random(1)
        times = []
        started = time.perf_counter()
        for n in range(steps):
            gid = rng.choice(gids)
            began = time.perf_counter()
            with store.game_step(gid, have=versions[gid] if cached else 0) as step:
                assert step is not None
                now = dict(state[gid] if step.files is None else step.files)
                seq = sum(1 for rel in now if "/files/" in rel)
                now[f".pbem/games/{gid}/snapshot"] = os.urandom(snapshot_kib * 1024)
                new_file = os.urandom(file_kib * 1024)
                now[f".pbem/games/{gid}/files/{seq:05d}"] = new_file
                now[f"outbox/{gid}-{seq:05d}-allies.pbem"] = new_file
                mail = Outgoing(f"<{gid}.{seq}.{n}@bench>", "bench", "to@bench", new_file + os.urandom(2048))
                versions[gid] = step.save(now, True, False, [(mail, [f"{gid}-{seq:05d}:{n}"])])
                state[gid] = now
            times.append(time.perf_counter() - began)
        wall = time.perf_counter() - started
        what = "the worker holds the game's version" if cached else "the game copied in whole"
        p95 = sorted(times)[int(0.95 * len(times))]
        lines.append(
            f"{steps} steps ({what}) in {wall:.1f} s: {steps / wall:.0f} a second (one client), "
            f"median {statistics.median(times) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms"
        )
    lines += bench_workers(url, key, games, steps, workers, (file_kib, snapshot_kib)) if workers else []
    with store.tx() as c:
        size = int(c.execute("SELECT pg_database_size(current_database())").fetchone()[0])
    store.close()
    return [
        f"{games} games of {files} files of {file_kib} KiB and a {snapshot_kib} KiB snapshot, filled in {fill:.1f} s",
        *lines,
        f"database {size / 1e6:.0f} MB after the steps: {size / games / 1024:.0f} KiB a game",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--url", default="")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--files", type=int, default=40)
    parser.add_argument("--file-kib", type=int, default=4)
    parser.add_argument("--snapshot-kib", type=int, default=64)
    parser.add_argument("--workers", default="", help="numbers of worker processes to run at once, e.g. 1,2,4,8")
    args = parser.parse_args()
    workers = [int(w) for w in args.workers.split(",") if w.strip()]
    sizes = (args.games, args.steps, args.files, args.file_kib, args.snapshot_kib, workers)
    if args.url:
        print("\n".join(bench(args.url, *sizes)))
        return
    sys.path.insert(0, str(ROOT / "tests" / "mail"))
    from pgserver import PgServer, server_binaries

    binaries = server_binaries()
    if binaries is None:
        sys.exit("no PostgreSQL server binaries: install Debian's postgresql package, or give --url")
    root = Path(tempfile.mkdtemp(prefix="pbem-bench-pg-"))
    server = PgServer(root, binaries, fsync=True)
    try:
        server.start()
        print("\n".join(bench(server.new_database("bench"), *sizes)))
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
