"""The switches that set the heuristic players apart.

``v1`` is the bot as it stood when it was frozen as the reference player every
improvement is measured against: every switch off.  ``bot`` has the improvements made
since.  One code path with switches, rather than a copy of the bot, keeps ``v1``
playable without two bots to maintain; a switch's off side must keep v1's decisions
exactly (tests/ai/test_reference.py pins them).

``gentle`` and ``deep`` are the ends of the ladder of levels (:data:`engine.ai.LEVELS`):
``gentle`` is ``v1`` with handicaps a person sees (attacks only at high odds, no landings,
half the builds, a quarter of the search), ``deep`` is ``bot`` with twice the search.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True, slots=True)
class Style:
    #: keep capitals and home cities held against the enemy land units that could reach them
    garrisons: bool = True
    #: place the free supply units at a deployment with the front stacks (v1 left them in the pool)
    supply_units: bool = True
    #: an empty capital an enemy could reach gets a unit before anything else moves
    capital_guard: bool = True
    #: until the Pacific war, Japan's transports shuttle between home ports and the
    #: mainland, several trips a movement, before any landing may take them, and its home
    #: islands keep no garrison against an enemy without transports (:func:`engine.ai.ferry.shuttle`)
    shuttle: bool = True
    #: land attacks are chosen by the exchange the combat model expects (from odds of 1,
    #: where the attackers can no longer be wiped out), not by fixed odds per situation
    #: (:data:`engine.ai.attack.EXCHANGE`)
    model_odds: bool = True
    #: an amphibious assault or paradrop is made only where the chance that its units
    #: hold the hex through the enemy's next turn is at least 70 % (:func:`engine.ai.landings.hold_chance`)
    sure_landings: bool = True
    #: the builds spend down to what the pool can take, keeping no reserve of
    #: :data:`engine.ai.economy.HOARD`, and buy every unit of the pool money buys (v1 never
    #: bought bomber transports)
    spend_all: bool = True
    #: the Axis masses on the Soviet border from February 1941 and declares war once its
    #: strength there matches the Soviet strength expected to face it, June 1941 still the
    #: latest month (:mod:`engine.ai.barbarossa`)
    ready_offensives: bool = True
    #: once at war with the Soviet Union the Axis drives at one Soviet city at a time (its
    #: main effort, :func:`engine.ai.barbarossa.effort_city`), and every Soviet hex is at
    #: stake for its attacks
    eastern_effort: bool = True
    #: capitals are held ahead of the threat: every capital within a move of land not ours
    #: (where the enemy may place units, or a neutral enter the war) keeps a unit, placed
    #: there at the deployment or sent by the guard, and whose last unit does not advance
    #: after combat (:func:`engine.ai.garrison.endangered`)
    capitals_ahead: bool = True
    #: the Allies drive at a few enemy-held cities at a time, each where their land strength
    #: is massed and outweighs the enemy's around it, every enemy hex near one at stake for
    #: their attacks (:func:`engine.ai.counter.effort_cities`)
    allied_effort: bool = True
    #: a ferry port's garrison is the weakest unit that makes it alone, where there is one,
    #: so the port's other unit sails (:func:`engine.ai.ferry.spare`); v1 kept the weakest
    #: added up, which kept both units of a 2 and a 4, and Britain shipped nobody from 1940
    ferry_flow: bool = True
    #: a ferry lands its unit near an enemy city that is thinly held and not yet outweighed
    #: by ours, sailing further for it than for the nearest front (:mod:`engine.ai.theatres`),
    #: and an empty outpost a ferry reaches this movement gets a garrison (Gibraltar, Malta:
    #: :func:`engine.ai.ferry.outposts`)
    theatres: bool = True
    #: marines lead the landings: a marine in a port that stages landings stays there for
    #: one (a landing with a marine succeeds three times in four, enough to hold at
    #: :data:`engine.ai.landings.SURE`; without, half the time), and the ferries carry
    #: marines from land without a front to a staging port that has none
    #: (:func:`engine.ai.ferry.spearheads`); v1's marines sailed to the fronts as infantry
    spearheads: bool = True
    #: the atomic aircraft makes for the country whose bomb is worth most per month of
    #: flights to get there, not the one worth most wherever it is
    #: (:func:`engine.ai.air_war.base_ranks`): the last Axis countries stood for a year
    #: while the aircraft crossed the world and back
    bomb_nearest: bool = True
    #: Britain's transports shuttle like Japan's (:func:`engine.ai.ferry.shuttle`): from a
    #: British port with spare units to a shore of ours joined to a front within a short
    #: crossing, several trips a movement (a beachhead across the Channel fills in a month)
    channel: bool = True
    #: the Axis declares war on Vichy France in the month after its creation (Case Anton):
    #: France comes back as an Allied country with no army, pool or money (all lost at the
    #: creation), so its cities of the south (Bordeaux, Lyon, Marseille, Toulon) are the
    #: Axis' for a march (:func:`engine.ai.declare.anton_due`); v1 left them to Vichy
    anton: bool = True
    #: the lowest combat ratio of any attack or overrun (0: the bot's own thresholds alone)
    min_odds: float = 0.0
    #: amphibious assaults are made (off: the side never lands on an enemy shore)
    landings: bool = True
    #: the share of each country's money its builds of land units may spend
    build_share: float = 1.0
    #: the size of the search, as a factor on the limits the budget gives (engine/ai/limits.py)
    search: float = 1.0


#: The latest bot: every switch on.
LATEST = Style()
#: The bot as frozen for reference.
V1 = Style(
    garrisons=False,
    supply_units=False,
    capital_guard=False,
    shuttle=False,
    model_odds=False,
    sure_landings=False,
    spend_all=False,
    ready_offensives=False,
    eastern_effort=False,
    capitals_ahead=False,
    allied_effort=False,
    ferry_flow=False,
    theatres=False,
    spearheads=False,
    bomb_nearest=False,
    channel=False,
    anton=False,
)
#: The heuristic players by name.
STYLES: dict[str, Style] = {
    "bot": LATEST,
    "v1": V1,
    "gentle": replace(V1, min_odds=2.5, landings=False, build_share=0.5, search=0.25),
    "deep": replace(LATEST, search=2.0),
}
