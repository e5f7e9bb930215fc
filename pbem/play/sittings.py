"""What a game month costs its players: who gave each entry of the log, sittings and file hops.

Every entry of a game's log (pbem/play/report.py) was given by one of three:

- ``person``: a decision the program asked a person for (orders, a hidden list, a list in
  the clear, a claim, an ending, the join), even when its only order was ``pass``;
- ``standing``: orders a side gave in advance that its program applies for it (the
  records a turn file marks ``standing``: the reaction orders of pbem/play/reactions.py,
  and the lists given ahead for the month's coming hidden steps, pbem/play/ahead.py);
- ``program``: what the program writes by itself, with no choice: a dice value, the
  opening of a commitment.

A **sitting** of a side is a maximal run of that side's person-entries that no
person-entry of the other side interrupts: the program's and standing entries in between
do not end it.  It counts in the month of its first entry, so a run that crosses the
month's end (the last landing decision and the next month's war declaration) counts once.

A **file hop** is a file going from one side to the other: the consecutive files of one
side travel together and count as one hop (a join and the first decision after it, say).
A hop counts in the month of the first entry of its first file.  An *automatic* hop is
one whose files carry no person's entry (only the program's, or standing orders): a
person carries it, and decides nothing.  The invitation, which comes before the game's first month, is not counted.

The **floor** of a month is the fewest hops any exchange could use for the same
decisions, given in the rulebook's order, while keeping the game's guarantees; counted
generously, so that no protocol can do better.  Every record of the program and every
standing list rides free in whatever file is going, and a side's own dice value or
opening rides with the file that triggers it.  Two things cost a hop, because nothing
can carry them sooner: a decision of the other side (the pen passes), and what a
decision after a roll or an opening of reaction orders needs from the side *not*
holding the pen when it came (its dice value, which fair dice let it make only after
the roll's trigger, lest the trigger be chosen by its outcome; its reaction orders,
which it opens only after the moving side has moved, lest the mover move by them).
Hidden lists count nothing here, though their commitments cost hops too: the floor is
a bound, not a plan.

The functions here read the log's entries as ``pbem log --json`` writes them, so any
program that re-executes a game's files can hand them over.  :class:`Emulation` makes the
same entries for a game played without files (``pbem arena``), by the rules of
docs/turn-file-format.md, section 5.2, for who writes which record.
"""

from __future__ import annotations

import statistics
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

from pbem.protocol.turnfile import SIDES, other

PERSON, STANDING, PROGRAM = "person", "standing", "program"
#: Who gives an entry of the log, as ``pbem log --json`` names it.
BY = (PERSON, STANDING, PROGRAM)
#: The steps reaction orders answer (pbem/play/reactions.py, ``Reactions.mode``).
REACTION_STEPS = ("interception", "landing")
#: The records a side's program writes whatever the person would choose (pbem.store.localgame.auto_record).
_PROGRAM_RECORDS = frozenset({"dice", "reveal", "seal"})
#: The records whose author must write them after what came before (the floor's).
_OWED = frozenset({"dice", "react"})


def by(record: str) -> str:
    """Who gives an entry of record kind ``record`` (act, commit, sim, reveal, dice, join, ...)."""
    if record == "react":
        return STANDING
    return PROGRAM if record in _PROGRAM_RECORDS else PERSON


@dataclass
class Month:
    """The figures of one game month."""

    when: str
    sittings: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    hops: int = 0
    automatic_hops: int = 0
    #: the fewest hops any exchange keeping the guarantees would need (the module's text)
    floor: int = 0
    finished: bool = True
    #: the first month of a game (or of a branch): nobody could give its lists in a sitting before it
    opening: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "month": self.when,
            "sittings": dict(self.sittings),
            "hops": self.hops,
            "automatic_hops": self.automatic_hops,
            "floor": self.floor,
            "finished": self.finished,
            "opening": self.opening,
        }


class Spread(TypedDict):
    median: float
    max: int


class Summary(TypedDict):
    """:func:`summary`'s figures; each spread and the calendar are None when no month is finished."""

    months: int
    sittings: dict[str, Spread | None]
    hops: Spread | None
    automatic_hops: Spread | None
    floor: Spread | None
    calendar: dict[str, float] | None


def _spread(values: list[int]) -> Spread | None:
    return {"median": statistics.median(values), "max": max(values)} if values else None


#: The war of the 1939 scenario in game months, 1939-09 to 1946-12.
WAR_MONTHS = 88


