"""Helpers for the play table's browser tests: the server in a thread, Debian's headless Chromium.

The tests skip, saying why, when /usr/bin/chromium or its driver is missing (`.ci/run` installs
them). Screenshots go to tests/artifacts/ (git-ignored) for people to look at.
"""

from __future__ import annotations

import json
import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
WAIT = 20  # seconds a page may take to show what a test waits for
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,1000",
]


def need_chromium() -> str:
    """The chromedriver's path, or skip with the reason."""
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not Path(CHROMIUM).exists() or not Path(driver).exists():
        pytest.skip(
            "browser tests need Debian's chromium and chromium-driver "
            "(apt-get install chromium chromium-driver; .ci/run does this)"
        )
    return driver


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """uvicorn serving an app in a daemon thread on a free localhost port."""

    def __init__(self, app, port: int | None = None):
        import uvicorn

        self.port = port or free_port()  # a port again: the same server restarted
        self.app = app
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self):
        self.thread.start()
        deadline = time.time() + 15
        while not self.server.started:
            if time.time() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc):
        self.server.should_exit = True
        self.thread.join(10)


def browser(driver_path: str):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for flag in FLAGS + [f"--user-data-dir={tempfile.mkdtemp(prefix='meeple-chromium-')}"]:
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(driver_path), options=options)


def screenshot(driver, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    driver.save_screenshot(str(path))
    return path


def wait_for(driver, css: str):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT).until(lambda d: d.find_elements(By.CSS_SELECTOR, css))


def page_step(driver) -> int:
    return driver.execute_script("return current ? current.step : -1")


def wait_step(driver, step: int) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, WAIT).until(lambda d: page_step(d) == step)


def socket_choose(server, table_id: str, tok: str, option: str, step: int) -> None:
    """A choice sent the way a page sends it, over the table's WebSocket; returns once applied."""
    from websockets.sync.client import connect

    from meeple.interpreter.table.patch import apply

    with connect(f"ws://127.0.0.1:{server.port}/ws/{table_id}?token={tok}") as ws:
        page = json.loads(ws.recv())["table"]
        ws.send(json.dumps({"type": "choose", "option": option, "step": step}))
        while True:
            m = json.loads(ws.recv(timeout=WAIT))
            assert m["type"] == "patch", m  # after the whole picture, what changed
            page = apply(page, m["ops"])
            if page["step"] > step:
                return


def placement_cell(driver, legal: bool = True):
    """A grid cell to click for the current orientation: the first legal place, or an illegal one."""
    where = driver.execute_script(
        """
        const p = current.decision.placement, o = p.orientations[orientation];
        const legal = new Set(p.places.filter((s) => s[0] === o.o).map((s) => s[1] + ',' + s[2]));
        const first = o.cells[0];
        if (arguments[0]) { const s = p.places.find((s) => s[0] === o.o); return [s[1] + first[0], s[2] + first[1], s[3]]; }
        const g = current.grids.find((g) => g.key === p.grid);
        for (let r = 0; r < g.rows; r++) for (let c = 0; c < g.cols; c++)
          if (!legal.has((r - first[0]) + ',' + (c - first[1]))) return [r, c, null];
        return null;""",
        legal,
    )
    from selenium.webdriver.common.by import By

    grid = driver.execute_script("return current.decision.placement.grid")
    cell = driver.find_element(
        By.CSS_SELECTOR, f'[data-grid="{grid}"] .cell[data-row="{where[0]}"][data-col="{where[1]}"]'
    )
    return cell, where[2]
