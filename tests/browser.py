"""Helpers for the play table's browser tests: the server in a thread, Debian's headless Chromium.

The tests skip, saying why, when /usr/bin/chromium or its driver is missing (`.ci/run` installs
them). Screenshots go to tests/artifacts/ (git-ignored) for people to look at.
"""
from __future__ import annotations

import shutil
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,1000"]


def need_chromium() -> str:
    """The chromedriver's path, or skip with the reason."""
    driver = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not Path(CHROMIUM).exists() or not Path(driver).exists():
        pytest.skip("browser tests need Debian's chromium and chromium-driver "
                    "(apt-get install chromium chromium-driver; .ci/run does this)")
    return driver


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """uvicorn serving an app in a daemon thread on a free localhost port."""

    def __init__(self, app):
        import uvicorn
        self.port = free_port()
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
