"""The bot service on PostgreSQL end to end: 1, 2, 4 and 8 workers through the real mail servers.

``python3 -m benchmarks.bench_pgservice [GAMES] [SECONDS] [WORKERS...]`` starts private
Dovecot and Postfix (as benchmarks/bench_service.py does; root, the mail tests' helper) and
a private PostgreSQL with fsync on (tests/mail/pgserver.py). It makes GAMES fresh 1939
games once, from one player mailbox against the bot mailbox; for each worker count it
empties both mailboxes, puts the player's games back as they were made, migrates a new
database and stores the bot's identity in it, and runs that many ``pbem bot serve --store
postgresql://... --worker wN`` processes, each on a folder of its own, for SECONDS. It prints:

* turns answered a minute: the bot's files the SMTP server accepted in the window (joins
  and moves, as in bench_service), read from the database's send queue;
* arrival → answer, median and 95th percentile: from the SMTP server accepting the
  player's file to it accepting the bot's answer;
* the database's load as PostgreSQL reports it, over the window (pg_stat_database's
  commits, rollbacks, blocks read and hit, tuples returned, fetched, inserted, updated and
  deleted) and the peaks of pg_stat_activity sampled each second (connections, active);
* the load average at the start and the end of the window.

The player side is a bot mailbox on files in this process: it shares the cores with the
workers, the database and the mail servers, as a real opponent would not.
"""

from __future__ import annotations

import logging
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from benchmarks.bench_service import ROOT, TESTS_MAIL, _empty_mailbox, _percentile, _sent, prepare

STATS = ("xact_commit", "xact_rollback", "blks_read", "blks_hit", "tup_returned", "tup_fetched")
WRITES = ("tup_inserted", "tup_updated", "tup_deleted")


def _db_counters(url: str, name: str) -> dict[str, int]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute(f"SELECT {', '.join(STATS + WRITES)} FROM pg_stat_database WHERE datname = %s", (name,))
        found = row.fetchone()
    assert found is not None
    return dict(zip(STATS + WRITES, (int(v) for v in found), strict=True))


class ActivityPeaks(threading.Thread):
    """The most connections to the database, and the most of them running a query, each second."""

    def __init__(self, url: str, name: str) -> None:
        super().__init__(daemon=True)
        self.url, self.name = url, name
        self.connections = self.active = 0
        self.done = threading.Event()

    def run(self) -> None:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            while not self.done.wait(1.0):
                row = conn.execute(
                    "SELECT count(*), count(*) FILTER (WHERE state = 'active') FROM pg_stat_activity "
                    "WHERE datname = %s AND pid <> pg_backend_pid()",
                    (self.name,),
                ).fetchone()
                assert row is not None
                self.connections, self.active = max(self.connections, row[0]), max(self.active, row[1])


def _bot_sent(url: str) -> list[tuple[str, float]]:
    """Each bot file the SMTP server accepted, with when (a bundled mail carries several)."""
    import psycopg

    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT what, sent_at FROM outgoing WHERE status = 'sent'").fetchall()
    return [(name, float(at)) for what, at in rows for name in str(what).split(", ")]


def _worker_config(root: Path, bot_config: Path, name: str) -> Path:
    folder = root / f"machine-{name}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    text = bot_config.read_text()
    config = root / f"bot-{name}.toml"
    config.write_text(text.replace(f'workspace = "{root / "bot"}"', f'workspace = "{folder}"'))
    return config


