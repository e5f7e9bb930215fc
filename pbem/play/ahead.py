"""Orders given ahead: a side's lists for the coming simultaneous steps of the month
(war declarations, deployment, income, builds), given in one sitting and sealed by its
program as each step comes.

A person gives them with ``pbem orders GAME --ahead STEP FILE``.  They are checked at once
against the position the step will most likely have: the game now, with my list for the
current step and my lists given ahead for the steps before, the other side declaring the
wars the computer player would most likely declare and passing every other list, and the
rolls in between made with a fixed seed (:func:`coming`).  They are kept in the
workspace's private store (``ahead``), never sent before their step.

When the step comes (:class:`Plan`, called where the program writes its automatic records:
an import, the mail daemon's answers, a send), each order is checked again against the real
position.  What no longer fits is handled by the fallback fixed when the orders were given:
``bot`` (the computer player's choice, from the side's own secret-derived seed, for what
the misfits concerned), ``none`` (left out) or ``ask`` (nothing is sealed: the person
decides).  The list is then sealed as the protocol wants it, a commitment or a list in
the clear: the same records a person's list makes, so nothing new travels.
"""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field

from pbem.play import levels
from pbem.protocol import commit, engine_link, machine
from pbem.protocol.machine import Game, SimStep
from pbem.protocol.records import Commit, Record, Sim, Wire
from pbem.protocol.rules import Action, Decision, State
from pbem.protocol.turnfile import other
from pbem.protocol.words import phase_name
from pbem.store.localgame import GivenWire, LocalGame
from pbem.store.store import Transaction

FALLBACKS = ("ask", "bot", "none")
#: The seed of the rolls between the steps when a position is forecast: any fixed one does
#: (the forecast is a guess that the real position corrects); fixed, so it is the same guess each time.
FORECAST_SEED = hashlib.sha256(b"pbem/ahead/forecast/v1").digest()
#: Steps looked through for the one orders are given for: a month's start has a handful.
MAX_LOOKAHEAD = 16
#: Decisions passed through to reach the next month from a turn: two turns have a few dozen.
MAX_ACROSS = 200
#: The computer player's decisions in a fallback take seeds of their own (gamesecrets.bot_seed).
FALLBACK_ROUND = 10_000
#: Notes kept for `pbem status`: what the program did with the last orders given ahead.
MAX_NOTES = 8
#: Orders that no longer fitted named in a note; the rest are counted.
MISFITS_SHOWN = 6

Key = tuple[str, str]  # (month, step)


@dataclass
class Given:
    """A side's list for one coming step, as the person gave it."""

    when: str
    step: str
    actions: list[Wire]
    fallback: str
    #: what passing after these orders would cost on the forecast position (see :func:`costs`)
    warned: list[str] = field(default_factory=list)

    def to_wire(self) -> GivenWire:
        return {
            "when": self.when,
            "step": self.step,
            "actions": self.actions,
            "fallback": self.fallback,
            "warned": self.warned,
        }


@dataclass
class Fitted:
    """A list given ahead checked against the real position: what goes, and what did not fit."""

    actions: list[Action]
    misfits: list[str]  # each: the order, and why it no longer fits; or a cost the forecast did not show
    added: int = 0  # the computer player's orders added by the fallback
    refused: int = 0  # the orders given that the real position refused


