"""Re-execution of a game's history: the protocol state machine over the engine.

A :class:`Game` holds the engine state plus what the protocol tracks around
it: the hash of every accepted file, the dice chain values revealed so far and
the simultaneous decision or chance event in progress.  :func:`expected` says,
from that alone, which side must supply the next record and of what kind, so
exactly one side can author each position of the history.

Records (the content of a turn file):

    ["act", action]              one action of a sequential decision
    ["commit", H]                commitment to a hidden simultaneous action list
    ["sim", [action, ...]]       a simultaneous action list in the clear
    ["reveal", [action, ...], salt]  opening of the commitment
    ["dice", k, v]               this side's chain value for chance event k
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pbem import commit, dice, engine_link, turnfile, wire
from pbem.errors import PbemError
from pbem.rules import refusal_rule, refusal_side
from pbem.turnfile import SIDES, TurnFile, other

SNAPSHOT_LIMITS = wire.Limits(
    max_bytes=1 << 30, max_bin=1 << 30, max_str=1 << 20, max_array=1 << 22, max_items=1 << 26, max_map=64, max_depth=12
)


def _engine_call(what: str, fn: Any, *args: Any) -> Any:
    """Call the engine; its refusals and even its crashes become one line, never a traceback."""
    api = engine_link.api()
    try:
        return fn(*args)
    except api.IllegalAction as exc:
        raise PbemError(f"{what}: illegal: {exc}", "illegal", refusal_rule(exc)) from None
    except PbemError:
        raise
    except Exception as exc:  # a hostile file must not crash the receiver
        raise PbemError(f"{what}: the engine refused it ({type(exc).__name__}: {str(exc)[:120]})", "illegal") from None


def _actions(wires: list[Any], what: str) -> list[Any]:
    api = engine_link.api()
    return [_engine_call(what, api.Action.from_wire, w) for w in wires]


@dataclass
class Genesis:
    """The game's fixed parameters, read from a verified genesis file."""

    body: dict[str, Any]

    @property
    def game(self) -> str:
        return self.body["game"]

    @property
    def creator(self) -> str:
        return self.body["side"]

    def key(self, side: str) -> bytes:
        return self.body["keys"][side]


@dataclass
class Game:
    genesis: Genesis
    state: Any
    seq: int = 1
    hashes: list[bytes] = field(default_factory=list)
    k: int = 0  # chance events resolved
    chain: dict[str, bytes] = field(default_factory=dict)  # last revealed value (anchor at first)
    chain_len: dict[str, int] = field(default_factory=dict)
    last_author: str = "axis"
    last_seq: int = 1
    pending: dict[str, Any] | None = None
    log: list[str] = field(default_factory=list)  # what the last chance event did
    # What the last chance event did as engine events (pbem/report.py); not saved.
    events: list[Any] = field(default_factory=list)

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
                "pending": self.pending,
                "log": self.log,
            }
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
            d["pending"],
            d["log"],
        )

    def clone(self) -> Game:
        return Game.from_bytes(self.to_bytes())


# -- genesis and join ------------------------------------------------------------


def check_genesis(tf: TurnFile) -> Genesis:
    """Authenticate an invitation and check that this program can play it."""
    api = engine_link.api()
    if tf.type != "genesis":
        raise PbemError(f"{tf.name}: this is not a game invitation (genesis) file", "type")
    g = Genesis(tf.body)
    tf.verify_signature(g.key(tf.side))
    if tf.body["engine"] != api.ENGINE_VERSION:
        raise PbemError(
            f"{tf.name}: the game needs engine version {tf.body['engine']}, this program has {api.ENGINE_VERSION}",
            "version",
        )
    try:
        digest = api.scenario_digest(tf.body["scenario"])
    except Exception as exc:
        raise PbemError(
            f"{tf.name}: cannot load scenario '{tf.body['scenario']}' here ({type(exc).__name__})", "scenario"
        ) from None
    if digest != tf.body["digest"]:
        raise PbemError(
            f"{tf.name}: your scenario data for '{tf.body['scenario']}' differs from your opponent's "
            "(digest mismatch); both players need the same release",
            "scenario",
        )
    new_state(g)  # options the engine refuses would only surface at the join: refuse the invitation now
    return g


def new_state(g: Genesis) -> Any:
    api = engine_link.api()
    return _engine_call("new game", api.new_game, g.body["scenario"], dict(g.body["options"]))


