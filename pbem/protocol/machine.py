"""Re-execution of a game's history: the protocol state machine over the engine.

A :class:`Game` holds the engine state plus what the protocol tracks around
it: the hash of every accepted file, the dice chain values revealed so far and
the simultaneous decision or chance event in progress.  :func:`expected` says,
from that alone, which side must supply the next record and of what kind, so
exactly one side can author each position of the history.

The records a turn file carries are the kinds of :mod:`pbem.protocol.records`; the ending
records (resignation, draw) are judged by :mod:`pbem.protocol.endings`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ParamSpec, TypeVar, cast

from pbem.errors import PbemError
from pbem.protocol import clock, commit, dice, endings, engine_link, gameoptions, turnfile, wire
from pbem.protocol.records import Act, Commit, Dice, Ending, React, Record, Reveal, Seal, Sim, Wire
from pbem.protocol.rules import PINNED_PLAYER, Action, Draft, Event, State, refusal_rule
from pbem.protocol.turnfile import SIDES, Parent, Sign, TurnFile, other
from pbem.protocol.words import sides_of

SNAPSHOT_LIMITS = wire.Limits(
    max_bytes=1 << 30, max_bin=1 << 30, max_str=1 << 20, max_array=1 << 22, max_items=1 << 26, max_map=64, max_depth=12
)


P = ParamSpec("P")
R = TypeVar("R")


def _engine_call(what: str, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Call the engine; its refusals and even its crashes become one line, never a traceback."""
    api = engine_link.api()
    try:
        return fn(*args, **kwargs)
    except api.IllegalAction as exc:
        raise PbemError(f"{what}: illegal: {exc}", "illegal", refusal_rule(exc)) from None
    except PbemError:
        raise
    except Exception as exc:  # a hostile file must not crash the receiver
        raise PbemError(f"{what}: the engine refused it ({type(exc).__name__}: {str(exc)[:120]})", "illegal") from None


def actions_of(wires: list[Wire], what: str) -> list[Action]:
    """The engine's actions for wire forms read from a file or the store (refusals as PbemError)."""
    api = engine_link.api()
    return [_engine_call(what, api.Action.from_wire, w) for w in wires]


#: Called before each record of a file is applied: the game, and the record.
Watcher = Callable[["Game", Record], None]


@dataclass(frozen=True)
class SimStep:
    """A simultaneous decision in progress.

    With two deciding sides, ``committer`` (the author of the record that opened it)
    commits first, the other side then hands in its list in the clear (``clear``) and
    the committer reveals; a single deciding side hands in its list in the clear at once.
    """

    sides: tuple[str, ...]
    committer: str | None
    commit: bytes | None = None
    commit_seq: int = 0
    clear: list[Wire] | None = None
    # The list the bot played in the clear for a committer that stayed silent (a final
    # claim, pbem/protocol/deadlines.py): the other side's clear list then resolves the decision.
    played: list[Wire] | None = None

    def to_wire(self) -> dict[str, object]:
        return {
            "kind": "sim",
            "sides": list(self.sides),
            "committer": self.committer,
            "commit": self.commit,
            "commit_seq": self.commit_seq,
            "clear": self.clear,
            "played": self.played,
        }


@dataclass(frozen=True)
class ChanceStep:
    """A chance event in progress: the side that did not trigger it reveals its chain
    value first, the trigger's author last."""

    trigger_seq: int
    trigger_author: str
    values: tuple[tuple[str, bytes], ...] = ()

    def value(self, side: str) -> bytes | None:
        return dict(self.values).get(side)

    def to_wire(self) -> dict[str, object]:
        return {
            "kind": "chance",
            "trigger_seq": self.trigger_seq,
            "trigger_author": self.trigger_author,
            "values": dict(self.values),
        }


Step = SimStep | ChanceStep


