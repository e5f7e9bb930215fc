"""A side that sent its file in time never loses by a claim (docs/turn-file-format.md, 12.3).

The attacks played here with real files between two workspaces: the claimant says it never
received a file that reached it in time, and claims twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.errors import PbemError
from pbem.play import audit, claim, exchange, history, status, turn
from pbem.protocol import machine, turnfile
from pbem.store.localgame import LocalGame
from tests.protocol.conftest import Duo, make_duo
from tests.protocol.test_crash import cli

T0 = 1_800_000_000
HOUR = 3600


def _at(monkeypatch: pytest.MonkeyPatch, t: int) -> None:
    monkeypatch.setenv("PBEM_NOW", str(t))


def _import(duo: Duo, side: str, path: Path) -> exchange.ImportResult:
    p = duo.player(side)
    return exchange.import_file(p.ws.root, path, home=p.home)


def _claim_file(duo: Duo, side: str) -> Path:
    p = duo.player(side)
    path, _ = claim.claim(p.ws, duo.gid, p.home)
    (copy,) = [f for f in duo.outbox(side) if f.name == path.name]
    return copy


def _ignoring_what_arrives(duo: Duo, side: str, silence: str, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The waiting ``side`` receives its opponent's file in time, says it never came and claims
    twice (a reminder, then a final claim); the opponent's program receives both claims.
    Returns the opponent's file that was sent in time."""
    start = duo.game(side).clock
    silent = "allies" if side == "axis" else "axis"
    sent = duo.outbox(silent)  # sent in time, and kept from `side`'s program
    assert sent
    results = []
    for i in (1, 2):
        _at(monkeypatch, start + i * HOUR)
        results.append(_import(duo, silent, _claim_file(duo, side)))
    first, second = results
    assert first.status == "rejected" and first.code == "claim-crossed", first.message
    assert "never received" in first.message and "sent in time" in first.message
    assert first.replies and [r.read_bytes() for r in first.replies] == [f.read_bytes() for f in sent]
    # The final claim follows the reminder, which the silent side refused: it cannot be applied.
    assert second.status == "rejected" and second.code == "chain-link", second.message
    return sent


@pytest.mark.parametrize("silence", ["forfeit", "bot"])
def test_a_decision_sent_in_time_is_kept_against_a_claim_of_non_receipt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, silence: str
) -> None:
    _at(monkeypatch, T0)
    duo = make_duo(tmp_path, options={"deadline": HOUR, "silence": silence})
    assert duo.to_move() == "allies"
    _at(monkeypatch, T0 + 60)  # allies answer within a minute
    turn.bot_play(duo.allies.ws, duo.gid, home=duo.allies.home)
    sent = _ignoring_what_arrives(duo, "axis", silence, monkeypatch)
    g = duo.game("allies")
    assert not g.forfeited and g.seq == 2 and LocalGame(duo.allies.ws, duo.gid, duo.allies.home).history_file(2)
    line = status.lines(duo.allies.ws, duo.gid, duo.allies.home)[0]
    assert "DISPUTED" in line and "never received your file 2" in line and "game is over" not in line
    # The claimant's program, given the file again, finds its claims void and plays on from it.
    (res,) = [_import(duo, "axis", f) for f in sent]
    assert res.status == "applied" and "your claim is void" in res.message, res.message
    assert duo.game("axis").hashes == duo.game("allies").hashes[: duo.game("axis").seq + 1]
    assert not duo.game("axis").forfeited
    line = status.lines(duo.axis.ws, duo.gid, duo.axis.home)[0]
    assert "DISPUTED" in line and "claim crossed" in line


def test_the_dispute_is_shown_by_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _at(monkeypatch, T0)
    duo = make_duo(tmp_path, options={"deadline": HOUR, "silence": "forfeit"})
    _at(monkeypatch, T0 + 60)
    turn.bot_play(duo.allies.ws, duo.gid, home=duo.allies.home)
    duo.outbox("allies")
    _at(monkeypatch, T0 + HOUR)
    reminder = _claim_file(duo, "axis")
    ws = str(duo.allies.ws.root)
    run = cli(["import", "--workspace", ws, str(reminder)], duo.allies.home, fresh=True)
    shown = run.stdout + run.stderr
    assert run.returncode != 0 and "Traceback" not in shown, shown
    assert "DISPUTE" in shown and "never received your file 2" in shown and "sent again" in shown, shown
    run = cli(["status", "--workspace", ws], duo.allies.home, fresh=True)
    assert run.returncode == 0 and "DISPUTED" in run.stdout and "sent in time" in run.stdout, run.stdout + run.stderr
    run = cli(["log", duo.gid, "--workspace", ws], duo.allies.home, fresh=True)
    assert run.returncode == 0 and "DISPUTED: file 2:" in run.stdout and "never received" in run.stdout, run.stderr


