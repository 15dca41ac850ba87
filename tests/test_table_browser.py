"""The play table in a real headless Chromium (Debian's chromium + chromedriver, driven by Selenium):
the lobby, a two-person game of The Queen's Wishes played to the end with placements clicked on
the grid (rotate, place, undo, place again), a Wild Gardens turn by clicking, the replay viewer.
Screenshots go to tests/artifacts/. Without Chromium these tests skip and say why."""

from __future__ import annotations

import random
import re

import pytest

from meeple.interpreter.standing import score_so_far
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
from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


@pytest.fixture(scope="module")
def site():
    driver_path = need_chromium()
    from meeple.cli import load
    from meeple.interpreter import runner, trace
    from meeple.interpreter.table.app import create_app

    traced = runner.play(load("wild_gardens"), 2, 3, ["random"], "wild_gardens").trace.jsonl()
    app = create_app(["queens_wishes", "wild_gardens", "apothebakery"], traces=[trace.parse(traced)])
    with Server(app) as server:
        driver = browser(driver_path)
        try:
            yield server, driver
        finally:
            driver.quit()


def test_the_lobby_creates_a_table_with_private_links(site):
    server, driver = site
    driver.get(server.url + "/")
    wait_for(driver, "#game option")
    Select(driver.find_element(By.ID, "game")).select_by_value("wild_gardens")
    players = driver.find_element(By.ID, "players")
    players.clear()
    players.send_keys("3")
    driver.find_element(By.ID, "seed").send_keys("42")  # leave the field: seats redraw
    wait_for(driver, "#seat-3")
    Select(driver.find_element(By.ID, "seat-2")).select_by_value("greedy")
    Select(driver.find_element(By.ID, "seat-3")).select_by_value("person")
    driver.find_element(By.CSS_SELECTOR, "[data-variant=keep_it_fresh]").click()
    driver.find_element(By.ID, "create").click()
    links = wait_for(driver, "a.seat-link")
    assert len(links) == 2 and "P2: bot greedy" in driver.find_element(By.ID, "link-list").text, driver.find_element(
        By.ID, "link-list"
    ).text
    assert driver.find_element(By.ID, "spectator-link").get_attribute("href")
    # each link has a button that copies it whole, to paste into a message to its person
    copies = driver.find_elements(By.CSS_SELECTOR, "#link-list button.copy")
    assert len(copies) == 4  # two people, the spectator, and the creator's own link to these links
    driver.execute_cdp_cmd(
        "Browser.grantPermissions",
        {"origin": server.url, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]},
    )
    copies[1].click()
    WebDriverWait(driver, WAIT).until(lambda d: copies[1].text == "Copied ✓")
    pasted = driver.execute_async_script(
        "navigator.clipboard.readText().then(arguments[0], (e) => arguments[0]('' + e))"
    )
    assert pasted == links[1].get_attribute("href") and "token=" in pasted, pasted
    screenshot(driver, "lobby")
    row = server.app.state.hall.store.tables()[-1]
    assert row["ruleset"] == "wild_gardens" and row["variants"] == ["keep_it_fresh"]
    assert [s["agent"] for s in row["seats"]] == ["person", "greedy", "person"]
    driver.find_element(By.ID, "hot-seat").click()  # both people's seats in this browser
    tabs = wait_for(driver, ".seat-tab")
    assert [t.text for t in tabs] == ["P1", "P3"]
    # the seed set in the lobby is said on the table page: its chooser could foresee the draws
    assert row["seed"] == 42 and "seed 42" in driver.find_element(By.ID, "seed").text


