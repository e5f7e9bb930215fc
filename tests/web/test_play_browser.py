"""`pbem play` end to end in Debian's headless chromium, driven by Playwright pointed at
the system browser: a 1939 game against the bot, every order given with the mouse.

Deploy with the suggestion, pass the build with the refusal seen first, move a unit by
clicks and take it back, declare an attack after seeing its odds, send; the file sent
verifies as `pbem verify` checks it, the bot answers, and the page follows by itself.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, sync_playwright

from engine import api
from pbem import audit, exchange, turn
from pbem.localgame import LocalGame
from pbem.web.server import PlayServer
from tests.protocol.conftest import Duo
from tests.web.conftest import bot_answers, make_duo, serve

#: Where the screenshots go: docs/play/ of the tree only when asked for
#: (PBEM_SCREENSHOTS=1, to refresh the README's pictures), so a test run leaves the tree clean.
DOCS_SHOTS = Path(__file__).resolve().parents[2] / "docs" / "play"


def chromium() -> str:
    found = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(found):
        pytest.fail("Debian's chromium is not installed: run tests/install-browser (apt-get install chromium)")
    return found


def until(page: Page, what: str, test: Callable[[], bool], seconds: float = 90) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if test():
            return
        page.wait_for_timeout(150)
    raise AssertionError(f"the page never showed {what}")


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Duo, PlayServer]]:
    duo = make_duo(tmp_path_factory.mktemp("browser"), "1939")
    bot_answers(duo)
    server, thread = serve(duo)
    yield duo, server
    server.shutdown()
    server.server_close()
    thread.join(5)


@pytest.fixture(scope="module")
def page(live: tuple[Duo, PlayServer]) -> Iterator[Page]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        pg = browser.new_page(viewport={"width": 1500, "height": 950})
        pg.goto(live[1].url)
        pg.wait_for_selector("#map svg", timeout=60_000)
        yield pg
        browser.close()


def pending(pg: Page) -> list[str]:
    return [t.split(". ", 1)[-1] for t in pg.locator("#pending li").all_inner_texts()]


def message(pg: Page) -> tuple[str, str]:
    m = pg.locator("#message")
    return m.inner_text(), m.get_attribute("class") or ""


def wait_message(pg: Page, before: str = "") -> tuple[str, str]:
    until(pg, "an answer", lambda: message(pg)[0] not in ("", before) and "asking" not in message(pg)[0])
    return message(pg)


def sent(pg: Page, duo: Duo) -> Path:
    """Click Send; the sealed file verifies against the bot's copy of the game (`pbem verify`)."""
    before = set(duo.axis.ws.outbox.glob("*.pbem"))
    said = message(pg)[0]
    pg.locator("#send").click()
    text, kind = wait_message(pg, said)
    assert kind == "ok" and text.startswith("sealed "), text
    (new,) = set(duo.axis.ws.outbox.glob("*.pbem")) - before
    assert new.name in text
    return new


def verify_at_bot(duo: Duo, path: Path) -> None:
    """`pbem verify` in the bot's workspace, before the bot imports anything."""
    p = duo.allies
    missing = sorted(f for f in duo.axis.ws.outbox.glob("*.pbem") if f.name not in duo.axis.seen and f != path)
    for f in missing:  # automatic files sent before this one come first
        assert exchange.import_file(p.ws.root, f, home=p.home).status in ("applied", "duplicate")
        duo.axis.seen.add(f.name)
    line = audit.verify_file(p.ws, path)
    assert ": valid: re-executed" in line and line.endswith("; state hash matches"), line


def on_map(pg: Page, element: Locator) -> bool:
    """Whether ``element`` is drawn inside the visible part of the map (after a zoom)."""
    box, frame = element.bounding_box(), pg.locator("#map").bounding_box()
    if box is None or frame is None:
        return False
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return frame["x"] < x < frame["x"] + frame["width"] and frame["y"] < y < frame["y"] + frame["height"]


def zoom_on(pg: Page, element: Locator) -> None:
    """Turn the mouse wheel over ``element``, as a player zooms in to read the counters."""
    box = element.bounding_box()
    assert box is not None
    pg.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(4):
        pg.mouse.wheel(0, -100)
        pg.wait_for_timeout(100)


def phase_is(pg: Page, text: str) -> bool:
    return text in pg.locator("#when").inner_text()


