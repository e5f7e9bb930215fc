"""What the play page asks, answered from the engine and the game store as plain data.

Every answer about the rules is the engine's: the legal orders (``legal_matching``, the
same search as ``pbem legal``), a hex and the odds of an attack (``hex_report``), the
map (``board`` drawn by the renderer of ``pbem map``).  Orders go through the same
functions as ``pbem orders``, ``pbem undo``, ``pbem send`` and ``pbem suggest``, so the
page can do nothing the command line refuses, and a refusal reads the same.

Nothing secret is in an answer: no key, no passphrase, no turn file; reports are the
ones ``pbem log`` prints, which hold a sealed list only as "seals their orders".
"""

from __future__ import annotations

import hashlib
import os
import shlex
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pbem.errors import PbemError
from pbem.play import ahead_entry, gamemap, history, reactions, rules_reference, since, solo, turn
from pbem.play.status import Standing, against, awaited, standing_of
from pbem.protocol import engine_link, machine, words
from pbem.protocol.machine import Game
from pbem.protocol.rules import Action, Board, Grid, OrderKind, State, WorldMap, refusal_rule
from pbem.protocol.turnfile import TurnFile
from pbem.store.localgame import LocalGame
from pbem.store.store import Workspace
from pbem.web.timeline import Timeline
from scenarios import gameview

#: more orders than a person can read: the page is told how many were left out
MAX_LISTED = 20_000
#: the orders that attack the hex they name first (drawn as attacks on the map)
ATTACKS = frozenset({"attack", "overrun", "naval", "bomb", "bomb_ships", "kamikaze", "atomic", "assault"})
#: the orders that place a unit waiting to be placed
PLACING = ("place", "place_land")
#: refusals of a move after which no other order takes the unit to the hex dropped on
NOT_MOVED = frozenset({"movement.already-there", "unit.not-yours", "unit.unknown"})
#: where the page gives the orders of the step now (a step given ahead may have become it)
HOW_NOW = "under My turn"


@dataclass(frozen=True)
class Filter:
    """Which legal orders the page asks for; empty means all."""

    units: tuple[int, ...] = ()
    places: tuple[str, ...] = ()
    countries: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()


def order_words(text: str) -> tuple[list[str], list[int], str]:
    """The hexes (``COL,ROW``) and units (``#ID``) an order's canonical text names, and
    the order with its hexes left out: the group the page offers it in ("move #12")."""
    words = shlex.split(text)
    hexes = [w for w in words[1:] if _is_hex(w)]
    units = [int(w[1:]) for w in words[1:] if w.startswith("#") and w[1:].isdigit()]
    rest = [w if w and " " not in w else shlex.quote(w) for w in words if not _is_hex(w)]
    return hexes, units, " ".join(rest)


def _is_hex(word: str) -> bool:
    col, comma, row = word.partition(",")
    return bool(comma) and col.isdigit() and row.isdigit()


def parse_window(text: str, grid: Grid) -> gameview.Window:
    """``COL0,ROW0,COL1,ROW1`` as the page got it back with a map (``COL1`` may pass the
    last column where the window crosses the date line)."""
    parts = text.split(",")
    if len(parts) != 4 or not all(p.isdigit() for p in parts):
        raise PbemError(f"'{text[:40]}' is not a window; write COL0,ROW0,COL1,ROW1", "usage")
    c0, r0, c1, r1 = (int(p) for p in parts)
    if not (c0 < grid.width and c0 <= c1 < c0 + grid.width and r0 <= r1 < grid.height):
        raise PbemError(f"window {text} is off the map ({grid.width}x{grid.height})", "usage")
    return gameview.Window(c0, r0, c1, r1)


def window_text(w: gameview.Window) -> str:
    return f"{w.col0},{w.row0},{w.col1},{w.row1}"


def added_text(lines: list[str]) -> str:
    """What the page says after orders were added: the orders, or how many when they are many."""
    if len(lines) > 1 and len(set(lines)) == 1:
        return f"added {len(lines)} × {lines[0]}"
    if len(lines) > 5:
        return f"added {len(lines)} orders"
    return "added " + "; ".join(lines)