def coming(
    state: State,
    side: str,
    mine_now: list[Action],
    later: Mapping[Key, list[Action]],
    scenario: str | None,
    trail: list[tuple[str, str]] | None = None,
) -> Iterator[tuple[Decision, State]]:
    """The simultaneous steps of ``side`` after the current one, each with its forecast position.

    The current decision and the ones after it are played on a copy: ``side``'s lists are
    ``mine_now`` now and then those of ``later`` (read as each step comes, so a caller may
    add to it between steps), the other side declares the wars the computer player would
    (:func:`_forecast_list`) and passes its other lists, and rolls use :data:`FORECAST_SEED`.
    It stops at the first sequential decision, at the month's end, at the game's end, or
    after :data:`MAX_LOOKAHEAD` steps.

    When the decision now is taken move by move (a turn), the rest of the month is passed
    through, every move a pass, and the steps are those that open the next month: a side
    gives them in its last sitting before them.  ``trail`` receives (side, step) of every
    decision taken move by move that was passed, and of the one where the steps end."""
    api = engine_link.api()
    s = api.deserialize(api.serialize(state), scenario=scenario)
    mine = mine_now
    if api.decision(s).kind != "simultaneous":
        if not _to_next_month(s, trail):
            return
        d = api.decision(s)
        if d.kind != "simultaneous" or side not in d.sides:
            if trail is not None and d.kind == "sequential":
                trail.append((d.sides[0], d.phase))
            return
        yield d, s
        mine = list(later.get((d.when, d.phase), []))
    month = api.decision(s).when
    for _ in range(MAX_LOOKAHEAD):
        d = api.decision(s)
        if d.when != month:
            return
        if d.kind == "chance":
            api.apply_chance(s, FORECAST_SEED)
        elif d.kind == "simultaneous":
            lists = {x: mine if x == side else _forecast_list(s, d, x) for x in d.sides}
            try:
                api.apply_simultaneous(s, lists)
            except api.IllegalAction:
                api.apply_simultaneous(s, {x: [] for x in d.sides})
        else:
            if trail is not None:
                trail.append((d.sides[0], d.phase))
            return
        d = api.decision(s)
        if d.kind == "simultaneous" and side in d.sides and d.when == month:
            yield d, s
            mine = list(later.get((d.when, d.phase), []))


def _forecast_list(s: State, d: Decision, them: str) -> list[Action]:
    """The other side's list on the forecast: its war declarations as the computer player
    would most likely make them (those the position forces are the ones that matter: a war
    brings countries into a side, and with them steps such as an income); a pass otherwise,
    its placements and purchases changing little of what my own orders may do."""
    if d.phase != "war_declaration":
        return []
    return list(engine_link.ai().decide(s, them, FORECAST_SEED, "bot"))


def _to_next_month(s: State, trail: list[tuple[str, str]] | None) -> bool:
    """Play ``s`` on to the next month's first decision, every decision of the month left a
    pass and every roll the forecast's; False when the game ends first."""
    api = engine_link.api()
    month = api.decision(s).when
    pass_ = api.Action("pass", ())
    for _ in range(MAX_ACROSS):
        d = api.decision(s)
        if d.kind == "end":
            return False
        if d.when != month:
            return True
        if d.kind == "chance":
            api.apply_chance(s, FORECAST_SEED)
        elif d.kind == "simultaneous":
            api.apply_simultaneous(s, {x: [] for x in d.sides})
        else:
            if trail is not None:
                trail.append((d.sides[0], d.phase))
            api.apply(s, d.sides[0], pass_)
    return False


def worth_giving_ahead(state: State, side: str, scenario: str | None) -> bool:
    """Whether ``side``, its sitting just ended at ``state``, should give the next month's
    steps now: no decision of its own taken move by move comes before them (reactions aside:
    its reaction orders take them), and the other side's turn comes between them and its next
    one.  Otherwise they are better given later, on a truer forecast, in a sitting it has anyway."""
    trail: list[tuple[str, str]] = []
    steps = coming(state, side, [], {}, scenario, trail)
    if next(steps, None) is None:
        return False
    before = trail[:]
    list(steps)  # played to their end, for the decision that follows them
    if len(trail) == len(before):
        return False  # no turn in sight after the steps
    then = trail[-1][0]
    mine = any(s == side and p.rsplit(".", 1)[-1] not in machine.REACTION_STEPS for s, p in before)
    return not mine and then != side


def costs(state: State, side: str, actions: list[Action]) -> list[str]:
    """What passing after ``actions`` would cost ``side`` at ``state``, one word per thing
    (``pass.money-unspent:France``): the engine's pass warnings, by what they are about, and
    at a deployment the units still waiting that could be placed (``units-waiting:France``
    for land points, ``units-waiting:#412`` for a ship or aircraft), which go back to the pool."""
    api = engine_link.api()
    try:
        after = api.preview(state, side, [a for a in actions if a.kind != "pass"])
    except api.IllegalAction:
        return []
    found = {f"{w.slug}:{x}" for w in api.pass_warnings(after, side) for x in w.about or ("",)}
    if api.decision(after).phase == "deployment":
        # A war the forecast did not foresee brings a country's whole army to place: a list
        # given ahead that leaves it waiting must not be sealed as if nothing were missing.
        for a in api.legal_actions(after, side):
            if a.kind == "place_land":
                found.add(f"units-waiting:{a.args[0]}")
            elif a.kind == "place":
                found.add(f"units-waiting:#{a.args[0]}")
    return sorted(found)


