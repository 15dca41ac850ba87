"""Regenerate the screenshots in docs/images/table-*.png: each shipped game some way in, as P1 sees it
just after a move of theirs (what changed is outlined), at 1400 x 900 (table-GAME.png) and on a phone
at 390 x 844 (table-GAME-phone.png); the lobby; and The Queen's Wishes on a phone with a piece pinned,
waiting for the confirm (table-phone.png); a finished game offering the rematch, one seat having
conceded (table-over.png). The players are named (Ann, Bob, ...), as the lobby lets them be.

    .venv/bin/python docs/table_screenshots.py      (needs Debian's chromium and chromium-driver)
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple.dsl.compiler import shipped_rulesets  # noqa: E402
from meeple.interpreter.table.app import create_app  # noqa: E402
from tests.browser import Server, browser, need_chromium, placement_cell, socket_choose, wait_step  # noqa: E402

STEPS = {"queens_wishes": 14, "wild_gardens": 24, "apothebakery": 40}
NAMES = ["Ann", "Bob", "Cy", "Di"]


def main() -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    games = list(shipped_rulesets())
    app = create_app(games)
    hall = app.state.hall
    with Server(app) as server:
        driver = browser(need_chromium())
        try:
            for game in games:
                row, live = table(hall, game)
                url = f"{server.url}/table/{row['id']}?token={row['seats'][0]['token']}"
                for suffix, size in (("", (1400, 900)), ("-phone", (390, 844))):
                    show(driver, size)
                    driver.get(url)
                    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#table section"))
                    d = live.decision()
                    if d is not None and d.actor == 0 and not suffix:  # one move, so that what changed shows
                        socket_choose(
                            server,
                            row["id"],
                            row["seats"][0]["token"],
                            random.Random(3).choice(d.options).id,
                            live.state["step"],
                        )
                        wait_step(driver, live.state["step"])  # (a pawn picked changes nothing: no summary)
                        time.sleep(1.6)  # the outline's pulse is over: the picture shows what stays
                    path = ROOT / "docs" / "images" / f"table-{game}{suffix}.png"
                    path.parent.mkdir(exist_ok=True)
                    driver.save_screenshot(str(path))
                    print(path.relative_to(ROOT))
                show(driver, None)
            phone(driver, hall, server, ROOT / "docs" / "images" / "table-phone.png")
            driver.set_window_size(1400, 900)
            over(driver, hall, server, ROOT / "docs" / "images" / "table-over.png")
            lobby(driver, server, ROOT / "docs" / "images" / "table-lobby.png")
        finally:
            driver.quit()


def table(hall, game: str):
    """A two-seat table (or the game's fewest) some random moves in, P1 to decide."""
    players = max(2, hall.engine(game, {}, []).game.min_players)
    row = hall.create(game, players, {}, [], ["person"] * players, 7, NAMES[:players])
    live = hall.table(row["id"])
    rnd = random.Random(7)
    for _ in range(STEPS.get(game, 6)):
        d = live.decision()
        if d is None:
            break
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
    while live.decision() is not None and live.decision().actor != 0:
        d = live.decision()
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
    return row, live


def show(driver, size) -> None:
    """The window at a size (a phone's: a mobile viewport), or back to the browser's own."""
    if size is None:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        return
    driver.set_window_size(max(size[0], 500), size[1] + 140)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600},
    )


def phone(driver, hall, server, path: Path) -> None:
    """The Queen's Wishes on a phone-sized screen: a placement tapped, the confirm asked."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    row = hall.create("queens_wishes", 2, {}, [], ["person", "person"], 7, NAMES[:2])
    live = hall.table(row["id"])
    while live.state["pending"].get("piece") is None or live.decision().actor != 0:
        live.choose(live.decision().actor, live.decision().options[0].id, live.state["step"])
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
    )
    try:
        driver.get(f"{server.url}/table/{row['id']}?token={row['seats'][0]['token']}")
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".placing"))
        cell, _ = placement_cell(driver)
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", cell)
        cell.click()
        WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "confirm"))
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(path))
        print(path.relative_to(ROOT))
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def over(driver, hall, server, path: Path) -> None:
    """Apothebakery played to its end with Bob's seat conceded early: the result and the rematch."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    row = hall.create("apothebakery", 2, {}, [], ["person", "person"], 7, NAMES[:2])
    live = hall.table(row["id"])
    rnd = random.Random(7)
    for _ in range(30):
        d = live.decision()
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
    live.seated(live.concede_seat(1))
    while (d := live.decision()) is not None:  # Ann plays on; a bot plays Bob's seat
        live.commit(rnd.choice(d.options).id)
    driver.get(f"{server.url}/table/{row['id']}?token={row['seats'][0]['token']}")
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "rematch"))
    driver.save_screenshot(str(path))
    print(path.relative_to(ROOT))


def lobby(driver, server, path: Path) -> None:
    """The lobby with a table just made: the players' names typed, a link per person to copy."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver.get(server.url + "/")
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game option"))
    Select(driver.find_element(By.ID, "game")).select_by_value("wild_gardens")
    players = driver.find_element(By.ID, "players")
    players.clear()
    players.send_keys("3")
    driver.find_element(By.ID, "seed").click()  # leave the field: the seats redraw
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.ID, "seat-3"))
    Select(driver.find_element(By.ID, "seat-2")).select_by_value("person")
    Select(driver.find_element(By.ID, "seat-3")).select_by_value("greedy")
    driver.find_element(By.ID, "name-1").send_keys("Ann")
    driver.find_element(By.ID, "name-2").send_keys("Bob")
    driver.find_element(By.ID, "create").click()
    WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "a.seat-link"))
    driver.execute_script("document.getElementById('seat-choices').scrollIntoView()")  # the seats and the links
    driver.save_screenshot(str(path))
    print(path.relative_to(ROOT))


if __name__ == "__main__":
    main()