def start(genesis_tf: TurnFile, join_tf: TurnFile) -> Game:
    """Verify the join file against genesis and set up the game at its first decision."""
    api = engine_link.api()
    g = check_genesis(genesis_tf)
    if join_tf.type != "join" or join_tf.game != g.game:
        raise PbemError(f"{join_tf.name}: not the answer to invitation {g.game}", "type")
    joiner = other(g.creator)
    if join_tf.side != joiner:
        raise PbemError(f"{join_tf.name}: the join file must come from the {joiner} player", "side")
    if join_tf.prev != genesis_tf.hash:
        raise PbemError(f"{join_tf.name}: does not follow this game's genesis file", "chain-link")
    join_tf.verify_signature(g.key(joiner))
    state = new_state(g)
    if api.state_hash(state) != join_tf.body["state"]:
        raise PbemError(
            f"{join_tf.name}: the opponent's starting position differs from yours (engine or scenario data differ)",
            "state",
        )
    game = Game(
        g,
        state,
        seq=1,
        hashes=[genesis_tf.hash, join_tf.hash],
        chain={g.creator: g.body["anchor"], joiner: join_tf.body["anchor"]},
        chain_len={g.creator: g.body["chain"], joiner: join_tf.body["chain"]},
        last_author=joiner,
        last_seq=1,
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
        sides = [s for s in SIDES if s in d.sides]
        committer = game.last_author if len(sides) == 2 else None
        game.pending = {
            "kind": "sim",
            "sides": sides,
            "committer": committer,
            "commit": None,
            "commit_seq": 0,
            "clear": None,
        }
    elif d.kind == "chance":
        game.pending = {
            "kind": "chance",
            "trigger_seq": game.last_seq,
            "trigger_author": game.last_author,
            "values": {},
        }


def expected(game: Game) -> tuple[str, str] | None:
    """(side, record kind) the history needs next, or None once the game has ended."""
    api = engine_link.api()
    d = api.decision(game.state)
    if d.kind == "end":
        return None
    if d.kind == "sequential":
        if not d.sides:
            raise PbemError(f"the engine reports a decision in {d.phase} that nobody makes", "engine")
        return d.sides[0], "act"
    p = game.pending
    if p is None:  # pragma: no cover - settle() always opens one
        raise PbemError("internal error: no protocol step open", "internal")
    if p["kind"] == "sim":
        if p["committer"] is None:
            return p["sides"][0], "sim"
        if p["commit"] is None:
            return p["committer"], "commit"
        if p["clear"] is None:
            return other(p["committer"]), "sim"
        return p["committer"], "reveal"
    first = other(p["trigger_author"])
    return (first, "dice") if first not in p["values"] else (p["trigger_author"], "dice")


def apply_record(game: Game, author: str, seq: int, rec: list[Any], where: str = "record") -> None:
    """Apply one record by ``author`` in file ``seq``; raises PbemError, leaving ``game`` unusable."""
    api = engine_link.api()
    exp = expected(game)
    if exp is None:
        raise PbemError(f"{where}: the game is already over", "order")
    side, what = exp
    kind = rec[0]
    if side != author or kind != what:
        raise PbemError(
            f"{where}: out of turn: the game awaits '{what}' from {side}, got '{kind}' from {author}", "order"
        )
    p = game.pending
    if kind == "act":
        action = _actions([rec[1]], where)[0]
        _engine_call(where, api.apply, game.state, author, action)
    elif kind == "commit":
        assert p is not None
        p["commit"], p["commit_seq"] = rec[1], seq
    elif kind == "sim":
        assert p is not None
        actions = _actions(rec[1], where)
        if p["committer"] is None:
            _resolve_sim(game, where, {author: actions, other(author): []})
        else:
            trial_list(game, author, actions, where)
            p["clear"] = rec[1]
    elif kind == "reveal":
        assert p is not None
        if not commit.matches(p["commit"], game.gid, p["commit_seq"], author, rec[1], rec[2]):
            raise PbemError(
                f"{where}: the revealed actions do not match {author}'s commitment in file "
                f"{p['commit_seq']} (protocol violation)",
                "commit",
            )
        _resolve_sim(game, where, {author: _actions(rec[1], where), other(author): _actions(p["clear"], where)})
    elif kind == "dice":
        assert p is not None
        k = game.k + 1
        if rec[1] != k:
            raise PbemError(f"{where}: dice value for event {rec[1]}, but event {k} is being rolled", "chain")
        if not dice.check_reveal(game.chain[author], rec[2]):
            raise PbemError(
                f"{where}: {author}'s dice value does not hash to its previous chain value (protocol violation)",
                "chain",
            )
        game.chain[author] = rec[2]
        p["values"][author] = rec[2]
        if len(p["values"]) == 2:
            seed = dice.seed(game.gid, k, game.hashes[p["trigger_seq"]], p["values"]["axis"], p["values"]["allies"])
            game.pending = None
            game.k = k
            game.events = list(_engine_call(where, api.apply_chance_events, game.state, seed))
            game.log = [api.event_text(game.state, e) for e in game.events]
    game.last_author, game.last_seq = author, seq
    settle(game)


def trial_list(game: Game, side: str, actions: list[Any], where: str) -> None:
    """Refuse a simultaneous list that the rules reject on its own, before it is bound.

    The list in the clear is tried at once (the opponent's list as empty, its complaints
    ignored), so that an illegal list is blamed on its sender, not discovered at the reveal.
    """
    api = engine_link.api()
    trial = game.clone()
    sides = (game.pending or {}).get("sides") or list(SIDES)
    try:
        api.apply_simultaneous(trial.state, {s: actions if s == side else [] for s in sides})
    except api.IllegalAction as exc:
        if refusal_side(exc) == side:  # the engine says whose list it refuses
            raise PbemError(f"{where}: illegal: {exc}", "illegal", refusal_rule(exc)) from None
    except Exception as exc:
        raise PbemError(f"{where}: the engine refused it ({type(exc).__name__}: {str(exc)[:120]})", "illegal") from None


def _resolve_sim(game: Game, where: str, lists: dict[str, list[Any]]) -> None:
    api = engine_link.api()
    sides = game.pending["sides"] if game.pending else list(SIDES)
    game.pending = None
    _engine_call(where, api.apply_simultaneous, game.state, {s: lists[s] for s in sides})


def apply_turn(game: Game, tf: TurnFile, watch: Callable[[Game, list[Any]], None] | None = None) -> None:
    """Verify ``tf`` as the next file of ``game`` by re-executing it; mutates ``game``.
    ``watch`` is called before each record (the game log notes what each one changed).

    On error ``game`` is left half-applied: callers work on a copy.
    """
    api = engine_link.api()
    name = tf.name
    if tf.game != game.gid:
        raise PbemError(f"{name}: belongs to game {tf.game}, not {game.gid}", "game")
    if tf.type != "turn":
        raise PbemError(f"{name}: a {tf.type} file cannot continue a game in progress", "type")
    tf.verify_signature(game.genesis.key(tf.side))
    if tf.seq != game.seq + 1:
        raise PbemError(f"{name}: expected file {game.seq + 1}, this is file {tf.seq}", "sequence")
    if tf.prev != game.hashes[-1]:
        raise PbemError(f"{name}: does not follow file {game.seq} of this game (previous-hash mismatch)", "chain-link")
    for i, rec in enumerate(tf.body["records"], 1):
        if watch is not None:
            watch(game, rec)
        apply_record(game, tf.side, tf.seq, rec, f"{name}: record {i}")
    if api.state_hash(game.state) != tf.body["state"]:
        raise PbemError(
            f"{name}: after re-executing it the game state differs from the sender's (state hash "
            "mismatch: different engine, scenario data or a modified program)",
            "state",
        )
    game.seq = tf.seq
    game.hashes.append(tf.hash)


def build_turn(
    game: Game, side: str, records: list[list[Any]], sign: Any, watch: Callable[[Game, list[Any]], None] | None = None
) -> TurnFile:
    """Apply my ``records`` to ``game`` and seal them as the next file (mutates ``game``);
    ``watch`` as for :func:`apply_turn`."""
    seq = game.seq + 1
    for i, rec in enumerate(records, 1):
        turnfile.validate_record(rec)
        if watch is not None:
            watch(game, rec)
        apply_record(game, side, seq, rec, f"my record {i}")
    return seal_turn(game, side, records, sign)


def seal_turn(game: Game, side: str, records: list[list[Any]], sign: Any) -> TurnFile:
    """Seal ``records``, already applied to ``game`` as file ``game.seq + 1``, into a signed file."""
    api = engine_link.api()
    seq = game.seq + 1
    body = {
        "v": turnfile.VERSION,
        "type": "turn",
        "game": game.gid,
        "seq": seq,
        "prev": game.hashes[-1],
        "side": side,
        "records": records,
        "state": api.state_hash(game.state),
    }
    tf = turnfile.seal(body, sign)
    game.seq = seq
    game.hashes.append(tf.hash)
    return tf
