"""The defender's retreat order as a reaction order (pbem/play/reactions.py, ``retreat``):
sealed with the side's other reaction orders, opened just before the side's first dice
value of an overrun or combat roll, where it becomes the engine's standing order
``retreat HEX ...`` (tests/engine/test_combat.py shows where it sends a stack)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine import combat
from pbem.cli.main import app
from pbem.errors import PbemError
from pbem.play import reactions, turn
from pbem.protocol import commit, engine_link, machine, replay, spec_verify, turnfile, wire
from pbem.protocol.records import React, Seal, from_wire
from pbem.protocol.turnfile import other
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo, make_duo
from tests.protocol.test_reactions import _files, _play


@pytest.fixture
def real_engine(fake_engine: None) -> Iterator[None]:
    engine_link.use(None)
    yield


def _warsaw(duo: Duo) -> int:
    game = duo.game("allies")
    return int(engine_link.api().parse_order(game.state, "allies", "retreat [Warsaw]").args[0])


@pytest.fixture(scope="module")
def retreated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Duo, list[turnfile.TurnFile]]]:
    """A 1939 game to October 1939 by bots, the Allies' retreats ordered toward Warsaw from the start."""
    engine_link.use(None)
    duo = make_duo(tmp_path_factory.mktemp("retreated"), "1939")
    p = duo.player("allies")
    given, written = turn.react(p.ws, duo.gid, home=p.home, retreat="toward:Warsaw")
    assert written == [] and given.retreat == "toward" and given.toward == (_warsaw(duo),)
    _play(duo, "1939-10")
    yield duo, _files(duo)
    engine_link.use(None)


def _opening(files: list[turnfile.TurnFile]) -> tuple[turnfile.TurnFile, int]:
    found = [(tf, i) for tf in files for i, rec in enumerate(tf.body.get("records", [])) if rec[0] == "react"]
    assert len(found) == 1, "one opening: the order is in force after it, so later rolls need none"
    return found[0]


def _before_opening(files: list[turnfile.TurnFile]) -> tuple[machine.Game, turnfile.TurnFile, int]:
    tf, i = _opening(files)
    game = replay.replay(files, upto=tf.seq - 1)
    for earlier in tf.body["records"][:i]:
        machine.apply_record(game, tf.side, tf.seq, from_wire(earlier))
    return game, tf, i


def test_the_retreat_order_opens_before_the_first_dice_of_a_combat_roll(
    real_engine: None, retreated: tuple[Duo, list[turnfile.TurnFile]]
) -> None:
    duo, files = retreated
    tf, i = _opening(files)
    records = tf.body["records"]
    assert tf.side == "allies" and records[i][1] == ["ask", "ask", [], [_warsaw(duo)]]
    assert records[i + 1][0] == "dice"  # the Allies' own first value of the roll follows at once
    game, _, _ = _before_opening(files)
    assert engine_link.api().decision(game.state).phase.rsplit(".", 1)[-1] in machine.ROLL_STEPS
    # The mover declared its attacks in the file that made the roll current, before the opening.
    assert game.pending is not None and isinstance(game.pending, machine.ChanceStep)
    trigger = next(f for f in files if f.seq == game.pending.trigger_seq)
    assert trigger.side == "axis"
    # From then on the order is the Allies' in both programs, and in the re-executed files.
    for side in ("axis", "allies"):
        assert duo.game(side).state.toward == {"allies": (_warsaw(duo),)}
    assert replay.replay(files).state.toward == {"allies": (_warsaw(duo),)}
    # The log counts it as a standing order, and the engine-free verifier accepts the files:
    # the opening is not the roll's trigger, so the Allies' dice value is still the first.
    verdict = spec_verify.verify(_raw(duo))
    assert verdict.valid, verdict.summary()


def _raw(duo: Duo) -> list[bytes]:
    by_seq = {turnfile.parse(f.read_bytes()).seq: f.read_bytes() for f in duo.out.glob("*.pbem")}
    return [by_seq[s] for s in sorted(by_seq)]


def test_the_moving_side_sees_only_the_seal_before_it_declared_its_attacks(
    real_engine: None, retreated: tuple[Duo, list[turnfile.TurnFile]]
) -> None:
    duo, files = retreated
    tf, i = _opening(files)
    clear = wire.pack(tf.body["records"][i][1])
    raw = _raw(duo)
    first = next(n for n, data in enumerate(raw) if clear in data)
    assert turnfile.parse(raw[first]).seq == tf.seq  # no file before the opening shows the orders
    sealed = [f for f in files[:first] if f.side == "allies" and any(r[0] == "seal" for r in f.body.get("records", []))]
    assert sealed, "the orders rode sealed in an earlier Allied file"
    # and no guess with a salt the Axis could compute opens the seal
    game, _, _ = _before_opening(files)
    digest, seq = game.seals["allies"]
    guesses = [["ask", "ask", [], [h]] for h in range(0, 5000)] + [["ask", "ask", [], "bot"]]
    for salt in (bytes(32), *(f.hash for f in files[:first])):
        assert not any(commit.seal_matches(digest, game.gid, seq, "allies", g, salt) for g in guesses)


