"""End to end in a real browser: ``arena web`` serving a copy of the test database, Debian's
headless chromium driven by selenium. The front page's leaderboards (and their live update
while a tournament writes the same file), a bot page's plot, a match page's replay viewer
checked against the engine, no JavaScript error on any page, a screenshot of each."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena import games
from arena.replays import files as replay
from arena.replays.compact import expand
from arena.results.store import open_store
from tests.web.browser import (
    WAIT_SECONDS,
    arena_command,
    chromium,
    console_errors,
    get_json,
    missing_browser,
    poll,
    web_server,
)

pytestmark = pytest.mark.skipif(missing_browser() is not None, reason=str(missing_browser()))

LIVE_TOURNAMENT = (
    "--bot", "random", "--bot", "aggressive", "--bot", "continent", "--seats", "3",
    "--rules", "max_rounds=6", "--seed", "21", "--name", "web-live",
)  # fmt: skip
"""Three more matches of the classic pool the test database already has."""
RUN_FLAGS = ("--in-process", "--no-progress")


@pytest.fixture(scope="module")
def served(
    results_db: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    """A writable copy of the test database (a tournament will write to it) and the base URL
    of ``arena web`` serving it."""
    folder = tmp_path_factory.mktemp("web-browser")
    db = folder / "arena.db"
    shutil.copyfile(results_db, db)
    db.chmod(0o644)
    with web_server(db, folder / "server.log") as url:
        yield url, db


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as driver:
        yield driver


def open_page(driver: Any, url: str, shot: Path) -> None:
    """Load ``url`` with a clean console log; the caller checks the page, then :func:`done`."""
    console_errors(driver)
    driver.get(url)
    driver.save_screenshot(str(shot))
    errors = driver.find_elements("css selector", "#error-message")
    assert not errors, f"{url}: {errors[0].text}"


def done(driver: Any, shot: Path) -> None:
    """The page as checked, saved as a screenshot, with nothing in the console's errors."""
    driver.save_screenshot(str(shot))
    assert shot.stat().st_size > 0
    assert console_errors(driver) == []


def shown_games(driver: Any) -> dict[str, list[str]]:
    """{pool: the games column of its leaderboard} as the front page shows it."""
    return driver.execute_script(
        "const out = {};"
        "for (const s of document.querySelectorAll('#boards section.board')) {"
        "  out[s.dataset.pool] = [...s.querySelectorAll('td.games')].map(td => td.textContent);"
        "}"
        "return out;"
    )


def test_front_page_shows_every_pool(
    served: tuple[str, Path], browser: Any, tmp_path: Path
) -> None:
    url, _ = served
    open_page(browser, f"{url}/", tmp_path / "front.png")
    pools = {entry["pool"] for entry in get_json(f"{url}/api/pools")}
    assert {"classic/3p/world", "europe/2p"} <= pools
    shown = poll("every pool's leaderboard", lambda: shown_games(browser))
    assert set(shown) == pools
    for pool in pools:
        board = get_json(f"{url}/api/leaderboards/{pool}")
        assert shown[pool] == [str(row["games"]) for row in board["rows"]]
    done(browser, tmp_path / "front.png")


