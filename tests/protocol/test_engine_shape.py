"""The real engine and the protocol tests' stand-in have the shape pbem relies on.

mypy checks the two assignments below against :class:`pbem.protocol.rules.RulesEngine` and
:class:`pbem.protocol.rules.ComputerPlayer` (`.ci/run` type-checks this file), so neither can
drift from what pbem calls; the test checks the same names at run time.
"""

from __future__ import annotations

import engine.ai
from engine import api
from pbem.protocol.rules import ComputerPlayer, RulesEngine
from tests.protocol import fakeengine

REAL: RulesEngine[api.GameState, api.Action, api.Event, api.Snapshot] = api
FAKE: RulesEngine[fakeengine.State, fakeengine.Action, fakeengine.Event, fakeengine.State] = fakeengine
REAL_AI: ComputerPlayer[api.GameState, api.Action] = engine.ai
FAKE_AI: ComputerPlayer[fakeengine.State, fakeengine.Action] = fakeengine.ai


def test_both_engines_have_every_name_pbem_calls() -> None:
    wanted = {n for n in dir(RulesEngine) if not n.startswith("_")}
    for name, implementation in (("engine.api", REAL), ("the stand-in", FAKE)):
        missing = sorted(n for n in wanted if not hasattr(implementation, n))
        assert missing == [], f"{name} lacks {missing}"
    for player in (REAL_AI, FAKE_AI):
        assert callable(player.decide)