def fit(
    state: State, side: str, actions: list[Action], fallback: str, seed: bytes, player: str = "bot",
    budget_s: float | None = None, warned: Collection[str] = (),
) -> Fitted:  # fmt: skip
    """``actions`` checked in order against the real ``state``; with the ``bot`` fallback, the
    computer player's orders (from ``seed``) of the same kind and on the same thing as a
    misfit (a unit, a country) are offered after them, each kept if it fits.  A ``pass``
    closes a list, so the list's pass is offered last.  A cost of passing the forecast did
    not show (``warned`` lists the ones it did: money a new war brought, say) counts as a
    misfit too, and with ``bot`` the computer player's other orders are offered for it."""
    api = engine_link.api()
    draft = api.draft(state, side)
    out = Fitted([], [])
    refused: list[Action] = []
    closing = [a for a in actions if a.kind == "pass"][:1]
    for action in actions:
        if action.kind == "pass":
            continue
        try:
            draft.offer(action)
        except api.IllegalAction as exc:
            out.misfits.append(f"{api.format_action(state, action)} ({reason(exc)})")
            refused.append(action)
    # Sealing a list ends the step as a pass does, so its cost is weighed whether or not it says `pass`.
    fresh = [c for c in costs(state, side, draft.actions) if c not in set(warned)]
    out.refused = len(refused)
    out.misfits += [f"passing now would cost what the forecast did not show ({c})" for c in _grouped(fresh)]
    proposed: list[Action] = []
    if (refused or fresh) and fallback == "bot":
        # A computer player that fails leaves the orders that fitted to go on their own, as `none` does.
        with contextlib.suppress(api.EngineError):
            proposed = engine_link.ai().decide(state, side, seed, player=player, budget_s=budget_s)
    for action in proposed:
        same = any(action.kind == r.kind and set(action.args) & set(r.args) for r in refused)
        if action.kind != "pass" and (same or fresh):
            try:
                draft.offer(action)
                out.added += 1
            except api.IllegalAction:
                continue
    for action in closing:
        draft.offer(action)
    out.actions = draft.actions
    return out


def _grouped(found: list[str]) -> list[str]:
    """The costs ``found`` with the ships and aircraft waiting to be placed counted in one."""
    units = [c for c in found if c.startswith("units-waiting:#")]
    rest = [c for c in found if c not in units]
    return rest + ([f"units-waiting: {len(units)} ship(s) or aircraft"] if units else [])


def reason(exc: BaseException) -> str:
    """An engine refusal without the place the engine gives it in a list ("axis order 2 (...): ")."""
    text = str(exc).rstrip(".")
    head, sep, rest = text.partition("): ")
    return rest if sep and " order " in head else text


