"""The real engine and the protocol tests' stand-in have the shape pbem relies on.

mypy checks the assignments below against :class:`pbem.protocol.rules.RulesEngine`,
:class:`pbem.protocol.rules.ComputerPlayer` and :class:`pbem.protocol.rules.ArenaShape` (`.ci/run`
type-checks this file), so none can drift from what pbem calls; the test checks the same
names at run time.
"""

from __future__ import annotations

import engine.ai
import engine.ai.arena
from engine import api
from pbem.protocol.rules import ArenaShape, ComputerPlayer, RulesEngine, WorldMap
from tests.protocol import fakeengine

REAL: RulesEngine[api.GameState, api.Action, api.Event, api.Snapshot, api.WorldMap] = api
FAKE: RulesEngine[fakeengine.State, fakeengine.Action, fakeengine.Event, fakeengine.State, WorldMap] = fakeengine
REAL_AI: ComputerPlayer[api.GameState, api.Action] = engine.ai
FAKE_AI: ComputerPlayer[fakeengine.State, fakeengine.Action] = fakeengine.ai
REAL_ARENA: ArenaShape[api.GameState, api.Action] = engine.ai.arena


def test_both_engines_have_every_name_pbem_calls() -> None:
    wanted = {n for n in dir(RulesEngine) if not n.startswith("_")}
    for name, implementation in (("engine.api", REAL), ("the stand-in", FAKE)):
        missing = sorted(n for n in wanted if not hasattr(implementation, n))
        assert missing == [], f"{name} lacks {missing}"
    for player in (REAL_AI, FAKE_AI):
        assert callable(player.decide)
    assert callable(REAL_ARENA.run) and callable(REAL_ARENA.compare)
