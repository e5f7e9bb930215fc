"""The bot as a mailbox under load: many games at once through real local mail servers.

:func:`bench_mail` starts private Dovecot and Postfix instances on loopback (the
helper the mail integration tests use; needs root and
``apt-get install dovecot-imapd dovecot-lmtpd postfix``). One player mailbox
runs ``games`` games against one bot mailbox, both in this process, and the
function measures:

* bot turns per minute: files the bot mailed, over the wall time of the run;
* answer delay: from the bot importing a file to the SMTP server accepting the
  bot's answer (median and 95th percentile). Add about half a second for the
  delivery and IDLE notification of each mail (Dovecot holds IDLE notices back
  by 0.5 s).

``layer`` chooses the game layer:

* ``"stand-in"`` (default): the tests' file-backed stand-in, whose moves cost
  nothing, so the numbers are the mail machinery's own;
* ``"protocol"``: the real protocol (signed, chained, verified turn files, dice,
  commit-reveal) with the engine named by ``engine``: ``"double"``, the protocol
  tests' tiny engine, or ``"real"``, the real engine on the 1939 scenario (slow:
  every bot move runs the AI).

``attach_map`` is the mailboxes' setting of that name: with the real engine, each
turn mail that moved something carries a PNG of the front, drawn by the sender.
"""

from __future__ import annotations

import logging
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TESTS_MAIL = ROOT / "tests" / "mail"


def mail_servers() -> Any:
    """The mail tests' helper that runs private Dovecot and Postfix (tests/mail/mailservers.py),
    importable from a benchmark; the daemons' own logging kept to warnings."""
    for path in (str(TESTS_MAIL), str(ROOT)):
        if path not in sys.path:
            sys.path.insert(0, path)
    from mailservers import MailServers

    logging.getLogger("pbem.mail").setLevel(logging.WARNING)
    return MailServers


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def bench_mail(
    games: int = 50,
    turns_per_game: int = 5,
    layer: str = "stand-in",
    engine: str = "double",
    timeout_s: float = 600.0,
    out: Callable[[str], None] = print,
    attach_map: bool = True,
) -> dict[str, float]:
    """Run the load; return the numbers (also printed through ``out``)."""
    MailServers = mail_servers()
    root = Path(tempfile.mkdtemp(prefix="pbem-bench-mail-"))
    root.chmod(0o755)  # the postfix user must reach the servers' directory inside
    (root / "servers").mkdir()
    servers = MailServers(root / "servers")
    try:
        servers.start()
        setup = _stand_in if layer == "stand-in" else _protocol
        player, bot, done, restore = setup(root, servers, games, turns_per_game, engine, attach_map)
        imported: dict[str, list[tuple[int, float]]] = {}

        def record(game_id: str, status: str, result: Any) -> None:
            if status in ("applied", "stored"):
                imported.setdefault(game_id, []).append((int(getattr(result, "seq", 0) or 0), time.time()))

        bot.on_imported.append(record)
        drawn: list[float] = []  # CPU seconds of each picture the bot drew (thread time: two daemons run)
        draw = bot.sender.picture

        def timed_picture(key: str, turn: Any) -> Any:
            known = key in bot.sender._pictures
            began = time.thread_time()
            found = draw(key, turn)
            if found and not known:
                drawn.append(time.thread_time() - began)
            return found

        bot.sender.picture = timed_picture
        threads = [
            threading.Thread(target=d.run, kwargs={"max_seconds": timeout_s}, daemon=True) for d in (player, bot)
        ]
        started = time.monotonic()
        for t in threads:
            t.start()
        while time.monotonic() - started < timeout_s and not done(bot):
            time.sleep(0.2)
        elapsed = time.monotonic() - started
        player.stopping = bot.stopping = True
        for t in threads:
            t.join(timeout=60)
        restore()

        delays = []
        bot_turns = 0
        for entry in bot.queue.entries.values():
            if entry.kind != "turn" or not entry.sent_at:
                continue
            bot_turns += 1
            game_id, seq = entry.filename[:12], int(entry.filename[13:18])
            before = [t for s, t in imported.get(game_id, []) if s < seq and t <= entry.sent_at]
            if before:
                delays.append(entry.sent_at - max(before))
        numbers = {
            "games": float(games),
            "elapsed_s": elapsed,
            "bot_turns": float(bot_turns),
            "bot_turns_per_minute": bot_turns / elapsed * 60 if elapsed else 0.0,
            "answer_delay_median_s": statistics.median(delays) if delays else float("nan"),
            "answer_delay_p95_s": _percentile(delays, 0.95),
            "finished": float(done(bot)),
            "pictures": float(len(drawn)),
            "picture_cpu_median_s": statistics.median(drawn) if drawn else float("nan"),
        }
        what = layer if layer == "stand-in" else f"{layer}/{engine} engine"
        out(
            f"mail bot mailbox ({what}): {games} games, {bot_turns} bot turns in {elapsed:.1f} s"
            f"{'' if done(bot) else ' (TIMED OUT)'}"
        )
        out(f"mail bot turns per minute                        {numbers['bot_turns_per_minute']:9.1f}")
        out(
            f"mail bot answer delay (import -> SMTP accepted)  median {numbers['answer_delay_median_s']:.3f} s, "
            f"p95 {numbers['answer_delay_p95_s']:.3f} s"
        )
        if drawn:
            out(
                f"mail bot pictures of the front                   {len(drawn)}, CPU median "
                f"{numbers['picture_cpu_median_s']:.3f} s, max {max(drawn):.3f} s"
            )
        return numbers
    finally:
        servers.stop()
        shutil.rmtree(root, ignore_errors=True)


