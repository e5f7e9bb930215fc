"""The one place pbem reaches the rules engine (engine.api, engine.ai).

Protocol unit tests swap in a small deterministic double with the same
interface through :func:`use`; everything else calls :func:`api` / :func:`ai`.
"""

from __future__ import annotations

from types import ModuleType

from pbem.errors import PbemError

_api: ModuleType | None = None
_ai: ModuleType | None = None


def use(api_module: ModuleType | None, ai_module: ModuleType | None = None) -> None:
    """Replace the engine (tests only); ``None`` restores the real one."""
    global _api, _ai
    _api, _ai = api_module, ai_module


def api() -> ModuleType:
    global _api
    if _api is None:
        try:
            from engine import api as module
        except ImportError as exc:
            raise PbemError(f"the rules engine is not available (engine.api: {exc})", "engine") from None
        _api = module
    return _api


def ai() -> ModuleType:
    global _ai
    if _ai is None:
        try:
            from engine import ai as module
        except ImportError as exc:
            raise PbemError(f"the computer player is not available (engine.ai: {exc})", "engine") from None
        _ai = module
    return _ai
