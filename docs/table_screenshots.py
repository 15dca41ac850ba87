"""Regenerate the screenshots in docs/images/table-*.png: each shipped game some way in, as P1 sees it.

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
from tests.browser import Server, browser, need_chromium  # noqa: E402

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
            driver.get(server.url + "/")
            WebDriverWait(driver, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game option")
                                           and d.find_elements(By.CSS_SELECTOR, "#table-list .open-table"))
            driver.save_screenshot(str(ROOT / "docs" / "images" / "table-lobby.png"))
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
