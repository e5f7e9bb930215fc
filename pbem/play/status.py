"""Where each game stands, for a person: the date, the phase, whose file is awaited,
what is still unsent, and the command to run next.

`pbem status` reads the game's overview (pbem/store/overview.py) and needs no engine;
the other commands, which hold the game already, describe it by the engine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

from pbem.errors import PbemError
from pbem.play import carry, since
from pbem.protocol import wire
from pbem.protocol.words import phase_name, sides_of
from pbem.store import overview
from pbem.store.overview import Position
from pbem.store.store import META_KEYS, Meta, Transaction, Workspace, read_bytes

#: Bounds of the orders given ahead, as read back from the store.
AHEAD_LIMITS = wire.Limits(
    max_bytes=64 << 20, max_bin=1 << 20, max_str=1 << 20, max_array=1 << 20, max_items=1 << 24, max_map=64, max_depth=8
)

if TYPE_CHECKING:
    from pbem.protocol.machine import Game
    from pbem.store.localgame import LocalGame, PendingTurn


def awaited(kind: str) -> str:
    """What the record kind ``kind`` is, for a person."""
    return {
        "act": "orders",
        "commit": "hidden orders, sealed by a commitment",
        "sim": "orders in the open, the other side's fixed already",
        "reveal": "opening of its commitment (automatic)",
        "dice": "dice value (automatic)",
    }.get(kind, kind)


@dataclass(frozen=True)
class Standing:
    """Where a game stands for me, as facts each face says in its own words: the game, the
    date, the phase, whose decision (``head`` and ``text``), ``draw_from`` (the side whose draw offer is
    open to me, "" if none) and ``step``, what I do next (one of :data:`STEPS`, "" when
    nothing is mine to do). The line runs ``head``, the draw offer, then ``text``."""

    gid: str
    head: str
    text: str = ""
    draw_from: str = ""
    step: str = ""


#: What a player does next: import a file (``import``; ``import-theirs`` when it is the
#: opponent's decision), send the orders listed (``send``), give orders (``orders`` one at a
#: time, ``list`` as a list).
STEPS = ("import", "import-theirs", "send", "orders", "list")


def status_line(
    lg: LocalGame, work: Game | None, pending: PendingTurn | None = None, staged: Transaction | None = None
) -> str:
    """The status of a game held in memory, as the command line says it (see :func:`standing_of`)."""
    return said(standing_of(lg, work, pending, staged))


def standing_of(
    lg: LocalGame, work: Game | None, pending: PendingTurn | None = None, staged: Transaction | None = None
) -> Standing:
    """Where a game held in memory stands (``work``: with my pending records applied);
    ``staged``: the transaction that will write the files it stands on."""
    if work is None:
        return standing(lg.gid, lg.meta, None)
    found = carry.owed(lg.ws, lg.gid, lg.meta, work.seq, None if staged is None else staged.writes)
    return standing(lg.gid, lg.meta, overview.position(work, pending), found)


def decision(pos: Position) -> str:
    """The decision the game awaits, as a mail's subject names it: ``1939-09 Axis advance``."""
    if pos.expected is None:
        return f"{pos.when} game over"
    return f"{pos.when} {phase_name(pos.phase)}"


def describe(gid: str, meta: Mapping[str, object], pos: Position | None, owed: carry.Owed | None = None) -> str:
    """One line for a person at the command line: where game ``gid`` stands and what to run next."""
    return said(standing(gid, meta, pos, owed))


def said(st: Standing) -> str:
    """A game's standing as the command line says it: with the commands to run next."""
    draw = f" (draw offered by {st.draw_from}: `pbem accept-draw {st.gid}` or `pbem decline-draw {st.gid}`)"
    line = st.head + (draw if st.draw_from else "") + st.text
    gid = st.gid
    return (
        line
        + {
            "": "",
            "import": "; next: `pbem import`",
            "import-theirs": "; next: `pbem import` when their file arrives",
            "send": f": run `pbem send {gid}`, then deliver the file in outbox/",
            "orders": f"; next: `pbem orders {gid} FILE` then `pbem send {gid}`, or `pbem bot play {gid}`",
            "list": (
                f"; next: `pbem orders {gid} FILE` (or `--suggested [FILE]`: the computer's list with your changes) "
                f"then `pbem send {gid}`, or `pbem bot play {gid}`"
            ),
        }[st.step]
    )


