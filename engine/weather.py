"""Weather zones and conditions by month, and grounding of air units (rulebook: "Weather")."""

from __future__ import annotations

from engine.phase import Phase


class WeatherRoll(Phase):
    """Which weather zones ground air units next month (rolled at the end of the supply phase)."""

    name = "weather"
    kind = "chance"
