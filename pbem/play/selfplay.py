"""Two computer players, each with its own identity and workspace, exchanging real signed files.

Nothing is shared between the two players but the files: each has a private
identity directory and a workspace, every file is imported (and therefore
verified by re-execution) by its receiver, and every file is copied to ``out``.
Keys, game id and bot seeds are derived from ``seed`` so a run is reproducible.
"""

from __future__ import annotations

import hashlib
import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from pbem.errors import PbemError
from pbem.play import exchange, games, status, turn
from pbem.protocol import machine
from pbem.protocol.turnfile import SIDES, other
from pbem.protocol.words import phase_name
from pbem.store import keys
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace


@dataclass
class Player:
    side: str
    home: Path
    ws: Workspace
    sent: set[str] = field(default_factory=set)


@dataclass
class SelfplayResult:
    game_id: str
    files: int
    rolls: int
    date: str
    phase: str
    over: bool


def _derived(seed: int, what: str, n: int = 32) -> bytes:
    return hashlib.sha256(f"pbem/selfplay/v1/{seed}/{what}".encode()).digest()[:n]


def selfplay(
    scenario: str,
    until: str | None,
    seed: int,
    out: Path,
    log: Callable[[str], None] = lambda s: None,
    max_files: int = 100_000,
    progress: Callable[[str], None] = lambda s: None,
    root: Path | None = None,
    react: bool = False,
    retreat: Mapping[str, str] | None = None,
    player: str = "bot",
) -> SelfplayResult:
    """Two computer players exchange real signed files until ``until`` begins; with ``react``
    each also gives reaction orders (`pbem react --intercept bot --land bot`, and ``--retreat``
    with the side's order in ``retreat``, if any) once it holds the game.  ``player`` names the
    computer player of both sides (``bot``, or the frozen reference ``v1``).
    ``log`` hears a line per file, ``progress`` the file, month and phase reached."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="pbem-selfplay-", dir=root) as tmp:
        base = Path(tmp)
        players = {}
        for side in SIDES:
            p = Player(side, base / f"home-{side}", Workspace(base / f"ws-{side}"))
            keys.keygen(f"{side}-bot", directory=p.home, seed=_derived(seed, f"key/{side}"))
            players[side] = p
        axis, allies = players["axis"], players["allies"]
        opponent = keys.read_public_key(allies.home / "allies-bot.pub")
        gid, _ = games.new_game(
            axis.ws, scenario, "axis", "axis-bot", opponent, home=axis.home, gid=_derived(seed, "game", 6).hex()
        )
        files = _collect(axis, out)
        games.join(allies.ws, out / files[0], "allies-bot", home=allies.home)
        count = len(files)  # the join file is delivered by the loop below
        log(f"game {gid}: {scenario}, seed {seed}")
        for _ in range(max_files):
            progressed = False
            for side in SIDES:
                me, them = players[side], players[other(side)]
                # Deliver what the opponent sent; the receiver verifies every file.
                for name in _collect(them, out):
                    res = exchange.import_file(me.ws.root, out / name, home=me.home)
                    if res.status not in ("applied", "duplicate"):
                        raise PbemError(f"selfplay: {side} did not accept {name}: {res.message}", "selfplay")
                    count += 1
                    progressed = True
                lg = LocalGame(me.ws, gid, me.home)
                game = lg.game()
                if game is None:
                    continue
                if react and "reactions" not in lg.meta:
                    turn.react(me.ws, gid, home=me.home, intercept="bot", land="bot", retreat=(retreat or {}).get(side))
                    lg = LocalGame(me.ws, gid, me.home)
                if _done(game, until):
                    # The import may have made my last file (an automatic answer that ends
                    # the game): the record needs it, or it stops one file short of the end.
                    count += sum(len(_collect(p, out)) for p in players.values())
                    return _result(gid, count, game)
                exp = machine.expected(turn.my_turn(lg).work)
                if exp is not None and exp.side == side:
                    path = turn.bot_play(me.ws, gid, home=me.home, player=player, ahead=True)
                    played = lg.game()
                    log(f"{path.name}: {status.status_line(lg, played)}")
                    if played is not None:
                        progress(f"selfplay: file {played.seq}, {_when(played)}")
                    progressed = True
            if not progressed:
                game = LocalGame(axis.ws, gid, axis.home).game()
                assert game is not None
                if machine.expected(game) is None:
                    return _result(gid, count, game)
                raise PbemError(f"selfplay: stuck at file {game.seq} ({machine.expected(game)})", "selfplay")
        raise PbemError("selfplay: too many files", "selfplay")


def _collect(p: Player, out: Path) -> list[str]:
    """New files in a player's outbox, copied into ``out`` in sequence order."""
    new = sorted(f.name for f in p.ws.outbox.glob("*.pbem") if f.name not in p.sent)
    for name in new:
        shutil.copy(p.ws.outbox / name, out / name)
        p.sent.add(name)
    return new


def _done(game: machine.Game, until: str | None) -> bool:
    """Over, or the month ``until`` (``YYYY-MM``, which orders as text) has begun."""
    from pbem.protocol import engine_link

    if machine.expected(game) is None:
        return True
    return until is not None and engine_link.api().decision(game.state).when >= until


def _when(game: machine.Game) -> str:
    """The month and phase of ``game``, for people: ``1939-10 Axis combat``."""
    from pbem.protocol import engine_link

    d = engine_link.api().decision(game.state)
    return f"{d.when} {phase_name(d.phase)}"


def _result(gid: str, files: int, game: machine.Game) -> SelfplayResult:
    from pbem.protocol import engine_link

    d = engine_link.api().decision(game.state)
    return SelfplayResult(
        gid,
        files,
        game.k,
        d.when,
        d.phase,
        machine.expected(game) is None,
    )
