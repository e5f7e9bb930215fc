"""The arena's yardstick: the territorial margin T, its marks, and `compare`."""

from __future__ import annotations

from engine import api
from engine.ai import arena
from engine.state import date_text
from tests.ai.worlds import FRONT_WORLD, at_war


def test_margin_counts_cities_taken_by_each_side_from_the_start() -> None:
    state = at_war()
    cities = arena.city_hexes(state)
    start = {h: state.side_controlling(h) for h in cities}
    city = state.world.map.city_by_name
    assert len(cities) == 4  # cities only: the resource hex 1,1 is no objective of T
    assert arena.margin(state, cities, start) == 0
    state.set_controller(city["warsaw"].hex, "Germany")
    state.set_controller(city["krakow"].hex, "Germany")
    assert arena.margin(state, cities, start) == 2
    state.set_controller(city["breslau"].hex, "Poland")
    assert arena.margin(state, cities, start) == 1
    # taking back one's own city cancels the other side's gain, it scores nothing itself
    state.set_controller(city["krakow"].hex, "Poland")
    assert arena.margin(state, cities, start) == 0


def test_a_game_reads_the_margin_at_its_marks_and_not_beyond_its_end() -> None:
    marks = (date_text(1), date_text(2), date_text(9))
    r = arena.play_game(FRONT_WORLD, 3, {"axis": "bot", "allies": "v1"}, seed=2, setup=_war, marks=marks)
    assert not r.error
    assert r.margin[marks[2]] is None  # the game stopped before it
    assert isinstance(r.margin[marks[0]], int) and isinstance(r.margin[marks[1]], int)
    assert r.victory == ""
    assert f"margin T: {marks[0]} {r.margin[marks[0]]:+d}" in r.line()
    assert set(r.empty_capitals) == set(r.empty_home_cities) == {"axis", "allies"}
    assert "empty within an enemy's reach (as the enemy was to move): capitals axis" in r.line()
    summary = arena.summarize([r, r])
    assert summary.mean_margin[marks[1]] == (float(r.margin[marks[1]] or 0), 2)


def test_compare_pairs_each_player_against_the_reference_by_seed() -> None:
    lines: list[str] = []
    played: list[dict[str, str]] = []
    marks = (date_text(2),)
    found = arena.compare(
        FRONT_WORLD,
        date_text(3),
        2,
        "bot",
        "random",
        seed=4,
        report=lines.append,
        on_game=lambda r, players: played.append(players),
        marks=marks,
        setup=_war,
    )
    # bot and random, each as either side against v1, on two seeds
    assert len(played) == 8
    assert {"axis": "random", "allies": "v1"} in played
    rows = found.margins["axis"][marks[0]]
    assert len(rows["bot"]) == len(rows["random"]) == 2
    d = found.difference("axis", marks[0])
    assert d is not None and d.n == 2
    diffs = [x - y for x, y in zip(rows["bot"], rows["random"], strict=True)]  # type: ignore[operator]
    assert d.mean == sum(diffs) / 2
    assert d.se == abs(diffs[0] - diffs[1]) / 2  # the standard error of a mean of two
    assert lines[-2].startswith("as the axis (against v1 as the allies): ")
    assert f"difference {d.mean:+.1f} (standard error {d.se:.1f}, 2 seeds)" in lines[-2]
    assert found.to_json()["difference"]["allies"][marks[0]]["seeds"] == 2  # type: ignore[index]


def test_the_reference_against_itself_is_played_once_per_seed() -> None:
    played: list[dict[str, str]] = []
    arena.compare(FRONT_WORLD, date_text(1), 1, "bot", "v1", on_game=lambda r, p: played.append(p), setup=_war)
    assert sorted(p["axis"] + "/" + p["allies"] for p in played) == ["bot/v1", "v1/bot", "v1/v1"]


def test_paired_standard_error() -> None:
    p = arena.Paired.of([1, 3, 5, 7])
    assert p.mean == 4.0
    assert p.se is not None and abs(p.se - (20 / 3 / 4) ** 0.5) < 1e-12
    assert arena.Paired.of([2]).se is None


def _war(state: arena.GameState) -> None:
    from engine.war import enter_war

    enter_war(state, "Germany", "axis")
    enter_war(state, "Poland", "allies")


def test_a_game_resumed_where_a_month_began_ends_as_the_whole_game() -> None:
    """A late-war change is measured from a month's start without the years before: the
    game handed on as a month began, resumed, ends in the same state with the same margins."""
    marks = (date_text(2), date_text(3))
    kept: dict[int, arena.Resume] = {}

    def keep(r: arena.Resume) -> None:
        kept[r.state.date] = arena.Resume(r.state.copy(), r.decisions, r.chances)

    ends: list[bytes] = []
    players = {"axis": "bot", "allies": "v1"}
    whole = arena.play_game(
        FRONT_WORLD, 4, players, seed=2, setup=_war, marks=marks, on_resume=keep,
        on_month=lambda s: ends.append(api.state_hash(s)),
    )  # fmt: skip
    assert not whole.error and sorted(kept) == [1, 2, 3, 4]
    resumed_ends: list[bytes] = []
    part = arena.play_game(
        FRONT_WORLD, 4, players, seed=2, setup=_war, marks=marks, resume=kept[2],
        on_month=lambda s: resumed_ends.append(api.state_hash(s)),
    )  # fmt: skip
    assert resumed_ends == ends[2:]
    assert (part.held, part.gained, part.winner) == (whole.held, whole.gained, whole.winner)
    assert part.margin == whole.margin  # both marks read after month 2 began, from the same start
    assert len(part.month_seconds) == 2  # the months played in this call
    # the kept state was a copy: resuming from month 1 goes through month 2's state again
    again: list[bytes] = []
    arena.play_game(
        FRONT_WORLD, 4, players, seed=2, setup=_war, resume=kept[1], on_month=lambda s: again.append(api.state_hash(s))
    )
    assert again == ends[1:]
