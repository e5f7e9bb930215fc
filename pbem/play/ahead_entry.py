"""`pbem orders GAME --ahead STEP FILE`: a person's orders for a coming simultaneous step of
the month, checked against its forecast position and kept for the program to seal
(pbem/play/ahead.py)."""

from __future__ import annotations

from collections.abc import Iterable
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


def _forecast(lg: LocalGame, t: turn.Turn, step: str, plan: Plan) -> tuple[Decision, State]:
    """The coming step ``step`` of my month and the position it will most likely have."""
    gid = lg.gid
    if machine.expected(t.work) is None:
        raise PbemError(f"game {gid} is over", "turn")
    if engine_link.api().decision(t.work.state).phase == step:
        raise PbemError(
            f"{phase_name(step)} is the decision now: give its orders with `pbem orders {gid} FILE`", "usage"
        )
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


def suggest(ws: Workspace, gid: str, step: str, home: Path | None = None, player: str = "bot") -> str:
    """The computer player's proposal for the coming step ``step``, on its forecast position,
    as an order file that `pbem orders GAME --ahead STEP` reads back; nothing is kept."""
    step = _clean(step)
    api, ai = engine_link.api(), engine_link.ai()
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        t = turn.my_turn(lg)
        d, state = _forecast(lg, t, step, Plan(lg))
        seed = lg.derived().bot_seed(t.game.seq, SUGGEST_ROUND)
        actions = ai.decide(state, lg.me, seed, player=player)
    lines = [
        f"# game {gid}, {d.when}, {phase_name(d.phase)}, given ahead: {d.prompt}",
        f"# the computer player's proposal for the {lg.me} on the position this step will most likely have",
        f"# ({len(actions)} orders); edit it, then give it with",
        f"#   pbem orders {gid} --ahead {step} FILE",
    ]
    lines += [api.format_action(state, a, named=True) for a in actions]
    return "\n".join(lines) + "\n"


def give(ws: Workspace, gid: str, step: str, lines: Iterable[str], fallback: str, home: Path | None = None) -> str:
    """Keep my orders for the coming step ``step``, checked line by line against its
    forecast position (all or nothing, every wrong line named); an empty file takes back
    the orders given ahead for it."""
    if fallback not in FALLBACKS:
        raise PbemError(f"--fallback must be one of {', '.join(FALLBACKS)}, not '{fallback[:20]}'", "usage")
    step = _clean(step)
    api = engine_link.api()
    with ws.game_locked(gid):
        lg = LocalGame(ws, gid, home)
        t = turn.my_turn(lg)
        plan = Plan(lg)
        d, state = _forecast(lg, t, step, plan)
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
