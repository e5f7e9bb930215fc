"""Income, money exchange and unit builds (rulebook: "Money", "Buying Units")."""

from __future__ import annotations

from engine.phase import Phase


class Income(Phase):
    name = "income"
    kind = "simultaneous"
    prompt = "send money to partners, or pass"


class Build(Phase):
    name = "build"
    kind = "simultaneous"
    prompt = "buy units and repair damaged units"