def board_status(st: Standing) -> str:
    """Where the game stands as the page says it: orders left unsent are sent with the Send
    button, and what comes next is no command to type."""
    line = st.head + (f" (draw offered by {st.draw_from})" if st.draw_from else "") + st.text
    return f"{line} yet: press Send" if st.step == "send" else line


def pass_anyway(exc: PbemError) -> PbemError:
    """A pass refused for what it would cost, with how to pass anyway on the page."""
    if exc.code != turn.PASS_WARNING:
        return exc
    return PbemError(f"{exc.head}; to pass anyway, tick “even if it costs”", exc.code, exc.rule, exc.details)


class Desk:
    """One game of a workspace, as the player at this machine sees it."""

    def __init__(self, ws: Workspace, gid: str, home: Path | None = None) -> None:
        self.ws = ws
        self.gid = gid
        self.home = home
        self._centres: dict[str, tuple[float, dict[str, tuple[float, float]]]] = {}
        self._timeline = Timeline()
        self._prices: dict[tuple[int, str], int | None] = {}
        self._free: tuple[tuple[str, str | None], dict[str, object]] | None = None
        self._files: tuple[str, list[TurnFile]] | None = None
        self._map: WorldMap | None = None
        #: terrain layers drawn for earlier pictures: an order that changes no hex's
        #: control redraws only what stands on the terrain
        self._layers: gameview.TerrainLayers = {}
        #: the last picture drawn: (what it shows, svg, window, digest)
        self._picture: tuple[tuple[str, int | None, str | None, str], str, str, str] | None = None

    # -- the game now -------------------------------------------------------------------

    def _now(self) -> tuple[LocalGame, turn.Turn, State]:
        """The game after my pending orders (a hidden list applied to a copy)."""
        with self.ws.game_locked(self.gid):
            lg = LocalGame(self.ws, self.gid, self.home)
            t = turn.my_turn(lg)
            state = turn.list_draft(t).state if t.pending.sim else t.work.state
        self._map = engine_link.api().game_map(state)
        return lg, t, state

    def _hexmap(self) -> WorldMap:
        if self._map is None:
            self._now()
        assert self._map is not None
        return self._map

    def _my_move(self, lg: LocalGame, t: turn.Turn) -> bool:
        exp = machine.expected(t.work)
        return exp is not None and exp.side == lg.me and exp.kind in ("act", "commit", "sim")

    def version(self) -> str:
        """Changes whenever the game's store does (a file imported here or by the mail
        daemon, an order given from a terminal): the page reloads what it shows then."""
        digest = hashlib.sha256()
        root = self.ws.game_dir(self.gid)
        for path in sorted(_files(root)):
            st = path.stat()
            digest.update(f"{path.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}\n".encode())
        return digest.hexdigest()[:16]

    def help(self) -> dict[str, object]:
        """The order reference for the page: every kind of order the engine knows, its
        arguments in words and an example; ``now``: the decision in front of me accepts it.
        ``rules``: the rules reference by topic, ``rules.now`` the topic of the step awaited."""
        api = engine_link.api()
        _, _, state = self._now()
        now = {k.name for k in api.order_kinds(state)}
        return {
            "rules": rules_reference.for_page(api.decision(state).phase),
            "kinds": [
                {
                    "kind": k.kind,
                    "usage": k.usage,
                    "help": k.help,
                    "arguments": [list(a) for a in k.arguments],
                    "example": k.example,
                    "now": k.kind in now,
                }
                for k in api.order_reference()
            ],
        }

    def overview(self) -> dict[str, object]:
        """Date, phase, what is awaited, my pending orders and my countries."""
        api = engine_link.api()
        lg, t, state = self._now()
        d = api.decision(state)
        exp = machine.expected(t.work)
        board = api.board(state, lg.me)
        return {
            "game": self.gid,
            "side": lg.me,
            "against": against(lg.meta),
            "seq": t.game.seq,
            "date": d.when,
            "phase": words.phase_name(d.phase),
            "prompt": d.prompt,
            "awaited": "the game is over" if exp is None else f"{exp.side}: {awaited(exp.kind)}",
            "my_move": self._my_move(lg, t),
            "hidden": exp is not None and exp.kind in ("commit", "sim"),
            "status": board_status(standing_of(lg, t.work, t.pending)),
            "pending": turn.pending_lines(t),
            "automatic": t.pending.auto,
            "weather": [f"{zone}: {cond.replace('_', ' ')}" for zone, cond in board.weather],
            "grounded": list(board.grounded),
            "countries": [
                {"name": c.name, "money": c.money, "status": c.status, "to_place": c.to_place}
                for c in api.summary(state, lg.me).countries
            ],
            "winner": board.winner,
            "reactions": reactions.of(lg).to_json() | {"words": reactions.of(lg).words()},
            "since": self._since(lg, t),
        }

    def _since(self, lg: LocalGame, t: turn.Turn) -> list[str]:
        """What happened since my last decision, in short: the lines `pbem status` opens with."""
        docs = [doc for _, doc in since.stored(self.ws.game_paths(self.gid), lg.me, t.game.seq)]
        return since.short(docs, lg.me)

    # -- the map ------------------------------------------------------------------------

    def map(self, region: str | None, window: str | None, at: int | None = None, have: str = "") -> dict[str, object]:
        """The position (after file ``at``, or now with my pending orders) drawn by the
        renderer of ``pbem map``, with the window it shows and the digest of the picture.

        ``have``: the digest of the picture the page shows; when the picture is the same
        (an order that changed nothing drawn, a file that moved no counter) it is not
        sent again (``svg`` is None): a whole-world picture is megabytes for the browser
        to read and lay out again.  The last picture is kept until the store changes."""
        api = engine_link.api()
        key = (self.version(), at, region if not window else "", window or "")
        if self._picture is None or self._picture[0] != key:
            lg = LocalGame(self.ws, self.gid, self.home)
            state = self._now()[2] if at is None else self._after(at).state
            board = api.board(state, lg.me)
            if window:
                w = parse_window(window, board.map.grid)
            else:
                w = gamemap.window(board, None if region in (None, "", "front") else region)
            svg = gameview.render_svg(gameview.as_board(board), w, self._layers)
            self._picture = (key, svg, window_text(w), hashlib.sha256(svg.encode()).hexdigest()[:16])
        _, svg, shown, digest = self._picture
        return {"svg": None if have == digest else svg, "window": shown, "at": at, "digest": digest}

    def _after(self, seq: int) -> Game:
        return self._timeline.position(self._history(), seq, self._base())

    def _base(self) -> bytes | None:
        """A branch's starting position (None for a game from its scenario)."""
        return LocalGame(self.ws, self.gid, self.home).base()

    def _history(self) -> list[TurnFile]:
        """The game's accepted files, read again only when the store changed."""
        version = self.version()
        if self._files is None or self._files[0] != version:
            self._files = (version, history.workspace_files(self.ws, self.gid))
        return self._files[1]

    def centres(self, window: str) -> tuple[float, dict[str, tuple[float, float]]]:
        """Where the map of ``window`` draws each hex, by its name (``COL,ROW``)."""
        found = self._centres.get(window)
        if found is None:
            hexmap = self._hexmap()
            scale, by_id = gameview.hex_centres(gameview.as_map(hexmap), parse_window(window, hexmap.grid))
            found = (scale, {hexmap.grid.label(h): xy for h, xy in by_id.items()})
            self._centres = {window: found}  # a page shows one window at a time
        return found

    def hex_at(self, window: str, x: float, y: float) -> str | None:
        """The hex drawn under the point (``x``, ``y``) of the map of ``window``."""
        scale, centres = self.centres(window)
        best = min(centres.items(), key=lambda kv: (kv[1][0] - x) ** 2 + (kv[1][1] - y) ** 2, default=None)
        if best is None or (best[1][0] - x) ** 2 + (best[1][1] - y) ** 2 > scale**2:
            return None
        return best[0]

    # -- looking ------------------------------------------------------------------------

    def hex_info(self, where: str, attackers: Iterable[int] = ()) -> dict[str, object]:
        """``pbem hex``: terrain, control, installations, units, and the odds of an attack
        on it (by ``attackers`` when given)."""
        api = engine_link.api()
        lg, _, state = self._now()
        try:
            r = api.hex_report(state, lg.me, where, tuple(attackers))
        except api.OrderError as exc:
            raise PbemError(str(exc), "usage", refusal_rule(exc)) from None
        odds = None
        if r.odds is not None:
            o = r.odds
            odds = {
                "attackers": list(o.attackers),
                "supports": list(o.supports),
                "barred": list(o.barred),
                "attack": o.attack,
                "defence": o.defence,
                "ratio": o.ratio,
                "defender_loses": o.defender_loses,
                "attackers_eliminated": o.attackers_eliminated,
                "notes": list(o.notes),
            }
        return {
            "hex": r.hex,
            "city": r.city,
            "terrain": r.terrain,
            "territory": r.territory,
            "controller": r.controller,
            "control_side": r.control_side,
            "weather": r.weather,
            "installations": list(r.installations),
            "units": [
                {"label": u.label, "side": u.side, "supply": u.supply, "notes": list(u.notes), "id": u.id}
                for u in r.units
            ],
            "odds": odds,
        }

    def stack(self, where: str) -> dict[str, object]:
        """Every unit in the hex ``where`` as the engine reads its counter: country, kind,
        numbers named, supply, what it did this month, what it carries; ``mine``: a unit
        of my side (the page lets me drag it)."""
        api = engine_link.api()
        lg, _, state = self._now()
        try:
            hex_, units = api.stack(state, lg.me, where)
        except api.OrderError as exc:
            raise PbemError(str(exc), "usage", refusal_rule(exc)) from None
        return {
            "hex": hex_,
            "units": [
                {
                    "id": u.id,
                    "label": u.label,
                    "side": u.side,
                    "mine": u.side == lg.me,
                    "country": u.country,
                    "kind": u.kind,
                    "counter": u.counter,
                    "numbers": u.numbers,
                    "supply": u.supply,
                    "notes": list(u.notes),
                    "done": list(u.done),
                    "cargo": list(u.cargo),
                }
                for u in units
            ],
        }

    def drop(self, units: tuple[int, ...], to: str, window: str | None = None) -> dict[str, object]:
        """What dragging ``units`` onto the hex ``to`` orders: for each unit the engine's
        move there (the path is the engine's), else its other legal order that ends there
        (by rail, ...), else the engine's reason why it cannot go, in one line; ``at``:
        where the map of ``window`` draws the hex."""
        api = engine_link.api()
        lg, t, state = self._now()
        if not units:
            raise PbemError("say which units to move", "usage")
        try:
            hex_ = api.stack(state, lg.me, to)[0]
        except api.OrderError as exc:
            raise PbemError(str(exc), "usage", refusal_rule(exc)) from None
        if not self._my_move(lg, t):
            raise PbemError("it is not your move: no unit can be moved now", "turn")
        orders, refused = [], []
        for uid in units:
            try:
                move = api.parse_order(state, lg.me, f"move #{uid} {hex_}")
                api.check(state, lg.me, move)
                orders.append(api.format_action(state, move))
                continue
            except (api.IllegalAction, api.OrderError) as exc:
                why, rule = str(exc), refusal_rule(exc)
            if rule in NOT_MOVED:
                refused.append(why)
                continue
            other = [
                text
                for a in api.legal_matching(state, lg.me, units=(uid,), places=(hex_,))
                if order_words(text := api.format_action(state, a))[0][-1:] == [hex_] and a.kind not in ATTACKS
            ]
            if other:
                orders.append(other[0])
            else:
                refused.append(why)
        scale, centres = self.centres(window) if window else (0.0, {})
        at = {hex_: centres[hex_]} if hex_ in centres else {}
        return {"hex": hex_, "orders": orders, "refused": refused, "at": at, "scale": scale}

    def odds(self, order: str) -> dict[str, object]:
        """The odds and expected result of one attack order, before it is given."""
        hexes, units, _ = order_words(order)
        if not order.startswith("attack") or not hexes:
            raise PbemError(f"'{order[:60]}' is not an attack order", "usage")
        return self.hex_info(hexes[0], units)

    def legal(self, flt: Filter, window: str | None) -> dict[str, object]:
        """The legal orders that match ``flt`` (``pbem legal``), each with the hexes it names
        and, for the hexes on the map of ``window``, where they are drawn."""
        api = engine_link.api()
        lg, t, state = self._now()
        if not self._my_move(lg, t):
            return {"orders": [], "left_out": 0, "marks": {}, "scale": 0}
        try:
            found = api.legal_matching(
                state, lg.me, units=flt.units, places=flt.places, countries=flt.countries, kinds=flt.kinds
            )
        except api.OrderError as exc:
            raise PbemError(str(exc), "usage", refusal_rule(exc)) from None
        listed = [(a, api.format_action(state, a)) for a in found]
        if not flt.units and not flt.countries and (not flt.kinds or "stand" in flt.kinds):
            # Standing orders are accepted in any decision and kept out of the legal list.
            places = {"{},{}".format(*_col_row(p)) for p in flt.places}
            for a in api.standing_orders(state, lg.me):
                text = api.format_action(state, a)
                if not places or set(order_words(text)[0]) & places:
                    listed.append((a, text))
        scale, centres = self.centres(window) if window else (0.0, {})
        shapes = {k.name: k for k in api.order_kinds(state)}
        orders, marks = [], {}
        for a, text in listed[:MAX_LISTED]:
            hexes, _, group = order_words(text)
            amount = None
            with_amount = _amount(state, shapes.get(a.kind), a)
            if with_amount is not None:
                group, amount = with_amount
            orders.append({"text": text, "group": group, "hexes": hexes, "amount": amount})
            marks.update({h: centres[h] for h in hexes if h in centres})
        return {"orders": orders, "left_out": max(0, len(listed) - MAX_LISTED), "marks": marks, "scale": scale}

    def free(self, window: str | None) -> dict[str, object]:
        """Where my units waiting to be placed may go now (``pbem where --free``), in the
        engine's groups: each hex with its room, each waiting unit with its placing order
        written once (``POINTS`` and ``HEX`` left to fill) and the hexes it may take (land
        points: with the most the engine accepts there, as a player deploying wants a pool
        placed in few clicks), and where the map of ``window`` draws the hexes.  Kept until
        the store changes: at a deployment the search takes a second, and the page asks
        again for the units it keeps chosen."""
        key = (self.version(), window)
        if self._free is None or self._free[0] != key:
            self._free = (key, self._placings(window))
        return self._free[1]

    def _placings(self, window: str | None) -> dict[str, object]:
        api = engine_link.api()
        lg, t, state = self._now()
        shapes = {k.name for k in api.order_kinds(state)} if self._my_move(lg, t) else set()
        if not shapes & set(PLACING):
            # the page asks after every order: a movement phase is not searched for placings
            return {"placings": [], "marks": {}, "scale": 0}
        label = api.game_map(state).grid.label
        # What each placing order places (its arguments but the points and the hex), the
        # order written once for it, and for land points the most each hex takes.  The
        # orders are read by their arguments: thousands of them, each written out and split
        # again, took most of the time of a deployment's first answer.
        patterns: dict[tuple[object, ...], str] = {}
        most: dict[tuple[object, ...], dict[str, int]] = {}
        for a in api.legal_matching(state, lg.me, kinds=PLACING):
            land = a.kind == "place_land"
            what = (a.kind, *a.args[:3]) if land else (a.kind, *a.args[:-1])
            if what not in patterns:
                blank = (*a.args[:3], _SENTINEL, a.args[-1]) if land else a.args
                text = api.format_action(state, api.Action(a.kind, blank)).rsplit(" ", 1)[0] + " HEX"
                patterns[what] = text.replace(str(_SENTINEL), "POINTS")
            if land:
                hexes = most.setdefault(what, {})
                where, points = label(int(a.args[-1])), int(a.args[3])
                hexes[where] = max(points, hexes.get(where, 0))
        scale, centres = self.centres(window) if window else (0.0, {})
        out, marks = [], {}
        for p in api.placements(state, lg.me):
            # a unit may go to every hex of its group; land points with as many as ``points`` says
            waiting = [
                {
                    "label": w.label,
                    "id": w.id if w.id >= 0 else None,
                    "key": " ".join(str(x) for x in w.what),
                    "order": patterns.get(w.what, w.order),
                    "points": most.get(w.what) if w.id < 0 else None,
                }
                for w in p.waiting
            ]
            rooms = [
                {"hex": r.hex, "city": r.city, "city_distance": r.city_distance, "used": r.used, "limit": r.limit}
                for r in p.hexes
            ]
            out.append({"waiting": waiting, "counts": p.counts, "hexes": rooms})
            marks.update({r.hex: centres[r.hex] for r in p.hexes if r.hex in centres})
        return {"placings": out, "marks": marks, "scale": scale}

    def offers(self) -> dict[str, object]:
        """The kinds of order my decision accepts now, each with its shape and how many
        legal orders of it there are (not counted in a movement phase, where a unit's
        orders are asked by clicking it: all of them would be hundreds of thousands)."""
        api = engine_link.api()
        lg, t, state = self._now()
        if not self._my_move(lg, t):
            return {"kinds": []}
        shapes = api.order_kinds(state)
        counted = not any(k.name == "move" for k in shapes)
        counts: dict[str, int] = {}
        if counted:
            for a in api.legal_matching(state, lg.me):
                counts[a.kind] = counts.get(a.kind, 0) + 1
            counts["stand"] = len(api.standing_orders(state, lg.me))
        return {
            "kinds": [
                {"kind": k.name, "help": f"{k.usage()}: {k.help}", "count": counts.get(k.name, 0) if counted else None}
                for k in shapes
                if k.name != "pass"
            ]
        }

    def purchases(self) -> dict[str, object]:
        """What my countries may buy now (the engine's legal purchases), each with its
        price as the engine charges it (the money a purchase of one takes) and its legal
        orders by amount, and the money each country has left after my pending orders."""
        api = engine_link.api()
        lg, t, state = self._now()
        if not self._my_move(lg, t):
            return {"items": [], "money": {}}
        found = api.legal_matching(state, lg.me, kinds=("buy", "buy_unit", "repair"))
        money = {c.name: c.money for c in api.summary(state, lg.me).countries}
        board = api.board(state, lg.me) if any(a.kind == "repair" for a in found) else None
        items: dict[str, dict[str, object]] = {}
        orders: dict[str, dict[int, str]] = {}
        for a in found:
            text = api.format_action(state, a)
            # points of land units are bought by the point: one line per kind and move
            group, amount = (
                (f"buy {shlex.join(str(x) for x in a.args[:3])}", int(a.args[3])) if a.kind == "buy" else (text, 1)
            )
            item = items.get(group)
            if item is None:
                price = self._price(t.game.seq, state, lg.me, a)
                item = items[group] = {
                    "group": group,
                    "kind": a.kind,
                    "price": price,
                    "orders": orders.setdefault(group, {}),
                }
                if board is not None and a.kind == "repair":
                    item["unit"] = _repaired(board, int(a.args[0]))
            orders[group][amount] = text
        return {"items": list(items.values()), "money": money}

    def _price(self, seq: int, state: State, side: str, action: Action) -> int | None:
        """The money ``action`` (one point or unit) takes, found by previewing it; kept
        for the decision (after file ``seq``): a preview copies the whole state."""
        api = engine_link.api()
        key = (seq, api.format_action(state, action))
        if key not in self._prices:
            self._prices = {k: v for k, v in self._prices.items() if k[0] == seq}
            self._prices[key] = self._preview_price(state, side, action)
        return self._prices[key]

    def _preview_price(self, state: State, side: str, action: Action) -> int | None:
        api = engine_link.api()
        before = sum(c.money for c in api.summary(state, side).countries)
        try:
            after = api.preview(state, side, [action])
        except api.IllegalAction:
            return None
        return before - sum(c.money for c in api.summary(after, side).countries)

    # -- orders -------------------------------------------------------------------------

    def give(self, lines: list[str], force: bool = False) -> str:
        """``pbem orders``: all the lines or none.  The page says which orders were added,
        not where the game stands, which it already shows beside the map."""
        try:
            added = turn.orders(self.ws, self.gid, lines, self.home, force)
        except PbemError as exc:
            raise pass_anyway(exc) from None
        return added_text(added.orders)

    def undo(self) -> str:
        return f"took back {turn.take_back(self.ws, self.gid, self.home).taken}"

    def take_back(self, index: int) -> dict[str, object]:
        """Take back pending order ``index`` (0 is the first listed); the orders after it are
        given again, and those the engine now refuses are dropped and said with its reason."""
        done = turn.take_back(self.ws, self.gid, self.home, index)
        said = f"took back {done.taken}"
        if done.again or done.dropped:
            said += f"; {done.again} order(s) after it given again"
        if done.dropped:
            said += f"; dropped {len(done.dropped)} the engine now refuses: " + "; ".join(done.dropped)
        return {"message": said, "dropped": list(done.dropped)}

    def send(self, force: bool = False) -> str:
        """``pbem send``: the sealed file goes to outbox/, where the mail daemon takes it;
        against the computer, it answers at once."""
        try:
            path = turn.send(self.ws, self.gid, self.home, force)
        except PbemError as exc:
            raise pass_anyway(exc) from None
        return self._answered(f"sealed {path.name} into outbox/", f"sent {path.name}")

    def react(
        self, intercept: str | None, land: str | None, only: str | None = None, retreat: str | None = None
    ) -> str:
        """``pbem react``: my program answers the other side's turn as these orders say, sealed
        as the command line seals them (None: keep that part).  ``only``: the aircraft that
        may intercept by themselves, as a person writes them (empty: every one able);
        ``retreat``: ask, bot or toward:PLACE."""
        units = None if only is None else reactions.unit_numbers(only, "aircraft")
        given, written = turn.react(self.ws, self.gid, self.home, intercept, land, units, retreat)
        if written:
            sealed = f"sealed {written[-1].name} into outbox/"
            return self._answered(f"{given.words()}; they answered the decision now: {sealed}", given.words())
        return given.words()

    def _answered(self, by_mail: str, here: str) -> str:
        """What a file I wrote became: one waiting in outbox/ for the mail daemon, or, in a
        game against the computer here, a move it has already answered."""
        if not solo.is_solo(self.ws, self.gid, self.home):
            return by_mail
        solo.answer(self.ws, self.gid, self.home)
        return f"{here}; the computer has answered"

    def suggestion(self) -> str:
        """``pbem suggest``: the computer player's proposal as an order list to edit."""
        return turn.suggest(self.ws, self.gid, self.home)

    # -- orders given ahead -------------------------------------------------------------

    def ahead(self) -> dict[str, object]:
        """My coming simultaneous steps of the month, what I keep for each, and what my
        program did with the orders given ahead before (``pbem status``'s notes)."""
        steps, notes = ahead_entry.coming_steps(self.ws, self.gid, self.home)
        return {
            "steps": [s.to_json() for s in steps],
            "notes": [{"month": month, "text": text} for month, text in notes],
        }

    def ahead_suggestion(self, step: str) -> dict[str, object]:
        """The computer player's orders for the coming ``step`` on its forecast position."""
        if not step:
            raise PbemError("say which coming step to propose orders for", "usage")
        d, side, orders = ahead_entry.proposal(self.ws, self.gid, step, self.home, how_now=HOW_NOW)
        about = f"the computer player's proposal for the {side}, {d.when} {words.phase_name(d.phase)}"
        return {"text": "\n".join(orders) + "\n" if orders else "", "about": f"{about}: {len(orders)} order(s)"}

    def give_ahead(self, step: str, lines: list[str], fallback: str) -> str:
        """``pbem orders --ahead``: keep ``lines`` for the coming ``step`` (none: take them back)."""
        return ahead_entry.give(
            self.ws, self.gid, step, lines, fallback, self.home, how_now=HOW_NOW, fallback_named="the fallback"
        )

    # -- what happened ------------------------------------------------------------------

    def changes(self, window: str) -> dict[str, object]:
        """What changed on the map since my last file (the files after it, from the engine's
        events of their reports and the orders they gave): each unit moved, from where it
        was to where it is; each hex attacked, with the combat's result once resolved (a
        naval or air combat is told as a line of text: its order names the hex); each hex
        that changed hands, to whom.  ``at``: where the map of ``window`` draws the hexes
        named (those on it)."""
        me = LocalGame(self.ws, self.gid, self.home).me
        self._timeline.follow(self._history(), self._base())
        since = max((r["seq"] for r in self._timeline.reports if r["side"] == me), default=0)
        moves: dict[int, dict[str, object]] = {}
        attacks: dict[str, dict[str, object]] = {}
        hands: dict[str, dict[str, object]] = {}
        for file in self._timeline.happened:
            if file.seq <= since:
                continue
            for text in file.orders:
                hexes, _, _ = order_words(text)
                if text.split(" ", 1)[0] in ATTACKS and hexes:
                    attacks.setdefault(hexes[0], {"hex": hexes[0], "side": file.side, "text": text})
            for e in file.events:
                if e["kind"] == "moved":
                    # A unit that moved several times is drawn once, from its first hex to its last.
                    unit = e["units"][0]
                    first = moves.setdefault(unit, {"unit": unit, "what": e["what"], "side": e["side"]})
                    first.setdefault("from", e["hexes"][0])
                    first["to"] = e["hexes"][1]
                elif e["kind"] == "combat":
                    c = e["combat"]
                    attacks[c["hex"]] = {"hex": c["hex"], "side": c["side"], "text": e["text"]}
                elif e["kind"] == "control":
                    hands.update({h: {"hex": h, "side": e["side"], "country": e["country"]} for h in e["hexes"]})
        moved = [m for m in moves.values() if m["from"] != m["to"]]
        named = {h for m in moved for h in (m["from"], m["to"])} | set(attacks) | set(hands)
        scale, centres = self.centres(window)
        return {
            "since": since,
            "moves": moved,
            "attacks": list(attacks.values()),
            "hands": list(hands.values()),
            "at": {h: centres[h] for h in named if h in centres},
            "scale": scale,
        }

    def reports(self) -> list[dict[str, object]]:
        """The report of every file (``pbem log``), each file re-executed and verified once."""
        self._timeline.follow(self._history(), self._base())
        return self._timeline.reports


