"""The table page's states in headless Chromium: a phone (390 x 844, emulated as a mobile device, so
the viewport tag matters) placing by taps with a confirm, the hot-seat "pass the device" screen,
a lost connection (the server stopped and started again on its database), and links that cannot
work. Screenshots go to tests/artifacts/. Without Chromium these tests skip and say why."""

from __future__ import annotations

import json
import time

import pytest

from tests.browser import (
    WAIT,
    Server,
    browser,
    need_chromium,
    page_step,
    placement_cell,
    screenshot,
    socket_choose,
    wait_for,
    wait_step,
)

pytest.importorskip("selenium")
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

TITLE = "The Queen's Wishes"


@pytest.fixture(scope="module")
def site():
    driver_path = need_chromium()
    from meeple.interpreter.table.app import create_app

    with Server(create_app(["queens_wishes"])) as server:
        driver = browser(driver_path)
        try:
            yield server, driver
        finally:
            driver.quit()


def tap(driver, element) -> None:
    """Bring an element to the middle of the screen (clear of the sticky decision panel), and click it."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def mine(driver) -> bool:
    return driver.execute_script("return !!(current && current.decision && current.decision.mine)")


def test_a_phone_places_tiles_by_taps_with_a_preview_and_a_confirm(site):
    server, driver = site
    hall = server.app.state.hall
    row = hall.create("queens_wishes", 2, {}, [], ["person", "person"], 5)
    live = hall.table(row["id"])
    tokens = [s["token"] for s in row["seats"]]
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
    )
    driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    try:
        driver.get(f"{server.url}/table/{row['id']}?token={tokens[0]}")
        wait_for(driver, "#table section")
        # laid out at the phone's width (without the viewport tag a mobile browser lays out 980 px and shrinks)
        assert driver.execute_script("return window.innerWidth") == 390
        layout = driver.execute_script("""
            const left = document.getElementById('left').getBoundingClientRect(),
                  aside = document.querySelector('aside').getBoundingClientRect(),
                  grid = document.querySelector('.grid').getBoundingClientRect();
            return {scroll: document.documentElement.scrollWidth, aside: aside.top >= left.bottom - 1,
                    grid: grid.right, font: parseFloat(getComputedStyle(document.body).fontSize),
                    log: parseFloat(getComputedStyle(document.getElementById('log')).fontSize)}""")
        assert layout["scroll"] <= 390, layout  # nothing makes the page scroll sideways
        assert layout["aside"] and layout["grid"] <= 390, layout  # one column; the grid fits the width
        assert layout["font"] >= 14 and layout["log"] >= 14, layout
        placed = 0
        while placed < 2:
            d, step = live.decision(), live.state["step"]
            if d.actor != 0:
                socket_choose(server, row["id"], tokens[d.actor], d.options[0].id, step)
                continue
            wait_step(driver, step)
            WebDriverWait(driver, WAIT).until(mine)
            # the tab says it is your turn; the header says whose turn, not the engine's step and phase
            assert driver.title == f"● Your turn — {TITLE} · P1"
            status = driver.find_element(By.ID, "status").text
            assert "your turn" in status and "start player: P" in status, status
            assert "step" not in status and "phase" not in status, status
            if not driver.execute_script("return !!current.decision.placement"):
                tap(
                    driver,
                    (
                        driver.find_elements(By.CSS_SELECTOR, ".card.choosable")
                        or driver.find_elements(By.CSS_SELECTOR, "button.option")
                    )[0],
                )
                wait_step(driver, step + 1)
                continue
            cell, option = placement_cell(driver)
            tap(driver, cell)  # a tap pins the piece: previewed, not placed
            assert driver.find_elements(By.CSS_SELECTOR, ".cell.preview.pinned.ok")
            time.sleep(0.3)
            assert live.state["step"] == step and page_step(driver) == step
            confirm = driver.find_element(By.ID, "confirm")
            assert confirm.is_enabled() and confirm.is_displayed()
            if placed == 0:
                screenshot(driver, "phone-confirm")
                driver.find_element(By.ID, "cancel-place").click()  # let go: nothing pinned, nothing placed
                assert not driver.find_elements(By.CSS_SELECTOR, ".cell.pinned")
                cell, option = placement_cell(driver)
                tap(driver, cell)
                confirm = driver.find_element(By.ID, "confirm")
            confirm.click()
            wait_step(driver, step + 1)
            assert live.choices[-1] == option
            placed += 1
        d = live.decision()
        if d.actor != 0:  # someone else's turn: the tab stops calling
            WebDriverWait(driver, WAIT).until(lambda dr: not mine(dr))
            assert driver.title == f"{TITLE} · P1"
            assert driver.find_element(By.ID, "turn").text == f"P{d.actor + 1}'s turn"
        driver.execute_script("window.scrollTo(0, 0)")
        screenshot(driver, "phone-table")
        driver.get(server.url + "/")
        wait_for(driver, "#game option")
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
        screenshot(driver, "phone-lobby")
    finally:
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": False})
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_hot_seat_hides_everything_until_the_next_person_is_ready(site):
    server, driver = site
    hall = server.app.state.hall
    row = hall.create("queens_wishes", 2, {}, [], ["person", "person"], 5)
    live = hall.table(row["id"])
    while live.decision().actor != 1:  # P1's turn taken: P2 decides next
        live.choose(0, live.decision().options[0].id, live.state["step"])
    tokens = {f"P{i + 1}": s["token"] for i, s in enumerate(row["seats"])}
    driver.get(server.url + "/")
    driver.execute_script(
        "localStorage.setItem(arguments[0], arguments[1])",
        f"meeple-seats-{row['id']}",
        json.dumps({"P1": tokens["P1"], "P2": tokens["P2"]}, separators=(", ", ": ")),
    )
    driver.get(f"{server.url}/table/{row['id']}?token={tokens['P1']}")
    wait_for(driver, "#switch")[0].click()
    passing = driver.find_element(By.ID, "pass")
    assert passing.is_displayed() and driver.find_element(By.ID, "pass-to").text == "Pass the device to P2"
    # nothing of either seat is on the page, nor on its way: the socket waits for P2
    assert not driver.find_element(By.ID, "page").is_displayed()
    assert driver.execute_script("""return current === null && socket === null
        && !document.querySelector('#table *, #log *, #decision *') && !document.getElementById('seats').children.length""")
    assert driver.title == "Pass to P2"
    screenshot(driver, "hot-seat-pass")
    driver.find_element(By.ID, "pass-ready").click()
    WebDriverWait(driver, WAIT).until(lambda d: d.execute_script("return !!current && current.seat === 1"))
    assert not passing.is_displayed() and driver.find_element(By.ID, "you").text == "you are P2"
    WebDriverWait(driver, WAIT).until(mine)
    # the seat tabs ask for the same pass: going back to P1 hides P2's seat first
    next(t for t in driver.find_elements(By.CSS_SELECTOR, ".seat-tab") if t.text == "P1").click()
    assert driver.find_element(By.ID, "pass-to").text == "Pass the device to P1"


def test_a_lost_connection_greys_the_panel_refuses_clicks_and_recovers(site, tmp_path):
    """The server stops (the page's socket closes) and starts again on its database."""
    _, driver = site
    from meeple.interpreter.table.app import create_app

    db = str(tmp_path / "tables.sqlite")
    first = create_app(["queens_wishes"], db)
    row = first.state.hall.create("queens_wishes", 2, {}, [], ["person", "person"], 5)
    with Server(first) as server:
        port = server.port
        driver.get(f"{server.url}/table/{row['id']}?token={row['seats'][0]['token']}")
        wait_for(driver, "button.option")
    first.state.hall.store.close()  # the server is gone; its lock on the database goes with it
    banner = driver.find_element(By.ID, "connection")
    WebDriverWait(driver, WAIT).until(lambda d: banner.is_displayed())
    assert "Connection lost" in banner.text
    assert driver.execute_script("return getComputedStyle(arguments[0]).position", banner) == "fixed"
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")  # it stays in sight
    assert driver.execute_script(
        """const r = arguments[0].getBoundingClientRect();
        return r.bottom <= window.innerHeight + 1 && r.top >= 0""",
        banner,
    )
    assert "offline" in driver.find_element(By.ID, "decision").get_attribute("class")
    screenshot(driver, "connection-lost")
    tap(driver, driver.find_element(By.CSS_SELECTOR, "button.option"))  # refused where the eye is
    assert "Not sent" in banner.text and "refused" in banner.get_attribute("class")
    again = create_app(["queens_wishes"], db)
    with Server(again, port=port):
        WebDriverWait(driver, WAIT).until(lambda d: not banner.is_displayed())
        assert "offline" not in driver.find_element(By.ID, "decision").get_attribute("class")
        assert not driver.find_element(By.ID, "error").is_displayed()
        live = again.state.hall.table(row["id"])
        assert live.choices == []  # the click in the outage sent nothing
        tap(driver, driver.find_element(By.CSS_SELECTOR, "button.option"))
        WebDriverWait(driver, WAIT).until(lambda d: len(live.choices) == 1)


def test_a_link_that_cannot_work_says_so_and_stops_asking(site):
    server, driver = site
    row = server.app.state.hall.create("queens_wishes", 2, {}, [], ["person", "person"], 5)
    driver.get(f"{server.url}/table/nosuch?token=abc")
    assert "No such table" in driver.find_element(By.TAG_NAME, "h1").text
    driver.get(f"{server.url}/table/{row['id']}?token=forged")
    assert "This link is not valid" in driver.find_element(By.TAG_NAME, "h1").text
    # a page whose table refuses it while open (the socket closed with 4403) says so and asks no more
    driver.get(f"{server.url}/table/{row['id']}?token={row['seats'][0]['token']}")
    wait_for(driver, "#table section")
    driver.execute_script("""window.opened = 0; const Real = WebSocket;
        window.WebSocket = function (url) { window.opened += 1; return new Real(url); };
        token = 'forged'; connect();""")
    refused = wait_for(driver, "#refused")[0]
    assert "does not open a seat" in refused.text
    time.sleep(2.5)  # past the first retry's delay
    assert driver.execute_script("return window.opened") == 1
    assert not driver.find_element(By.ID, "connection").is_displayed()
