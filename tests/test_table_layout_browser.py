"""The table as a ruleset lays it out, in headless Chromium: Wild Gardens and Apothebakery fit your
area and the shared table in 1,800 px at 1400 x 900; what changed since you last looked is outlined
and summarised (no pulse when motion is reduced); the tab's title and icon say when it is your
turn; a card, a cell and a board space are picked by keyboard alone; the live region says each move."""

from __future__ import annotations

import random

import pytest

from meeple.interpreter.table.pages import seat_page
from tests.browser import WAIT, Server, browser, need_chromium, screenshot, socket_choose, wait_for, wait_step

pytest.importorskip("selenium")

HEIGHT = 1800  # px: your area plus the shared table, at 1400 x 900


@pytest.fixture(scope="module")
def site():
    driver_path = need_chromium()
    from meeple.interpreter.table.app import create_app

    with Server(create_app(["wild_gardens", "apothebakery", "tic_tac_toe", "breakthrough"])) as server:
        driver = browser(driver_path)
        driver.set_window_size(1400, 900)
        try:
            yield server, driver
        finally:
            driver.quit()


def table_at(server, game: str, moves: int, seed: int = 7):
    """A two-seat table `moves` random moves in (then on to P1's decision), and P1's link."""
    hall = server.app.state.hall
    row = hall.create(game, 2, {}, [], ["person", "person"], seed)
    live = hall.table(row["id"])
    rnd = random.Random(seed)
    for _ in range(moves):
        d = live.decision()
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
    while live.decision().actor != 0:
        d = live.decision()
        live.choose(d.actor, rnd.choice(d.options).id, live.state["step"])
    return row, live, f"{server.url}/table/{row['id']}?token={row['seats'][0]['token']}"


MEASURE = """const areas = [...document.querySelectorAll('#table section.area')];
  const mine = areas.filter((s) => s.classList.contains('yours') || (s.dataset.owner === 'table' && !s.classList.contains('more-area')));
  return Math.max(...mine.map((s) => s.getBoundingClientRect().bottom + window.scrollY));"""


@pytest.mark.parametrize(
    "game,moves", [("wild_gardens", 24), ("apothebakery", 40), ("wild_gardens", 200), ("apothebakery", 70)]
)
def test_your_area_and_the_shared_table_fit_in_1800_px(site, game, moves):
    server, driver = site
    _, _, url = table_at(server, game, moves)
    driver.get(url)
    wait_for(driver, "#table section.yours")
    bottom = driver.execute_script(MEASURE)
    screenshot(driver, f"layout-{game}-{moves}")
    assert bottom <= HEIGHT, f"{game}: your area and the shared table end at {bottom:.0f} px"
    # the declared areas are there, in the declared order, after yours; the rest folds away closed
    titles = driver.execute_script(
        "return [...document.querySelectorAll('#table section.area > h2')].map((h) => h.textContent)"
    )
    expected = {"wild_gardens": ["The path", "The market"], "apothebakery": ["The Adventurers", "The Wilds"]}[game]
    assert titles[0].startswith("P1 (you)") and titles[1:3] == expected, titles
    assert driver.execute_script(
        "return [...document.querySelectorAll('details.more')].every((d) => !d.open || d.querySelector('.choosable'))"
    )


def test_apothebakery_has_one_column_per_adventurer(site):
    server, driver = site
    _, live, url = table_at(server, "apothebakery", 40)
    driver.get(url)
    wait_for(driver, ".columns .column")
    columns = driver.execute_script("""return [...document.querySelectorAll('.columns .column')].map((c) =>
        [c.dataset.column, c.querySelectorAll('.card').length])""")
    held = {k.split("/")[1] for k, v in live.state["zones"].items() if k.startswith("adventurer_at/") and v}
    assert {c for c, _ in columns} == held and all(n >= 2 for _, n in columns), (
        columns
    )  # adventurer, diagnosis (, cure)