def test_a_1939_turn_with_the_mouse_against_the_bot(live: tuple[Duo, PlayServer], page: Page, tmp_path: Path) -> None:
    duo, _ = live
    pg = page
    shots = DOCS_SHOTS if os.environ.get("PBEM_SCREENSHOTS") == "1" else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    # What the page shows: the date, the phase, what is awaited, the map and its counters.
    assert phase_is(pg, "1939-09") and phase_is(pg, "War declaration")
    assert "axis" in pg.locator("#awaited").inner_text()

    # War declaration: find the order among the legal ones, give it, send.
    pg.locator("#kind").fill("declare")
    pg.locator("#find").click()
    pg.locator("button.group", has_text="declare Poland").click()
    until(pg, "the declaration listed", lambda: pending(pg) == ["declare Poland"])
    sent(pg, duo)
    bot_answers(duo)
    until(pg, "the deployment", lambda: phase_is(pg, "Deployment"))

    # Deployment: fill from the computer player's suggestion, give it, see it listed.
    pg.locator("#fill").click()
    until(pg, "the suggestion", lambda: "place_land" in pg.locator("#orderstext").input_value())
    proposal = [
        line for line in pg.locator("#orderstext").input_value().splitlines() if line and not line.startswith("#")
    ]
    pg.locator("#give").click()
    until(pg, "the proposal listed", lambda: len(pending(pg)) == len(proposal))
    assert pending(pg) == proposal
    pg.locator("#region").select_option("europe")
    until(pg, "the placed units", lambda: pg.locator("g.unit[data-side=axis]").count() > 50)
    pg.screenshot(path=str(shots / "deployment.png"))
    path = sent(pg, duo)
    verify_at_bot(duo, path)
    bot_answers(duo)

    # Build: a pass that would leave money unspent is refused with the engine's reason...
    until(pg, "the build phase", lambda: phase_is(pg, "Build"))
    before = message(pg)[0]
    pg.locator("#pass").click()
    text, kind = wait_message(pg, before)
    assert kind == "error" and "passing now would cost you" in text, text
    # ... and given anyway when the player says so.
    pg.locator("#force").check()
    pg.locator("#pass").click()
    until(pg, "the pass listed", lambda: pending(pg)[-1:] == ["pass"])
    sent(pg, duo)
    bot_answers(duo)

    # Overrun: nothing to overrun with; first movement follows.
    until(pg, "the overrun", lambda: phase_is(pg, "overrun") or phase_is(pg, "first movement"))
    if phase_is(pg, "overrun"):
        pg.locator("#pass").click()
        until(pg, "the first movement", lambda: phase_is(pg, "first movement"))

    # Movement: click a German counter, its legal destinations light up, click one.
    state = turn.my_turn(LocalGame(duo.axis.ws, duo.gid, duo.axis.home)).work.state
    board = api.board(state, "axis")
    alone = {u.id for u in board.units if u.domain == "land" and sum(o.hex == u.hex for o in board.units) == 1}
    movers = api.legal_matching(state, "axis", countries=["Germany"], kinds=["move"])
    unit = next(int(a.args[0]) for a in movers if int(a.args[0]) in alone)
    counter = pg.locator(f'g.unit[data-unit="{unit}"]')
    counter.click(force=True)
    until(pg, "lit destinations", lambda: pg.locator("circle.mark").count() > 0)
    lit = pg.locator("circle.mark")
    destinations = {lit.nth(i).get_attribute("data-hex") for i in range(lit.count())}
    expected = {api.format_action(state, a).split()[-1] for a in api.legal_matching(state, "axis", units=[unit])}
    assert destinations <= expected and destinations
    # Zoom in on the unit with the wheel, as a player reads the counters.
    zoom_on(pg, counter)
    pg.screenshot(path=str(shots / "movement.png"))
    (in_view,) = [m for m in (lit.nth(i) for i in range(lit.count())) if on_map(pg, m)][:1]
    in_view.click(force=True)
    until(pg, "the move listed", lambda: any(t.startswith(f"move #{unit} ") for t in pending(pg)))
    # ... and take it back.
    pg.locator("#undo").click()
    until(pg, "the move taken back", lambda: not any(t.startswith(f"move #{unit} ") for t in pending(pg)))
    pg.locator("#force").check()
    pg.locator("#pass").click()
    until(pg, "the combat phase", lambda: phase_is(pg, "combat"))

    # Attack: click the Polish defender, pick an attack, see its odds before confirming.
    state = turn.my_turn(LocalGame(duo.axis.ws, duo.gid, duo.axis.home)).work.state
    targets = [api.format_action(state, a).split()[1] for a in api.legal_matching(state, "axis", kinds=["attack"])]
    defenders = [pg.locator(f'g.unit[data-hex="{t}"][data-side="allies"]') for t in targets]
    pg.locator("#fit").click()
    defender = next(d.first for d in defenders if d.count() and on_map(pg, d.first))
    zoom_on(pg, defender)
    defender.click(force=True)
    until(pg, "the attacks on the hex", lambda: pg.locator("#choices button.order").count() > 0)
    choice = pg.locator("#choices button.order").first
    order = choice.inner_text()
    choice.click()
    until(pg, "the odds", lambda: "odds" in pg.locator("#odds").inner_text())
    odds_text = pg.locator("#odds").inner_text()
    assert "against defence" in odds_text and "chance" in odds_text, odds_text
    pg.screenshot(path=str(shots / "attack.png"))
    pg.locator("#confirm").click()
    until(pg, "the attack listed", lambda: order in pending(pg))
    pg.locator("#pass").click()
    until(pg, "the combat passed", lambda: pending(pg)[-1:] == ["pass"])
    path = sent(pg, duo)
    verify_at_bot(duo, path)

    # The bot answers; the page follows without being reloaded.
    seen = pg.locator("#when").inner_text()
    bot_answers(duo)
    until(pg, "the bot's answer", lambda: pg.locator("#when").inner_text() != seen)
    pg.screenshot(path=str(shots / "after-the-bot.png"))
