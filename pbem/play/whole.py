"""A whole hidden list in one step: `pbem orders GAME --suggested [FILE]` (the computer
player's proposal, my lines replacing its orders on the same units) and `pbem orders GAME
--as-last-month` (my list of the same step a month ago, re-fitted to the position now).

Both end in my unsent list, as `pbem orders` leaves it: I may look at it, undo, add to it,
and `pbem send` seals it.  They are for the steps both sides decide hidden (war
declarations, deployment, income, builds), where a list is long and much like the last.

The lines I give are mine: every wrong one is named and nothing is added.  The orders
that come from elsewhere (the proposal, last month's list) are offered after mine, in
their own order; one that no longer fits is left out and named.  Their ``pass`` is left
out too: `pbem send` ends the list and weighs what passing would cost, as for any list.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pbem.errors import PbemError
from pbem.play import ahead, history, turn
from pbem.play.status import status_line
from pbem.protocol import engine_link, machine, replay
from pbem.protocol.machine import Game
from pbem.protocol.records import Record, Reveal, Sim
from pbem.protocol.rules import Action, refusal_rule
from pbem.protocol.turnfile import TurnFile
from pbem.protocol.words import phase_name
from pbem.store import overview
from pbem.store.localgame import LocalGame
from pbem.store.store import Transaction, Workspace

#: Orders that no longer fitted named in the answer; the rest are counted.
MISFITS_SHOWN = 8


def _hidden_step(t: turn.Turn, how: str) -> None:
    """Refuse unless my decision now is a hidden list (a simultaneous step)."""
    exp = turn.need_my_decision(t)
    if t.pending.sim is None and exp.kind not in ("commit", "sim"):
        d = engine_link.api().decision(t.work.state)
        raise PbemError(
            f"{how} gives a whole list for a step both sides decide at once (war declarations, deployment, "
            f"income, builds); game {t.lg.gid} awaits your {phase_name(d.phase).lower()} now: "
            f"`pbem suggest {t.lg.gid}` proposes orders for it",
            "usage",
        )


def _units(text: str) -> set[str]:
    """The units an order names, as the order language writes them (``#12``)."""
    return {word for word in text.split() if word.startswith("#")}


def _mine(t: turn.Turn, lines: Iterable[str]) -> tuple[list[str], tuple[int, Action] | None]:
    """Add my lines to ``t`` (every wrong one named, nothing added then), but a pass, which
    ends a list and so comes last: returns the orders added, as text, and my pass (with its line)."""
    api = engine_link.api()
    wrong, given, closing = list[PbemError](), list[str](), None
    for n, text in turn.order_lines(lines):
        try:
            action = api.parse_order(t.work.state, t.lg.me, text)
            if action.kind == "pass":
                closing = closing or (n, action)
                continue
            turn.add_action(t, action, f"line {n}")
        except (api.OrderError, api.IllegalAction, PbemError) as exc:
            wrong.append(PbemError(f"line {n}: {str(exc).removeprefix(f'line {n}: ')}", "order", refusal_rule(exc)))
            continue
        given.append(api.format_action(t.work.state, action))
    if wrong:
        raise turn.all_wrong(wrong)
    return given, closing


def _fit(t: turn.Turn, actions: list[Action]) -> tuple[int, list[str]]:
    """Offer ``actions`` (their pass left out) after my list; returns how many were added
    and the ones that no longer fitted, each with why."""
    api = engine_link.api()
    added, misfits = 0, list[str]()
    for action in actions:
        if action.kind == "pass":
            continue
        try:
            turn.add_action(t, action, "", hint=False)
        except PbemError as exc:
            misfits.append(f"{api.format_action(t.work.state, action)} ({ahead.reason(exc)})")
            continue
        added += 1
    return added, misfits


def _open_list(t: turn.Turn, how: str) -> None:
    """Refuse unless my decision now is a hidden list still open to orders."""
    _hidden_step(t, how)
    if any(w[0] == "pass" for w in t.pending.sim or []):
        raise PbemError(
            f"your list in game {t.lg.gid} already ended with pass; take the pass back with `pbem undo {t.lg.gid}`",
            "turn",
        )


def _store(t: turn.Turn, chosen: bool) -> str:
    """Keep my list as it now stands; an empty one too when it was ``chosen`` (a proposal
    or a list of last month that passes): `pbem send` seals it as a list saying `pass`."""
    lg = t.lg
    if t.pending.sim is None and chosen:
        t.pending.sim = []
    tx = Transaction()
    lg.stage_pending(tx, t.pending)
    overview.stage(tx, lg.ws, lg.gid, lg.me, t.work)
    lg.ws.commit(tx)
    return status_line(lg, t.work, t.pending)


def _left_out(misfits: list[str]) -> str:
    if not misfits:
        return ""
    shown = "; ".join(misfits[:MISFITS_SHOWN])
    more = f"; and {len(misfits) - MISFITS_SHOWN} more" if len(misfits) > MISFITS_SHOWN else ""
    return f"; {len(misfits)} no longer fitted and were left out: {shown}{more}"


def suggested(ws: Workspace, gid: str, lines: Iterable[str] = (), home: Path | None = None, force: bool = False) -> str:
    """The computer player's proposal for my hidden list now, with my ``lines`` (an orders
    file) instead of its orders on the units they name, added to my unsent list; a pass
    of mine comes last and, unless ``force``, is weighed first as `pbem orders` does."""
    api = engine_link.api()
    with ws.game_locked(gid):
        t = turn.my_turn(LocalGame(ws, gid, home))
        _open_list(t, "--suggested")
        proposal = turn.bot_decides(t, 0, "bot")
        mine, closing = _mine(t, lines)
        named = set[str]().union(*(_units(text) for text in mine))
        replaced = [a for a in proposal if a.kind != "pass" and _units(api.format_action(t.work.state, a)) & named]
        added, misfits = _fit(t, [a for a in proposal if a not in replaced])
        if closing is not None:
            n, action = closing
            if not force:
                turn.warn_before_pass(t)
            turn.add_action(t, action, f"line {n}")
            mine.append("pass")
        where = _store(t, chosen=not misfits)
    offered = len([a for a in proposal if a.kind != "pass"])
    if not offered and not mine:
        return f"the computer player gives no orders for this step (a pass): your list in game {gid} is empty; {where}"
    instead = f", {len(replaced)} of its orders replaced by yours on the same units" if replaced else ""
    return (
        f"{len(mine) + added} order(s) added to game {gid}: your {len(mine)}, then {added} of the computer "
        f"player's {offered}{instead}{_left_out(misfits)}; {where}"
    )


class _MyLists(replay.Visitor):
    """Notes my hidden lists as a replay meets them: by (month, step), as the order language writes them."""

    def __init__(self, me: str, wanted: tuple[str, str]) -> None:
        self.me, self.wanted = me, wanted
        self.found: list[Any] | None = None

    def before(self, game: Game, tf: TurnFile) -> machine.Watcher | None:
        if tf.side != self.me:
            return None

        def watch(game: Game, rec: Record) -> None:
            if isinstance(rec, Sim | Reveal):
                d = engine_link.api().decision(game.state)
                if (d.when, d.phase) == self.wanted:
                    self.found = machine.actions_of(rec.actions, f"your {phase_name(d.phase).lower()} of {d.when}")

        return watch


def month_before(when: str) -> str:
    """``1940-01`` -> ``1939-12``."""
    year, month = (int(x) for x in when.split("-"))
    year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return f"{year:04d}-{month:02d}"


def last_months_list(lg: LocalGame, when: str, step: str) -> list[Action]:
    """My list of ``step`` in the month before ``when``, from the game's files (re-executed
    up to the end of that month)."""
    before = month_before(when)
    found = _MyLists(lg.me, (before, step))
    files = history.workspace_files(lg.ws, lg.gid)
    api = engine_link.api()
    for game in replay.walk(files, base=lg.base(), visitor=found):
        if found.found is not None or api.decision(game.state).when > before:
            break
    if found.found is None:
        raise PbemError(
            f"game {lg.gid} holds no list of yours for the {phase_name(step).lower()} of {before}: "
            "give this month's orders with `pbem orders GAME FILE` or `--suggested`",
            "turn",
        )
    return found.found


def as_last_month(ws: Workspace, gid: str, home: Path | None = None) -> str:
    """My list of the same step last month, each order offered again to the position now
    (those that no longer fit are named and left out), added to my unsent list."""
    with ws.game_locked(gid):
        t = turn.my_turn(LocalGame(ws, gid, home))
        _open_list(t, "--as-last-month")
        d = engine_link.api().decision(t.work.state)
        listed = last_months_list(t.lg, d.when, d.phase)
        added, misfits = _fit(t, listed)
        where = _store(t, chosen=not misfits)
    total = len([a for a in listed if a.kind != "pass"])
    step = f"{phase_name(d.phase).lower()} of {month_before(d.when)}"
    return f"{added} of the {total} order(s) of your {step} added to game {gid}{_left_out(misfits)}; {where}"