def _configs(root: Path, servers: Any, extra: dict[str, str], exchange: str, attach_map: bool) -> dict[str, Any]:
    from mailtesting import write_config

    from pbem.mail.config import load_config

    configs = {}
    for name in ("player", "bot"):
        address = servers.add_user(name)
        ws = root / name
        ws.mkdir()
        path = root / f"{name}.toml"
        settings = f"attach_map = {str(attach_map).lower()}\n{extra.get(name, '')}"
        write_config(path, servers, address, ws, extra=settings, exchange=exchange)
        configs[name] = load_config(path)
    return configs


def _stand_in(
    root: Path, servers: Any, games: int, turns: int, engine: str, attach_map: bool
) -> tuple[Any, Any, Any, Any]:
    import fake_exchange as fx

    from pbem.mail.bot import BotMailbox
    from pbem.mail.daemon import MailDaemon

    configs = _configs(root, servers, {}, "fake_exchange", attach_map)
    moves = 2 * turns  # the bot plays allies: every even file
    for i in range(1, games + 1):
        fx.new_game(
            configs["player"].workspace,
            f"{i:012x}",
            "axis",
            configs["player"].address,
            configs["bot"].address,
            autoplay_until=moves,
            opponent_autoplay=0,
        )
    player = MailDaemon(configs["player"], exchange=fx)  # type: ignore[arg-type]
    bot = BotMailbox(configs["bot"], exchange=fx, player=fx)  # type: ignore[arg-type]

    def done(b: Any) -> bool:
        return sum(1 for e in b.queue.entries.values() if e.sent_at) >= games * turns

    return player, bot, done, lambda: None


def _protocol(
    root: Path, servers: Any, games: int, turns: int, engine: str, attach_map: bool
) -> tuple[Any, Any, Any, Any]:
    from pbem.mail.bot import BotMailbox
    from pbem.play.games import new_game
    from pbem.protocol import engine_link
    from pbem.store import keys
    from pbem.store.store import Workspace

    scenario = "1939"
    if engine == "double":
        from tests.protocol import fakeengine

        fakeengine.SCENARIOS.setdefault("bench", 1000)  # long enough never to end during the run
        engine_link.use(fakeengine, fakeengine.ai)  # type: ignore[arg-type]
        scenario = "bench"
    homes = {name: root / f"home-{name}" for name in ("player", "bot")}
    extra = {name: f'home = "{homes[name]}"\n[bot]\nidentity = "{name}"' for name in homes}
    configs = _configs(root, servers, extra, "pbem.play.exchange", attach_map)
    for name, home in homes.items():
        keys.keygen(name, configs[name].address, directory=home)
    bot_key = keys.read_public_key(homes["bot"] / "bot.pub")
    for _ in range(games):
        new_game(
            Workspace(configs["player"].workspace),
            scenario,
            "axis",
            "player",
            bot_key,
            opponent_email=configs["bot"].address,
            home=homes["player"],
        )
    # The player side is a bot mailbox too: an opponent that answers at once.
    player, bot = BotMailbox(configs["player"]), BotMailbox(configs["bot"])

    def done(b: Any) -> bool:
        per_game: dict[str, int] = {}
        for e in b.queue.entries.values():
            if e.sent_at:
                per_game[e.filename[:12]] = per_game.get(e.filename[:12], 0) + 1
        return len(per_game) == games and min(per_game.values()) >= turns

    return player, bot, done, lambda: engine_link.use(None)


if __name__ == "__main__":
    args = sys.argv[1:]
    bench_mail(
        layer=args[0] if args else "stand-in",
        engine=args[1] if len(args) > 1 else "double",
        attach_map="--no-map" not in args,
    )