def test_a_dice_value_sent_in_time_is_never_forfeited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The attack on a roll: its trigger author receives the other side's value, says it never
    came and claims twice, hoping to make that side forfeit and escape a bad roll."""
    _at(monkeypatch, T0)
    duo = make_duo(tmp_path, options={"deadline": HOUR, "silence": "bot"})
    t = T0
    while True:
        exp = machine.expected(duo.game("axis"))
        assert exp is not None and duo.game("axis").seq < 60, "no roll came"
        if exp.kind == "dice" and machine.expected(duo.game(exp.side)) == exp:
            break
        t += 60
        _at(monkeypatch, t)
        duo.step()
    first = exp.side  # owes the first value, sent automatically on import of the trigger file
    trigger = "allies" if first == "axis" else "axis"
    if not duo.outbox(first):  # the value may wait for the next import: the receiver answers at once
        turn.bot_play(duo.player(first).ws, duo.gid, home=duo.player(first).home)
    monkeypatch.setenv("PBEM_NOW", str(duo.game(first).clock))
    _ignoring_what_arrives(duo, trigger, "bot", monkeypatch)
    g = duo.game(first)
    exp = machine.expected(g)
    assert not g.forfeited and exp is not None and exp.side == trigger


def test_after_a_bot_claim_the_claimants_rolls_use_its_chain_further_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The final claim spends the claimant's next dice value; its program reveals the one after
    it at the next roll, and both players and the auditor agree."""
    _at(monkeypatch, T0)
    duo = make_duo(tmp_path, options={"deadline": HOUR, "silence": "bot"})
    for i in (1, 2):
        _at(monkeypatch, T0 + i * HOUR)
        for res in [_import(duo, "allies", _claim_file(duo, "axis"))]:
            assert res.status == "applied", res.message
    t = T0 + 2 * HOUR
    while duo.game("axis").k == 0:
        assert duo.game("axis").seq < 80, "no roll came"
        t += 60
        _at(monkeypatch, t)
        duo.step()
    duo.deliver("axis")
    duo.deliver("allies")
    assert duo.game("axis").hashes == duo.game("allies").hashes[: len(duo.game("axis").hashes)]
    (rep,) = audit.audit_dir(duo.out)
    assert rep.files >= duo.game("axis").seq


