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

from engine import api
from pbem import audit, exchange, turn
from pbem.localgame import LocalGame
from pbem.web.server import PlayServer
from tests.protocol.conftest import Duo
from tests.web.conftest import bot_answers, make_duo, serve

playwright = pytest.importorskip("playwright.sync_api", reason="the test extra installs playwright")
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "play"


def chromium() -> str:
    found = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(found):
        pytest.fail("Debian's chromium is not installed: run tests/install-browser (apt-get install chromium)")
    return found


def until(page: object, what: str, test: Callable[[], bool], seconds: float = 90) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if test():
            return
        page.wait_for_timeout(150)  # type: ignore[attr-defined]
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
def page(live: tuple[Duo, PlayServer]) -> Iterator[object]:
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        pg = browser.new_page(viewport={"width": 1500, "height": 950})
        pg.goto(live[1].url)
        pg.wait_for_selector("#map svg", timeout=60_000)
        yield pg
        browser.close()


def pending(pg: object) -> list[str]:
    return [t.split(". ", 1)[-1] for t in pg.locator("#pending li").all_inner_texts()]  # type: ignore[attr-defined]


def message(pg: object) -> tuple[str, str]:
    m = pg.locator("#message")  # type: ignore[attr-defined]
    return m.inner_text(), m.get_attribute("class") or ""


def wait_message(pg: object, before: str = "") -> tuple[str, str]:
    until(pg, "an answer", lambda: message(pg)[0] not in ("", before) and "asking" not in message(pg)[0])
    return message(pg)


def sent(pg: object, duo: Duo) -> Path:
    """Click Send; the sealed file verifies against the bot's copy of the game (`pbem verify`)."""
    before = set(duo.axis.ws.outbox.glob("*.pbem"))
    said = message(pg)[0]
    pg.locator("#send").click()  # type: ignore[attr-defined]
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


def phase_is(pg: object, text: str) -> bool:
    return text in pg.locator("#when").inner_text()  # type: ignore[attr-defined]


