"""Land combat and overrun (rulebook: "Combat"; supplement: "Combat mathematics")."""

from __future__ import annotations

from engine.phase import Phase


class Overrun(Phase):
    name = "overrun"
    prompt = "declare overrun attacks with armor, or pass"


class OverrunRoll(Phase):
    name = "overrun_roll"
    kind = "chance"


class Combat(Phase):
    name = "combat"
    prompt = "declare attacks, or pass"


class CombatRoll(Phase):
    name = "combat_roll"
    kind = "chance"


class Advance(Phase):
    name = "advance"
    prompt = "advance into hexes emptied by your attacks, or pass"
