"""The one place pbem reaches the rules engine (engine.api, engine.ai).

Protocol unit tests swap in a small deterministic double with the same
interface through :func:`use`; everything else calls :func:`api` / :func:`ai`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from pbem.errors import PbemError

_api: ModuleType | None = None
_ai: ModuleType | None = None


def use(api_module: ModuleType | None, ai_module: ModuleType | None = None) -> None:
    """Replace the engine (tests only); ``None`` restores the real one."""
    global _api, _ai
    _api, _ai = api_module, ai_module


def _load(name: str, what: str) -> ModuleType:
    try:
        return importlib.import_module(f"engine.{name}")
    except ImportError as exc:
        raise PbemError(f"{what} is not available (engine.{name}: {exc})", "engine") from None


def api() -> ModuleType:
    global _api
    if _api is None:
        _api = _load("api", "the rules engine")
    return _api


def ai() -> ModuleType:
    global _ai
    if _ai is None:
        _ai = _load("ai", "the computer player")
    return _ai