def run_once(servers: Any, pg: Any, root: Path, made: dict[str, Any], seconds: float, workers: int) -> dict[str, float]:
    from pbem.mail.bot import BotMailbox
    from pbem.mail.pgstore import Store, new_key, parse_key

    configs, paths = made["configs"], made["paths"]
    # A previous run's mail still in Postfix's queue would arrive in this run's mailboxes
    # (the player's games are put back as made, so as copies of this run's files).
    servers.purge_postfix_queue()
    for name in ("player", "bot"):
        _empty_mailbox(servers, configs[name].address)
    shutil.rmtree(root / "player")
    shutil.copytree(root / "player.fresh", root / "player", symlinks=True)
    name = f"service{workers}"
    url = pg.new_database(name)
    key = new_key()
    store = Store(url, parse_key(key))
    store.migrate()
    store.save_home(root / "home-bot")
    store.close()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "PBEM_BOT_STORE": url,
        "PBEM_BOT_STORE_KEY": key,
    }
    player = BotMailbox(configs["player"])
    log = (root / f"workers-{workers}.log").open("ab")
    thread = threading.Thread(target=player.run, kwargs={"max_seconds": seconds + 60}, daemon=True)
    peaks = ActivityPeaks(url, name)
    before = _db_counters(url, name)
    load_start = os.getloadavg()[0]
    started = time.time()
    thread.start()
    peaks.start()
    procs = []
    for i in range(workers):
        config = _worker_config(root, paths["bot"], f"w{i}")
        cmd = [sys.executable, "-c", "from pbem.cli.main import run; run()", "bot", "serve", "-c", str(config)]
        procs.append(subprocess.Popen([*cmd, "--worker", f"w{i}"], stdout=log, stderr=log, env=env))
    time.sleep(seconds)
    ended = time.time()
    load_end = os.getloadavg()[0]
    after = _db_counters(url, name)
    peaks.done.set()
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
    for proc in procs:
        proc.wait(timeout=300)
    player.stopping = True
    thread.join(timeout=300)
    peaks.join(timeout=10)
    log.close()

    arrivals: dict[str, list[tuple[int, float]]] = {}
    for e in _sent(configs["player"].workspace):
        arrivals.setdefault(e["filename"][:12], []).append((int(e["filename"][13:18]), e["sent_at"]))
    answered, delays = 0, []
    for filename, sent_at in _bot_sent(url):
        if not started <= sent_at <= ended:
            continue
        answered += 1
        game, seq = filename[:12], int(filename[13:18])
        earlier = [t for s, t in arrivals.get(game, []) if s < seq and t <= sent_at]
        if earlier:
            delays.append(sent_at - max(earlier))
    window = ended - started
    if not answered:
        print((root / f"workers-{workers}.log").read_text(errors="replace")[-3000:], file=sys.stderr)
    found = {
        "workers": float(workers),
        "answered": float(answered),
        "per_minute": answered / window * 60,
        "median_s": statistics.median(delays) if delays else float("nan"),
        "p95_s": _percentile(delays, 0.95),
        "load_start": load_start,
        "load_end": load_end,
        "connections": float(peaks.connections),
        "active": float(peaks.active),
    }
    for stat in STATS + WRITES:
        found[stat] = (after[stat] - before[stat]) / window
    return found


def bench_pgservice(games: int, seconds: float, worker_counts: tuple[int, ...]) -> None:
    for path in (str(TESTS_MAIL), str(ROOT)):
        if path not in sys.path:
            sys.path.insert(0, path)
    from mailservers import MailServers
    from pgserver import PgServer, server_binaries

    binaries = server_binaries()
    if binaries is None:
        sys.exit("PostgreSQL's initdb and pg_ctl are not installed: run tests/install-postgresql")
    logging.getLogger("pbem.mail").setLevel(logging.WARNING)
    root = Path(tempfile.mkdtemp(prefix="pbem-bench-pgservice-"))
    root.chmod(0o755)  # the postfix and postgres users must reach their directories inside
    (root / "servers").mkdir()
    (root / "pg").mkdir()
    servers = MailServers(root / "servers")
    pg = PgServer(root / "pg", binaries, fsync=True)
    print(
        f"bot service on PostgreSQL (fsync on), real protocol and engine (1939): {games} games, {seconds:.0f} s a run"
    )
    print(f"{os.cpu_count()} cores, load average at the start {os.getloadavg()[0]:.1f}")
    try:
        servers.start()
        pg.start()
        began = time.monotonic()
        made = prepare(servers, root, games)
        print(f"(made {games} games in {time.monotonic() - began:.0f} s)", flush=True)
        print(
            "workers  answered  turns/min  median  p95  | commits/s  rollbacks/s  blks read/s  hit/s  "
            "tup returned/s  fetched/s  ins/s  upd/s  del/s | peak conns  active | load start  end"
        )
        for workers in worker_counts:
            n = run_once(servers, pg, root, made, seconds, workers)
            stats = "  ".join(f"{n[s]:.0f}" for s in STATS + WRITES)
            print(
                f"{workers:7d}  {n['answered']:8.0f}  {n['per_minute']:9.1f}  {n['median_s']:5.1f} s  "
                f"{n['p95_s']:5.1f} s  | {stats} | {n['connections']:.0f}  {n['active']:.0f} | "
                f"{n['load_start']:.1f}  {n['load_end']:.1f}",
                flush=True,
            )
    finally:
        pg.stop("immediate")
        servers.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    argv = [int(a) for a in sys.argv[1:]]
    bench_pgservice(
        games=argv[0] if argv else 1000,
        seconds=float(argv[1]) if len(argv) > 1 else 120.0,
        worker_counts=tuple(argv[2:]) or (1, 2, 4, 8),
    )