def test_front_page_updates_while_a_tournament_runs(
    served: tuple[str, Path], browser: Any, tmp_path: Path
) -> None:
    url, db = served
    open_page(browser, f"{url}/", tmp_path / "live-before.png")
    before = poll("the leaderboards", lambda: shown_games(browser))
    home = tmp_path / "home"
    home.mkdir()
    with (tmp_path / "tournament.log").open("w") as log:
        tournament = subprocess.Popen(
            arena_command("tournament", "run", *LIVE_TOURNAMENT, *RUN_FLAGS, "--db", str(db)),
            env={**os.environ, "ARENA_HOME": str(home)},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:

        def changed() -> bool:
            refreshed = browser.execute_script(
                "return document.getElementById('boards').dataset.refreshed || null"
            )
            running = browser.find_elements("css selector", "#boards .progress progress")
            return bool(refreshed) and (bool(running) or shown_games(browser) != before)

        poll("the leaderboards to change while the tournament runs", changed)
        browser.save_screenshot(str(tmp_path / "live-during.png"))
        assert tournament.wait(timeout=3 * WAIT_SECONDS) == 0, tmp_path / "tournament.log"
    finally:
        if tournament.poll() is None:
            tournament.kill()
            tournament.wait()
    board = get_json(f"{url}/api/leaderboards/classic/3p/world")
    final = [str(row["games"]) for row in board["rows"]]
    assert final != before["classic/3p/world"]
    poll(
        "the front page to show the finished tournament's games",
        lambda: (
            shown_games(browser).get("classic/3p/world") == final
            and not browser.find_elements("css selector", "#boards .progress")
        ),
    )
    done(browser, tmp_path / "live-after.png")


def test_bot_page_shows_its_rating_plot(
    served: tuple[str, Path], browser: Any, tmp_path: Path
) -> None:
    url, _ = served
    open_page(browser, f"{url}/bots/random", tmp_path / "bot.png")
    assert "random" in browser.title
    plots = poll("the rating plot", lambda: browser.find_elements("css selector", "main svg"))
    assert plots[0].is_displayed()
    done(browser, tmp_path / "bot.png")


# -- the replay viewer against the engine ---------------------------------------------------


def engine_positions(replay_bytes: bytes) -> list[dict[str, tuple[int, int]]]:
    """{territory: (owner, armies)} after each step of a classic replay, re-played through the
    game: step 0 is the start, step n follows the n-th record (records that change nothing
    repeat the position)."""
    header, records = replay.parse(replay_bytes.decode("utf-8"))
    game, state = replay.start(header)
    names = game.board()["territories"]

    def position() -> dict[str, tuple[int, int]]:
        return {name: (state.owner[i], state.armies[i]) for i, name in enumerate(names)}

    positions = [position()]
    for record in records:
        step = replay.apply_record(game, state, record)
        state = state if step is None else step.state
        positions.append(position())
    return positions


def shown_map(driver: Any, names: list[str]) -> dict[str, tuple[int, int]]:
    """{territory: (owner, armies)} as the map shows it (``data-territory`` by name or index)."""
    cells = driver.execute_script(
        "return [...document.querySelectorAll('svg [data-territory]')].map(e =>"
        " [e.dataset.territory, e.dataset.owner, e.dataset.armies]);"
    )
    shown = {}
    for territory, owner, armies in cells:
        name = names[int(territory)] if territory.isdigit() else territory
        shown[name] = (int(owner), int(armies))
    return shown


def shown_step(driver: Any) -> int:
    return int(driver.find_element("css selector", "#step").text.split()[0])


def test_match_replay_steps_through_the_engines_positions(
    served: tuple[str, Path], browser: Any, tmp_path: Path
) -> None:
    url, db = served
    with open_store(db, read_only=True) as store:
        match = next(m for m in store.matches() if m["game"] == "classic")
        positions = engine_positions(expand(store.replay(match["id"])))
    names = list(positions[0])
    open_page(browser, f"{url}/matches/{match['id']}", tmp_path / "match.png")
    poll("the map", lambda: len(shown_map(browser, names)) == len(names))

    def matches_engine() -> bool:
        step = shown_step(browser)
        return shown_map(browser, names) == positions[step]

    start = shown_step(browser)
    poll(f"the map at step {start} to equal the engine's", matches_engine)
    forward = browser.find_element("css selector", "#forward")
    back = browser.find_element("css selector", "#back")
    for _ in range(5):
        forward.click()
    poll("five steps forward", lambda: shown_step(browser) == start + 5)
    poll("the map five steps on to equal the engine's", matches_engine)
    assert positions[start + 5] != positions[start]  # the steps changed the board
    browser.save_screenshot(str(tmp_path / "match-forward.png"))
    for _ in range(2):
        back.click()
    poll("two steps back", lambda: shown_step(browser) == start + 3)
    poll("the map two steps back to equal the engine's", matches_engine)
    browser.find_element("css selector", "#last").click()
    poll("the last step", lambda: shown_step(browser) == len(positions) - 1)
    poll("the final map to equal the engine's", matches_engine)
    done(browser, tmp_path / "match.png")


# -- the viewer's layout, links to a step, slider, attacks and colours -----------------------


def _rgb(css: str) -> tuple[int, int, int]:
    """``rgb(r, g, b)`` or ``#rrggbb`` as a triple."""
    if css.startswith("#"):
        return (int(css[1:3], 16), int(css[3:5], 16), int(css[5:7], 16))
    r, g, b = (int(float(v)) for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])
    return (r, g, b)


