"""The bot service with 1, 2 and 4 workers on one mailbox, the real protocol and engine.

``python3 -m benchmarks.bench_service [GAMES] [SECONDS] [WORKERS...]`` starts private
Dovecot and Postfix instances on loopback (the mail tests' helper; needs root and
``apt-get install dovecot-imapd dovecot-lmtpd postfix``). For each worker count it
starts the same GAMES fresh 1939 games (made once, copied for each run, both
mailboxes emptied) from one player mailbox against the bot mailbox, runs
``pbem bot serve --worker`` processes on the bot's mailbox and workspace for
SECONDS, and prints:

* bot turns answered per minute: files the bot's workers mailed in the window;
* arrival → answer: from the SMTP server accepting the player's file to the SMTP
  server accepting the bot's answer to it (median and 95th percentile).

The player side is a bot mailbox too (an opponent that answers at once), in this
process: it shares the machine's cores with the workers, as a real opponent would not.
"""

from __future__ import annotations

import json
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

ROOT = Path(__file__).resolve().parent.parent
TESTS_MAIL = ROOT / "tests" / "mail"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _sent(workspace: Path) -> list[dict[str, Any]]:
    try:
        raw = json.loads((workspace / ".pbem" / "mail" / "queue.json").read_text())
    except FileNotFoundError:
        return []
    return [e for e in raw["entries"] if e["kind"] == "turn" and e["sent_at"]]


def _empty_mailbox(servers: Any, address: str) -> None:
    """Every mail and folder of a previous run gone, so each run starts alike."""
    import imapclient

    with imapclient.IMAPClient("127.0.0.1", port=servers.imap_port, ssl=False, timeout=30) as client:
        client.login(address, servers.users[address])
        for _flags, _sep, name in client.list_folders():
            if name != "INBOX":
                client.delete_folder(name)
        client.select_folder("INBOX")
        uids = client.search("ALL")
        if uids:
            client.delete_messages(uids)
            client.expunge()


def prepare(servers: Any, root: Path, games: int) -> dict[str, Any]:
    """Two mailboxes and GAMES fresh 1939 games, made once and copied for every run."""
    from mailtesting import write_config

    from pbem.mail.config import load_config
    from pbem.play.games import new_game
    from pbem.store import keys
    from pbem.store.store import Workspace

    made: dict[str, Any] = {"paths": {}, "configs": {}}
    homes = {name: root / f"home-{name}" for name in ("player", "bot")}
    for name in ("player", "bot"):
        address = servers.add_user(name)
        ws = root / name
        ws.mkdir()
        made["paths"][name] = root / f"{name}.toml"
        extra = f'home = "{homes[name]}"\n[bot]\nidentity = "{name}"'
        write_config(made["paths"][name], servers, address, ws, extra=extra, exchange="pbem.play.exchange")
        made["configs"][name] = load_config(made["paths"][name])
        keys.keygen(name, address, directory=homes[name])
    bot_key = keys.read_public_key(homes["bot"] / "bot.pub")
    for _ in range(games):
        new_game(
            Workspace(made["configs"]["player"].workspace),
            "1939",
            "axis",
            "player",
            bot_key,
            opponent_email=made["configs"]["bot"].address,
            home=homes["player"],
        )
    shutil.copytree(root / "player", root / "player.fresh", symlinks=True)
    return made


def run_once(servers: Any, root: Path, made: dict[str, Any], seconds: float, workers: int) -> dict[str, float]:
    from pbem.mail.bot import BotMailbox

    configs, paths = made["configs"], made["paths"]
    # A previous run's mail still in Postfix's queue would arrive in this run's mailboxes
    # (the player's games are put back as made, so as copies of this run's files).
    servers.purge_postfix_queue()
    for name in ("player", "bot"):
        _empty_mailbox(servers, configs[name].address)
        shutil.rmtree(root / name)
    shutil.copytree(root / "player.fresh", root / "player", symlinks=True)
    (root / "bot").mkdir()
    player = BotMailbox(configs["player"])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    procs = []
    log = (root / f"workers-{workers}.log").open("ab")
    thread = threading.Thread(target=player.run, kwargs={"max_seconds": seconds + 60}, daemon=True)
    started = time.time()
    thread.start()
    for i in range(workers):
        cmd = [sys.executable, "-c", "from pbem.cli.main import run; run()", "bot", "serve", "-c", str(paths["bot"])]
        procs.append(subprocess.Popen([*cmd, "--worker", f"w{i}"], stdout=log, stderr=log, env=env))
    time.sleep(seconds)
    ended = time.time()
    for proc in procs:
        proc.send_signal(signal.SIGTERM)
    for proc in procs:
        proc.wait(timeout=300)
    player.stopping = True
    thread.join(timeout=300)
    log.close()

    arrivals: dict[str, list[tuple[int, float]]] = {}
    for e in _sent(configs["player"].workspace):
        arrivals.setdefault(e["filename"][:12], []).append((int(e["filename"][13:18]), e["sent_at"]))
    answered, delays = 0, []
    for e in _sent(configs["bot"].workspace):
        if not started <= e["sent_at"] <= ended:
            continue
        answered += 1
        game, seq = e["filename"][:12], int(e["filename"][13:18])
        before = [t for s, t in arrivals.get(game, []) if s < seq and t <= e["sent_at"]]
        if before:
            delays.append(e["sent_at"] - max(before))
    window = ended - started
    if not answered:
        print((root / f"workers-{workers}.log").read_text(errors="replace")[-3000:], file=sys.stderr)
    return {
        "workers": float(workers),
        "answered": float(answered),
        "per_minute": answered / window * 60,
        "median_s": statistics.median(delays) if delays else float("nan"),
        "p95_s": _percentile(delays, 0.95),
    }


def bench_service(games: int = 200, seconds: float = 120.0, worker_counts: tuple[int, ...] = (1, 2, 4)) -> None:
    for path in (str(TESTS_MAIL), str(ROOT)):
        if path not in sys.path:
            sys.path.insert(0, path)
    from mailservers import MailServers

    logging.getLogger("pbem.mail").setLevel(logging.WARNING)
    root = Path(tempfile.mkdtemp(prefix="pbem-bench-service-"))
    root.chmod(0o755)  # the postfix user must reach the servers' directory inside
    (root / "servers").mkdir()
    servers = MailServers(root / "servers")
    print(
        f"bot service, real protocol and engine (1939): {games} games, {seconds:.0f} s per run, {os.cpu_count()} cores"
    )
    print("workers  answered  turns/min  arrival->answer median  p95")
    try:
        servers.start()
        began = time.monotonic()
        made = prepare(servers, root, games)
        print(f"(made {games} games in {time.monotonic() - began:.0f} s)", flush=True)
        for workers in worker_counts:
            n = run_once(servers, root, made, seconds, workers)
            print(
                f"{workers:7d}  {n['answered']:8.0f}  {n['per_minute']:9.1f}  "
                f"{n['median_s']:19.2f} s  {n['p95_s']:6.2f} s",
                flush=True,
            )
    finally:
        servers.stop()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    argv = [int(a) for a in sys.argv[1:]]
    bench_service(
        games=argv[0] if argv else 200,
        seconds=float(argv[1]) if len(argv) > 1 else 120.0,
        worker_counts=tuple(argv[2:]) or (1, 2, 4),
    )
