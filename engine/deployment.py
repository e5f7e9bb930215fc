"""The deployment phase: placing units, merging and splitting, installations
(rulebook: "Game Sequence", "Strength Points"; supplement: "Placement", "Installations and repairs")."""

from __future__ import annotations

from engine.phase import Phase


class Deployment(Phase):
    name = "deployment"
    kind = "simultaneous"
    prompt = "place new units, merge or split units, build fortifications and airfields"