def calendar(done: Sequence[Month], every_hours: int = 24) -> dict[str, float] | None:
    """What the finished months ``done`` cost in calendar days between two people who each
    sit down once every ``every_hours`` and play all the program brings them, the other
    side's automatic answers coming in seconds (the mail daemon): each sitting begins at
    its person's next time, at most ``every_hours`` after the other person's last one
    (that much when both keep the same time of day, half when their times lie opposite).
    The pace is that of the months after a game's first, which costs more (nobody sat
    before it to give its lists ahead) and is counted once in ``war_months``: the whole war
    at that pace, in calendar months of 30.4 days."""
    if not done:
        return None
    opening = [sum(m.sittings.values()) for m in done if m.opening]
    steady = [sum(m.sittings.values()) for m in done if not m.opening] or opening
    pace = statistics.fmean(steady)
    first = statistics.fmean(opening) if opening else pace
    war_days = (first + pace * (WAR_MONTHS - 1)) * every_hours / 24
    return {
        "sittings_per_month": round(pace, 2),
        "days_per_month": round(pace * every_hours / 24, 2),
        "first_month_sittings": round(first, 2),
        "war_months": round(war_days / 30.4, 1),
        "war_months_opposite_times": round(war_days / 30.4 / 2, 1),
    }


def summary(months: Sequence[Month]) -> Summary:
    """Median and max of the figures over the finished ones of ``months`` (of one game or
    several), and the calendar time of such months (:func:`calendar`)."""
    done = [m for m in months if m.finished]
    return {
        "months": len(done),
        "sittings": {side: _spread([m.sittings[side] for m in done]) for side in SIDES},
        "hops": _spread([m.hops for m in done]),
        "automatic_hops": _spread([m.automatic_hops for m in done]),
        "floor": _spread([m.floor for m in done]),
        "calendar": calendar(done),
    }


def calendar_line(c: Mapping[str, float]) -> str:
    """A :func:`calendar` for people."""
    return (
        f"two people who each answer once a day, the other's automatic answers by mail in seconds: "
        f"{c['sittings_per_month']:g} sittings and at most {c['days_per_month']:g} days a game month "
        f"({c['first_month_sittings']:g} sittings in a game's first); "
        f"the war ({WAR_MONTHS} months) in at most {c['war_months']:g} months "
        f"({c['war_months_opposite_times']:g} when they answer at opposite times of day)"
    )


def summary_line(s: Summary) -> str:
    """A :func:`summary` in one line, for people."""
    axis, allies = s["sittings"]["axis"], s["sittings"]["allies"]
    hops, auto, floor, cal = s["hops"], s["automatic_hops"], s["floor"], s["calendar"]
    if axis is None or allies is None or hops is None or auto is None or floor is None or cal is None:
        return "sittings and file hops: no finished month"
    per = ", ".join(f"{side} {sp['median']:g}/{sp['max']}" for side, sp in (("axis", axis), ("allies", allies)))
    return (
        f"per game month over {s['months']} finished month(s), median/max: sittings {per}; "
        f"file hops {hops['median']:g}/{hops['max']} (automatic only {auto['median']:g}/{auto['max']}, "
        f"the floor {floor['median']:g}/{floor['max']}); " + calendar_line(cal)
    )


@dataclass
class Tally:
    """Sittings and hops per month of one game; the summary is over its finished months (the
    last month of a record that stops before the game's end is only begun)."""

    game: str
    months: list[Month]

    def summary(self) -> Summary:
        return summary(self.months)

    def to_json(self) -> dict[str, object]:
        return {"game": self.game, "months": [m.to_json() for m in self.months], "summary": self.summary()}

    def lines(self) -> list[str]:
        out = [
            f"game {self.game}: sittings per side and file hops per game month",
            f"{'month':<8} {'axis':>6} {'allies':>6} {'hops':>6} {'of which automatic':>19} {'floor':>6}",
        ]
        for m in self.months:
            row = (
                f"{m.when:<8} {m.sittings['axis']:>6} {m.sittings['allies']:>6} {m.hops:>6} {m.automatic_hops:>19}"
                f" {m.floor:>6}"
            )
            out.append(row + ("" if m.finished else "  (month not finished)"))
        s = self.summary()
        axis, allies = s["sittings"]["axis"], s["sittings"]["allies"]
        hops, auto, floor, cal = s["hops"], s["automatic_hops"], s["floor"], s["calendar"]
        if axis is None or allies is None or hops is None or auto is None or floor is None or cal is None:
            out.append("no finished month: no median")
            return out
        spreads = (axis, allies, hops, auto, floor)
        rows: list[tuple[str, list[float]]] = [
            ("median", [sp["median"] for sp in spreads]),
            ("max", [sp["max"] for sp in spreads]),
        ]
        for what, cells in rows:
            out.append(
                f"{what:<8} {cells[0]:>6g} {cells[1]:>6g} {cells[2]:>6g} {cells[3]:>19g} {cells[4]:>6g}"
                + (f"  over {s['months']} finished month(s)" if what == "median" else "")
            )
        out.append(calendar_line(cal))
        return out


