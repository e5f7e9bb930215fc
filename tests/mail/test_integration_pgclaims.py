"""The bot service on PostgreSQL claims its opponents' missed deadlines: the claim falls due
in the database with the step that left the game to the opponent, is made once, by one
worker, and a worker dying in the middle of it leaves it to another. Over the real mail
servers and the real protocol; time is the files' signed time, moved with ``PBEM_NOW``."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from mailtesting import Player, wait_until
from playtable import HOUR, T0

from pbem.mail import botplayer
from pbem.mail.daemon import MailDaemon
from pbem.mail.pgbot import StoreBotMailbox
from pbem.mail.pgstore import Store, new_key, parse_key
from pbem.play import exchange, games, turn
from pbem.protocol import machine
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace

pytestmark = pytest.mark.mail
KEY = parse_key(new_key())
DECISIONS = ("act", "sim", "commit")


class Died(BaseException):
    """A worker's death in the middle of its claim: nothing after it runs in that worker."""


@pytest.mark.slow
@pytest.mark.usefixtures("engine_double")
def test_a_missed_deadline_is_claimed_once_by_one_worker_and_a_dead_workers_claim_by_another(
    make_player, tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    monkeypatch.setenv("PBEM_NOW", str(T0))
    homes = {s: tmp_path / f"home-{s}" for s in ("allies", "bot")}
    allies: Player = make_player("allies", extra=f'home = "{homes["allies"]}"')
    keys.keygen("allies", allies.address, directory=homes["allies"])
    bot: Player = make_player("bot", extra=f'home = "{homes["bot"]}"\n[bot]\nidentity = "bot"')
    keys.keygen("bot", bot.address, directory=homes["bot"])
    db = Store(pg_url, KEY)
    db.migrate()
    db.save_home(homes["bot"])
    daemon = MailDaemon(allies.config, exchange=exchange)  # type: ignore[arg-type]
    ws = Workspace(allies.workspace)

    def worker(name: str) -> StoreBotMailbox:
        folder = tmp_path / f"machine-{name}"
        config = dataclasses.replace(bot.config, workspace=folder)
        made = StoreBotMailbox(config, Store(pg_url, KEY), exchange=exchange, worker=name)  # type: ignore[arg-type]
        made.claim_every = 0.0  # it looks every few minutes; here at every cycle
        return made

    workers = [worker("m1"), worker("m2")]
    gid, _ = games.new_game(
        ws,
        "long",
        "allies",
        "allies",
        keys.read_public_key(homes["bot"] / "bot.pub"),
        bot.address,
        homes["allies"],
        options={"deadline": HOUR, "silence": "bot"},
    )

    def game() -> machine.Game | None:
        return LocalGame(ws, gid, homes["allies"]).game()

    def step() -> None:
        g = game()
        exp = None if g is None else machine.expected(turn.my_turn(LocalGame(ws, gid, homes["allies"])).work)
        mine = exp is not None and exp.side == "allies" and exp.kind in DECISIONS
        if g is not None and g.seq < 4 and mine:
            turn.bot_play(ws, gid, home=homes["allies"])
        daemon.cycle()
        for w in workers:
            w.cycle()
        daemon.cycle()

    def allies_to_decide() -> bool:
        g = game()
        exp = None if g is None else machine.expected(g)
        return g is not None and g.seq >= 4 and exp is not None and exp.side == "allies" and exp.kind in DECISIONS

    wait_until(allies_to_decide, 120, step=step, what="allies to decide")
    g = game()
    assert g is not None
    silent_at, waited = g.seq, machine.expected(g)
    # The bot's step that left the game to allies wrote when the bot may claim.
    assert db.claims_due(g.clock + HOUR - 1) == []
    assert db.claims_due(g.clock + HOUR) == [gid]

    # A database from before the claims (schema step 1) learns them at a worker's start, once.
    with db.tx() as c:
        c.execute("DELETE FROM claims")
        c.execute("UPDATE pbem_meta SET value = 'no' WHERE key = 'claims-known'")
    for w in workers:
        w.store.close()
    workers = [worker("m1"), worker("m2")]
    assert db.claims_due(g.clock + HOUR) == [gid]
    assert caplog.text.count("looking for the deadlines of the 1 stored game(s)") == 1

    def cycle_all() -> None:
        daemon.cycle()
        for w in workers:
            w.cycle()
        daemon.cycle()

    # Allies fall silent. The first worker dies with the reminder sealed in its folder but not
    # written back: nothing of it is kept, and the other worker makes it.
    monkeypatch.setenv("PBEM_NOW", str(g.clock + HOUR))
    real = botplayer.claim_overdue

    def dies(*args: object, **kw: object) -> object:
        made = real(*args, **kw)  # type: ignore[arg-type]
        assert made and made[0][1] is not None
        raise Died

    monkeypatch.setattr(workers[0].player, "claim_overdue", dies)
    with pytest.raises(Died):
        workers[0].cycle()
    monkeypatch.setattr(workers[0].player, "claim_overdue", real)
    workers[0].store.close()
    assert db.claims_due(g.clock + HOUR) == [gid]  # still due: the dead worker's step left no trace
    workers[0] = worker("m1")  # restarted, on its emptied folder
    wait_until(lambda: bool(game() and game().reminded), 30, step=cycle_all, what="the reminder")  # type: ignore[union-attr]
    assert machine.expected(game()) == waited  # type: ignore[arg-type]
    for _ in range(3):  # both workers look again: the reminder is not made twice
        cycle_all()
    assert caplog.text.count(f"bot: claimed game {gid}") == 1

    # The deadline runs again and passes: the final claim, made once, and the bot plays
    # allies' decision; allies' program accepts both.
    g = game()
    assert g is not None and g.seq == silent_at + 1
    monkeypatch.setenv("PBEM_NOW", str(g.clock + HOUR))
    wait_until(lambda: (h := game()) is not None and h.seq >= silent_at + 2 and not h.reminded, 30, step=cycle_all)
    for _ in range(3):
        cycle_all()
    assert caplog.text.count(f"bot: claimed game {gid}") == 2
    lg = LocalGame(ws, gid, homes["allies"])
    claims = [lg.history_file(s) for s in range(silent_at + 1, lg.head() + 1)]
    assert [c.type for c in claims if c is not None and c.type == "claim"] == ["claim", "claim"]
    assert all(c is not None and c.side == "axis" for c in claims[:2])
    assert "rejected" not in caplog.text and "EQUIVOCATION" not in caplog.text
