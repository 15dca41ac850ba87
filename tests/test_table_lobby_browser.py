"""The lobby's promises in headless Chromium: names per seat typed in the lobby (shown as text, never
as markup), a creator's "Your links" after a reload, a person naming their seat on its page, the
header in the game's words (no engine word in it for any shipped game), conceding in two steps,
a rematch that takes every seat of a hot-seat browser to the new table, and a live table stepped
back through in the replay viewer. Screenshots go to
tests/artifacts/. Without Chromium these tests skip and say why."""

from __future__ import annotations

import json
import random

import pytest

from meeple.dsl.compiler import shipped_rulesets
from tests.browser import WAIT, Server, browser, need_chromium, screenshot, wait_for
from tests.test_log_words import engine_words

pytest.importorskip("selenium")
from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

GAMES = ["queens_wishes", "tic_tac_toe"]


@pytest.fixture(scope="module")
def site():
    driver_path = need_chromium()
    from meeple.interpreter.table.app import create_app

    with Server(create_app(GAMES + sorted(set(shipped_rulesets()) - set(GAMES)))) as server:
        driver = browser(driver_path)
        try:
            yield server, driver
        finally:
            driver.quit()


def text(driver, css: str) -> str:
    """The element's text; the page redraws parts of itself, so an element found a moment ago
    may be gone (stale) when its text is read: then it is found again."""
    for _ in range(5):
        try:
            return driver.find_element(By.CSS_SELECTOR, css).text
        except StaleElementReferenceException:
            continue
    return driver.find_element(By.CSS_SELECTOR, css).text


def hold(driver, server, row: dict, seats: list[int]) -> None:
    """This browser holds these seats of the table (hot-seat), as the lobby's button leaves it."""
    driver.get(server.url + "/")
    held = {f"P{i + 1}": row["seats"][i]["token"] for i in seats}
    driver.execute_script(
        "localStorage.setItem(arguments[0], arguments[1])", f"meeple-seats-{row['id']}", json.dumps(held)
    )


def test_names_typed_in_the_lobby_are_shown_as_text_and_the_creator_gets_the_links_again(site):
    server, driver = site
    driver.get(server.url + "/")
    wait_for(driver, "#game option")
    Select(driver.find_element(By.ID, "game")).select_by_value("tic_tac_toe")
    wait_for(driver, "#name-2")
    Select(driver.find_element(By.ID, "seat-2")).select_by_value("person")
    driver.find_element(By.ID, "name-1").send_keys("Ann")
    driver.find_element(By.ID, "name-2").send_keys("<b>Bob</b>")
    driver.find_element(By.ID, "create").click()
    links = wait_for(driver, "a.seat-link")
    assert [a.text for a in links] == ["Ann (P1)'s seat", "<b>Bob</b> (P2)'s seat"]
    assert not driver.find_elements(By.CSS_SELECTOR, "#link-list b")  # a name is text, never markup
    first = [a.get_attribute("href") for a in links]
    # the list of tables names the players too (newest first)
    WebDriverWait(driver, WAIT).until(lambda d: "Ann" in text(d, "li.open-table .hint"))
    listed = text(driver, "li.open-table .hint")
    assert listed.startswith("Ann, <b>Bob</b> - 0 decisions") and "a person" not in listed, listed
    screenshot(driver, "lobby-names")
    driver.refresh()  # the links are gone from the page; the browser that made the table can have them again
    wait_for(driver, "button.again")[0].click()
    again = wait_for(driver, "a.seat-link")
    assert [a.get_attribute("href") for a in again] == first
    own = driver.find_element(By.CSS_SELECTOR, "#creator-link button.copy").get_attribute("data-link")
    # another browser (no creator's token) has no such button
    driver.execute_script("localStorage.clear()")
    driver.refresh()
    wait_for(driver, "li.open-table")
    assert not driver.find_elements(By.CSS_SELECTOR, "button.again")
    driver.get(own)  # the creator's own link, opened in that other browser: the links, and it keeps them
    again = wait_for(driver, "a.seat-link")
    assert [a.get_attribute("href") for a in again] == first and "creator" not in driver.current_url
    assert wait_for(driver, "button.again")


def test_a_seat_named_on_its_page_and_the_header_in_the_games_words(site):
    server, driver = site
    hall = server.app.state.hall
    row = hall.create("queens_wishes", 2, {}, [], ["person", "greedy"], 5, ["", ""])
    driver.get(f"{server.url}/table/{row['id']}?token={row['seats'][0]['token']}")
    wait_for(driver, "#name-form")
    assert text(driver, "#name-me") == "give your name"  # said in the header: the form may be far below
    assert text(driver, "#part") == "Round 1" and text(driver, "#first") == "start player: P1"
    driver.find_element(By.ID, "my-name").send_keys("Ann")
    driver.find_element(By.ID, "save-name").click()
    WebDriverWait(driver, WAIT).until(lambda d: text(d, "#you") == "you are Ann")
    assert not driver.find_elements(By.ID, "name-form") and not driver.find_elements(By.ID, "name-me")  # named
    assert text(driver, "#first") == "start player: Ann" and "Ann" in text(driver, "section.area.yours h2")
    assert driver.title.endswith("The Queen's Wishes · Ann")
    assert "Ann" in text(driver, ".players") and hall.table(row["id"]).names() == ["Ann", "P2"]
    header = text(driver, "header")
    assert engine_words(hall.table(row["id"]).engine.game, [header]) == {}, header
    screenshot(driver, "table-names")


