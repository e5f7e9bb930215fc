"""Who gave each entry of the log, and sittings and file hops per game month (pbem/play/sittings.py,
`pbem log --sittings`), checked against a hand count of a recorded game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.play import sittings

RECORDS = Path(__file__).resolve().parent / "data" / "records"
SEED7 = RECORDS / "1939-seed7"


@pytest.fixture(scope="module")
def seed7_log() -> list[dict[str, Any]]:
    """The log of the 1939 record, as `pbem log --json` gives it."""
    result = CliRunner().invoke(app, ["log", str(SEED7), "--json"])
    assert result.exit_code == 0, result.output
    found: list[dict[str, Any]] = json.loads(result.output)
    return found


def _file(log: list[dict[str, Any]], seq: int) -> dict[str, Any]:
    return next(f for f in log if f["seq"] == seq)


def test_every_entry_says_who_gave_it(seed7_log: list[dict[str, Any]]) -> None:
    entries = [e for f in seed7_log for e in f["entries"]]
    assert {e["by"] for e in entries} == {"person", "program"} < set(sittings.BY)
    for e in entries:
        assert (e["by"] == "program") == (e["record"] in ("dice", "reveal")), e
    # File 31: the Axis program opens its deployment; file 32: the Allies' income and builds.
    assert [(e["record"], e["by"]) for e in _file(seed7_log, 31)["entries"]] == [("reveal", "program")]
    assert [(e["record"], e["by"]) for e in _file(seed7_log, 32)["entries"]] == [
        ("sim", "person"),
        ("commit", "person"),
    ]
    assert _file(seed7_log, 1)["entries"][0]["by"] == "person"  # joining is a person's decision


def test_a_month_counted_by_hand(seed7_log: list[dict[str, Any]]) -> None:
    """1939-10 and 1939-11 of the record (engine 0.3.0), by hand (A: Axis, the odd files;
    L: Allies, the even ones; * marks the files holding only the program's dice values or
    reveals).

    A hop counts in the month of its file's first entry: file 27 begins with September's
    weather, so 1939-10's hops are files 28 to 51, which alternate: 24 hops, of which 7
    automatic (31*, 34*, 38*, 40*, 45*, 47*, 50*).  Sittings (a run of a side's decisions
    that no decision of the other side interrupts; a program's file does not), counted in
    the month of their first decision: A 25-27 (the September landing, then October's
    declarations: September's); L 28 declarations; A 29 deployment; L 30-32 deployment,
    income and builds; A 33-35 builds and first movement; L 36 interception; A 37-41
    interception, combat, advance, second movement; L 42 landing, overrun, first movement;
    A 43 interception; L 44-48 interception, combat, advance, second movement; A 49-51
    landing and November's declarations.  Axis 5, Allies 5.

    1939-11: files 52 to 77, 26 hops, 8 automatic (55*, 58*, 62*, 64*, 66*, 71*, 73*, 76*);
    L 52; A 53; L 54-56; A 57-59; L 60; A 61-67; L 68; A 69; L 70-74; A 75-77 (with
    December's declarations): Axis 5, Allies 5 (the sitting of 49-51 is October's)."""
    months = {m.when: m for m in sittings.tally(seed7_log).months}
    m = months["1939-10"]
    assert (m.sittings, m.hops, m.automatic_hops, m.finished) == ({"axis": 5, "allies": 5}, 24, 7, True)
    # The Axis sitting of files 49-51 began in October: November counts it not.
    assert _file(seed7_log, 51)["entries"][-1]["when"] == "1939-11"
    n = months["1939-11"]
    assert (n.sittings, n.hops, n.automatic_hops, n.finished) == ({"axis": 5, "allies": 5}, 26, 8, True)


def test_log_sittings_prints_the_months_and_the_median(tmp_path: Path) -> None:
    record = RECORDS / "1937-seed3"
    text = CliRunner().invoke(app, ["log", str(record), "--sittings"])
    assert text.exit_code == 0, text.output
    doc = CliRunner().invoke(app, ["log", str(record), "--sittings", "--json"])
    assert doc.exit_code == 0, doc.output
    found = json.loads(doc.output)
    rows = found["months"]
    assert rows[-1]["finished"] is False and all(r["finished"] for r in rows[:-1])
    whole = rows[:-1]
    assert found["summary"]["months"] == len(whole) >= 1
    assert found["summary"]["hops"]["max"] == max(r["hops"] for r in whole)
    lines = text.output.splitlines()
    assert lines[0] == f"game {found['game']}: sittings per side and file hops per game month"
    for r in rows:
        row = next(line for line in lines if line.startswith(r["month"]))
        cells = row.split()
        assert cells[1:5] == [str(r["sittings"]["axis"]), str(r["sittings"]["allies"]), str(r["hops"]),
                              str(r["automatic_hops"])]  # fmt: skip
    assert lines[-3].startswith("median") and lines[-2].startswith("max")
    assert lines[-1].startswith("two people who each answer once a day")
    one = CliRunner().invoke(app, ["log", str(record), "--sittings", "--json", "--month", rows[0]["month"]])
    assert one.exit_code == 0, one.output
    assert json.loads(one.output)["months"] == rows[:1]
    none = CliRunner().invoke(app, ["log", str(record), "--sittings", "--month", "1999-01"])
    assert none.exit_code != 0 and "has no file in 1999-01" in none.output


def test_log_sittings_refuses_since_mine_in_one_line() -> None:
    result = CliRunner().invoke(app, ["log", str(SEED7), "--sittings", "--since-mine"])
    assert result.exit_code != 0
    assert result.output.strip().count("\n") == 0 and "--since-mine" in result.output
    assert "Traceback" not in result.output


def _f(side: str, *entries: tuple[str, str, str], game: str = "g") -> dict[str, Any]:
    return {"game": game, "side": side, "entries": [{"when": w, "side": side, "record": r, "by": b}
                                                    for w, r, b in entries]}  # fmt: skip


def test_runs_hops_and_unfinished_months() -> None:
    files = [
        _f("allies", ("1939-09", "join", "person")),
        _f("allies", ("1939-09", "commit", "person")),  # travels with the join: one hop
        _f("axis", ("1939-09", "sim", "person")),
        _f("allies", ("1939-09", "reveal", "program")),  # an automatic hop
        _f("axis", ("1939-09", "act", "person")),  # the Axis sitting goes on over it
        _f("allies", ("1939-09", "act", "standing")),  # a standing order interrupts nothing
        _f("axis", ("1939-09", "dice", "program"), ("1939-10", "commit", "person")),
        _f("allies", ("1939-10", "sim", "person")),
    ]
    t = sittings.tally(files)
    sep, octo = t.months
    assert (sep.sittings, sep.hops, sep.automatic_hops) == ({"axis": 1, "allies": 1}, 6, 2)
    assert (octo.sittings, octo.hops, octo.finished) == ({"axis": 0, "allies": 1}, 1, False)
    assert t.summary()["months"] == 1 and t.summary()["sittings"]["axis"] == {"median": 1, "max": 1}
    files[-1]["next"] = "the game is over: axis resigned"
    assert sittings.tally(files).months[-1].finished


def test_the_floor_counts_what_no_fair_exchange_can_save() -> None:
    """The Axis moves, the Allies' reaction orders open, a roll, the Axis decides again; then
    a roll the Allies trigger and decide after; then the Allies' own turn."""
    files = [
        _f("axis", ("1939-10", "act", "person")),  # the first movement: the pen is the Axis'
        _f("allies", ("1939-10", "react", "standing"), ("1939-10", "seal", "program")),
        _f("axis", ("1939-10", "react", "standing")),  # the mover's own answers ride free
        _f("allies", ("1939-10", "dice", "program")),  # owed by the Allies, after the trigger
        _f("axis", ("1939-10", "dice", "program"), ("1939-10", "act", "person")),  # combat: 2 hops
        _f("allies", ("1939-10", "dice", "program")),
        _f("axis", ("1939-10", "dice", "program"), ("1939-10", "act", "person")),  # advance: 2 more
        _f("allies", ("1939-10", "act", "person")),  # the pen passes: 1
        _f("axis", ("1939-10", "dice", "program")),  # a roll the Allies triggered
        _f("allies", ("1939-10", "dice", "program"), ("1939-10", "sim", "standing"), ("1939-10", "act", "person")),
    ]
    m = sittings.tally(files).months[0]
    assert m.hops == 10 and m.floor == 7  # the last roll: the Axis' value and the Allies' decision, 2
    assert m.floor <= m.hops
    assert "floor" in sittings.Tally("g", [m]).lines()[1]
    assert sittings.tally(files[:1]).months[0].floor == 0  # the first writer holds the pen already


def test_no_month_of_the_stored_records_has_fewer_hops_than_its_floor(seed7_log: list[dict[str, Any]]) -> None:
    months = sittings.tally(seed7_log).months
    assert all(0 < m.floor <= m.hops for m in months if m.finished)
    assert max(m.floor for m in months) > 8  # the target of 8 hops lies below it


def _decisions(log: list[dict[str, Any]]) -> list[tuple[str, tuple[str, ...], str, str]]:
    """The engine's decisions behind a record's entries (after the join): a commit opens a
    simultaneous decision of both sides, which its list and reveal close; a list in the clear
    alone is one side's; a pair of dice values is a roll; a phase's orders one decision."""
    out: list[tuple[str, tuple[str, ...], str, str]] = []
    skip = 0
    previous: dict[str, Any] | None = None
    for e in [e for f in log[1:] for e in f["entries"]]:
        if skip:
            skip -= 1
        elif e["record"] == "commit":
            out.append(("simultaneous", ("axis", "allies"), e["when"], e["phase"]))
            skip = 2
        elif e["record"] == "sim":
            out.append(("simultaneous", (e["side"],), e["when"], e["phase"]))
        elif e["record"] == "dice":
            out.append(("chance", (), e["when"], e["phase"]))
            skip = 1
        elif e["record"] == "act" and not (
            previous
            and previous["record"] == "act"
            and (previous["side"], previous["phase"]) == (e["side"], e["phase"])
        ):
            out.append(("sequential", (e["side"],), e["when"], e["phase"]))
        previous = e
    if skip:
        out.pop()  # the record stops inside this decision
    return out


def _squeezed(records: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """One side's orders of several phases in a row as one: the log cuts them by phase."""
    return [x for i, x in enumerate(records) if i == 0 or x != records[i - 1] or x[1] != "act"]


def test_the_emulation_writes_the_records_the_program_wrote(seed7_log: list[dict[str, Any]]) -> None:
    """Told the decisions of the record, the emulation (for games without files) gives each
    record to the side that wrote it, and so the same sittings and hops."""
    em = sittings.Emulation(seed7_log[0]["game"])
    em.decision("sequential", ("allies",), "1939-09")  # the join, as the first record
    em.files[0]["entries"][0]["record"] = "join"
    for kind, sides, when, _ in _decisions(seed7_log):
        em.decision(kind, sides, when)
    made = _squeezed([(e["side"], e["record"]) for f in em.files for e in f["entries"]])
    real = _squeezed([(e["side"], e["record"]) for f in seed7_log for e in f["entries"]])
    # The record stops after the Axis commitment of 1940-02, inside a decision.
    assert len(made) > 150 and made == real[:-1] and real[-1] == ("axis", "commit")
    want = sittings.tally(seed7_log).months
    assert want[-1].when == "1940-02"
    made_months = em.tally(last_whole=True).months
    assert made_months[:-1] == want[:-2]
    # Without the commitment that ends the record, the Axis weather dice travel alone.
    january = want[-2]
    assert made_months[-1].hops == january.hops and made_months[-1].sittings == january.sittings
    assert made_months[-1].automatic_hops == january.automatic_hops + 1


def test_reaction_orders_save_the_sittings_of_the_other_sides_turn(seed7_log: list[dict[str, Any]]) -> None:
    """With reaction orders (pbem react), the interceptions and landings are standing: the
    emulation counts them as the record's log would with those entries marked."""
    em = sittings.Emulation(seed7_log[0]["game"], react=True)
    em.decision("sequential", ("allies",), "1939-09")
    em.files[0]["entries"][0]["record"] = "join"
    for kind, sides, when, phase in _decisions(seed7_log):
        em.decision(kind, sides, when, phase)
    marked = [
        {**f, "entries": [{**e, "by": "standing"} if _reaction(e) else e for e in f["entries"]]} for f in seed7_log
    ]
    want, plain = sittings.tally(marked).months, sittings.tally(seed7_log).months
    made = em.tally(last_whole=True).months
    assert [m.sittings for m in made[:-1]] == [m.sittings for m in want[:-2]]
    # and fewer than without: each side is spared the sittings of the other's turn
    saved = sum(
        p.sittings[s] - w.sittings[s] for p, w in zip(plain[:-2], want[:-2], strict=True) for s in ("axis", "allies")
    )
    assert saved >= len(want[:-2])


def _reaction(e: dict[str, Any]) -> bool:
    return e["record"] == "act" and e["phase"].rsplit(".", 1)[-1] in sittings.REACTION_STEPS


@pytest.mark.parametrize("record", sorted(p.name for p in RECORDS.iterdir() if p.is_dir()))
def test_an_automatic_file_travels_alone_only_when_the_other_side_needs_it(record: str) -> None:
    """A file holding only dice values or openings is never followed by a file of its own
    side: whenever the same side decides next, the program puts the automatic records at the
    head of that decision's file (pbem/play/turn.py, ``answer``), and what is left alone is what
    the other side needs before it can go on."""
    from pbem.protocol import turnfile

    files = sorted((turnfile.read(p) for p in (RECORDS / record).glob("*.pbem")), key=lambda tf: tf.seq)
    alone = [tf.seq for tf in files if tf.type == "turn" and {r.KIND for r in tf.records} <= {"dice", "reveal"}]
    assert len(alone) > 10
    for seq in alone:
        if seq + 1 < len(files):
            assert files[seq + 1].side != files[seq].side, f"{record}: file {seq + 1}"


def test_lists_given_ahead_are_standing_and_leave_one_sitting_for_the_month_start() -> None:
    """The emulation of `pbem arena --ahead`: a side whose deployment and builds were given
    ahead sits once for the month's hidden steps, whether it commits or answers openly."""
    em = sittings.Emulation("g")
    em.decision("simultaneous", ("axis", "allies"), "1939-10")
    em.decision("chance", (), "1939-10")
    for _ in ("deployment", "build"):
        em.decision("simultaneous", ("axis", "allies"), "1939-10", ahead={"axis", "allies"})
    em.decision("sequential", ("axis",), "1939-10")
    standing = [(e["side"], e["record"]) for f in em.files for e in f["entries"] if e["by"] == sittings.STANDING]
    assert standing == [("allies", "commit"), ("axis", "sim")] * 2
    (month,) = em.tally(last_whole=True).months
    assert month.sittings == {"axis": 1, "allies": 1}
    # Without them each hidden step is a sitting of each side.
    em = sittings.Emulation("g")
    for _ in range(3):
        em.decision("simultaneous", ("axis", "allies"), "1939-10")
    assert em.tally(last_whole=True).months[0].sittings == {"axis": 3, "allies": 3}


def test_the_calendar_counts_a_day_at_most_for_each_sitting() -> None:
    """Each sitting waits for its person's next answer: at most a day when both answer once a
    day; the months not finished are left out; a game's first month counts once, at its own cost."""
    months = [
        sittings.Month("1939-09", {"axis": 3, "allies": 2}, opening=True),
        sittings.Month("1939-10", {"axis": 1, "allies": 2}),
        sittings.Month("1939-11", {"axis": 1, "allies": 1}),
    ]
    months.append(sittings.Month("1939-12", {"axis": 9, "allies": 9}, finished=False))
    c = sittings.summary(months)["calendar"]
    assert c["sittings_per_month"] == 2.5 and c["days_per_month"] == 2.5 and c["first_month_sittings"] == 5
    war_days = 5 + 2.5 * 87
    assert c["war_months"] == round(war_days / 30.4, 1) and c["war_months_opposite_times"] == round(war_days / 60.8, 1)
    assert sittings.calendar([], 24) is None
    assert sittings.calendar(months[1:3], 48)["days_per_month"] == 5  # type: ignore[index]
    # Without a first month in the figures, every month is the pace.
    assert sittings.calendar(months[1:3])["war_months"] == round(2.5 * 88 / 30.4, 1)  # type: ignore[index]
    assert "the war (88 months) in at most 7.3 months" in sittings.summary_line(sittings.summary(months))


def test_a_log_from_the_join_marks_its_first_month_as_the_opening() -> None:
    files = [
        {"game": "g", "side": "allies", "entries": [{"when": "1939-09", "side": "allies", "record": "join"}]},
        {"game": "g", "side": "axis", "entries": [{"when": "1939-10", "side": "axis", "record": "act"}]},
    ]
    assert [m.opening for m in sittings.tally(files).months] == [True, False]
    assert [m.opening for m in sittings.tally(files[1:]).months] == [False]