def _step_from_wire(d: dict[str, Any] | None) -> Step | None:
    if d is None:
        return None
    if d["kind"] == "sim":
        return SimStep(tuple(d["sides"]), d["committer"], d["commit"], d["commit_seq"], d["clear"], d.get("played"))
    return ChanceStep(d["trigger_seq"], d["trigger_author"], tuple(d["values"].items()))


@dataclass(frozen=True)
class Expectation:
    """The record the history needs next: its author and its kind ("act", "commit", ...)."""

    side: str
    kind: str


@dataclass
class Genesis:
    """The game's fixed parameters, read from a verified genesis file."""

    body: dict[str, Any]

    @property
    def game(self) -> str:
        return cast(str, self.body["game"])

    @property
    def creator(self) -> str:
        return cast(str, self.body["side"])

    def key(self, side: str) -> bytes:
        return cast(bytes, self.body["keys"][side])

    @property
    def parent(self) -> Parent | None:
        """For a branch: the game, file number, file hash and state hash it starts from."""
        found: Parent | None = self.body.get("parent")
        return found


@dataclass
class Game:
    genesis: Genesis
    state: State
    seq: int = 1
    hashes: list[bytes] = field(default_factory=list)
    k: int = 0  # chance events resolved
    chain: dict[str, bytes] = field(default_factory=dict)  # last revealed value (anchor at first)
    chain_len: dict[str, int] = field(default_factory=dict)
    last_author: str = "axis"
    last_seq: int = 1
    pending: Step | None = None
    log: list[str] = field(default_factory=list)  # what the last chance event did
    # What the last chance event did as engine events (pbem/play/report.py); not saved.
    events: list[Event] = field(default_factory=list)
    # The actions the last react record's orders took, for its report; not saved.
    reacted: list[Action] = field(default_factory=list)
    draw_offer: str = ""  # the side whose draw offer is open
    result: endings.Result | None = None  # how the players ended the game
    # The deadline and hand-over rules (pbem/protocol/clock.py, pbem/protocol/deadlines.py, pbem/protocol/handover.py):
    keys: dict[str, bytes] = field(default_factory=dict)  # each side's key in force (genesis's at first)
    clock: int = 0  # the time of the last file (games with a deadline)
    deadline: int = 0  # seconds per decision in force (0: no deadline)
    reminded: bool = False  # the last file is a reminder claim
    forfeited: str = ""  # the side that lost by a missed deadline ("" while the game goes on)
    silence: str = ""  # the silence rule new terms set ("": the genesis's)
    chain_base: dict[str, int] = field(default_factory=dict)  # rolls before a side's chain was handed over
    # Every anchor and dice value of the game so far: a hand-over's anchor must be none of them.
    seen: list[bytes] = field(default_factory=list)
    # Each side's sealed reaction orders in force: (commitment, the seq of the file carrying it).
    seals: dict[str, tuple[bytes, int]] = field(default_factory=dict)

    @property
    def gid(self) -> str:
        return self.genesis.game

    # -- persistence ------------------------------------------------------------
    def to_bytes(self) -> bytes:
        api = engine_link.api()
        return wire.pack(
            {
                "genesis": self.genesis.body,
                "state": api.serialize(self.state),
                "seq": self.seq,
                "hashes": self.hashes,
                "k": self.k,
                "chain": self.chain,
                "chain_len": self.chain_len,
                "last_author": self.last_author,
                "last_seq": self.last_seq,
                "pending": None if self.pending is None else self.pending.to_wire(),
                "log": self.log,
                "keys": self.keys,
                "clock": self.clock,
                "deadline": self.deadline,
                "reminded": self.reminded,
                "forfeited": self.forfeited,
                "chain_base": self.chain_base,
                "seen": self.seen,
            }
            # Written only when set, so a game without them keeps the bytes it always had.
            | ({"draw_offer": self.draw_offer} if self.draw_offer else {})
            | ({"result": self.result.to_wire()} if self.result else {})
            | ({"silence": self.silence} if self.silence else {})
            | ({"seals": {k: list(v) for k, v in self.seals.items()}} if self.seals else {})
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> Game:
        api = engine_link.api()
        d = wire.unpack(data, SNAPSHOT_LIMITS)
        try:
            # The genesis names the scenario: only its world is loaded, and checked.
            state = api.deserialize(d["state"], scenario=d["genesis"]["scenario"])
        except api.StateError as exc:
            raise PbemError(f"the saved game state cannot be loaded: {exc}", "store") from None
        return cls(
            Genesis(d["genesis"]),
            state,
            d["seq"],
            d["hashes"],
            d["k"],
            d["chain"],
            d["chain_len"],
            d["last_author"],
            d["last_seq"],
            _step_from_wire(d["pending"]),
            d["log"],
            draw_offer=d.get("draw_offer", ""),
            result=endings.Result.from_wire(d.get("result")),
            keys=d.get("keys") or dict(d["genesis"]["keys"]),
            clock=d.get("clock", 0),
            deadline=d.get("deadline", 0),
            reminded=d.get("reminded", False),
            forfeited=d.get("forfeited", ""),
            silence=d.get("silence", ""),
            chain_base=d.get("chain_base", {}),
            # A snapshot saved before the list was kept knows the values in force only.
            seen=d.get("seen") or list(d["chain"].values()),
            seals={k: (v[0], v[1]) for k, v in d.get("seals", {}).items()},
        )

    def clone(self) -> Game:
        return Game.from_bytes(self.to_bytes())


# -- genesis and join ------------------------------------------------------------


@dataclass(frozen=True)
class Authentic:
    """A file whose signature is valid for its side's key in its game's genesis: made only
    by :func:`authenticate`, and what re-execution (:func:`start`, :func:`apply_turn`) takes."""

    tf: TurnFile


def authenticate(genesis: Genesis, tf: TurnFile, game: Game | None = None) -> Authentic:
    """The one place a file's signature is checked: against the key in force for its side
    in ``game`` (a side handed over signs with its new key), else the one ``genesis`` gives."""
    if tf.game != genesis.game:
        raise PbemError(f"{tf.name}: belongs to game {tf.game}, not {genesis.game}", "game")
    tf.verify_signature(game.keys[tf.side] if game is not None else genesis.key(tf.side))
    return Authentic(tf)


def check_genesis(tf: TurnFile) -> Genesis:
    """Authenticate an invitation (signed by its creator's key in it) and check that this
    program can play it."""
    api = engine_link.api()
    if tf.type != "genesis":
        raise PbemError(f"{tf.name}: this is not a game invitation (genesis) file", "type")
    g = Genesis(tf.body)
    authenticate(g, tf)
    if tf.body["engine"] != api.ENGINE_VERSION:
        raise PbemError(
            f"{tf.name}: the game needs engine version {tf.body['engine']}, this program has {api.ENGINE_VERSION}",
            "version",
        )
    try:
        # a game begun on an earlier packaged map is still played on it
        known = api.scenario_has_digest(tf.body["scenario"], tf.body["digest"])
    except Exception as exc:
        raise PbemError(
            f"{tf.name}: cannot load scenario '{tf.body['scenario']}' here ({type(exc).__name__})", "scenario"
        ) from None
    if not known:
        raise PbemError(
            f"{tf.name}: your scenario data for '{tf.body['scenario']}' differs from your opponent's "
            "(digest mismatch); both players need the same release",
            "scenario",
        )
    try:
        gameoptions.check(g.body["options"])
    except PbemError as exc:
        raise PbemError(f"{tf.name}: {exc}", exc.code) from None
    new_state(g)  # options the engine refuses would only surface at the join: refuse the invitation now
    return g


def new_state(g: Genesis) -> State:
    api = engine_link.api()
    # on the map the invitation's digest names: an older game keeps the map it began on
    return _engine_call(
        "new game",
        api.new_game,
        g.body["scenario"],
        gameoptions.engine_options(g.body["options"]),
        digest=g.body["digest"],
    )


def start(genesis_tf: TurnFile, join: Authentic, base: bytes | None = None) -> Game:
    """Check the join file against genesis and set up the game at its first decision.

    A branch (a genesis naming a parent) starts from ``base``, the serialized state of
    the parent after the file it names, which the caller has verified (pbem/play/branch.py)."""
    api = engine_link.api()
    g = check_genesis(genesis_tf)
    join_tf = join.tf
    if join_tf.type != "join" or join_tf.game != g.game:
        raise PbemError(f"{join_tf.name}: not the answer to invitation {g.game}", "type")
    if join_tf.prev != genesis_tf.hash:
        raise PbemError(f"{join_tf.name}: does not follow this game's genesis file", "chain-link")
    joiner = other(g.creator)
    if join_tf.side != joiner:
        raise PbemError(f"{join_tf.name}: the join file must come from the {joiner} player", "side")
    if g.parent is None:
        state = new_state(g)
    elif base is None:
        raise PbemError(
            f"{join_tf.name}: game {g.game} branches from file {g.parent['seq']} of game {g.parent['game']}, "
            "whose verified position is needed to start it",
            "branch",
        )
    else:
        state = _engine_call("the branch's position", api.deserialize, base, scenario=g.body["scenario"])
        if api.state_hash(state) != g.parent["state"]:
            raise PbemError(f"{join_tf.name}: the position given is not the one game {g.game} branches from", "branch")
    if api.state_hash(state) != join_tf.body["state"]:
        raise PbemError(
            f"{join_tf.name}: the opponent's starting position differs from yours (engine or scenario data differ)",
            "state",
        )
    terms = clock.terms(g.body["options"])
    check_time_field(terms is not None, join_tf)
    if "time" in join_tf.body:
        clock.check_not_future(join_tf.body["time"], join_tf.name)
    game = Game(
        g,
        state,
        seq=1,
        hashes=[genesis_tf.hash, join_tf.hash],
        chain={g.creator: g.body["anchor"], joiner: join_tf.body["anchor"]},
        chain_len={g.creator: g.body["chain"], joiner: join_tf.body["chain"]},
        seen=[g.body["anchor"], join_tf.body["anchor"]],
        last_author=joiner,
        last_seq=1,
        keys=dict(g.body["keys"]),
        clock=join_tf.body.get("time", 0),
        deadline=0 if terms is None else terms.deadline,
    )
    settle(game)
    return game


# -- the state machine -------------------------------------------------------------


def settle(game: Game) -> None:
    """Open the protocol step for a simultaneous decision or chance event that just became current.

    The author of the record that made it current commits first (simultaneous)
    or reveals its chain value last (chance): see docs/turn-file-format.md.
    """
    if game.pending is not None:
        return
    api = engine_link.api()
    d = api.decision(game.state)
    if d.kind == "simultaneous":
        sides = tuple(s for s in SIDES if s in d.sides)
        game.pending = SimStep(sides, game.last_author if len(sides) == 2 else None)
    elif d.kind == "chance":
        game.pending = ChanceStep(game.last_seq, game.last_author)


def check_time_field(timed: bool, tf: TurnFile) -> None:
    """A file after the genesis carries its time exactly when the game has a deadline."""
    if ("time" in tf.body) != timed:
        state = "has no deadline, yet the file carries a time" if not timed else "has a deadline: the file needs a time"
        raise PbemError(f"{tf.name}: the game {state}", "time")


def winner(game: Game) -> str | None:
    """The side that won, whichever way the game ended: a resignation, a forfeit by a missed
    deadline or the engine's victory conditions; None while it goes on, or when drawn."""
    if game.result is not None:
        return game.result.winner
    if game.forfeited:
        return other(game.forfeited)
    return engine_link.api().winner(game.state) if expected(game) is None else None


def outcome(game: Game) -> str:
    """How the game was ended before its rules ended it, for a person: a resignation, a draw
    or a forfeit ("" otherwise)."""
    if game.result is not None:
        return game.result.text()
    if game.forfeited:
        return f"{game.forfeited} forfeited (no answer after a reminder); the {other(game.forfeited)} win"
    return ""


def expected(game: Game) -> Expectation | None:
    """The record the history needs next, or None once the game has ended."""
    if game.result is not None or game.forfeited:
        return None
    api = engine_link.api()
    d = api.decision(game.state)
    if d.kind == "end":
        return None
    if d.kind == "sequential":
        if not d.sides:
            raise PbemError(f"the engine reports a decision in {d.phase} that nobody makes", "engine")
        return Expectation(d.sides[0], "act")
    p = game.pending
    if isinstance(p, SimStep):
        if p.committer is None:
            return Expectation(p.sides[0], "sim")
        if p.played is not None:
            return Expectation(other(p.committer), "sim")
        if p.commit is None:
            return Expectation(p.committer, "commit")
        if p.clear is None:
            return Expectation(other(p.committer), "sim")
        return Expectation(p.committer, "reveal")
    if p is None:  # pragma: no cover - settle() always opens one
        raise PbemError("internal error: no protocol step open", "internal")
    first = other(p.trigger_author)
    return Expectation(first if p.value(first) is None else p.trigger_author, "dice")


def apply_record(
    game: Game, author: str, seq: int, rec: Record, where: str = "record", actions: list[Action] | None = None
) -> None:
    """Apply one record by ``author`` in file ``seq``; raises PbemError, leaving ``game`` unusable.

    ``actions``: the engine's actions of an Act (one), Sim or Reveal when the caller holds
    them already (my own orders), so that they are not read back from their wire form.
    """
    api = engine_link.api()
    exp = expected(game)
    if exp is None:
        raise endings.over(where, outcome(game))
    if isinstance(rec, Seal):
        # A seal rides in any file of its side: as its first record when the side is to act,
        # or after a record of the side in the same file.
        if exp.side != author and (game.last_author, game.last_seq) != (author, seq):
            raise PbemError(f"{where}: out of turn: a seal must ride in a file of a side that acts in it", "order")
        game.seals[author] = (rec.digest, seq)
        return  # the engine's state and the last author stay as they were
    if isinstance(rec, React):
        p = game.pending
        if exp == Expectation(author, "dice") and isinstance(p, ChanceStep) and not p.values:
            _react_before_roll(game, author, seq, rec, where)
            return  # like a seal: the last author and file stay, so the roll's trigger is still the mover's
        if exp != Expectation(author, "act"):
            raise PbemError(
                f"{where}: out of turn: the game awaits '{exp.kind}' from {exp.side}, got 'react' from {author}",
                "order",
            )
        _react(game, author, seq, rec, where)
        return
    if isinstance(rec, Ending):
        if exp.side != author:
            raise PbemError(f"{where}: out of turn: the game awaits '{exp.kind}' from {exp.side}, "
                            f"got '{rec.kind}' from {author}", "order")  # fmt: skip
        game.draw_offer, game.result = endings.judge(rec.kind, author, seq, game.draw_offer, in_progress(game), where)
        return  # the engine's state, the last author and the last file stay as they were
    if exp.side != author or exp.kind != rec.KIND:
        raise PbemError(
            f"{where}: out of turn: the game awaits '{exp.kind}' from {exp.side}, got '{rec.KIND}' from {author}",
            "order",
        )
    p = game.pending
    if isinstance(rec, Act):
        (action,) = actions or actions_of([rec.action], where)
        _engine_call(where, api.apply, game.state, author, action)
    elif isinstance(rec, Commit):
        assert isinstance(p, SimStep)
        game.pending = replace(p, commit=rec.digest, commit_seq=seq)
    elif isinstance(rec, Sim):
        assert isinstance(p, SimStep)
        listed = actions_of(rec.actions, where) if actions is None else actions
        if p.committer is None:
            resolve_sim(game, where, {author: listed, other(author): []})
        elif p.played is not None:
            resolve_sim(game, where, {author: listed, p.committer: actions_of(p.played, where)})
        else:
            trial_list(game, author, listed, where)
            game.pending = replace(p, clear=rec.actions)
    elif isinstance(rec, Reveal):
        assert isinstance(p, SimStep) and p.commit is not None and p.clear is not None
        if not commit.matches(p.commit, game.gid, p.commit_seq, author, rec.actions, rec.salt):
            raise PbemError(
                f"{where}: the revealed actions do not match {sides_of(author)} commitment in file "
                f"{p.commit_seq} (protocol violation)",
                "commit",
            )
        revealed = actions_of(rec.actions, where) if actions is None else actions
        resolve_sim(game, where, {author: revealed, other(author): actions_of(p.clear, where)})
    else:
        assert isinstance(p, ChanceStep)
        _roll(game, author, rec, p, where)
    game.last_author, game.last_seq = author, seq
    settle(game)


#: The steps reaction orders decide, by the last part of the engine's phase name.
REACTION_STEPS = ("interception", "landing")
#: The rolls before which reaction orders may give the side's retreat order (those that
#: may make its stacks retreat), by the last part of the engine's phase name.
ROLL_STEPS = ("overrun_roll", "combat_roll")
#: Calls of the computer player one react record may make (each a decision's worth of actions).
MAX_REACT_CALLS = 64


def _react(game: Game, author: str, seq: int, rec: React, where: str) -> None:
    """Open ``author``'s seal and let its reaction orders make the decision now (section 5.8)."""
    api = engine_link.api()
    phase = api.decision(game.state).phase
    step = phase.rsplit(".", 1)[-1]
    if step not in REACTION_STEPS:
        raise PbemError(
            f"{where}: out of turn: reaction orders decide interceptions and landings, not {phase}", "order"
        )
    _check_opening(game, author, seq, rec, where)
    intercept, land, only = rec.orders[:3]
    mode = intercept if step == "interception" else land
    if mode == "ask":
        raise PbemError(f"{where}: the reaction orders leave the {step} to the player", "illegal")
    del game.seals[author]  # opened: its salt is known, so it hides nothing more
    game.reacted = []
    pass_ = api.Action("pass", ())
    for i in range(MAX_REACT_CALLS):
        if mode == "pass":
            actions = [pass_]
        else:
            seed = commit.react_seed(game.gid, seq, i, rec.salt)
            decide = engine_link.ai().decide
            actions = list(
                _engine_call(f"{where} (reaction orders)", decide, game.state, author, seed, player=PINNED_PLAYER)
            )
            if only:
                actions = [a for a in actions if a.kind != "intercept" or int(a.args[0]) in only]
            actions = actions or [pass_]
        for a in actions:
            _engine_call(f"{where} (reaction orders)", api.apply, game.state, author, a)
            game.reacted.append(a)
            game.last_author, game.last_seq = author, seq
            settle(game)
            if expected(game) != Expectation(author, "act") or api.decision(game.state).phase != phase:
                return
        if actions[-1].kind == "pass":
            break
    raise PbemError(f"{where}: the reaction orders did not end the {step}", "illegal")


def _check_opening(game: Game, author: str, seq: int, rec: React, where: str) -> None:
    """Does ``rec`` open ``author``'s seal in force, carried by an earlier file?"""
    sealed = game.seals.get(author)
    if sealed is None or sealed[1] >= seq:
        raise PbemError(
            f"{where}: {sides_of(author)} reaction orders were not sealed in an earlier file", "react-not-sealed"
        )
    if not commit.seal_matches(sealed[0], game.gid, sealed[1], author, rec.orders, rec.salt):
        raise PbemError(
            f"{where}: the reaction orders do not match {sides_of(author)} seal in file {sealed[1]} "
            "(protocol violation)",
            "react-mismatch",
        )


def _react_before_roll(game: Game, author: str, seq: int, rec: React, where: str) -> None:
    """Open ``author``'s seal before its first dice value of a roll: its retreat order
    becomes its standing order for the roll and after (section 5.8)."""
    api = engine_link.api()
    phase = api.decision(game.state).phase
    if phase.rsplit(".", 1)[-1] not in ROLL_STEPS:
        raise PbemError(
            f"{where}: out of turn: reaction orders open before the rolls of overruns and combats, not {phase}",
            "order",
        )
    _check_opening(game, author, seq, rec, where)
    if len(rec.orders) < 4:
        raise PbemError(f"{where}: the reaction orders give no retreat order to open before the roll", "illegal")
    order = api.Action("retreat", () if rec.orders[3] == "bot" else tuple(rec.orders[3]))
    _engine_call(f"{where} (reaction orders)", api.standing_before_roll, game.state, author, order)
    del game.seals[author]  # opened: its salt is known, so it hides nothing more
    game.reacted = [order]


def in_progress(game: Game) -> bool:
    """Whether a commitment waits for its opening, or a roll for its second value."""
    p = game.pending
    return (isinstance(p, SimStep) and p.commit is not None) or (isinstance(p, ChanceStep) and bool(p.values))


def _roll(game: Game, author: str, rec: Dice, p: ChanceStep, where: str) -> None:
    api = engine_link.api()
    k = game.k + 1
    if rec.k != k:
        raise PbemError(f"{where}: dice value for event {rec.k}, but event {k} is being rolled", "chain")
    if not dice.check_reveal(game.chain[author], rec.value):
        raise PbemError(
            f"{where}: {sides_of(author)} dice value does not hash to its previous chain value (protocol violation)",
            "chain",
        )
    game.chain[author] = rec.value
    game.seen.append(rec.value)
    p = replace(p, values=(*p.values, (author, rec.value)))
    game.pending = p
    axis, allies = p.value("axis"), p.value("allies")
    if axis is not None and allies is not None:
        seed = dice.seed(game.gid, k, game.hashes[p.trigger_seq], axis, allies)
        game.pending = None
        game.k = k
        game.events = list(_engine_call(where, api.apply_chance_events, game.state, seed))
        game.log = [api.event_text(game.state, e) for e in game.events]


def open_draft(game: Game, side: str, where: str) -> Draft:
    """``side``'s hidden list for the simultaneous decision ``game`` waits for, to be
    checked action by action (:func:`offer`)."""
    api = engine_link.api()
    draft: Draft = _engine_call(where, api.draft, game.state, side)
    return draft


def offer(draft: Draft, action: Action, where: str) -> None:
    """Add ``action`` to ``draft``; a refusal becomes one line blaming the list's side."""
    _engine_call(where, draft.offer, action)


def trial_list(game: Game, side: str, actions: list[Action], where: str) -> None:
    """Refuse a simultaneous list that the rules reject on its own, before it is bound.

    The list in the clear is checked at once, in order, so that an illegal list is
    blamed on its sender, not discovered at the reveal.
    """
    draft = open_draft(game, side, where)
    for action in actions:
        offer(draft, action, where)


def resolve_sim(game: Game, where: str, lists: dict[str, list[Action]]) -> None:
    api = engine_link.api()
    sides = game.pending.sides if isinstance(game.pending, SimStep) else SIDES
    game.pending = None
    _engine_call(where, api.apply_simultaneous, game.state, {s: lists[s] for s in sides})


def apply_turn(game: Game, file: Authentic, watch: Watcher | None = None) -> None:
    """Verify ``file`` as the next file of ``game`` by re-executing it; mutates ``game``.
    ``watch`` is called before each record, with its wire form (the game log notes what
    each one changed).

    On error ``game`` is left half-applied: callers work on a copy.
    """
    api = engine_link.api()
    tf = file.tf
    name = tf.name
    check_link(game, tf, "turn")
    for i, rec in enumerate(tf.records, 1):
        if watch is not None:
            watch(game, rec)
        apply_record(game, tf.side, tf.seq, rec, f"{name}: record {i}")
    if api.state_hash(game.state) != tf.body["state"]:
        raise PbemError(
            f"{name}: after re-executing it the game state differs from the sender's (state hash "
            "mismatch: different engine, scenario data or a modified program)",
            "state",
        )
    append(game, tf)


def check_link(game: Game, tf: TurnFile, kind: str) -> None:
    """``tf`` is a file of ``kind`` next in line in ``game``: its game, position and ``prev``."""
    name = tf.name
    if tf.game != game.gid:
        raise PbemError(f"{name}: belongs to game {tf.game}, not {game.gid}", "game")
    if tf.type != kind:
        raise PbemError(f"{name}: a {tf.type} file cannot continue a game in progress", "type")
    if tf.seq != game.seq + 1:
        raise PbemError(f"{name}: expected file {game.seq + 1}, this is file {tf.seq}", "sequence")
    if tf.prev != game.hashes[-1]:
        raise PbemError(f"{name}: does not follow file {game.seq} of this game (previous-hash mismatch)", "chain-link")


def append(game: Game, tf: TurnFile) -> None:
    """``tf`` becomes the last file of ``game``."""
    game.seq = tf.seq
    game.hashes.append(tf.hash)
    game.clock = tf.body.get("time", game.clock)
    game.reminded = False


def build_turn(
    game: Game,
    side: str,
    records: Sequence[Record],
    sign: Sign,
    watch: Watcher | None = None,
    standing: Sequence[int] = (),
) -> TurnFile:
    """Apply my ``records`` to ``game`` and seal them as the next file (mutates ``game``);
    ``watch`` as for :func:`apply_turn`, ``standing`` as for :func:`seal_turn`.  Each order
    is sealed as the engine spells it out (:func:`spelled`)."""
    seq = game.seq + 1
    sealed = []
    for i, rec in enumerate(records, 1):
        rec = spelled(game, side, rec)
        if watch is not None:
            watch(game, rec)
        apply_record(game, side, seq, rec, f"my record {i}")
        sealed.append(rec)
    return seal_turn(game, side, sealed, sign, standing)


def spelled(game: Game, side: str, rec: Record) -> Record:
    """An order of mine as the engine would have it written (``spelled_out``): the same
    order in the form every receiver re-executes fastest (a move given by its destination
    goes with its whole path, which the receiver checks instead of searching for one).
    Any other record, or an order the engine refuses, as it is: applying it says why."""
    if not isinstance(rec, Act):
        return rec
    api = engine_link.api()
    try:
        action = _engine_call("an order", api.Action.from_wire, rec.action)
        written = _engine_call("an order", api.spelled_out, game.state, side, action)
    except PbemError:  # the record as given: applying it refuses it, in one line
        return rec
    return rec if written == action else Act(written.to_wire())


def seal_turn(game: Game, side: str, records: Sequence[Record], sign: Sign, standing: Sequence[int] = ()) -> TurnFile:
    """Seal ``records``, already applied to ``game`` as file ``game.seq + 1``, into a signed file;
    ``standing``: the positions of the records my standing orders gave (section 4.1)."""
    api = engine_link.api()
    seq = game.seq + 1
    body = {
        "v": turnfile.VERSION,
        "type": "turn",
        "game": game.gid,
        "seq": seq,
        "prev": game.hashes[-1],
        "side": side,
        "records": [rec.to_wire() for rec in records],
        "state": api.state_hash(game.state),
    }
    if standing:
        body["standing"] = sorted(set(standing))
    return seal_next(game, body, sign)


def seal_next(game: Game, body: dict[str, object], sign: Sign) -> TurnFile:
    """Stamp ``body`` (the next file of ``game``) with its time in a game with a deadline,
    seal it and make it the last file."""
    if game.deadline:
        body["time"] = clock.stamp(game.clock)
    tf = turnfile.seal(body, sign)
    append(game, tf)
    return tf