def against(meta: Mapping[str, object]) -> str:
    """Whom I play, where it is the computer: " against the computer at level N" in a game
    here, ", level N asked of a computer opponent" in one whose invitation asked it; else ""."""
    # The key is read by its name: pbem/play/levels.py would bring the keyring with it, and a
    # look at a game loads no more than it needs (tests/test_startup.py).
    level = meta.get("computer_level")
    if meta.get("solo"):
        return " against the computer" + (f" at level {level}" if level else "")
    return f", level {level} asked of a computer opponent" if level else ""


def standing(gid: str, meta: Mapping[str, object], pos: Position | None, owed: carry.Owed | None = None) -> Standing:
    """Where game ``gid`` stands and what I do next (``owed``: my files in outbox/ the
    opponent has not answered)."""
    me = meta["side"]
    if pos is None and meta.get("ended"):
        return Standing(gid, f"game {gid} ({me}): the game is over: {meta['ended']}")
    if pos is None:
        level = meta.get("computer_level")
        asked = f" (level {level} asked of a computer opponent)" if level else ""
        return Standing(
            gid, f"game {gid}: waiting for {meta.get('opponent_name', 'the opponent')} to join{asked}", step="import"
        )
    head = f"game {gid} ({me}{against(meta)}), file {pos.seq}, {pos.when}, {phase_name(pos.phase)}"
    disputes = meta.get("disputes")
    if isinstance(disputes, list) and disputes:
        head += f" [DISPUTED: {disputes[-1]}]"  # the latest; `pbem log` lists them all
    if pos.expected is None:
        if pos.result:
            return Standing(gid, f"{head}: the game is over: {pos.result}")
        return Standing(gid, f"{head}: the game is over" + (f"; {pos.winner} win" if pos.winner else ""))
    if meta.get("handed_over_to"):
        return Standing(
            gid, f"{head}: you handed your side over to the key {meta['handed_over_to']}, which plays it now"
        )
    if meta.get("handover_pending"):
        return Standing(
            gid, f"{head}: you accepted this side; it is yours once the old holder's sealed hand-over arrives"
        )
    draw_from = ""
    if pos.draw_offer == me:
        head += " (your draw offer is open)"
    elif pos.draw_offer:
        draw_from = pos.draw_offer
    side, kind = pos.expected
    if side != me and pos.unsent:
        # My part is complete but still on this machine: the opponent has received nothing.
        return Standing(gid, head, f": {pos.unsent} orders not sent", draw_from, "send")
    if side != me:
        if kind in ("dice", "reveal"):
            what = "opening of its commitment" if kind == "reveal" else "dice value"
            text = (
                f": waiting for {sides_of(side)} next file (its {what} is automatic, but may travel with its next "
                "decision)"
            )
        else:
            text = f": waiting for {sides_of(side)} {awaited(kind)}"
        if owed is not None and not meta.get("solo"):
            # By files nothing moves until my unanswered files reach the opponent, even when
            # my program wrote them by itself: say which, whatever else the line says.
            text += f"; {carry.line(owed)}"
        return Standing(gid, head, text, draw_from, "import-theirs")
    auto = f" ({pos.auto} automatic record(s) go out with your next file)" if pos.auto else ""
    if kind in ("commit", "sim"):
        text = f"{auto}: your move: {pos.prompt} ({awaited(kind)}; {pos.listed} listed)"
        return Standing(gid, head, text, draw_from, "list")
    if kind == "act":
        return Standing(gid, head, f"{auto}: your move: {pos.prompt}", draw_from, "orders")
    return Standing(gid, head, f"{auto}: you owe an automatic {kind}", draw_from, "import")


def meta(ws: Workspace, gid: str) -> Meta:
    """Who I am in game ``gid`` (its meta.json), read without the game's other modules."""
    paths = ws.game_paths(gid)
    raw = read_bytes(paths.path(paths.meta))  # a LocalGame would load the protocol too
    if raw is None:
        raise PbemError(f"no game {gid} in this workspace", "game")
    try:
        found = json.loads(raw)
    except ValueError:
        found = None
    if not isinstance(found, dict) or not set(found) >= META_KEYS:
        raise PbemError(f"game {gid}: its {paths.meta} is damaged; restore it from a backup of the workspace", "store")
    return cast(Meta, found)