class Plan:
    """My orders given ahead in game ``lg`` and what became of them, as kept in the store."""

    def __init__(self, lg: LocalGame) -> None:
        self.lg = lg
        d = lg.ahead()
        self.given = [
            Given(g["when"], g["step"], g["actions"], g["fallback"], g.get("warned", [])) for g in d.get("given", [])
        ]
        self.notes: list[list[str]] = list(d.get("notes", []))  # [month, what the program did]
        self.secrets: dict[str, list[Wire]] = {}  # commitments made, to be kept with the game's secrets
        self.told: list[str] = []  # notes made now, for the command's output
        self.changed = False

    def find(self, when: str, step: str) -> Given | None:
        return next((g for g in self.given if (g.when, g.step) == (when, step)), None)

    def later(self) -> dict[Key, list[Action]]:
        api = engine_link.api()
        return {(g.when, g.step): [api.Action.from_wire(w) for w in g.actions] for g in self.given}

    def put(self, given: Given) -> None:
        self.given = [g for g in self.given if (g.when, g.step) != (given.when, given.step)]
        if given.actions:
            self.given.append(given)
        self.changed = True

    def _note(self, when: str, text: str) -> None:
        self.notes = [*self.notes, [when, text]][-MAX_NOTES:]
        self.told.append(text)
        self.changed = True

    def due(self, game: Game) -> bool:
        """Whether I gave a list ahead for the simultaneous decision ``game`` awaits."""
        d = engine_link.api().decision(game.state)
        return d.kind == "simultaneous" and self.find(d.when, d.phase) is not None

    def record(self, game: Game) -> Record | None:
        """The commitment or list in the clear my orders given ahead make for the decision
        ``game`` awaits from me, or None (none were given for it, or they wait for the person)."""
        lg, api = self.lg, engine_link.api()
        exp = machine.expected(game)
        if exp is None or exp.side != lg.me or exp.kind not in ("commit", "sim") or lg.meta.get("handed_over_to"):
            return None
        d = api.decision(game.state)
        if any(g.when < d.when for g in self.given):
            # A step the engine skipped (nobody had anything to decide in it) left them unused.
            self.given = [g for g in self.given if g.when >= d.when]
            self.changed = True
        given = self.find(d.when, d.phase)
        if given is None:
            return None
        self.given.remove(given)
        self.changed = True
        seq = game.seq + 1
        what = f"your {phase_name(d.phase).lower()} of {d.when}, given in advance,"
        actions = machine.actions_of(given.actions, what)
        seed = lg.derived().bot_seed(game.seq, FALLBACK_ROUND)
        found = fit(game.state, lg.me, actions, given.fallback, seed, levels.recorded_player(lg), warned=given.warned)
        after = "the position the step came with"
        if found.misfits and given.fallback == "ask":
            self._note(
                d.when,
                f"{what} was not sealed: {len(found.misfits)} order(s) no longer fitted {after}: "
                f"{_misfits(found.misfits)} (fallback: ask); give the step's orders yourself",
            )
            return None
        listed = [a.to_wire() for a in found.actions]
        rec: Record
        if exp.kind == "commit":
            rec = Commit(commit.commitment(lg.gid, seq, lg.me, listed, lg.derived().salt(seq)))
            self.secrets[str(seq)] = listed
        else:
            rec = Sim(listed)
        how = "sealed" if exp.kind == "commit" else "handed in openly"
        if found.misfits:
            added = f"; the computer player added {found.added}" if given.fallback == "bot" else ""
            self._note(
                d.when,
                f"{what} was {how}; {len(found.misfits)} order(s) no longer fitted {after}: "
                f"{_misfits(found.misfits)} (fallback: {given.fallback}{added})",
            )
        else:
            self._note(d.when, f"{what} was {how} ({len(listed)} order(s))")
        return rec

    def stage(self, tx: Transaction) -> None:
        """Stage what changed: the orders still to come, the notes, and the lists committed."""
        if self.secrets:
            self.lg.stage_secrets(tx, self.lg.secrets() | self.secrets)
        if self.changed:
            self.lg.stage_ahead(tx, {"given": [g.to_wire() for g in self.given], "notes": self.notes})


def _misfits(found: list[str]) -> str:
    shown = "; ".join(found[:MISFITS_SHOWN])
    return shown + (f"; and {len(found) - MISFITS_SHOWN} more" if len(found) > MISFITS_SHOWN else "")


def mine_now(lg: LocalGame, work: Game, listed: list[Wire] | None) -> list[Action]:
    """My list for the simultaneous decision of ``work`` (``listed``: the one I am writing;
    else the one I committed or handed in openly; none yet: a pass)."""
    api = engine_link.api()
    d = api.decision(work.state)
    if d.kind != "simultaneous" or lg.me not in d.sides:
        return []
    p = work.pending
    wires: list[Wire] = []
    if listed is not None:
        wires = listed
    elif isinstance(p, SimStep) and p.committer == lg.me and p.commit is not None:
        wires = lg.secrets().get(str(p.commit_seq), [])
    elif isinstance(p, SimStep) and p.committer == other(lg.me) and p.clear is not None:
        wires = p.clear
    return machine.actions_of(wires, "your list now")


