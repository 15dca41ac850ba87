"""Regenerate the screenshots in docs/images/table-*.png: each shipped game some way in, as P1 sees it,
the lobby, and The Queen's Wishes on a phone (390 x 844) with a piece pinned, waiting for the confirm.

    .venv/bin/python docs/table_screenshots.py      (needs Debian's chromium and chromium-driver)
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from meeple.dsl.compiler import shipped_rulesets  # noqa: E402
from meeple.interpreter.table.app import create_app  # noqa: E402
from tests.browser import Server, browser, need_chromium, placement_cell  # noqa: E402

STEPS = {"queens_wishes": 14, "wild_gardens": 24, "apothebakery": 40}


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
                players = max(2, hall.engine(game, {}, []).game.min_players)
                row = hall.create(game, players, {}, [], ["person"] * players, 7)
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
                driver.get(f"{server.url}/table/{row['id']}?token={row['seats'][0]['token']}")
                WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#table section"))
                path = ROOT / "docs" / "images" / f"table-{game}.png"
                path.parent.mkdir(exist_ok=True)
                driver.save_screenshot(str(path))
                print(path.relative_to(ROOT))
            phone(driver, hall, server, ROOT / "docs" / "images" / "table-phone.png")
            driver.get(server.url + "/")
            WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game option")
                                           and d.find_elements(By.CSS_SELECTOR, "#table-list .open-table"))
            driver.save_screenshot(str(ROOT / "docs" / "images" / "table-lobby.png"))
        finally:
            driver.quit()


def phone(driver, hall, server, path: Path) -> None:
    """The Queen's Wishes on a phone-sized screen: a placement tapped, the confirm asked."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    row = hall.create("queens_wishes", 2, {}, [], ["person", "person"], 7)
    live = hall.table(row["id"])
    while live.state["pending"].get("piece") is None or live.decision().actor != 0:
        live.choose(live.decision().actor, live.decision().options[0].id, live.state["step"])
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
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


if __name__ == "__main__":
    main()