def test_a_1939_turn_with_the_mouse_against_the_bot(live: tuple[Duo, PlayServer], page: object) -> None:
    duo, _ = live
    pg = page
    SHOTS.mkdir(parents=True, exist_ok=True)
    # What the page shows: the date, the phase, what is awaited, the map and its counters.
    assert phase_is(pg, "1939-09") and phase_is(pg, "War declaration")
    assert "axis" in pg.locator("#awaited").inner_text()  # type: ignore[attr-defined]

    # War declaration: find the order among the legal ones, give it, send.
    pg.locator("#kind").fill("declare")  # type: ignore[attr-defined]
    pg.locator("#find").click()  # type: ignore[attr-defined]
    pg.locator("button.group", has_text="declare Poland").click()  # type: ignore[attr-defined]
    until(pg, "the declaration listed", lambda: pending(pg) == ["declare Poland"])
    sent(pg, duo)
    bot_answers(duo)
    until(pg, "the deployment", lambda: phase_is(pg, "Deployment"))

    # Deployment: fill from the computer player's suggestion, give it, see it listed.
    pg.locator("#fill").click()  # type: ignore[attr-defined]
    until(pg, "the suggestion", lambda: "place_land" in pg.locator("#orderstext").input_value())  # type: ignore[attr-defined]
    proposal = [
        line
        for line in pg.locator("#orderstext").input_value().splitlines()  # type: ignore[attr-defined]
        if line and not line.startswith("#")
    ]
    pg.locator("#give").click()  # type: ignore[attr-defined]
    until(pg, "the proposal listed", lambda: len(pending(pg)) == len(proposal))
    assert pending(pg) == proposal
    pg.locator("#region").select_option("europe")  # type: ignore[attr-defined]
    until(pg, "the placed units", lambda: pg.locator("g.unit[data-side=axis]").count() > 50)  # type: ignore[attr-defined]
    pg.screenshot(path=str(SHOTS / "deployment.png"))  # type: ignore[attr-defined]
    path = sent(pg, duo)
    verify_at_bot(duo, path)
    bot_answers(duo)

    # Build: a pass that would leave money unspent is refused with the engine's reason...
    until(pg, "the build phase", lambda: phase_is(pg, "Build"))
    before = message(pg)[0]
    pg.locator("#pass").click()  # type: ignore[attr-defined]
    text, kind = wait_message(pg, before)
    assert kind == "error" and "passing now would cost you" in text, text
    # ... and given anyway when the player says so.
    pg.locator("#force").check()  # type: ignore[attr-defined]
    pg.locator("#pass").click()  # type: ignore[attr-defined]
    until(pg, "the pass listed", lambda: pending(pg)[-1:] == ["pass"])
    sent(pg, duo)
    bot_answers(duo)

    # Overrun: nothing to overrun with; first movement follows.
    until(pg, "the overrun", lambda: phase_is(pg, "overrun") or phase_is(pg, "first movement"))
    if phase_is(pg, "overrun"):
        pg.locator("#pass").click()  # type: ignore[attr-defined]
        until(pg, "the first movement", lambda: phase_is(pg, "first movement"))

    # Movement: click a German counter, its legal destinations light up, click one.
    state = turn.my_turn(LocalGame(duo.axis.ws, duo.gid, duo.axis.home)).work.state
    board = api.board(state, "axis")
    alone = {u.id for u in board.units if u.domain == "land" and sum(o.hex == u.hex for o in board.units) == 1}
    movers = api.legal_matching(state, "axis", countries=["Germany"], kinds=["move"])
    unit = next(int(a.args[0]) for a in movers if int(a.args[0]) in alone)
    counter = pg.locator(f'g.unit[data-unit="{unit}"]')  # type: ignore[attr-defined]
    counter.click(force=True)
    until(pg, "lit destinations", lambda: pg.locator("circle.mark").count() > 0)  # type: ignore[attr-defined]
    lit = pg.locator("circle.mark")  # type: ignore[attr-defined]
    destinations = {lit.nth(i).get_attribute("data-hex") for i in range(lit.count())}
    expected = {api.format_action(state, a).split()[-1] for a in api.legal_matching(state, "axis", units=[unit])}
    assert destinations <= expected and destinations
    pg.screenshot(path=str(SHOTS / "movement.png"))  # type: ignore[attr-defined]
    lit.first.click(force=True)
    until(pg, "the move listed", lambda: any(t.startswith(f"move #{unit} ") for t in pending(pg)))
    # ... and take it back.
    pg.locator("#undo").click()  # type: ignore[attr-defined]
    until(pg, "the move taken back", lambda: not any(t.startswith(f"move #{unit} ") for t in pending(pg)))
    pg.locator("#force").check()  # type: ignore[attr-defined]
    pg.locator("#pass").click()  # type: ignore[attr-defined]
    until(pg, "the combat phase", lambda: phase_is(pg, "combat"))

    # Attack: click the Polish defender, pick an attack, see its odds before confirming.
    state = turn.my_turn(LocalGame(duo.axis.ws, duo.gid, duo.axis.home)).work.state
    targets = [api.format_action(state, a).split()[1] for a in api.legal_matching(state, "axis", kinds=["attack"])]
    defenders = [pg.locator(f'g.unit[data-hex="{t}"][data-side="allies"]') for t in targets]  # type: ignore[attr-defined]
    next(d for d in defenders if d.count()).first.click(force=True)
    until(pg, "the attacks on the hex", lambda: pg.locator("#choices button.order").count() > 0)  # type: ignore[attr-defined]
    choice = pg.locator("#choices button.order").first  # type: ignore[attr-defined]
    order = choice.inner_text()
    choice.click()
    until(pg, "the odds", lambda: "odds" in pg.locator("#odds").inner_text())  # type: ignore[attr-defined]
    odds_text = pg.locator("#odds").inner_text()  # type: ignore[attr-defined]
    assert "against defence" in odds_text and "chance" in odds_text, odds_text
    pg.screenshot(path=str(SHOTS / "attack.png"))  # type: ignore[attr-defined]
    pg.locator("#confirm").click()  # type: ignore[attr-defined]
    until(pg, "the attack listed", lambda: order in pending(pg))
    pg.locator("#pass").click()  # type: ignore[attr-defined]
    until(pg, "the combat passed", lambda: pending(pg)[-1:] == ["pass"])
    path = sent(pg, duo)
    verify_at_bot(duo, path)

    # The bot answers; the page follows without being reloaded.
    seen = pg.locator("#when").inner_text()  # type: ignore[attr-defined]
    bot_answers(duo)
    until(pg, "the bot's answer", lambda: pg.locator("#when").inner_text() != seen)  # type: ignore[attr-defined]
    pg.screenshot(path=str(SHOTS / "after-the-bot.png"))  # type: ignore[attr-defined]
