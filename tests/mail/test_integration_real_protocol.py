"""Whole games through real mail servers with the real protocol: two bot mailboxes play each other.

Everything is real — identities, signed and hash-chained turn files, verification
by re-execution, commit-reveal, dice, reaction orders and lists given ahead, the game
store, the mail daemon, Postfix and Dovecot. The rules engine is the real one (the 1939 scenario, for a few
months) or, for a game played to its very end in seconds, the protocol tests'
small deterministic double.
"""

from __future__ import annotations

import email
import email.policy
import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from imaphelp import fetch_all
from mailtesting import Player

from pbem.errors import PbemError
from pbem.mail.bot import BotMailbox
from pbem.play import audit, games, history, report
from pbem.protocol import engine_link, machine, turnfile
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace

pytestmark = pytest.mark.mail
# One month, to the first decision of the next (PBEM_MAIL_MONTHS plays more): every kind of
# record the protocol carries (the join, sequential and simultaneous orders, sealed orders'
# commits and reveals, dice) is met in the first month of 1939 (the recorded 1939 game has
# them all by its first October file), income included.  Later months carry the same records
# with other moves: each costs about 9 s of CPU (both bots playing and verifying) and a minute
# of the suite's wall time on two busy cores, and shows the mail path nothing new; the
# engine's later months are played by tests/engine and the recorded games.
REAL_MONTHS = int(os.environ.get("PBEM_MAIL_MONTHS", "1"))


@pytest.fixture(params=["double", pytest.param("real", marks=pytest.mark.slow)])
def engine(request: pytest.FixtureRequest) -> Iterator[tuple[str, int | None]]:
    """(scenario, months to play or None for the whole game)."""
    if request.param == "real":
        try:
            engine_link.api().scenario_digest("1939")
        except Exception as err:
            pytest.fail(f"the real engine cannot load the 1939 scenario: {err}")
        yield "1939", REAL_MONTHS
        return
    from tests.protocol import fakeengine

    engine_link.use(fakeengine, fakeengine.ai)  # type: ignore[arg-type]
    yield "tiny", None
    engine_link.use(None)


def test_two_bot_mailboxes_play_a_game(make_player, engine, tmp_path, caplog, monkeypatch) -> None:
    scenario, months = engine
    made: dict[str, Player] = {}
    for side in ("axis", "allies"):
        home = tmp_path / f"home-{side}"
        extra = f'home = "{home}"\n[bot]\nidentity = "{side}-bot"\nallow = ["AXIS"]'
        made[side] = make_player(side, extra=extra, exchange="pbem.play.exchange")
    axis, allies = made["axis"], made["allies"]
    for side, player in made.items():
        keys.keygen(f"{side}-bot", player.address, directory=tmp_path / f"home-{side}")
    # The bots accept invitations signed by the axis player's key only.
    inviter = keys.read_public_key(tmp_path / "home-axis" / "axis-bot.pub").fingerprint
    for player in made.values():
        player.config_path.write_text(player.config_path.read_text().replace("AXIS", inviter))
    opponent = keys.read_public_key(tmp_path / "home-allies" / "allies-bot.pub")
    # The invitation asks the invited bot for level 1 (section 6.1 of the format); every
    # decision either bot makes is recorded with the player that made it.
    asked: set[tuple[str, str]] = set()
    ai = engine_link.ai()
    decide = ai.decide

    def spy(state: Any, side: str, seed: bytes, player: str = "bot", budget_s: float | None = None) -> Any:
        asked.add((side, player))
        return decide(state, side, seed, player, budget_s)

    monkeypatch.setattr(ai, "decide", spy)
    gid, _ = games.new_game(
        Workspace(axis.workspace),
        scenario,
        "axis",
        "axis-bot",
        opponent,
        opponent_email=allies.address,
        home=tmp_path / "home-axis",
        options={"level": 1},
    )

    def game(side: str) -> machine.Game | None:
        try:
            return LocalGame(Workspace(made[side].workspace), gid, tmp_path / f"home-{side}").game()
        except PbemError:  # not joined yet
            return None

    start_date: list[int] = []

    def reached() -> bool:
        games = [game("axis"), game("allies")]
        if any(g is None for g in games):
            return False
        if months is None:
            return all(machine.expected(g) is None for g in games) and games[0].seq == games[1].seq  # type: ignore
        dates = [_month_number(engine_link.api().decision(g.state).when) for g in games]  # type: ignore[union-attr]
        if not start_date:
            start_date.append(min(dates))
        return min(dates) >= start_date[0] + months

    bots = [BotMailbox(axis.config), BotMailbox(allies.config)]
    limit = 120 if months is None else 300 * months  # a loaded machine (the whole suite on two cores) needs it
    workers = [threading.Thread(target=b.run, kwargs={"max_seconds": limit}, daemon=True) for b in bots]
    started = time.monotonic()
    for w in workers:
        w.start()
    try:
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline and not reached():
            if not all(w.is_alive() for w in workers):
                break
            time.sleep(0.2)
        assert reached(), f"game did not get there: {caplog.text[-3000:]}"
    finally:
        for b in bots:
            b.stopping = True
        for w in workers:
            w.join(timeout=60)
    elapsed = time.monotonic() - started
    g_axis, g_allies = game("axis"), game("allies")
    assert g_axis is not None and g_allies is not None
    common = min(len(g_axis.hashes), len(g_allies.hashes))
    assert common > 3 and g_axis.hashes[:common] == g_allies.hashes[:common]  # one history on both sides
    assert " rejected " not in caplog.text and "EQUIVOCATION" not in caplog.text, caplog.text[-3000:]
    assert bots[0].played > 0 and bots[1].played > 0
    # The invited bot played at the level asked (level 1 is "gentle" in both engines), the
    # inviting one at its own (each also forecasts the other side with the everyday bot).
    assert ("allies", "gentle") in asked and ("axis", "gentle") not in asked, asked
    _check_turn_mails(allies, gid, scenario)
    _check_join_travels_with_the_first_decision(axis, gid)
    if scenario == "1939":
        _check_standing_orders(axis, gid, tmp_path / "record")
    print(f"{scenario}: {max(g_axis.seq, g_allies.seq)} files in {elapsed:.1f} s through the mail servers")