def tally(files: Sequence[Mapping[str, Any]], last_whole: bool | None = None, from_start: bool | None = None) -> Tally:
    """The figures of a game from its log (``pbem log --json``: files in order, from the join
    on); an entry without ``by`` is judged by its record kind.  The last month is whole when
    ``last_whole`` says so, or by default when the log ends with the game; the first is the
    game's opening month when ``from_start`` says so, or by default when the log has the join."""
    months: dict[str, Month] = {}

    def month(when: str) -> Month:
        return months.setdefault(when, Month(when))

    seated = ""  # the side whose sitting is running
    carrier = ""  # the side whose files are travelling
    when = ""
    hop: Month | None = None  # the month of the hop under way, while all its entries are automatic
    pen = ""  # the floor's: the side writing now
    owed = False  # the floor's: the other side owes a dice value or an opening
    for f in files:
        entries = f["entries"]
        when = entries[0]["when"] if entries else when
        if f["side"] != carrier:
            carrier = f["side"]
            hop = month(when)
            hop.hops += 1
            hop.automatic_hops += 1  # taken back at the hop's first entry a person gave
        for e in entries:
            month(e["when"])  # a month begun is listed, even before its first sitting or hop
            who = e.get("by") or by(e["record"])
            pen = pen or e["side"]
            if e["record"] in _OWED:
                owed = owed or e["side"] != pen
            if who != PERSON:
                continue
            if owed:
                pen, owed = other(pen), False
                month(e["when"]).floor += 1
            if e["side"] != pen:
                pen = e["side"]
                month(e["when"]).floor += 1
            if hop is not None:
                hop.automatic_hops -= 1
                hop = None
            if e["side"] != seated:
                seated = e["side"]
                month(e["when"]).sittings[seated] += 1
    ordered = [months[k] for k in sorted(months)]
    if last_whole is None:
        last_whole = bool(files) and str(files[-1].get("next", "")).startswith("the game is over")
    if ordered and not last_whole:
        ordered[-1].finished = False
    if from_start is None:
        from_start = bool(files) and any(e["record"] == "join" for e in files[0]["entries"])
    if ordered and from_start:
        ordered[0].opening = True
    return Tally(str(files[0]["game"]) if files else "", ordered)


class Emulation:
    """The log's entries a game played without files would have, as today's program writes
    its files: ``decision`` is told each decision of the engine as it comes, in order.

    Who writes which record follows docs/turn-file-format.md, section 5.2: the joiner (the
    Allies, as ``pbem selfplay`` plays) is the last author at the start; a hidden list is
    committed by the last author, answered by the other side and opened by the first; a roll
    takes the other side's dice value first and the last author's after it.  A file ends
    where the next record is the other side's."""

    def __init__(self, game: str = "", joiner: str = "allies", react: bool = False) -> None:
        self.game = game
        self.last = joiner
        self.react = react  # both sides answer interceptions and landings by reaction orders
        self.files: list[dict[str, Any]] = []

    def _record(self, when: str, side: str, record: str, who: str = "") -> None:
        if not self.files or self.files[-1]["side"] != side:
            self.files.append({"game": self.game, "side": side, "entries": []})
        self.files[-1]["entries"].append({"when": when, "side": side, "record": record, "by": who or by(record)})
        self.last = side

    def decision(
        self, kind: str, sides: Sequence[str], when: str, phase: str = "", ahead: Collection[str] = ()
    ) -> None:
        """Record decision ``kind`` (``sequential``, ``simultaneous`` or ``chance``) of ``sides``
        in step ``phase`` (the engine's name, ``axis.interception``); ``ahead``: the sides
        whose list for it was given ahead (their program seals it)."""
        if kind == "chance":
            trigger = self.last
            self._record(when, other(trigger), "dice")
            self._record(when, trigger, "dice")
        elif kind == "simultaneous" and len(sides) == 2:
            committer = self.last
            self._record(when, committer, "commit", STANDING if committer in ahead else "")
            self._record(when, other(committer), "sim", STANDING if other(committer) in ahead else "")
            self._record(when, committer, "reveal")
        elif kind == "simultaneous":
            self._record(when, sides[0], "sim", STANDING if sides[0] in ahead else "")
        elif kind == "sequential":
            standing = self.react and phase.rsplit(".", 1)[-1] in REACTION_STEPS
            self._record(when, sides[0], "act", STANDING if standing else "")

    def tally(self, last_whole: bool) -> Tally:
        """The figures of the game so far; ``last_whole``: its last month was played to its end."""
        return tally(self.files, last_whole, from_start=True)
