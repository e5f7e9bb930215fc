"""The uniformly random legal player (a yardstick for the arena).

It draws uniformly from the legal actions of its working copy, ``pass``
included, until it draws ``pass``, the batch hands control on, or a cap is
reached.  Listing the legal actions can be costly (a deployment lists every
hex for every unit), so the list is refreshed after every few accepted actions
rather than after each one (every 20); drawn actions are still checked one by one by the
batch, so a stale list can only cost a refused draw, never an illegal action.
"""

from __future__ import annotations

from engine.actions import Action
from engine.ai.batch import Batch, finish
from engine.ai.seeding import stream
from engine.state import GameState

#: At most this many actions (besides the closing pass) in one decision.
MAX_ACTIONS = 40
#: Accepted actions between two listings of the legal actions (listing every legal move
#: searches every unit, ships and aircraft included: the dominant cost of this player).
REFRESH = 20
#: Refused draws tolerated in one decision.
MAX_MISSES = 30


def decide(state: GameState, side: str, seed: bytes, max_actions: int = MAX_ACTIONS) -> list[Action]:
    batch = Batch(state, side)
    rng = stream(seed, "random", side, state.date, state.step)
    legal = batch.legal()
    fresh = misses = 0
    while not batch.closed and len(batch.actions) < max_actions and legal and misses < MAX_MISSES:
        action = legal.pop(rng.below(len(legal)))
        if action.kind == "pass":
            break
        if not batch.offer(action):
            misses += 1
            continue
        fresh += 1
        if fresh >= REFRESH:
            legal, fresh = batch.legal(), 0
    return finish(batch)