@pytest.mark.parametrize("change", ["other hexes", "engine picks", "no retreat part", "zero salt"])
def test_an_opening_with_other_orders_is_refused(
    real_engine: None, retreated: tuple[Duo, list[turnfile.TurnFile]], change: str
) -> None:
    duo, files = retreated
    game, tf, i = _before_opening(files)
    orders, salt = tf.body["records"][i][1], tf.body["records"][i][2]
    forged = {
        "other hexes": React(["ask", "ask", [], [_warsaw(duo) + 1]], salt),
        "engine picks": React(["ask", "ask", [], "bot"], salt),
        "no retreat part": React(["ask", "ask", []], salt),
        "zero salt": React(orders, bytes(32)),
    }[change]
    with pytest.raises(PbemError) as refused:
        machine.apply_record(game.clone(), tf.side, tf.seq, forged)
    assert refused.value.code == "react-mismatch"
    machine.apply_record(game, tf.side, tf.seq, React(orders, salt))  # the genuine one still opens
    with pytest.raises(PbemError) as again:
        machine.apply_record(game, tf.side, tf.seq, React(orders, salt))
    assert again.value.code == "react-not-sealed"  # spent: opened once


def test_an_order_changed_after_the_mover_moved_or_given_by_the_mover_is_refused(
    real_engine: None, retreated: tuple[Duo, list[turnfile.TurnFile]]
) -> None:
    duo, files = retreated
    game, tf, i = _before_opening(files)
    salt = tf.body["records"][i][2]
    changed = ["ask", "ask", [], [_warsaw(duo) + 1]]
    late = game.clone()
    # sealed in the opening file itself, after seeing the attacks
    machine.apply_record(late, tf.side, tf.seq, Seal(commit.seal(game.gid, tf.seq, tf.side, changed, salt)))
    with pytest.raises(PbemError) as refused:
        machine.apply_record(late, tf.side, tf.seq, React(changed, salt))
    assert refused.value.code == "react-not-sealed"
    with pytest.raises(PbemError) as mover:
        machine.apply_record(game.clone(), other(tf.side), tf.seq, React(tf.body["records"][i][1], salt))
    assert "out of turn" in str(mover.value)


def test_the_orders_wire_form() -> None:
    bot = reactions.Reactions("bot", "bot", (), "bot")
    toward = reactions.Reactions(retreat="toward", toward=(12, 7))
    assert bot.to_wire() == ["bot", "bot", [], "bot"] and toward.to_wire() == ["ask", "ask", [], [12, 7]]
    assert reactions.Reactions().to_wire() == ["ask", "ask", []]  # without one, sealed as before
    for r in (bot, toward, reactions.Reactions("pass", "bot")):
        assert reactions.Reactions.from_wire(r.to_wire()) == r
    assert reactions.Reactions().silent() and not reactions.Reactions(retreat="bot").silent()


def test_the_react_command_takes_the_retreat_order_and_refuses_a_wrong_one(real_engine: None, tmp_path: Path) -> None:
    duo = make_duo(tmp_path, "1939")
    runner = CliRunner()
    ws = str(duo.allies.ws.root)
    env = {"PBEM_HOME": str(duo.allies.home)}
    out = runner.invoke(app, ["-w", ws, "react", duo.gid, "--retreat", "toward:[Warsaw]"], env=env)
    assert out.exit_code == 0, out.output
    assert "retreats: toward" in out.output and "(Warsaw)" in out.output
    out = runner.invoke(app, ["-w", ws, "react", duo.gid, "--retreat", "bot"], env=env)
    assert out.exit_code == 0 and "retreats: the engine picks" in out.output
    for bad, says in (
        ("sideways", "is not ask, bot or toward:PLACE"),
        ("toward:", "is not ask, bot or toward:PLACE"),
        ("bot:Warsaw", "is not ask, bot or toward:PLACE"),
        ("toward:Atlantis", "no city named Atlantis"),
        ("toward:[Warsaw] [Warsaw]", "name each place once"),
    ):
        refused = runner.invoke(app, ["-w", ws, "react", duo.gid, "--retreat", bad], env=env)
        assert refused.exit_code != 0 and says in refused.output, (bad, refused.output)
        assert "Traceback" not in refused.output
    kept = LocalGame(duo.allies.ws, duo.gid, duo.allies.home).meta["reactions"]
    assert kept["retreat"] == "bot"  # a refused order changes nothing
    # What the command refuses is what the engine and the format would: nothing is lost.
    assert reactions.MAX_TOWARD == combat.MAX_TOWARD
