"""Search limits of the bot, fixed by the caller's time budget.

The budget never meets a clock: it is translated once into fixed numbers (how
many candidate destinations a unit considers, how many attacks are weighed...),
so the same call always makes the same choices on any machine.  A smaller budget
gives a weaker but faster player.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    #: candidate destinations weighed per unit and movement
    moves_per_unit: int = 24
    #: units the movement policy handles per phase (the rest stay put)
    units_per_phase: int = 400
    #: attacks weighed per combat phase
    attacks: int = 120
    #: rejected proposals tolerated before a policy gives up on a phase
    refusals: int = 200

    @classmethod
    def for_budget(cls, budget_s: float | None, search: float = 1.0) -> Limits:
        """The limits a budget gives, every one scaled by ``search`` (a player's size of search)."""
        if budget_s is None or budget_s >= 5.0:
            limits = cls()
        elif budget_s >= 1.0:
            limits = cls(moves_per_unit=12, units_per_phase=200, attacks=60, refusals=100)
        else:
            limits = cls(moves_per_unit=4, units_per_phase=60, attacks=20, refusals=30)
        return limits.scaled(search) if search != 1.0 else limits

    def scaled(self, factor: float) -> Limits:
        """Every limit times ``factor``, at least one."""
        n = self.moves_per_unit, self.units_per_phase, self.attacks, self.refusals
        return Limits(*(max(1, round(x * factor)) for x in n))
