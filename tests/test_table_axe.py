"""Accessibility: axe-core (the npm package) run in headless Chromium on the lobby, on a table of
The Queen's Wishes (a placement asked, then the final scores as a spectator sees them) and on
every shipped game's table some moves in, after a change (so what changed is outlined).
axe-core is installed once with npm into tests/.cache/ (git-ignored); without npm this test skips and
says why, without Chromium too. Every rule axe reports as violated fails the test, named."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from meeple.dsl.compiler import shipped_rulesets
from meeple.interpreter.table.pages import seat_page
from tests.browser import Server, browser, need_chromium, socket_choose, wait_for, wait_step

pytest.importorskip("selenium")

AXE_VERSION = "4"  # the major version; npm takes the newest 4.x
CACHE = Path(__file__).resolve().parent / ".cache"


def axe_source() -> str:
    """axe.min.js, installed with npm on first use (into a temporary folder, then moved in whole,
    so two test processes never see half an install)."""
    target = CACHE / "axe-core"
    script = target / "node_modules" / "axe-core" / "axe.min.js"
    if not script.exists():
        npm = shutil.which("npm")
        if npm is None:
            pytest.skip("the accessibility test needs npm to install axe-core (apt-get install npm)")
        CACHE.mkdir(exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix="axe-", dir=CACHE))
        subprocess.run(
            [
                npm,
                "install",
                "--prefix",
                str(work),
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
                f"axe-core@{AXE_VERSION}",
            ],
            check=True,
            timeout=300,
            capture_output=True,
        )
        try:
            os.rename(work, target)
        except OSError:  # another process got there first
            shutil.rmtree(work, ignore_errors=True)
    return script.read_text(encoding="utf-8")


def violations(driver, source: str) -> list[str]:
    """What axe finds on the page as it is now: `rule-id (count): the first element's selector`."""
    driver.execute_script(source)
    found = driver.execute_async_script("""const done = arguments[arguments.length - 1];
        axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations.map(
          (v) => `${v.id} (${v.nodes.length}): ` + [...new Set(v.nodes.map((n) => n.target.join(' ').replace(/\\[[^\\]]*\\]/g, '')))].join(', '))),
          (e) => done(['axe failed: ' + e]));""")
    return found


@pytest.fixture(scope="module")
def site():
    driver_path = need_chromium()
    source = axe_source()
    from meeple.interpreter.table.app import create_app

    with Server(create_app(list(shipped_rulesets()))) as server:
        driver = browser(driver_path)
        driver.set_script_timeout(60)
        try:
            yield server, driver, source
        finally:
            driver.quit()


def test_the_lobby_and_a_table_have_no_accessibility_violations(site):
    server, driver, source = site
    found = {}
    driver.get(server.url + "/")
    wait_for(driver, "#game option")
    found["lobby"] = violations(driver, source)
    driver.find_element("id", "create").click()
    wait_for(driver, "a.seat-link")
    found["lobby with links"] = violations(driver, source)
    hall = server.app.state.hall
    row = hall.create("queens_wishes", 2, {}, [], ["person", "person"], 5)
    live = hall.table(row["id"])
    for _ in range(2):  # P1 has chosen a bag and a tile: the placement is asked
        live.choose(0, live.decision().options[0].id, live.state["step"])
    driver.get(f"{server.url}/table/{row['id']}?token={row['seats'][0]['token']}")
    wait_for(driver, ".placing")
    found["table, placing"] = violations(driver, source)
    while live.decision() is not None:
        d = live.decision()
        live.choose(d.actor, d.options[0].id, live.state["step"])
    driver.get(f"{server.url}/table/{row['id']}?token={row['spectator']}")
    wait_for(driver, ".scores")
    found["table, the end"] = violations(driver, source)
    print({k: len(v) for k, v in found.items()})
    assert not any(found.values()), found


@pytest.mark.parametrize("game", sorted(shipped_rulesets()))
def test_every_shipped_games_table_has_no_accessibility_violations(site, game):
    """Some random moves in (a fixed seed), P1 to decide, as P1 sees it after one more change
    arrived while the page was open: the outlines and the summary of what changed are checked too."""
    import random

    server, driver, source = site
    hall = server.app.state.hall
    players = max(2, hall.engine(game, {}, []).game.min_players)
    row = hall.create(game, players, {}, [], ["person"] * players, 7)
    live = hall.table(row["id"])
    rnd = random.Random(7)
    for _ in range(12):
        d = live.decision()
        if d is None:
            break
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
    while live.decision() is not None and live.decision().actor != 0:
        d = live.decision()
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
    driver.get(f"{server.url}/table/{row['id']}?token={row['seats'][0]['token']}")
    wait_for(driver, "#table section")
    found = violations(driver, source)
    d = live.decision()
    if d is not None:  # P1 moves: the page shows what changed
        socket_choose(server, row["id"], row["seats"][0]["token"], d.options[0].id, live.state["step"])
        wait_step(driver, live.state["step"])
        if seat_page(live, 0)["since"]:  # (a choice that changed nothing has no summary)
            wait_for(driver, "#since")
        found += violations(driver, source)
    assert not found, found
