"""The one place pbem reaches the rules engine (engine.api, engine.ai).

Protocol unit tests swap in a small deterministic double with the same
interface through :func:`use`; everything else calls :func:`api` / :func:`ai`.
"""

from __future__ import annotations

import importlib
from typing import cast

from pbem.errors import PbemError
from pbem.protocol.rules import ComputerPlayer, RulesEngine

_api: RulesEngine | None = None
_ai: ComputerPlayer | None = None


def use(api_module: RulesEngine | None, ai_module: ComputerPlayer | None = None) -> None:
    """Replace the engine (tests only); ``None`` restores the real one."""
    global _api, _ai
    _api, _ai = api_module, ai_module


def _load(name: str, what: str) -> object:
    try:
        return importlib.import_module(f"engine.{name}")
    except ImportError as exc:
        raise PbemError(f"{what} is not available (engine.{name}: {exc})", "engine") from None


def api() -> RulesEngine:
    global _api
    if _api is None:
        # Loaded by name so the tests can put the stand-in in its place; the stand-in and
        # the engine are both checked against RulesEngine by mypy (test_engine_shape.py).
        _api = cast(RulesEngine, _load("api", "the rules engine"))
    return _api


def ai() -> ComputerPlayer:
    global _ai
    if _ai is None:
        _ai = cast(ComputerPlayer, _load("ai", "the computer player"))
    return _ai