def test_a_file_dated_in_time_that_comes_after_the_final_claims_answer_time_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A side cannot wait out a forfeit and then undo it with a file dated in time: the
    claimant gives up its claims only for a file that comes while its last one awaits an answer."""
    _at(monkeypatch, T0)
    duo = make_duo(tmp_path, options={"deadline": HOUR, "silence": "forfeit"})
    for i in (1, 2):
        _at(monkeypatch, T0 + i * HOUR)
        (res,) = [_import(duo, "allies", _claim_file(duo, "axis"))]
        assert res.status == "applied", res.message
    assert duo.game("axis").forfeited == "allies"
    # Allies write a file for position 2 dated in time (a minute after the join), days later.
    g = duo.game("axis")
    join = LocalGame(duo.axis.ws, duo.gid, duo.axis.home).history_file(1)
    assert join is not None
    body = duo.next_body("allies", [["commit", bytes(32)]], join.body["state"])
    body |= {"seq": 2, "prev": g.hashes[1], "time": T0 + 60}
    backdated = tmp_path / "backdated.pbem"
    backdated.write_bytes(duo.forge("allies", body).raw)
    _at(monkeypatch, T0 + 3 * HOUR + 1)  # the final claim's own deadline has passed
    res = _import(duo, "axis", backdated)
    assert res.status == "rejected" and res.code == "sequence", res.message
    assert duo.game("axis").forfeited == "allies"
    # The same file a second earlier would have voided both claims.
    _at(monkeypatch, T0 + 3 * HOUR)
    res = _import(duo, "axis", backdated)
    assert res.status == "applied" and "your claim is void" in res.message, res.message
    assert not duo.game("axis").forfeited and duo.game("axis").seq == 2


def _crossed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, late: bool) -> tuple[Duo, Path, Path]:
    """Axis's reminder for file 2 and allies' file 2, both in the record folder; allies' file
    is dated before the deadline, or with ``late`` after it.  Returns the duo, the claim and
    the file; allies' workspace holds its file, axis's its claim."""
    _at(monkeypatch, T0)
    duo = make_duo(tmp_path, options={"deadline": HOUR, "silence": "forfeit"})
    _at(monkeypatch, T0 + HOUR)
    reminder = _claim_file(duo, "axis")
    _at(monkeypatch, T0 + (2 * HOUR if late else 60))  # the file's signed time
    turn.bot_play(duo.allies.ws, duo.gid, home=duo.allies.home)
    (answer,) = duo.outbox("allies")
    assert turnfile.read(answer).seq == turnfile.read(reminder).seq == 2
    _at(monkeypatch, T0 + 3 * HOUR)
    return duo, reminder, answer


@pytest.mark.parametrize("late", [False, True], ids=["in-time", "late"])
def test_the_auditor_tells_a_crossed_claim_as_the_receivers_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, late: bool
) -> None:
    """A directory holding both a claim and the other side's file for one position: the
    auditor, like the receivers (12.3), refuses the claim if the file was sent in time
    (`claim-crossed`), else the file (the claim wins)."""
    duo, reminder, answer = _crossed(tmp_path, monkeypatch, late)
    with pytest.raises(PbemError) as exc:
        audit.audit_dir(duo.out)
    refused, code = (answer, "sequence") if late else (reminder, "claim-crossed")
    assert (str(exc.value).split(":")[0], exc.value.code) == (refused.name, code), str(exc.value)
    assert ("after the deadline" if late else "crossed") in str(exc.value)
    if not late:  # `pbem verify` of the claim by the silent side, which holds its file there, agrees
        with pytest.raises(PbemError) as exc:
            audit.verify_file(duo.allies.ws, reminder)
        assert exc.value.code == "claim-crossed" and "sent in time" in str(exc.value), str(exc.value)


def test_verify_of_a_claim_over_my_late_file_says_the_claim_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`pbem verify` of the claim by the silent side, whose file there was late (12.3, point 3):
    the claim is valid and wins, as importing it then does; verifying changes nothing."""
    duo, reminder, answer = _crossed(tmp_path, monkeypatch, late=True)
    lg = LocalGame(duo.allies.ws, duo.gid, duo.allies.home)
    said = audit.verify_file(duo.allies.ws, reminder)
    assert said.startswith(f"{reminder.name}: valid: the claim wins over your file 2"), said
    assert "withdraws your files from 2 on" in said, said
    held = lg.history_file(2)
    assert held is not None and held.hash == turnfile.read(answer).hash
    ws = ["--workspace", str(duo.allies.ws.root)]
    run = cli(["verify", *ws, str(reminder)], duo.allies.home)
    assert run.returncode == 0 and "the claim wins" in run.stdout, run.stdout + run.stderr
    res = _import(duo, "allies", reminder)
    assert res.status == "applied" and "withdrawn" in res.message, res.message
    held = lg.history_file(2)
    assert held is not None and held.hash == turnfile.read(reminder).hash


def test_verify_of_a_claim_over_the_opponents_late_file_is_out_of_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the silent side gives up its late file for a claim: the claimant, holding its own
    claim there, is told the position is filled (it keeps its claim, 12.3 point 3)."""
    duo, _, answer = _crossed(tmp_path, monkeypatch, late=True)
    with pytest.raises(PbemError) as exc:
        audit.verify_file(duo.axis.ws, answer)
    assert exc.value.code == "sequence" and "already filled" in str(exc.value), str(exc.value)


@pytest.mark.parametrize("late", [False, True], ids=["in-time", "late"])
def test_a_record_folder_with_a_crossed_claim_is_read_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, late: bool
) -> None:
    """`pbem log FOLDER` and `pbem branch FOLDER` read a game whose folder holds a claim and the
    other side's file for one position as the auditor tells them apart (12.3): the claim set
    aside if the file was sent in time, else the file."""
    duo, reminder, answer = _crossed(tmp_path, monkeypatch, late)
    stands = reminder if late else answer
    files = history.record_files(duo.out)
    assert [tf.seq for tf in files] == [0, 1, 2] and files[2].hash == turnfile.read(stands).hash
    run = cli(["log", str(duo.out)], duo.allies.home)
    assert run.returncode == 0 and "file 2" in run.stdout, run.stdout + run.stderr
    assert ("claim" in run.stdout) == late, run.stdout
    scratch = ["-w", str(tmp_path / "scratch")]
    run = cli(["branch", str(duo.out), "--at", "1", "--me", "axis-p", *scratch], duo.axis.home)
    assert run.returncode == 0, run.stdout + run.stderr
