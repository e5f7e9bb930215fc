"""Sub-phases whose rules arrive with the air and sea war: they exist in the
sequence so later rules slot in, and pass automatically for now."""

from __future__ import annotations

from engine.phase import Phase


class Interception(Phase):
    name = "interception"

    def needed(self, state, side):  # type: ignore[no-untyped-def]
        return False


class Amphibious(Phase):
    name = "amphibious"

    def needed(self, state, side):  # type: ignore[no-untyped-def]
        return False
