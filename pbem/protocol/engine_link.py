"""The one place pbem reaches the rules engine (engine.api, engine.ai, engine.ai.arena).

Protocol unit tests swap in a small deterministic double with the same
interface through :func:`use`; everything else calls :func:`api` / :func:`ai` /
:func:`arena` (tests/test_import_graph.py keeps it the only door).
"""

from __future__ import annotations

import importlib
from typing import cast

from pbem.errors import PbemError
from pbem.protocol.rules import Arena, Engine, Player

_api: Engine | None = None
_ai: Player | None = None
_arena: Arena | None = None


def use(api_module: object | None, ai_module: object | None = None) -> None:
    """Replace the engine (tests only; a module of the shape of ``RulesEngine``, checked by
    test_engine_shape.py); ``None`` restores the real one."""
    global _api, _ai
    _api, _ai = cast(Engine | None, api_module), cast(Player | None, ai_module)


def _load(name: str, what: str) -> object:
    try:
        return importlib.import_module(f"engine.{name}")
    except ImportError as exc:
        raise PbemError(f"{what} is not available (engine.{name}: {exc})", "engine") from None


def api() -> Engine:
    global _api
    if _api is None:
        # Loaded by name so the tests can put the stand-in in its place; the stand-in and
        # the engine are both checked against RulesEngine by mypy (test_engine_shape.py),
        # each with its own state, action and event types, which pbem holds opaquely.
        _api = cast(Engine, _load("api", "the rules engine"))
    return _api


def ai() -> Player:
    global _ai
    if _ai is None:
        _ai = cast(Player, _load("ai", "the computer player"))
    return _ai


def arena() -> Arena:
    """Computer players against each other (``pbem arena``), checked against ArenaShape by
    mypy (test_engine_shape.py); no test puts a stand-in in its place."""
    global _arena
    if _arena is None:
        _arena = cast(Arena, _load("ai.arena", "the arena"))
    return _arena
