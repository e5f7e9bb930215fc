"""Deadlines and a hand-over by mail over real Dovecot and Postfix.

Two players play a game with a deadline through their mail daemons: a forged claim is
refused and set aside, a missed deadline is claimed (a reminder, then the bot plays the
silent side's decision), one side is handed over to the bot mailbox mid-game, which then
plays it while the opponent's files follow it to its address; every record audits clean.
Time is the signed time of the files, moved with ``PBEM_NOW``: nobody waits for hours.
The rules engine is the protocol tests' stand-in (it adds nothing here); the bot's side
runs the real bot mailbox, game layer and computer player.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mailtesting import wait_until
from playtable import HOUR, T0, Table

from pbem.play import audit, claim, games, passing, turn
from pbem.protocol import machine, turnfile
from pbem.store import keys
from pbem.store.localgame import LocalGame

pytestmark = pytest.mark.mail


@pytest.mark.slow
@pytest.mark.usefixtures("engine_double")
def test_claims_and_a_hand_over_to_the_bot_by_mail(
    make_player, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    monkeypatch.setenv("PBEM_NOW", str(T0))
    t = Table(make_player, tmp_path)
    allies_pub = keys.read_public_key(t.homes["allies"] / "allies.pub")
    t.gid, _ = games.new_game(
        t.ws["axis"],
        "long",
        "axis",
        "axis",
        allies_pub,
        t.p["allies"].address,
        t.homes["axis"],
        options={"deadline": HOUR, "silence": "bot"},
    )
    wait_until(lambda: bool(t.ws["allies"].invitations()), 20, step=t.cycle, what="the invitation")
    games.join(t.ws["allies"], t.ws["allies"].root / t.ws["allies"].invitation_rel(t.gid), "allies", t.homes["allies"])
    t.play_until(lambda: t.in_step("allies") and t.game("axis").seq >= 4, "allies to decide")

    # 1. The deadline passes. A claim whose state hash is not the game's (the claimant's
    # program changed, say) travels by mail, and is refused and set aside.
    g = t.game("axis")
    now, exp = g.clock, machine.expected(g)
    assert exp is not None
    monkeypatch.setenv("PBEM_NOW", str(now + HOUR))
    body = {"v": 1, "type": "claim", "game": t.gid, "seq": g.seq + 1, "prev": g.hashes[-1], "side": "axis"}
    body |= {"time": now + HOUR, "due": exp.kind, "state": bytes(32)}
    forged = turnfile.seal(body, keys.load("axis", t.homes["axis"]).sign)
    (t.ws["axis"].outbox / forged.name).write_bytes(forged.raw)
    before = t.game("allies").hashes
    wait_until(lambda: any(t.ws["allies"].root.glob(".pbem/rejected/*")), 20, step=t.cycle, what="the refusal")
    signer = keys.load("axis", t.homes["axis"]).public.fingerprint  # the signer, not the From header
    assert f"{forged.name} from key {signer}: rejected" in caplog.text
    assert "the game state differs from the claimant's" in caplog.text
    assert t.game("allies").hashes == before
    (t.ws["axis"].outbox / forged.name).unlink()

    # 2. The genuine claims: a reminder, then the bot plays the silent allies' decision.
    _, what = claim.claim(t.ws["axis"], t.gid, t.homes["axis"])
    assert "reminder" in what
    wait_until(lambda: t.game("allies").reminded, 20, step=t.cycle, what="the reminder")
    assert machine.expected(t.game("allies")) == exp  # still allies' decision
    monkeypatch.setenv("PBEM_NOW", str(now + 2 * HOUR))
    _, what = claim.claim(t.ws["axis"], t.gid, t.homes["axis"])
    assert "the bot made the Allies' decision" in what, what
    claimed = t.game("axis").seq
    wait_until(lambda: t.game("allies").hashes[: claimed + 1] == t.game("axis").hashes[: claimed + 1], 20, step=t.cycle)
    assert t.game("allies").last_author == "allies"  # the bot's records count as the silent side's

    # 3. Axis hands its side over to the bot mailbox on a turn of its own, by mail: the offer
    # and the game's files go to the bot, which verifies them and countersigns; the
    # acceptance comes back and axis's import seals the hand-over, which goes to the bot,
    # which passes it on to allies with its first decision.
    t.play_until(lambda: t.in_step("axis"), "axis to decide")
    bot_pub = keys.read_public_key(t.homes["bot"] / "bot.pub")
    offer = passing.offer_by_mail(t.ws["axis"], t.gid, bot_pub, home=t.homes["axis"])
    at = t.game("axis").seq + 1
    handed = t.ws["axis"].outbox / turnfile.filename(t.gid, at, "axis")
    wait_until(handed.exists, 30, step=t.cycle, what="the acceptance and the seal")
    assert turnfile.read(handed).body["email"] == t.p["bot"].address
    assert f"sent {offer.name} to {t.p['bot'].address}" in caplog.text
    assert f"sent {t.gid}-{at:05d}-accept.pbem to {t.p['axis'].address}" in caplog.text
    t.holder["axis"] = "bot"
    played = t.bot.played
    wait_until(lambda: t.bot.played > played and t.game("allies").seq > t.game("axis").seq, 30, step=t.cycle)
    assert t.game("allies").keys["axis"] == bot_pub.raw
    assert LocalGame(t.ws["allies"], t.gid).meta["opponent_email"] == t.p["bot"].address
    assert f"sent {handed.name} to {t.p['bot'].address}" in caplog.text
    assert f"sent {handed.name} to {t.p['allies'].address}" in caplog.text  # passed on by the bot

    # The game goes on between allies and the bot mailbox alone.
    t.play_until(lambda: t.bot.played >= played + 4 and t.in_step("allies"), "four decisions of the bot")
    assert t.game("axis").seq == turnfile.read(handed).seq  # the old holder received nothing more
    with pytest.raises(Exception, match="handed your side over"):
        turn.bot_play(t.ws["axis"], t.gid, home=t.homes["axis"])

    # Allies fall silent: the bot mailbox claims by itself, a reminder, then the final claim.
    t.bot.claim_every = 0.0  # it looks every few minutes; here at every cycle
    g = t.game("allies")
    silent_at, waited = g.seq, machine.expected(g)
    monkeypatch.setenv("PBEM_NOW", str(g.clock + HOUR))
    wait_until(lambda: t.game("allies").reminded, 20, step=t.cycle, what="the bot's reminder")
    assert machine.expected(t.game("allies")) == waited
    monkeypatch.setenv("PBEM_NOW", str(g.clock + 2 * HOUR))
    wait_until(lambda: t.game("allies").seq >= silent_at + 2 and not t.game("allies").reminded, 20, step=t.cycle)
    lg = LocalGame(t.ws["allies"], t.gid, t.homes["allies"])
    claims = [lg.history_file(s) for s in (silent_at + 1, silent_at + 2)]
    assert all(c is not None and c.type == "claim" and c.side == "axis" for c in claims)
    assert caplog.text.count(f"bot: claimed game {t.gid}") == 2
    wait_until(lambda: t.game("bot").hashes == t.game("allies").hashes, 20, step=t.cycle, what="both to agree")

    # 4. Every record audits clean: the opponent's and the bot's copies of the game.
    for who in ("allies", "bot"):
        lg = LocalGame(t.ws[who], t.gid, t.homes[who])
        rec = tmp_path / f"record-{who}"
        rec.mkdir()
        for seq in range(lg.head() + 1):
            tf = lg.history_file(seq)
            assert tf is not None
            (rec / tf.name).write_bytes(tf.raw)
        (rep,) = audit.audit_dir(rec)
        assert rep.files == lg.head() + 1 and rep.files > claimed + 4
    assert t.game("bot").hashes == t.game("allies").hashes