def test_a_two_person_game_played_to_the_end_with_placements_clicked(site):
    server, driver = site
    hall = server.app.state.hall
    row = hall.create("queens_wishes", 2, {}, [], ["person", "person"], 5)
    live = hall.table(row["id"])
    tokens = [s["token"] for s in row["seats"]]
    driver.get(f"{server.url}/table/{row['id']}?token={tokens[0]}")
    wait_for(driver, "#table section")
    rnd = random.Random(5)
    clicked = 0
    while (d := live.decision()) is not None:
        step = live.state["step"]
        wait_step(driver, step)
        if d.actor == 0 and d.undoable and clicked < 2:
            clicked += 1
            wait_for(driver, ".placing")
            if clicked == 1:
                before = driver.execute_script("return orientation")
                ActionChains(driver).send_keys("r").perform()
                assert driver.execute_script("return orientation") != before
                screenshot(driver, "queens_wishes-rotated")
                bad, _ = placement_cell(driver, legal=False)
                ActionChains(driver).move_to_element(bad).click().perform()
                assert "cannot go there" in driver.find_element(By.ID, "error").text
                assert live.state["step"] == step  # refused: nothing changed
            cell, option = placement_cell(driver)
            ActionChains(driver).move_to_element(cell).perform()
            assert "ok" in cell.get_attribute("class")  # the hover preview says it fits
            if clicked == 1:
                screenshot(driver, "queens_wishes-preview")
            cell.click()  # pins the piece there; nothing is placed before the confirm
            assert driver.find_elements(By.CSS_SELECTOR, ".cell.pinned.ok") and live.state["step"] == step
            driver.find_element(By.ID, "confirm").click()
            wait_step(driver, step + 1)
            assert live.choices[-1] == option
            if clicked == 1:  # take it back, then place it again
                driver.find_element(By.ID, "undo").click()
                wait_step(driver, step)
                assert len(live.choices) == step
                cell, option = placement_cell(driver)
                ActionChains(driver).move_to_element(cell).click().perform()
                ActionChains(driver).send_keys("\n").perform()  # Enter confirms a pinned piece
                wait_step(driver, step + 1)
                assert live.choices[-1] == option
                # each player's area says the score so far, counted from what this seat sees
                view = live.engine.view(live.state, 0)
                sofar = [c.text for c in driver.find_elements(By.CSS_SELECTOR, ".score-so-far .counter-value")]
                assert sofar == [str(t) for t in score_so_far(live.engine, view).values()] and len(sofar) == 2
                screenshot(driver, "queens_wishes-score-so-far")
            continue
        socket_choose(server, row["id"], tokens[d.actor], rnd.choice(d.options).id, step)
    wait_for(driver, ".scores")
    screenshot(driver, "queens_wishes-end")
    totals = [int(td.text) for td in driver.find_elements(By.CSS_SELECTOR, ".scores .total td.num")]
    assert totals == [s["total"] for s in live.engine.scores(live.state)]
    assert clicked == 2
    best = max(totals)  # the end says who won in words, above the breakdown
    winners = " and ".join(f"P{i + 1}" for i, t in enumerate(totals) if t == best)
    assert driver.find_element(By.ID, "outcome").text.startswith(winners)
    assert driver.find_element(By.ID, "over").text.startswith("The game is over: " + winners)
    firsts = [th.text for th in driver.find_elements(By.CSS_SELECTOR, ".scores th.first")]
    assert firsts == [f"{w} ★" for w in winners.split(" and ")]


def test_a_wild_gardens_turn_by_clicking(site):
    server, driver = site
    hall = server.app.state.hall
    row = hall.create("wild_gardens", 2, {}, [], ["person", "random"], 9)
    live = hall.table(row["id"])
    driver.get(f"{server.url}/table/{row['id']}?token={row['seats'][0]['token']}")
    wait_for(driver, "#table section")
    kinds = []
    for _ in range(8):
        WebDriverWait(driver, WAIT).until(
            lambda d: d.execute_script("return !!(current && current.decision && current.decision.mine)")
        )
        step = page_step(driver)
        # click what the decision offers on the table itself when it can: a space, a card; else a button
        for css, kind in [(".space.choosable", "space"), (".card.choosable", "card"), ("button.option", "button")]:
            found = driver.find_elements(By.CSS_SELECTOR, css)
            if found:
                kinds.append(kind)
                ActionChains(driver).move_to_element(found[0]).click().perform()
                break
        WebDriverWait(driver, WAIT).until(lambda d: page_step(d) > step)
    assert "button" in kinds
    assert driver.find_elements(By.CSS_SELECTOR, ".space.occupied")  # the path board shows who stands where
    assert sum(1 for e in live.entries if e["actor"] == 0) == 8
    screenshot(driver, "wild_gardens-turn")
    log = driver.find_element(By.ID, "log").text
    lines = log.splitlines()  # P1's 8 decisions, besides the lone options taken at once
    assert sum(1 for ln in lines if "P1 chooses" in ln and not ln.endswith("(the only option)")) == 8
    # the decision stays in sight when the table is scrolled far down under it
    WebDriverWait(driver, WAIT).until(
        lambda d: d.execute_script("return !!(current && current.decision && current.decision.mine)")
    )
    driver.execute_script("window.scrollTo(0, document.body.scrollHeight)")
    assert driver.execute_script("return window.scrollY") > 300
    top = driver.execute_script("return document.getElementById('decision').getBoundingClientRect().top")
    assert 0 <= top < 40, top
    # ...but a decision of yours that arrives while your own area is under it scrolls your area out
    driver.execute_script("""const yours = document.querySelector('section.area.yours');
        window.scrollTo(0, yours.offsetTop + 30); asked = null; render();""")
    gap = driver.execute_script("""return document.querySelector('section.area.yours').getBoundingClientRect().top
        - document.getElementById('decision').getBoundingClientRect().bottom""")
    assert gap >= 0, gap
    # the path board's spaces read as the log names them (`space 4 (picnic)`: 4, tagged picnic), not p04
    names = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".space-name")]
    assert "4" in names and not any(n.startswith("p") for n in names), names
    # areas holding the same thing share a colour and a legend entry, and a space touching
    # areas of several colours is cut into a slice for each
    legend = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".board-box .swatch")]
    assert len(legend) == 8 and all(re.fullmatch(r"\w+ source: z\d\d(, z\d\d)+", t) for t in legend), legend
    assert driver.find_elements(By.CSS_SELECTOR, ".space .wedge")
    # a bot's turn reads as the bot thinking, not as waiting for a person
    driver.execute_script("""current.decision = {mine: false, actor: 1, actor_name: "P2"}; render();""")
    assert driver.find_element(By.ID, "waiting").text == "P2 (random bot) is thinking…"
    # a phone-wide window: the table keeps the width and the log goes under it
    driver.set_window_size(420, 900)
    try:
        WebDriverWait(driver, WAIT).until(
            lambda d: d.execute_script("return document.getElementById('left').getBoundingClientRect().width") > 360
        )
        below = driver.execute_script("""const l = document.getElementById('left').getBoundingClientRect(),
            a = document.querySelector('aside').getBoundingClientRect(); return a.top >= l.bottom - 1""")
        assert below
        screenshot(driver, "wild_gardens-narrow")
    finally:
        driver.set_window_size(1400, 1000)