def lines(
    ws: Workspace, gid: str | None = None, home: Path | None = None, archived: bool = False, news: bool = False
) -> list[str]:
    """One status line per game of the workspace (or for ``gid``), then its invitations;
    archived games only when named or asked for (``archived``); with ``news``, each game's
    line comes after what happened since my last decision, in short, when anything did.
    ``home`` is kept for the callers that pass one: no identity is read any more."""
    with ws.game_locked(gid) if gid else ws.locked():
        gids = [gid] if gid else ws.games()
        lines = []
        hidden = 0
        for g in gids:
            m = meta(ws, g)
            if m.get("archived") and not (archived or gid):
                hidden += 1
                continue
            pos = _position(ws, g, m)
            if news and pos is not None:
                lines += news_lines(ws, g, m["side"], pos)
            line = describe(g, m, pos, None if pos is None else carry.owed(ws, g, m, pos.seq))
            lines.append(f"[archived] {line}" if m.get("archived") else line)
            if pos is not None and pos.expected is not None:
                lines += ahead_lines(ws, g, pos.when)
        for p in ws.invitations():
            lines.append(
                f"invitation {p.stem}: accept it with `pbem join {p.relative_to(ws.root)} --me NAME`, "
                f"or refuse it with `pbem decline {p.stem} --me NAME`"
            )
        if hidden:
            lines.append(f"{hidden} archived game(s) not listed: `pbem status --all`")
        if not lines:
            lines.append("no games in this workspace; start one with `pbem new` or `pbem join`")
        return lines


def news_lines(ws: Workspace, gid: str, me: str, pos: Position) -> list[str]:
    """What happened in game ``gid`` since my last decision, in short, under a heading line."""
    found = since.short([doc for _, doc in since.stored(ws.game_paths(gid), me, pos.seq)], me)
    return [f"game {gid}: since your last decision:", *(f"  {line}" for line in found)] if found else []


@dataclass
class Notice:
    """What the mail that says it is my move says: the decision awaited, the status line,
    what happened since my last decision (short, and in full) and the places it happened."""

    decision: str
    status: str
    short: list[str]
    full: str
    places: list[str]


def notice(ws: Workspace, gid: str) -> Notice | None:
    """The notice of game ``gid`` as it stands (after my automatic records), None before it began."""
    with ws.game_locked(gid):
        m = meta(ws, gid)
        pos = _position(ws, gid, m)
        if pos is None:
            return None
        line = describe(gid, m, pos, carry.owed(ws, gid, m, pos.seq))
        found = since.stored(ws.game_paths(gid), m["side"], pos.seq)
    docs = [doc for _, doc in found]
    full = "\n".join(text for text, _ in found)
    return Notice(decision(pos), line, since.short(docs, m["side"]), full, since.places(docs))


def ahead_lines(ws: Workspace, gid: str, when: str) -> list[str]:
    """My orders given ahead that wait for their step, and what the program did with them
    this month (``when``), each on a line of its own below the game's."""
    paths = ws.game_paths(gid)
    raw = read_bytes(paths.path(paths.ahead))
    if raw is None:
        return []
    found = wire.unpack(raw, AHEAD_LIMITS)
    out = [f"  {text}" for month, text in found.get("notes", []) if month == when]
    given = found.get("given", [])
    waiting = [f"the {phase_name(g['step']).lower()} of {g['when']} ({len(g['actions'])})" for g in given]
    if waiting:
        out.append(f"  orders given ahead, to be sealed by your program when their step comes: {', '.join(waiting)}")
    return out


def next_step(ws: Workspace, gid: str) -> str:
    """One line for after an import: which files to carry to whom, or that none wait."""
    with ws.game_locked(gid):
        m = meta(ws, gid)
        pos = _position(ws, gid, m)
        owed = None if pos is None or m.get("solo") else carry.owed(ws, gid, m, pos.seq)
    if owed is not None:
        return f"game {gid}, next: {carry.line(owed)}"
    if pos is not None and pos.expected is not None and pos.expected[0] == m["side"]:
        return f"game {gid}, next: nothing to carry; your decision (`pbem status {gid}`)"
    return f"game {gid}, next: nothing to carry"


def _position(ws: Workspace, gid: str, m: Meta) -> Position | None:
    paths = ws.game_paths(gid)
    if m.get("ended") and not paths.path(paths.snapshot).exists():
        return None  # declined before it began: there is no position to build
    ov = overview.current(ws, gid, m["side"])
    return None if ov is None else overview.position_of(ov)