def _files(root: Path) -> Iterable[Path]:
    for entry in os.scandir(root):
        if entry.is_dir(follow_symlinks=False):
            yield from _files(Path(entry.path))
        elif entry.name not in ("lock", "journal"):
            yield Path(entry.path)


#: stands for the amount while the group of an order is written
_SENTINEL = 987_654_321


def _amount(state: State, shape: OrderKind | None, action: Action) -> tuple[str, int] | None:
    """For an order with an amount (points to place or buy, money to send: its last whole
    number), the group it belongs to whatever the amount (the amount written ``N``) and
    the amount, so the page may offer one field for it instead of one group per amount."""
    if shape is None:
        return None
    api = engine_link.api()
    roles = shape.roles_for(len(action.args))
    where = [i for i, role in enumerate(roles) if role == "int"]
    if not where:
        return None
    i = where[-1]
    args = (*action.args[:i], _SENTINEL, *action.args[i + 1 :])
    group = order_words(api.format_action(state, api.Action(action.kind, args)))[2]
    return group.replace(str(_SENTINEL), "N"), int(action.args[i])


def _repaired(board: Board, uid: int) -> str:
    """Which unit a repair order names ("#93" alone says nothing to a player), and where."""
    u = next(u for u in board.units if u.id == uid)
    return f"{u.label}, {'in port at ' if u.in_port else 'at '}{board.map.grid.label(u.hex)}"


def _col_row(place: str) -> tuple[int, int]:
    if not _is_hex(place):
        raise PbemError(f"'{place[:40]}' is not a hex; write COL,ROW", "usage")
    col, _, row = place.partition(",")
    return int(col), int(row)