def _lab(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    """CIE L*a*b* of an sRGB colour (D65), to measure how different two colours look."""
    lin = [
        c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (v / 255 for v in rgb)
    ]
    x = (0.4124 * lin[0] + 0.3576 * lin[1] + 0.1805 * lin[2]) / 0.95047
    y = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    z = (0.0193 * lin[0] + 0.1192 * lin[1] + 0.9505 * lin[2]) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def colour_distance(a: str, b: str) -> float:
    """CIE76 ΔE between two CSS colours: below about 25, two rings read as the same colour."""
    return float(
        sum((p - q) ** 2 for p, q in zip(_lab(_rgb(a)), _lab(_rgb(b)), strict=True)) ** 0.5
    )


def map_fits_the_window(driver: Any) -> bool:
    return bool(
        driver.execute_script(
            "const r = document.getElementById('map').getBoundingClientRect();"
            "return r.height > 300 && r.top >= 0 && r.left >= 0"
            " && r.bottom <= window.innerHeight && r.right <= window.innerWidth;"
        )
    )


def loaded(driver: Any) -> bool:
    return bool(driver.execute_script("return document.getElementById('viewer').dataset.loaded"))


def test_the_viewer_opens_at_a_linked_step_slides_and_draws_its_attacks(
    served: tuple[str, Path], browser: Any, tmp_path: Path
) -> None:
    from selenium.webdriver.common.keys import Keys

    url, db = served
    with open_store(db, read_only=True) as store:
        match = next(m for m in store.matches() if m["game"] == "classic")
    frames = get_json(f"{url}/api/matches/{match['id']}/frames?count=1000")["frames"]
    step = next(f["step"] for f in frames if f["attacks"] and f["step"] + 1 < len(frames))
    attacks = frames[step]["attacks"]
    page = f"{url}/matches/{match['id']}"
    open_page(browser, f"{page}?step={step}", tmp_path / "linked.png")
    poll("the viewer to load", lambda: loaded(browser))
    poll(f"the linked step {step}", lambda: shown_step(browser) == step)
    assert map_fits_the_window(browser), "the whole map is visible without scrolling"
    drawn = browser.execute_script(
        "return [...document.querySelectorAll('#map .attack-mark')].map(g =>"
        " [Number(g.dataset.from), Number(g.dataset.to), g.querySelector('text').textContent]);"
    )
    assert [(a, b) for a, b, _ in drawn] == [(x["from"], x["to"]) for x in attacks]
    for (_, _, label), attack in zip(drawn, attacks, strict=True):
        attacker, defender = (
            "·".join(map(str, sorted(attack[side], reverse=True)))
            for side in ("attacker_dice", "defender_dice")
        )
        assert label.startswith(f"⚔ {attacker} vs {defender} ("), label
    browser.save_screenshot(str(tmp_path / "attack.png"))

    slider = browser.find_element("css selector", "#slider")
    slider.send_keys(Keys.ARROW_RIGHT)
    poll("the slider to move one step", lambda: shown_step(browser) == step + 1)
    poll("the URL to name the step", lambda: browser.current_url == f"{page}?step={step + 1}")
    assert len(browser.find_elements("css selector", "#map .attack-mark")) == len(
        frames[step + 1]["attacks"]
    )
    slider.send_keys(Keys.HOME)
    poll("the slider at the start", lambda: shown_step(browser) == 0)
    poll("the URL at step 0", lambda: browser.current_url == f"{page}?step=0")

    rings = browser.execute_script(
        "const out = {};"
        "for (const g of document.querySelectorAll('#map [data-continent]')) {"
        "  out[g.dataset.continent] = getComputedStyle(g.querySelector('.disc')).stroke; }"
        "const root = getComputedStyle(document.documentElement);"
        "const owners = [0, 1, 2, 3, 4, 5].map(k => root.getPropertyValue('--owner-' + k).trim());"
        "return [out, owners.concat([root.getPropertyValue('--neutral').trim()])];"
    )
    continents, owners = rings
    assert len(continents) == 6
    for name, ring in continents.items():
        nearest = min(colour_distance(ring, owner) for owner in owners)
        assert nearest >= 25, (
            f"{name}'s ring {ring} looks like a player's colour (ΔE {nearest:.1f})"
        )
    done(browser, tmp_path / "linked.png")


def test_the_whole_europe_map_is_in_the_window(
    served: tuple[str, Path], browser: Any, tmp_path: Path
) -> None:
    url, db = served
    with open_store(db, read_only=True) as store:
        match = next(m for m in store.matches() if m["game"] == "europe")
    open_page(browser, f"{url}/matches/{match['id']}", tmp_path / "europe.png")
    poll("the viewer to load", lambda: loaded(browser))
    assert map_fits_the_window(browser)
    assert "step=" not in browser.current_url  # the page as opened names no step
    done(browser, tmp_path / "europe.png")


# -- what the viewer draws is what each frame says ------------------------------------------


def drawn_regions(driver: Any) -> list[dict[str, Any]]:
    """Each territory as the map shows it: owner, count, units, ring (its colour), badges."""
    found = driver.execute_script(
        "return [...document.querySelectorAll('#map .territory')].map(g => {"
        "  const ring = g.querySelector('.attacker');"
        "  return {territory: Number(g.dataset.territory), owner: Number(g.dataset.owner),"
        "    count: Number(g.dataset.armies), units: g.dataset.units || '',"
        "    ring: ring.getAttribute('visibility') === 'visible' ? ring.style.stroke : null,"
        "    badges: [...g.querySelectorAll('.badge')].map(b => [b.getAttribute('class'),"
        "      b.textContent])}; });"
    )
    return [{**t, "ring": t["ring"] and _rgb(t["ring"])} for t in found]


def expected_regions(frame: dict[str, Any], colours: dict[int, str]) -> list[dict[str, Any]]:
    """What the map must show of each territory, read from the frame alone."""
    regions = frame["regions"]
    found = []
    for i, owner in enumerate(regions["owner"]):
        units = regions.get("units", [[]] * len(regions["owner"]))[i]
        ring = regions.get("ring", [None] * len(regions["owner"]))[i]
        found.append(
            {
                "territory": i,
                "owner": owner,
                "count": regions["count"][i],
                "units": ";".join(
                    f"{u['side']}:" + ",".join(map(str, u["counts"].values())) for u in units
                ),
                "ring": None if ring is None else _rgb(colours[ring]),
                "badges": [
                    [f"badge {b['style']}", b["text"]]
                    for b in regions.get("badges", [[]] * len(regions["owner"]))[i]
                ],
            }
        )
    return found


def drawn_panel(driver: Any) -> list[list[str]]:
    return driver.execute_script(
        "return [...document.querySelectorAll('#armies tr')].map(tr =>"
        " [...tr.cells].map(c => c.textContent));"
    )


def shows_frame(
    driver: Any, frame: dict[str, Any], colours: dict[int, str], legend: dict[int, Any]
) -> None:
    """The map, the arrows and the side panel show ``frame`` exactly."""
    expected = expected_regions(frame, colours)
    try:
        poll(f"the map at step {frame['step']}", lambda: drawn_regions(driver) == expected)
    except AssertionError:
        wrong = [(d, e) for d, e in zip(drawn_regions(driver), expected, strict=True) if d != e]
        raise AssertionError(f"territories drawn ≠ the frame's: {wrong[:3]}") from None
    drawn = driver.execute_script(
        "return [...document.querySelectorAll('#map .attack-mark')].map(g =>"
        " [Number(g.dataset.from), Number(g.dataset.to), g.querySelector('text').textContent,"
        "  g.querySelector('title').textContent]);"
    )
    assert drawn == [[a["from"], a["to"], a["label"], a["title"]] for a in frame["arrows"]]
    panel = frame["panel"]
    assert drawn_panel(driver) == [
        ["", *panel["columns"]],
        *(["■", legend[r["side"]]["name"], *map(str, r["cells"])] for r in panel["rows"]),
    ]


@pytest.mark.parametrize("game", games.GAMES)
def test_the_viewer_draws_what_each_frame_says(
    served: tuple[str, Path], browser: Any, tmp_path: Path, game: str
) -> None:
    """Territories (owner, count, units, the attacker's ring in its colour, badges), arrows
    and the side panel, for every game alike: the viewer adds nothing of its own."""
    url, db = served
    with open_store(db, read_only=True) as store:
        match = next(m for m in store.matches() if m["game"] == game)
    frames = get_json(f"{url}/api/matches/{match['id']}/frames?count=1000")["frames"]
    legend = {s["side"]: s for s in frames[0]["legend"]}

    def busy(f: dict[str, Any]) -> int:  # rings, badges and arrows are what a step may lack
        regions = f["regions"]
        rings = sum(r is not None for r in regions.get("ring", []))
        return rings + len(f["arrows"]) + sum(map(len, regions.get("badges", [])))

    step = max(range(len(frames) - 1), key=lambda k: busy(frames[k]))
    open_page(browser, f"{url}/matches/{match['id']}?step={step}", tmp_path / f"{game}.png")
    poll("the viewer to load", lambda: loaded(browser))
    colours = browser.execute_script(
        "const root = getComputedStyle(document.documentElement);"
        "return Object.fromEntries(arguments[0].map(s =>"
        " [s.side, root.getPropertyValue('--' + s.colour).trim()]));",
        frames[0]["legend"],
    )
    colours = {int(side): value for side, value in colours.items()}
    assert all(colours.values()), f"every legend colour is the stylesheet's: {colours}"
    shows_frame(browser, frames[step], colours, legend)
    browser.find_element("css selector", "#forward").click()
    poll(f"step {step + 1}", lambda: shown_step(browser) == step + 1)
    shows_frame(browser, frames[step + 1], colours, legend)
    browser.save_screenshot(str(tmp_path / f"{game}-drawn.png"))
    done(browser, tmp_path / f"{game}.png")