@pytest.mark.parametrize("game", sorted(shipped_rulesets()))
def test_no_engine_words_in_any_shipped_games_header(site, game):
    server, driver = site
    hall = server.app.state.hall
    engine = hall.engine(game, {}, [])
    players = 2 if engine.game.min_players <= 2 <= engine.game.max_players else engine.game.min_players
    row = hall.create(game, players, {}, [], ["person"] * players, 3)
    live = hall.table(row["id"])
    rnd = random.Random(3)
    for _ in range(12):  # some moves in
        if (d := live.decision()) is None:
            break
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
    driver.get(f"{server.url}/table/{row['id']}?token={row['seats'][0]['token']}")
    wait_for(driver, "#turn")
    header = text(driver, "#status")
    assert engine_words(engine.game, [header]) == {}, header
    assert "step" not in header.split() and "phase" not in header.split()


def test_conceding_takes_two_steps_and_a_rematch_takes_every_held_seat_to_the_new_table(site):
    server, driver = site
    hall = server.app.state.hall
    row = hall.create("tic_tac_toe", 2, {}, [], ["person", "person"], 5, ["Ann", "Bob"])
    hold(driver, server, row, [0, 1])
    driver.get(f"{server.url}/table/{row['id']}?token={row['seats'][1]['token']}")
    wait_for(driver, "#concede")[0].click()
    assert driver.find_element(By.ID, "concede-sure").is_displayed()
    driver.find_element(By.ID, "concede-no").click()  # a slip of the finger changes nothing
    assert driver.find_element(By.ID, "concede").is_displayed() and not hall.table(row["id"]).conceded()
    driver.find_element(By.ID, "concede").click()
    driver.find_element(By.ID, "concede-yes").click()
    WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.ID, "rematch"))
    assert hall.table(row["id"]).conceded() == {1: 0}
    assert "Bob concedes" in text(driver, "#log") and "conceded" in text(driver, ".players")
    assert not driver.find_elements(By.ID, "concede")
    screenshot(driver, "table-conceded")
    driver.find_element(By.ID, "rematch").click()
    wait_for(driver, "#rematch-link")[0].click()
    WebDriverWait(driver, WAIT).until(lambda d: "/table/" + row["id"] not in d.current_url)
    new_id = driver.current_url.split("/table/")[1].split("?")[0]
    new = hall.table(new_id)
    wait_for(driver, ".seat-tab")
    assert new.names() == ["Ann", "Bob"] and text(driver, "#you") == "you are Bob"
    # both seats this browser held came along, each with its own new link
    held = json.loads(driver.execute_script(f"return localStorage.getItem('meeple-seats-{new_id}')"))
    assert {k: new.seat_of(v) for k, v in held.items()} == {"P1": 0, "P2": 1}
    assert [t.text for t in driver.find_elements(By.CSS_SELECTOR, ".seat-tab")] == ["Ann", "Bob"]


def test_a_live_table_opens_in_the_replay_viewer_as_its_seat_saw_it(site):
    server, driver = site
    hall = server.app.state.hall
    row = hall.create("queens_wishes", 2, {}, [], ["person", "person"], 5, ["Ann", "Bob"])
    live = hall.table(row["id"])
    for _ in range(4):
        d = live.decision()
        live.choose(d.actor, d.options[0].id, live.state["step"])
    driver.get(f"{server.url}/table/{row['id']}?token={row['seats'][1]['token']}")
    driver.get(wait_for(driver, "#replay-link")[0].get_attribute("href"))  # the page's link, in this tab
    WebDriverWait(driver, WAIT).until(lambda d: "after decision 4 of 4" in text(d, "#status"))
    assert "as Bob saw it" in text(driver, "#status") and "Round 1" in text(driver, "#status")
    assert [o.text for o in driver.find_elements(By.CSS_SELECTOR, "#seat option")] == ["Bob"]  # no other view
    driver.find_element(By.ID, "prev").click()
    WebDriverWait(driver, WAIT).until(lambda d: "after decision 3 of 4" in text(d, "#status"))
    assert "Ann chooses" in text(driver, "#taken") or "Bob chooses" in text(driver, "#taken")
    d = live.decision()  # the game goes on meanwhile: the end is where it is now
    live.choose(d.actor, d.options[0].id, live.state["step"])
    driver.find_element(By.ID, "last").click()
    WebDriverWait(driver, WAIT).until(lambda d: "after decision 5 of 5" in text(d, "#status"))
    header = text(driver, "header")
    assert engine_words(live.engine.game, [header]) == {}, header
    screenshot(driver, "replay-table")
    assert driver.find_element(By.ID, "back-to-table").get_attribute("href").endswith(row["seats"][1]["token"])
