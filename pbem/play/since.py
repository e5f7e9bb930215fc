"""What happened since my last decision: how every sitting opens (`pbem status`, `pbem log
--since-mine`, the mail that says it is my move).

The window starts after my last file that carries a decision of mine (an entry a person
gives, pbem/play/sittings.py): the opponent's files since, and my own automatic files in
between, whose rolls finished my own attacks.  My automatic records that wait unsent for my
next decision come last (their report is kept with the game by the import, see
:func:`stage_kept`), so a roll my own dice value finished is in it too.

Everything here reads the reports kept with the game (pbem/play/report.py), never the
engine: `pbem status` stays fast.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from pbem.play import sittings
from pbem.protocol.jsondoc import Doc, docs_in
from pbem.store.store import GamePaths, Transaction

if TYPE_CHECKING:  # the reports are made by the engine, which a look at a game does not load
    from pbem.play.report import FileReport

#: Lines of the short form at most; the rest is counted and left to `pbem log --since-mine`.
SHORT_LINES = 12
#: The kinds of event the short form names one by one (the others are counted or left out).
_HEADLINES = ("month", "war", "side", "conquered", "liberated", "winner")
#: Cities the short form names of the hexes changing hands, at most.
NAMED_CITIES = 3
_CITY = re.compile(r"\(([^()]+)\)")
_SIDE = {"axis": "Axis", "allies": "Allied"}
_SIDE_NAME = {"axis": "Axis", "allies": "Allies"}
#: Files read back at most when looking for my last decision.
MAX_FILES = 400


def decided(doc: Doc, me: str) -> bool:
    """Whether the report ``doc`` (a FileReport's JSON) is of a file of mine with a decision in it."""
    entries = doc.get("entries")
    return (
        doc.get("side") == me
        and isinstance(entries, list)
        and any(isinstance(e, dict) and e.get("by") == sittings.PERSON for e in entries)
    )


def start(docs: Sequence[Doc], me: str) -> int:
    """The index in ``docs`` (reports in file order) of the first one after my last decision."""
    for i in range(len(docs) - 1, -1, -1):
        if decided(docs[i], me):
            return i + 1
    return 0


def stage_kept(tx: Transaction, paths: GamePaths, base: int, kept: list[FileReport]) -> None:
    """Keep the report of my automatic records that wait in my pending turn after file
    ``base`` (none: an empty list), for the next reader of :func:`stored`."""
    doc = {"base": base, "texts": [r.text() for r in kept], "reports": [r.to_json() for r in kept]}
    tx.put(paths.kept_report(), json.dumps(doc, sort_keys=True, indent=1).encode())


def _read(paths: GamePaths, rel: str) -> Doc | None:
    try:
        doc = json.loads(paths.path(rel).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


def kept(paths: GamePaths, head: int) -> list[tuple[str, Doc]]:
    """My unsent automatic records' reports after file ``head``, as (text, report JSON)."""
    doc = _read(paths, paths.kept_report())
    if doc is None or doc.get("base") != head:
        return []  # made before a later file: my pending turn went out with it
    texts, reports = doc.get("texts"), doc.get("reports")
    if not isinstance(texts, list) or not isinstance(reports, list):
        return []
    return [(t, r) for t, r in zip(texts, reports, strict=False) if isinstance(t, str) and isinstance(r, dict)]


def stored(paths: GamePaths, me: str, head: int) -> list[tuple[str, Doc]]:
    """What happened since my last decision, up to file ``head`` and my unsent automatic
    records after it: (text, report JSON) per file, oldest first, from the kept reports."""
    found: list[tuple[str, Doc]] = []
    for seq in range(head, max(0, head - MAX_FILES), -1):
        doc = _read(paths, paths.report(seq))  # as pbem/play/report.py's stage() keeps it
        rep = doc.get("report") if doc else None
        if doc is None or not isinstance(rep, dict) or decided(rep, me):
            break  # a file without a kept report (an older game) ends the window too
        found.append((str(doc.get("text", "")), rep))
    found.reverse()
    return found + kept(paths, head)


def short(docs: Sequence[Doc], me: str) -> list[str]:
    """The short form: the month, weather, wars and conquests, each combat with its odds,
    dice and losses, hexes changing hands (cities named), my side's money, and the units
    eliminated counted by side."""
    lines: list[str] = []
    lost: dict[str, int] = {}
    money: list[str] = []
    for doc in docs:
        for ev in (ev for entry in docs_in(doc, "entries") for ev in docs_in(entry, "events")):
            kind, combat = ev.get("kind"), ev.get("combat")
            if kind == "combat" and isinstance(combat, dict):
                lines.append(combat_line(combat))
                _count_combat_losses(combat, lost)
            elif kind == "eliminated":
                side = str(ev.get("side", ""))
                lost[side] = lost.get(side, 0) + 1
            elif kind == "control":
                lines.append(control_line(ev))
            elif kind == "money":
                if ev.get("side") == me:
                    money.append(str(ev.get("text", "")).replace(": money ", " "))
            elif kind in _HEADLINES or (kind == "chance" and str(ev.get("what", "")).startswith("weather")):
                lines.append(str(ev.get("text", "")))
    if money:
        lines.append("your money: " + ", ".join(money))
    if lost:
        counted = ", ".join(f"{n} {_SIDE.get(side, side)}" for side, n in sorted(lost.items()))
        lines.append(f"units eliminated: {counted}")
    if len(lines) > SHORT_LINES:
        rest = len(lines) - (SHORT_LINES - 1)
        lines = [*lines[: SHORT_LINES - 1], f"and {rest} more (`pbem log GAME --since-mine` tells all)"]
    return lines


def combat_line(c: Doc) -> str:
    """One combat in a line: where, who attacked, the odds, both dice and both losses."""
    by = _SIDE_NAME.get(str(c.get("side")), c.get("side"))
    where = f"{c.get('kind', 'attack')} on {c.get('place', '?')} by the {by}"
    outcome = c.get("outcome")
    if outcome != "resolved":
        return f"{where}: {outcome}"
    attacker = c.get("attacker_loss")
    line = (
        f"{where}: odds {_number(c.get('odds'))}, dice {_number(c.get('defender_draw'), 3)} (defender) and "
        f"{_number(c.get('attacker_draw'), 3)} (attacker): defender loses {c.get('defender_points', 0)}, "
        + ("every attacker eliminated" if attacker is None else f"attacker loses {attacker}")
    )
    return line + ("; the hex is taken" if c.get("hex_taken") else "")


def _count_combat_losses(c: Doc, lost: dict[str, int]) -> None:
    """Add the units a combat eliminated to ``lost``, by side (the report names them in the
    combat alone, not again as eliminations)."""
    attacker = str(c.get("side", ""))
    defender = {"axis": "allies", "allies": "axis"}.get(attacker, "")
    for side, hits in ((defender, "defender_hits"), (attacker, "attacker_hits")):
        for hit in docs_in(c, hits):
            if hit.get("eliminated"):
                lost[side] = lost.get(side, 0) + 1


def control_line(ev: Doc) -> str:
    """Hexes changing hands, counted, with the first cities among them named."""
    found = ev.get("hexes")
    hexes = found if isinstance(found, list) else []
    cities = _CITY.findall(str(ev.get("text", "")))[:NAMED_CITIES]
    line = f"{ev.get('country', '?')} takes {len(hexes)} hex{'es' if len(hexes) != 1 else ''}"
    line += f" from {ev['what']}" if ev.get("what") else ""
    return line + (f" ({', '.join(cities)})" if cities else "")


def _number(value: object, digits: int = 2) -> str:
    """A fraction as the report writes it ("12/5"), in decimals."""
    try:
        return f"{float(Fraction(str(value))):.{digits}f}"
    except (ValueError, ZeroDivisionError):
        return "?"


def places(docs: Sequence[Doc]) -> list[str]:
    """The hexes the reports' events name (``COL,ROW``), each once, in order: where a picture looks."""
    found: dict[str, None] = {}
    for doc in docs:
        for ev in (ev for entry in docs_in(doc, "entries") for ev in docs_in(entry, "events")):
            hexes = ev.get("hexes")
            if isinstance(hexes, list):
                found.update((h, None) for h in hexes if isinstance(h, str))
    return list(found)