def _check_turn_mails(receiver: Player, gid: str, scenario: str) -> None:
    """Each turn mail names the month and phase awaited and carries its file's report;
    the invitation says what it is and the one command that joins it."""
    mails = [email.message_from_bytes(raw, policy=email.policy.default) for raw in fetch_all(receiver, "pbem")]
    assert mails
    for mail in mails:
        subject = str(mail["Subject"])
        body = mail.get_body(preferencelist=("plain",))
        assert body is not None
        text = body.get_content()
        names = [p.get_filename() for p in mail.iter_attachments()]
        files = [n for n in names if n.endswith(".pbem")]
        assert files and set(names) - set(files) <= {f"{files[-1][:18]}-front.png"}, names
        seq = int(files[0].split("-")[1])
        if seq == 0:
            assert subject == f"[pbem] invitation to a {scenario} game as the allies - game {gid}"
            assert f"pbem join .pbem/invitations/{gid}.pbem --me" in text
        else:
            assert re.fullmatch(rf"\[pbem\] \d{{4}}-\d{{2}} [A-Z][a-z].* - game {gid}", subject), subject
            assert text.startswith(f"file {seq} of game {gid}"), text[:200]


def _check_join_travels_with_the_first_decision(receiver: Player, gid: str) -> None:
    """The allies join (file 1) and make their first decision (file 2) before the axis can
    answer: both files arrive in one mail, in order."""
    mails = [email.message_from_bytes(raw, policy=email.policy.default) for raw in fetch_all(receiver, "pbem")]
    carrying = [[p.get_filename() for p in m.iter_attachments()] for m in mails]
    (join_mail,) = [names for names in carrying if f"{gid}-00001-allies.pbem" in names]
    assert join_mail[:2] == [f"{gid}-00001-allies.pbem", f"{gid}-00002-allies.pbem"], join_mail


def _check_standing_orders(player: Player, gid: str, out: Path) -> None:
    """The bots gave reaction orders and their month's hidden steps ahead: both sides' files
    carry seals of the orders and lists their log counts as standing, some interception or
    landing was decided by opening a seal, and the record still audits from its files."""
    files = history.workspace_files(Workspace(player.workspace), gid)
    kinds = {(tf.side, rec.KIND) for tf in files for rec in tf.records}
    assert {("axis", "seal"), ("allies", "seal")} <= kinds, kinds
    assert {kind for _, kind in kinds} >= {"react"}, kinds
    entries = [e for r in report.reports(files) for e in r.to_json()["entries"]]
    standing = {(e["side"], e["record"]) for e in entries if e["by"] == "standing"}
    ahead = {side for side, record in standing if record in ("commit", "sim")}
    assert ahead == {"axis", "allies"}, standing
    out.mkdir()
    for tf in files:
        (out / turnfile.filename(gid, tf.seq, tf.side)).write_bytes(tf.raw)
    [audited] = audit.audit_dir(out)
    assert audited.files == len(files)


def _month_number(when: str) -> int:
    year, month = when.split("-")
    return int(year) * 12 + int(month) - 1
