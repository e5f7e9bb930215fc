"""A whole game played by the computer in memory, producing real signed files.

No store and no disk: both identities are derived from a seed.  Benchmarks and
quick checks of the real engine use it; ``pbem selfplay`` is the end-to-end
version with two workspaces.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from pbem.protocol import clock, commit, deadlines, dice, engine_link, machine, replay, turnfile
from pbem.protocol.machine import Game
from pbem.protocol.records import Act, Commit, Dice, Record, Reveal, Sim
from pbem.protocol.turnfile import SIDES, TurnFile, other
from pbem.store import keys


def _d(seed: int, what: str) -> bytes:
    return hashlib.sha256(f"pbem/memplay/v1/{seed}/{what}".encode()).digest()


class MemoryMatch:
    def __init__(
        self,
        scenario: str,
        seed: int = 1,
        creator: str = "axis",
        chain: int = dice.DEFAULT_LENGTH,
        player: str = "bot",
        options: dict[str, object] | None = None,
    ) -> None:
        api = engine_link.api()
        self.seed, self.player = seed, player
        self.ids = {
            s: keys.Identity(f"{s}-bot", "", Ed25519PrivateKey.from_private_bytes(_d(seed, f"key/{s}"))) for s in SIDES
        }
        self.gid = _d(seed, "game")[:6].hex()
        self.secret = {s: _d(seed, f"dice/{s}") for s in SIDES}
        self.chain = chain
        self.commits: dict[int, list[Any]] = {}
        joiner = other(creator)
        g = {
            "v": 1,
            "type": "genesis",
            "game": self.gid,
            "seq": 0,
            "prev": bytes(32),
            "side": creator,
            "scenario": scenario,
            "digest": api.scenario_digest(scenario),
            "engine": api.ENGINE_VERSION,
            "options": dict(options or {}),
            "keys": {s: self.ids[s].public.raw for s in SIDES},
            "names": {s: self.ids[s].name for s in SIDES},
            "emails": {s: "" for s in SIDES},
            "anchor": dice.anchor(self.secret[creator], chain),
            "chain": chain,
        }
        genesis = turnfile.seal(g, self.ids[creator].sign)
        state = machine.new_state(machine.Genesis(genesis.body))
        j = {
            "v": 1,
            "type": "join",
            "game": self.gid,
            "seq": 1,
            "prev": genesis.hash,
            "side": joiner,
            "anchor": dice.anchor(self.secret[joiner], chain),
            "chain": chain,
            "state": api.state_hash(state),
        }
        if options and clock.terms(options) is not None:
            j["time"] = clock.now()
        join = turnfile.seal(j, self.ids[joiner].sign)
        self.game: Game = replay.replay([genesis, join])
        self.files: list[TurnFile] = [genesis, join]

    def _salt(self, side: str, seq: int) -> bytes:
        return _d(self.seed, f"salt/{side}/{seq}")

    def chain_value(self, side: str) -> Callable[[int], bytes]:
        """``side``'s dice-chain value ``v[i]`` (a roll's, or a final claim's)."""
        return lambda i: dice.value(self.secret[side], self.chain, i)

    def claim(self, side: str) -> TurnFile:
        """``side`` claims its opponent's missed deadline (the time is the clock's)."""
        tf = deadlines.seal_claim(self.game, side, self.ids[side].sign, self.chain_value(side))
        self.files.append(tf)
        return tf

    def step(self) -> TurnFile | None:
        """The side to act writes its next file; None once the game is over."""
        ai = engine_link.ai()
        game = self.game
        exp = machine.expected(game)
        if exp is None:
            return None
        side, seq = exp.side, game.seq + 1
        records: list[Record] = []
        while (exp := machine.expected(game)) is not None and exp.side == side:
            kind = exp.kind
            recs: list[Record]
            if kind == "dice":
                k = game.k + 1 - game.chain_base.get(side, 0)  # a side handed over counts anew
                recs = [Dice(game.k + 1, dice.value(self.secret[side], self.chain, k))]
            elif kind == "reveal":
                assert isinstance(game.pending, machine.SimStep)
                cs = game.pending.commit_seq
                recs = [Reveal(self.commits[cs], self._salt(side, cs))]
            else:
                bot_seed = _d(self.seed, f"bot/{side}/{seq}/{len(records)}")
                actions = [a.to_wire() for a in ai.decide(game.state, side, bot_seed, player=self.player)]
                if kind == "commit":
                    self.commits[seq] = actions
                    recs = [Commit(commit.commitment(self.gid, seq, side, actions, self._salt(side, seq)))]
                elif kind == "sim":
                    recs = [Sim(actions)]
                else:
                    recs = [Act(a) for a in actions]
                    if not recs:
                        raise RuntimeError(f"the computer player gave no action in {exp}")
            for rec in recs:
                machine.apply_record(game, side, seq, rec, "memplay")
                records.append(rec)
                e = machine.expected(game)
                if kind == "act" and e != machine.Expectation(side, "act"):
                    break
        tf = machine.seal_turn(game, side, records, self.ids[side].sign)
        self.files.append(tf)
        return tf

    def play(self, until: Callable[[Game], bool], max_files: int = 100_000) -> list[TurnFile]:
        for _ in range(max_files):
            if until(self.game) or self.step() is None:
                break
        return self.files
