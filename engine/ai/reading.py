"""Reading actions by the roles of their arguments.

The bot proposes actions it found in :func:`engine.api.legal_actions` and has to
know what each one is about: which unit, which hex, which country.  The action
kinds declare their argument roles (:data:`engine.actions.KINDS`), so these
helpers read any kind the same way instead of hard-coding argument positions.
"""

from __future__ import annotations

from engine.actions import KINDS, Action


def _roles(action: Action) -> list[str]:
    spec = KINDS.get(action.kind)
    if spec is None:
        return []
    try:
        return spec.roles_for(len(action.args))
    except (ValueError, IndexError):
        return []


def args_of(action: Action, role: str) -> list[int | str | bool]:
    return [a for a, r in zip(action.args, _roles(action), strict=False) if r == role]


def units(action: Action) -> list[int]:
    return [int(a) for a in args_of(action, "unit")]


def unit(action: Action) -> int | None:
    found = units(action)
    return found[0] if found else None


def hexes(action: Action) -> list[int]:
    return [int(a) for a in args_of(action, "hex")]


def target_hex(action: Action) -> int | None:
    """The hex an action is aimed at: its last hex argument (a move's destination)."""
    found = hexes(action)
    return found[-1] if found else None


def country(action: Action) -> str | None:
    found = args_of(action, "country")
    return str(found[0]) if found else None


def ints(action: Action) -> list[int]:
    return [int(a) for a in args_of(action, "int")]


def strs(action: Action) -> list[str]:
    return [str(a) for a in args_of(action, "str")]


def bools(action: Action) -> list[bool]:
    return [bool(a) for a in args_of(action, "bool")]
