"""`pbem orders GAME --ahead STEP FILE`: a person's orders for a coming simultaneous step of
the month, checked against its forecast position and kept for the program to seal
(pbem/play/ahead.py)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import PbemError
from pbem.play import ahead, turn
from pbem.play.ahead import FALLBACK_ROUND, FALLBACKS, Given, Plan, coming, mine_now, reason
from pbem.protocol import engine_link, machine
from pbem.protocol.rules import Decision, State, refusal_rule
from pbem.protocol.words import phase_name
from pbem.store.localgame import LocalGame
from pbem.store.store import Transaction, Workspace

#: The seeds of proposals for steps given ahead, apart from those the program's fallbacks take.
SUGGEST_ROUND = 2 * FALLBACK_ROUND


def _clean(step: str) -> str:
    return step.strip().lower().replace("-", "_").replace(" ", "_")


#: How a person gives the orders of the step now, at the command line.
AT_THE_COMMAND_LINE = "with `pbem orders {gid} FILE`"


@dataclass(frozen=True)
class Coming:
    """A coming simultaneous step of my month, and the orders I gave ahead for it."""

    step: str  # the engine's phase name, as --ahead takes it
    when: str
    prompt: str
    kept: list[str] | None  # the orders kept for it, as the forecast position reads them
    fallback: str | None

    def to_json(self) -> dict[str, object]:
        return {
            "step": self.step,
            "name": phase_name(self.step),
            "when": self.when,
            "prompt": self.prompt,
            "kept": self.kept,
            "fallback": self.fallback,
        }


def _forecast(
    lg: LocalGame, t: turn.Turn, step: str, plan: Plan, how_now: str = AT_THE_COMMAND_LINE
) -> tuple[Decision, State]:
    """The coming step ``step`` of my month and the position it will most likely have
    (``how_now``: how the orders of the decision now are given, said when it is ``step``)."""
    gid = lg.gid
    if machine.expected(t.work) is None:
        raise PbemError(f"game {gid} is over", "turn")
    if engine_link.api().decision(t.work.state).phase == step:
        raise PbemError(f"{phase_name(step)} is the decision now: give its orders {how_now.format(gid=gid)}", "usage")
    passed: list[str] = []
    mine = mine_now(lg, t.work, t.pending.sim)
    for d, state in coming(t.work.state, lg.me, mine, plan.later(), lg.genesis().body["scenario"]):
        if d.phase == step:
            return d, state
        passed.append(phase_name(d.phase))
    steps = ", ".join(passed) if passed else "none"
    raise PbemError(
        f"{phase_name(step)} is not among your coming simultaneous steps before the next decision "
        f"taken move by move (they are: {steps}); give its orders when it comes",
        "usage",
    )


def coming_steps(ws: Workspace, gid: str, home: Path | None = None) -> tuple[list[Coming], list[list[str]]]:
    """My coming simultaneous steps that orders may be given ahead for, each with the orders
    kept for it, and the notes on what became of the orders given ahead before ([month, note])."""
    api = engine_link.api()
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        t = turn.my_turn(lg)
        plan = Plan(lg)
        if machine.expected(t.work) is None:
            return [], plan.notes
        mine = mine_now(lg, t.work, t.pending.sim)
        out = []
        for d, state in coming(t.work.state, lg.me, mine, plan.later(), lg.genesis().body["scenario"]):
            given = plan.find(d.when, d.phase)
            kept = None if given is None else [api.format_action(state, api.Action.from_wire(w)) for w in given.actions]
            out.append(Coming(d.phase, d.when, d.prompt, kept, None if given is None else given.fallback))
    return out, plan.notes


def proposal(
    ws: Workspace,
    gid: str,
    step: str,
    home: Path | None = None,
    player: str = "bot",
    how_now: str = AT_THE_COMMAND_LINE,
) -> tuple[Decision, str, list[str]]:
    """The computer player's orders for the coming step ``step`` on its forecast position,
    with the step and my side; nothing is kept."""
    step = _clean(step)
    api, ai = engine_link.api(), engine_link.ai()
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        t = turn.my_turn(lg)
        d, state = _forecast(lg, t, step, Plan(lg), how_now)
        seed = lg.derived().bot_seed(t.game.seq, SUGGEST_ROUND)
        actions = ai.decide(state, lg.me, seed, player=player)
    return d, lg.me, [api.format_action(state, a, named=True) for a in actions]


def suggest(ws: Workspace, gid: str, step: str, home: Path | None = None, player: str = "bot") -> str:
    """The computer player's proposal for the coming step ``step``, on its forecast position,
    as an order file that `pbem orders GAME --ahead STEP` reads back; nothing is kept."""
    d, side, orders = proposal(ws, gid, step, home, player)
    lines = [
        f"# game {gid}, {d.when}, {phase_name(d.phase)}, given ahead: {d.prompt}",
        f"# the computer player's proposal for the {side} on the position this step will most likely have",
        f"# ({len(orders)} orders); edit it, then give it with",
        f"#   pbem orders {gid} --ahead {d.phase} FILE",
    ]
    return "\n".join(lines + orders) + "\n"


def give(
    ws: Workspace, gid: str, step: str, lines: Iterable[str], fallback: str, home: Path | None = None,
    how_now: str = AT_THE_COMMAND_LINE, fallback_named: str = "--fallback",
) -> str:  # fmt: skip
    """Keep my orders for the coming step ``step``, checked line by line against its
    forecast position (all or nothing, every wrong line named); an empty file takes back
    the orders given ahead for it."""
    if fallback not in FALLBACKS:
        raise PbemError(f"{fallback_named} must be one of {', '.join(FALLBACKS)}, not '{fallback[:20]}'", "usage")
    step = _clean(step)
    api = engine_link.api()
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        t = turn.my_turn(lg)
        plan = Plan(lg)
        d, state = _forecast(lg, t, step, plan, how_now)
        draft = api.draft(state, lg.me)
        wrong: list[PbemError] = []
        for n, text in turn.order_lines(lines):
            # A wrong line leaves the list as it was: every mistake of the file is named at once.
            try:
                draft.offer(api.parse_order(state, lg.me, text))
            except (api.OrderError, api.IllegalAction) as exc:
                wrong.append(PbemError(f"line {n}: {reason(exc)}", "order", refusal_rule(exc)))
        if wrong:
            raise turn.all_wrong(wrong)
        listed = [a.to_wire() for a in draft.actions]
        plan.put(Given(d.when, d.phase, listed, fallback, ahead.costs(state, lg.me, draft.actions)))
        tx = Transaction()
        plan.stage(tx)
        ws.commit(tx)
    where = f"the {phase_name(d.phase).lower()} of {d.when}"
    if not listed:
        return f"the orders given ahead for {where} are taken back; you decide it when it comes"
    return (
        f"{len(listed)} order(s) kept for {where}, checked against the position it will most likely have; "
        f"your program seals them when the step comes (fallback: {fallback}); nothing is sent before"
    )
