"""The level an invitation asks of a computer opponent (docs/turn-file-format.md, section
6.1): `pbem new --opponent KEY --level N` signs it into the genesis, a bot mailbox that joins
plays the game at it, a person who joins is told and plays as ever, and the engine never sees
it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

import engine.ai
from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.mail import botplayer
from pbem.play import exchange, games, levels
from pbem.protocol import engine_link, gameoptions, machine, turnfile
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from tests.decision_spy import DecisionSpy


def test_the_protocol_s_levels_are_the_engine_s_ladder() -> None:
    assert list(gameoptions.LEVELS) == list(range(1, len(engine.ai.LEVELS) + 1))


@pytest.mark.parametrize("bad", [0, 5, -1, True, "2", 2.0])
def test_a_level_outside_the_ladder_or_of_another_type_is_refused(bad: object) -> None:
    with pytest.raises(PbemError, match="the option 'level' must be a whole number from 1 to 4") as err:
        gameoptions.check({"level": bad})
    assert err.value.code == "illegal"


def test_the_level_stands_beside_the_deadline_terms_and_the_engine_never_sees_it() -> None:
    terms: dict[str, object] = {"deadline": 3600, "silence": "bot"}
    gameoptions.check(terms | {"level": 4})  # no refusal
    assert gameoptions.level(terms | {"level": 4}) == 4 and gameoptions.level(terms) is None
    assert gameoptions.engine_options(terms | {"level": 4, "fog": True}) == {"fog": True}


def test_an_invitation_asks_the_bot_mailbox_for_a_level_and_the_bot_plays_at_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice_home, bot_home = tmp_path / "alice-home", tmp_path / "bot-home"
    keys.keygen("alice", "alice@example.org", directory=alice_home)
    keys.keygen("bot", "bot@example.org", directory=bot_home)
    mine, theirs = Workspace(tmp_path / "alice"), Workspace(tmp_path / "bot")
    run = CliRunner()
    new = ["-w", str(mine.root), "--home", str(alice_home), "new", "--scenario", "1939", "--side", "allies"]
    new += ["--me", "alice", "--opponent", str(bot_home / "bot.pub")]

    got = run.invoke(app, [*new, "--level", "9"])
    assert got.exit_code != 0 and "Traceback" not in got.output
    assert got.output.strip().splitlines() == [
        "error: --level: there is no level 9: choose 1 (gentlest) to 4 (strongest); 3 is the everyday bot"
    ]
    assert mine.games() == [] and not mine.outbox.exists()  # nothing signed, nothing written

    got = run.invoke(app, [*new, "--level", "1"])
    assert got.exit_code == 0, got.output
    gid = got.stdout.strip().splitlines()[0]
    (invitation,) = mine.outbox.glob(f"{gid}-00000-*.pbem")
    assert turnfile.read(invitation).body["options"] == {"level": 1}  # signed into the genesis
    status = run.invoke(app, ["-w", str(mine.root), "--home", str(alice_home), "status", gid])
    assert f"game {gid}: waiting for bot to join (level 1 asked of a computer opponent)" in status.output

    # A person who is sent it is told what it asks: by the mail that carries it, and by `pbem join`.
    mail = exchange.file_report(mine.root, gid, 0, alice_home)
    assert mail is not None
    assert (
        "alice plays the allies; you would play the axis.\n"
        "The invitation asks a computer opponent to play at level 1 (of 1 to 4).\n\n" in mail["text"]
    )
    assert (
        games.inviter(invitation)
        .text()
        .startswith(f"invitation to game {gid} (1939, asking a computer opponent to play at level 1) from alice")
    )
    # The engine's start is the same as without the option: the state the join binds.
    g = machine.Genesis(turnfile.read(invitation).body)
    api = engine_link.api()
    assert api.state_hash(machine.new_state(g)) == api.state_hash(api.new_game("1939", {}))

    # The bot mailbox's way: import, join, play.
    (theirs.root / "inbox").mkdir(parents=True)
    shutil.copy(invitation, theirs.root / "inbox" / invitation.name)
    assert exchange.import_file(theirs.root, theirs.root / "inbox" / invitation.name, bot_home).status != "rejected"
    assert botplayer.accept(theirs.root, gid, "bot", bot_home)
    spy = DecisionSpy(monkeypatch)
    assert botplayer.play(theirs.root, gid, bot_home)
    assert spy.players("axis") == {"gentle"}
    assert levels.recorded_player(LocalGame(theirs, gid, bot_home)) == "gentle"
    # My status line, once the bot's answers are in, still says what I asked.
    for f in sorted(theirs.outbox.glob(f"{gid}-*.pbem")):
        assert exchange.import_file(mine.root, f, alice_home).status == "applied", f.name
    status = run.invoke(app, ["-w", str(mine.root), "--home", str(alice_home), "status", gid])
    assert f"game {gid} (allies, level 1 asked of a computer opponent), file " in status.output, status.output
    # The inviter's own computer player (`pbem bot play` on my side) is not asked for it.
    assert levels.recorded_player(LocalGame(mine, gid, alice_home)) == "bot"
    # The bot's operator may still set the level by hand; that wins.
    levels.set_level(theirs, gid, 3, bot_home)
    assert levels.recorded_player(LocalGame(theirs, gid, bot_home)) == "bot"