def test_what_changed_is_outlined_summarised_and_announced(site):
    server, driver = site
    row, live, url = table_at(server, "apothebakery", 40)
    driver.get(url)
    wait_for(driver, "#table section.yours")
    assert not driver.find_elements("css selector", ".changed")  # a first look: nothing is outlined as "new"
    icon = "return document.getElementById('favicon').href"
    assert "e07a00" in driver.execute_script(icon) and driver.title.startswith("● Your turn")  # the tab says it
    step = live.state["step"]
    socket_choose(server, row["id"], row["seats"][0]["token"], live.decision().options[0].id, step)
    wait_step(driver, live.state["step"])
    since = wait_for(driver, "#since")[0].text
    assert since.startswith("Since your last decision:") and "P1 chooses" not in since, since
    assert since[len("Since your last decision: ") :].split(" — ")[0].split(" · ") == seat_page(live, 0)["since"]
    if live.decision().actor != 0:
        assert "e07a00" not in driver.execute_script(icon) and not driver.title.startswith("●")
    assert driver.find_elements("css selector", "#table .changed")
    assert driver.find_element("id", "announce").get_attribute("textContent").strip()
    assert driver.find_element("id", "announce").get_attribute("aria-live") == "polite"
    animated = "return getComputedStyle(document.querySelector('#table .changed')).animationName"
    assert driver.execute_script(animated) != "none"
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia", {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}
    )
    try:
        assert driver.execute_script(animated) == "none"
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def keyboard_to(driver, css: str, limit: int = 400):
    """Tab through the page until the element matching `css` has the focus."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    driver.execute_script("document.activeElement && document.activeElement.blur(); window.focus()")
    for _ in range(limit):
        ActionChains(driver).send_keys(Keys.TAB).perform()
        if driver.execute_script("return document.activeElement.matches(arguments[0])", css):
            return driver.switch_to.active_element
    raise AssertionError(f"Tab never reached {css}")


def moved(driver, live, step: int) -> None:
    """Wait until the table has taken a decision past `step` (a choice the page sent)."""
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, WAIT).until(lambda d: live.state["step"] > step)


def test_a_card_a_cell_and_a_space_are_picked_by_keyboard(site):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    server, driver = site
    # a grid: one tab stop, the arrows move, Enter picks the cell
    row, live, url = table_at(server, "tic_tac_toe", 0)
    driver.get(url)
    wait_for(driver, ".cell.choosable")
    keyboard_to(driver, ".cell[data-index='0']")
    step = live.state["step"]
    ActionChains(driver).send_keys(Keys.ARROW_RIGHT).send_keys(Keys.ARROW_DOWN).send_keys(Keys.ENTER).perform()
    moved(driver, live, step)
    assert live.state["grids"]["board"]["cells"][4] is not None  # row 2, column 2
    # a card: the first decision some moves into Apothebakery that offers one
    for moves in range(0, 80, 4):
        row, live, url = table_at(server, "apothebakery", moves, seed=3)
        driver.get(url)
        wait_for(driver, "#table section.yours")
        if driver.find_elements("css selector", "#table .card.choosable"):
            break
    else:
        pytest.fail("no decision with a card to click in 80 moves")
    step = live.state["step"]
    card = keyboard_to(driver, "#table .card.choosable")
    assert card.get_attribute("role") == "button"
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    moved(driver, live, step)
    # a board space: Wild Gardens moves the forager on the path
    boards = None
    for moves in range(0, 120, 3):
        row, live, url = table_at(server, "wild_gardens", moves, seed=5)
        boards = live.engine.game.boards.values()
        if any(
            isinstance(o.value, str) and any(o.value in b.successors for b in boards) for o in live.decision().options
        ):
            break
    else:
        pytest.fail("no decision with a space to click in 120 moves")
    driver.get(url)
    wait_for(driver, ".space.choosable")
    step = live.state["step"]
    space = keyboard_to(driver, ".space.choosable")
    assert space.get_attribute("role") == "button" and space.get_attribute("aria-label").startswith("choose")
    ActionChains(driver).send_keys(Keys.ENTER).perform()
    moved(driver, live, step)