def bot_ahead(lg: LocalGame, work: Game, listed: list[Wire] | None, seq: int, player: str) -> Plan:
    """The computer player's lists for my coming simultaneous steps, each decided on its
    forecast position (fallback: ``bot``); ``work`` holds its list for the step now
    (``listed`` while it is not yet sealed), ``seq`` is the game's last file."""
    plan = Plan(lg)
    later = plan.later()
    scenario = lg.genesis().body["scenario"]
    for i, (d, state) in enumerate(coming(work.state, lg.me, mine_now(lg, work, listed), later, scenario)):
        if plan.find(d.when, d.phase) is not None:
            continue
        seed = lg.derived().bot_seed(seq, FALLBACK_ROUND + 1 + i)
        actions = engine_link.ai().decide(state, lg.me, seed, player=player)
        later[(d.when, d.phase)] = actions
        plan.put(Given(d.when, d.phase, [a.to_wire() for a in actions], "bot", costs(state, lg.me, actions)))
    return plan


@dataclass
class AheadBot:
    """The computer player giving its lists for the coming simultaneous steps in the sitting
    of the first of them, as ``pbem bot play`` does, for a game played without files
    (``pbem arena``): :meth:`decide` stands in for its simultaneous decisions.  It counts
    how the lists given ahead fared against the real positions (fallback: ``bot``)."""

    scenario: str
    given: dict[tuple[str, str, str], list[Action]] = field(default_factory=dict)  # (side, month, step)
    warned: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)  # costs on the forecast
    players: dict[str, tuple[str, float | None]] = field(default_factory=dict)  # side: (player, budget)
    sitting: str | None = None  # the side whose decisions taken move by move are being made
    lists: int = 0  # lists given ahead that reached their step
    refitted: int = 0  # ... of which an order no longer fitted, or a cost showed that the forecast did not
    orders: int = 0
    misfits: int = 0  # orders given ahead that no longer fitted

    def standing(self, d: Decision) -> set[str]:
        """The sides whose list for decision ``d`` was given ahead."""
        return {side for side in d.sides if (side, d.when, d.phase) in self.given}

    def decide(self, state: State, side: str, seed: bytes, player: str, budget_s: float | None) -> list[Action]:
        api, ai = engine_link.api(), engine_link.ai()
        d = api.decision(state)
        self.players[side] = (player, budget_s)
        listed = self.given.pop((side, d.when, d.phase), None)
        if listed is not None:
            warned = self.warned.pop((side, d.when, d.phase), [])
            found = fit(state, side, listed, "bot", seed, player, budget_s, warned)
            self.lists += 1
            self.refitted += bool(found.misfits)
            self.orders += len(listed)
            self.misfits += found.refused
            return found.actions
        mine = ai.decide(state, side, seed, player, budget_s)
        later: dict[Key, list[Action]] = {}
        for i, (step, at) in enumerate(coming(state, side, mine, later, self.scenario)):
            ahead_seed = hashlib.sha256(seed + b"/ahead/" + bytes([i])).digest()
            key = (side, step.when, step.phase)
            later[(step.when, step.phase)] = self.given[key] = ai.decide(at, side, ahead_seed, player, budget_s)
            self.warned[key] = costs(at, side, self.given[key])
        return mine

    def seen(self, d: Decision, state: State) -> None:
        """Told each decision ``d`` before it is made at ``state``: when a side's sitting has
        just ended, it gives the next month's lists there if that is its last sitting before
        them (:func:`worth_giving_ahead`), as ``pbem bot play --ahead`` does."""
        if d.kind == "sequential" and d.sides[0] == self.sitting:
            return
        ended, self.sitting = self.sitting, None
        if d.kind == "sequential" and d.phase.rsplit(".", 1)[-1] not in machine.REACTION_STEPS:
            self.sitting = d.sides[0]
        if ended is None or ended not in self.players or not worth_giving_ahead(state, ended, self.scenario):
            return
        player, budget_s = self.players[ended]
        ai = engine_link.ai()
        later: dict[Key, list[Action]] = {}
        for step, at in coming(state, ended, [], later, self.scenario):
            key = (ended, step.when, step.phase)
            seed = hashlib.sha256("/".join(("pbem/arena/ahead/v1", *key)).encode()).digest()
            later[(step.when, step.phase)] = self.given[key] = ai.decide(at, ended, seed, player, budget_s)
            self.warned[key] = costs(at, ended, self.given[key])

    def to_json(self) -> dict[str, int]:
        return {"lists": self.lists, "refitted": self.refitted, "orders": self.orders, "misfits": self.misfits}