def test_the_replay_viewer_steps_through_a_trace_per_seat(site):
    server, driver = site
    driver.get(server.url + "/replay?id=1")
    wait_for(driver, "#table section")
    for _ in range(3):
        driver.find_element(By.ID, "next").click()
    WebDriverWait(driver, WAIT).until(lambda d: "after decision 3 of" in d.find_element(By.ID, "status").text)
    Select(driver.find_element(By.ID, "seat")).select_by_value("1")
    WebDriverWait(driver, WAIT).until(lambda d: "as P1 saw it" in d.find_element(By.ID, "status").text)
    status = driver.find_element(By.ID, "status").text  # in a player's words: no step, no phase
    assert "step" not in status and "phase" not in status and "Day 1" in status, status
    assert re.search(r"\? P\d chooses ", driver.find_element(By.ID, "taken").text)  # the question, who, what
    driver.find_element(By.ID, "last").click()
    wait_for(driver, ".scores")
    screenshot(driver, "replay")


def test_a_person_casts_a_spell_at_a_moment_of_another_seats_turn(site):
    server, driver = site
    hall = server.app.state.hall
    for seed in range(1, 41):  # seeded random play up to a moment on P2's turn where P1 may cast (seed 27)
        row = hall.create("apothebakery", 2, {}, [], ["person", "person"], seed)
        live = hall.table(row["id"])
        rnd = random.Random(seed)
        for _ in range(600):
            d = live.decision()
            if d is None or (
                d.actor == 0 and live.entries and live.entries[-1]["actor"] == 1 and d.prompt.startswith("Act now")
            ):
                break
            live.choose(d.actor, d.options[rnd.randrange(len(d.options))].id, live.state["step"])
        if d is not None:
            break
    assert d is not None, "no seed from 1 to 40 reaches a moment where P1 may cast on P2's turn"
    assert d.actor == 0 and live.entries[-1]["actor"] == 1 and "Cast your spell" in [o.label for o in d.options]
    step = live.state["step"]
    driver.get(f"{server.url}/table/{row['id']}?token={row['seats'][0]['token']}")
    prompt = wait_for(driver, ".prompt")[0]
    assert prompt.text == d.prompt
    cast = next(b for b in driver.find_elements(By.CSS_SELECTOR, "button.option") if b.text == "Cast your spell")
    screenshot(driver, "apothebakery-window")
    cast.click()
    wait_step(driver, step + 1)
    assert live.choices[-1] == next(o.id for o in d.options if o.label == "Cast your spell")
    assert "P1 chooses Cast your spell" in driver.find_element(By.ID, "log").text


def test_a_person_asks_for_a_request_by_its_own_button(site):
    """`on request` (Apothebakery's "Rearrange inventory"): a button apart from the options."""
    server, driver = site
    hall = server.app.state.hall
    row = hall.create("apothebakery", 2, {}, [], ["person", "person"], 1)
    live = hall.table(row["id"])
    rnd = random.Random(1)
    for _ in range(400):
        d = live.decision()
        if d.requests:
            break
        live.choose(d.actor, d.options[rnd.randrange(len(d.options))].id, live.state["step"])
    step = live.state["step"]
    driver.get(f"{server.url}/table/{row['id']}?token={row['seats'][d.actor]['token']}")
    button = wait_for(driver, ".requests button.request")[0]
    assert button.text == "Rearrange inventory"
    assert "Rearrange inventory" not in [
        b.text for b in driver.find_elements(By.CSS_SELECTOR, ".options button.option")
    ]
    screenshot(driver, "apothebakery-request")
    button.click()
    wait_step(driver, step + 1)
    assert wait_for(driver, ".prompt")[0].text == "Which elixir goes to the left end?"
    assert live.choices[-1] == "act:rearrange"
