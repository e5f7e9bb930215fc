"""War declaration, entry into the war, conquest, liberation and victory
(rulebook: "War Declaration, Conquest and Liberation", "Victory Conditions")."""

from __future__ import annotations

from engine.phase import Phase


class WarDeclaration(Phase):
    name = "war_declaration"
    kind = "simultaneous"
    prompt = "declare war on neutral countries, or pass"
