"""Supply lines, supply sources and the supply phase (rulebook: "Supply")."""

from __future__ import annotations

from engine.phase import Phase


class SupplyPhase(Phase):
    name = "supply"
    kind = "auto"
