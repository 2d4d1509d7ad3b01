"""The tray against a real daemon process (fake engine), Qt offscreen.

Each toggle and setting must reach the daemon and come back (checked with a separate client's
``config.get``); the icon state must follow the tiers the daemon reports; a daemon that dies and
comes back must be picked up again without the tray doing anything.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.client import Client
from app.config import TierConfig
from daemon import lifecycle
from tests.daemon.harness import write_project
from tests.ui.harness import DaemonProcess
from ui import state as st
from ui.app import TrayApp
from ui.state import TrayState

WAIT_MS = 15_000


@pytest.fixture
def tray(home: Path, qtbot: QtBot) -> Iterator[TrayApp]:
    opened: list[QUrl] = []
    app = TrayApp(use_tray=False, open_url=opened.append, on_quit=lambda: None)
    app.opened = opened  # type: ignore[attr-defined]
    assert app.window is not None
    qtbot.addWidget(app.window)
    app.show()
    yield app
    app.close()


@pytest.fixture
def client(daemon: DaemonProcess) -> Iterator[Client]:
    with Client(autostart=False, idle_timeout_s=10.0) as c:
        yield c


def wait_state(qtbot: QtBot, tray: TrayApp, state: TrayState) -> None:
    qtbot.waitUntil(lambda: tray.state is state, timeout=WAIT_MS)


def config(client: Client, key: str) -> Any:
    return client.config_get(key)[key]


def test_fallback_window_without_a_system_tray(tray: TrayApp, home: Path, qtbot: QtBot) -> None:
    assert tray.tray is None and tray.window is not None  # offscreen has no system tray
    # offered to start one, once the bridge has looked for a daemon
    qtbot.waitUntil(lambda: any("Start daemon" in m for m in tray.messages), timeout=WAIT_MS)
    assert tray.state is TrayState.DOWN
    assert tray.menu.start_action.isVisible() and not tray.menu.fast_action.isVisible()
    assert tray.window.start_button.isVisibleTo(tray.window)
    # starting it from the tray: the daemon comes up detached, logging to its file
    tray.menu.start_action.trigger()
    wait_state(qtbot, tray, TrayState.READY)
    info = lifecycle.read_daemon_info()
    assert info is not None and tray.view.pid == info.pid
    assert not tray.menu.start_action.isVisible() and tray.menu.fast_action.isVisible()
    tray.menu.logs_action.trigger()
    assert tray.opened == [QUrl.fromLocalFile(str(lifecycle.log_path()))]  # type: ignore[attr-defined]


def test_toggles_reach_the_daemon_and_come_back(
        daemon: DaemonProcess, client: Client, tray: TrayApp, qtbot: QtBot) -> None:
    wait_state(qtbot, tray, TrayState.READY)
    menu = tray.menu
    assert not menu.fast_action.isChecked() and menu.speculation_action.isChecked()

    menu.fast_action.trigger()
    wait_state(qtbot, tray, TrayState.FAST)
    assert config(client, "tiers.force_fast") is True and client.status().fast_mode
    assert menu.fast_action.isChecked()
    menu.fast_action.trigger()
    wait_state(qtbot, tray, TrayState.READY)
    assert config(client, "tiers.force_fast") is False

    menu.speculation_action.trigger()
    qtbot.waitUntil(lambda: not tray.view.speculation, timeout=WAIT_MS)
    assert config(client, "engine.speculation") is False
    assert not menu.speculation_action.isChecked()
    rows = {f.label: f.value for f in st.figures(tray.view)}
    assert rows["Speculation"] == "off"

    menu.pause_action.trigger()
    wait_state(qtbot, tray, TrayState.PAUSED)
    assert config(client, "completion.paused") is True and menu.pause_action.isChecked()
    # changed behind the tray's back: the state event brings it back
    client.config_set({"completion.paused": False})
    wait_state(qtbot, tray, TrayState.READY)
    assert not menu.pause_action.isChecked()


def test_settings_are_validated_applied_and_refused(
        daemon: DaemonProcess, client: Client, tray: TrayApp, qtbot: QtBot) -> None:
    wait_state(qtbot, tray, TrayState.READY)
    dialog = tray.show_settings()
    qtbot.addWidget(dialog)
    assert dialog.budget.value() == 2048 and dialog.shares["cursor"].value() == 40.0
    assert "100 %" in dialog.total.text()

    dialog.budget.setValue(3072)
    dialog.shares["cursor"].setValue(45.0)  # 105 %: shown, and nothing is sent
    assert "must add up to 100 %" in dialog.total.text()
    dialog.apply_button.click()
    assert dialog.status.text().startswith("Not sent: context.shares must add up to 1")
    assert config(client, "context.budget_tokens") == 2048

    dialog.shares["history"].setValue(5.0)
    dialog.normal_ms.setValue(600)
    dialog.cap_ms.setValue(1200)
    dialog.fast_ms.setValue(2000)
    dialog.cap_tokens.setValue(24)
    dialog.draft_tokens.setValue(6)
    dialog.min_acceptance.setValue(35)
    dialog.debounce.setValue(120)
    dialog.model.setText("/models/main.gguf")
    dialog.draft.setText("/models/draft.gguf")
    dialog.apply_button.click()
    qtbot.waitUntil(lambda: dialog.status.text().startswith("Applied"), timeout=WAIT_MS)
    assert "snapshot" in dialog.status.text() and "engine reloaded" in dialog.status.text()
    values = client.config_get()
    assert values["context"]["budget_tokens"] == 3072
    assert values["context"]["shares"]["cursor"] == pytest.approx(0.45)
    assert values["context"]["shares"]["history"] == pytest.approx(0.05)
    assert values["tiers"] | {"force_fast": False} == {
        "normal_ms": 600.0, "cap_ms": 1200.0, "fast_ms": 2000.0, "cap_tokens": 24,
        "fast_budget_factor": TierConfig().fast_budget_factor, "force_fast": False}
    assert values["engine"]["num_draft_tokens"] == 6
    assert values["engine"]["speculation_min_acceptance"] == pytest.approx(0.35)
    assert values["engine"]["model"] == "/models/main.gguf"
    assert values["engine"]["draft_model"] == "/models/draft.gguf"
    assert values["completion"]["debounce_ms"] == 120
    assert dialog.changes() == {}  # the dialog now shows what the daemon has

    dialog.cap_ms.setValue(3000)  # above fast_ms: caught before sending
    dialog.apply_button.click()
    assert "normal_ms <= cap_ms <= fast_ms" in dialog.status.text()
    dialog.load(dialog._values)

    # the daemon's own refusal is shown with its reason
    dialog.send({"tiers.cap_tokens": 0})
    qtbot.waitUntil(lambda: dialog.status.text().startswith("Refused"), timeout=WAIT_MS)
    assert dialog.status.text() == (
        "Refused by the daemon: tiers.cap_tokens must be at least 1, not 0")
    assert config(client, "tiers.cap_tokens") == 24

    # an engine that does not start with the new settings: refused, nothing changed
    dialog.load(dialog._values)
    dialog.model.setText("/models/missing.gguf")
    dialog.debounce.setValue(150)
    dialog.apply_button.click()
    qtbot.waitUntil(lambda: dialog.status.text().startswith("Refused"), timeout=WAIT_MS)
    assert "did not start with these settings" in dialog.status.text()
    assert "fake model missing" in dialog.status.text()
    assert config(client, "engine.model") == "/models/main.gguf"
    assert config(client, "completion.debounce_ms") == 120
    wait_state(qtbot, tray, TrayState.READY)

    # the draft field follows the engine kind; prompt lookup is the CPU engine's only
    dialog.load(dialog._values)
    assert "prompt-lookup" in dialog.draft.placeholderText()
    dialog.kind.setCurrentIndex(dialog.kind.findData("remote"))
    assert not dialog.draft.isEnabled() and dialog.remote_url.isEnabled()
    dialog.kind.setCurrentIndex(dialog.kind.findData("exllamav2"))
    assert dialog.draft.isEnabled() and dialog.draft.placeholderText() == (
        "none (an EXL2 or HF folder)")
    dialog.draft.setText("prompt-lookup")
    dialog.apply_button.click()
    assert dialog.status.text().startswith(
        "Not sent: engine.draft_model = 'prompt-lookup' is for the llamacpp engine"), (
        dialog.status.text())
    assert config(client, "engine.kind") == "auto"


def test_icon_follows_the_tiers(daemon: DaemonProcess, client: Client, tray: TrayApp,
                                home: Path, qtbot: QtBot) -> None:
    src = write_project(home / "proj")
    wait_state(qtbot, tray, TrayState.READY)

    def complete_at(n: int) -> int:  # a new text each time: never a cache answer
        text = f"def add_{n}(a, b):\n    "
        return client.complete(str(src), 1, 4, text=text, multiline=False).tier

    # every prediction is past cap_ms (1 ms) but not fast_ms: tier 2
    client.config_set({"tiers.normal_ms": 1.0, "tiers.cap_ms": 1.0, "tiers.fast_ms": 600000.0})
    assert complete_at(1) == 2
    wait_state(qtbot, tray, TrayState.DEGRADED)
    assert "tier 2" in st.headline(tray.view)
    # and past fast_ms too: tier 3
    client.config_set({"tiers.fast_ms": 1.0})
    assert complete_at(2) == 3
    wait_state(qtbot, tray, TrayState.FAST)
    client.config_set({"tiers.normal_ms": 800.0, "tiers.cap_ms": 1500.0, "tiers.fast_ms": 2500.0})
    assert complete_at(3) == 1
    wait_state(qtbot, tray, TrayState.READY)
    # forced from outside (the fast_mode message)
    client.fast_mode(True)
    wait_state(qtbot, tray, TrayState.FAST)
    assert st.headline(tray.view) == "Fast mode (forced)"
    client.fast_mode(False)
    wait_state(qtbot, tray, TrayState.READY)

    # the latency window has the requests with their tiers; the metrics event (coalesced, after
    # requests finish) brings p50/p95 (every config change restarts the daemon's window)
    assert complete_at(4) == 1
    qtbot.waitUntil(lambda: len(tray.view.points) == 4, timeout=WAIT_MS)
    window = tray.show_latency()
    qtbot.addWidget(window)
    assert [pt.tier for pt in window.chart.points][-4:] == [2, 3, 1, 1]
    qtbot.waitUntil(lambda: (tray.view.metrics.get("num_requests") or 0) >= 1, timeout=WAIT_MS)
    assert "finished p50" in window.summary.text()
    assert tray.window is not None
    item = tray.window.figures.grid.itemAtPosition(0, 0)
    assert item is not None and isinstance(label := item.widget(), QLabel)
    assert label.text() == "First token"
    window.grab()  # paints without errors


def test_daemon_restart_is_survived(daemon: DaemonProcess, tray: TrayApp, qtbot: QtBot) -> None:
    wait_state(qtbot, tray, TrayState.READY)
    first_pid = tray.view.pid
    daemon.kill()  # a crash: no clean shutdown
    wait_state(qtbot, tray, TrayState.DOWN)
    assert "Start daemon" in [a.text() for a in tray.menu.actions() if a.isVisible()]
    second_pid = daemon.start()
    wait_state(qtbot, tray, TrayState.READY)
    assert tray.view.pid == second_pid != first_pid
    tray.menu.fast_action.trigger()  # commands go to the new daemon
    wait_state(qtbot, tray, TrayState.FAST)

    # Restart daemon from the menu: a clean stop, a new daemon, the tray follows
    tray.menu.restart_action.trigger()
    qtbot.waitUntil(lambda: tray.view.running and tray.view.pid not in (first_pid, second_pid),
                    timeout=60_000)
    wait_state(qtbot, tray, TrayState.FAST)  # force_fast was saved in the config



def test_a_stopped_daemon_is_shown_not_responding_and_recovers(
        daemon: DaemonProcess, tray: TrayApp, qtbot: QtBot) -> None:
    """A daemon that hangs with its connection open (SIGSTOP here; a debugger, a stuck event
    loop) was noticed by the tray's own timer only after 15 s without an event, and shown as
    not running (the tray then reconnected). Now the client library's probe reports it not
    responding about 4 s after it fell silent, on the same connection, and its first message
    after SIGCONT shows it responding again."""
    wait_state(qtbot, tray, TrayState.READY)
    pid = tray.view.pid
    followed = tray.bridge._client
    os.kill(pid, signal.SIGSTOP)
    try:
        started = time.monotonic()
        wait_state(qtbot, tray, TrayState.HUNG)
        took = time.monotonic() - started
        print(f"not responding shown after {took:.2f} s")
        assert took < 6.0, took  # 2 s to the probe + 2 s without its answer (15 s before)
        assert tray.view.hung.startswith("the daemon is not responding")
        assert st.tooltip(tray.view).startswith("nospin: daemon not responding")
        assert st.headline(tray.view) == "Daemon not responding (stopped or stuck)"
        qtbot.wait(1000)  # stays so while the daemon is stopped
        assert tray.state is TrayState.HUNG
    finally:
        os.kill(pid, signal.SIGCONT)
    started = time.monotonic()
    wait_state(qtbot, tray, TrayState.READY)
    print(f"responding again after {time.monotonic() - started:.2f} s")
    assert time.monotonic() - started < 3.0
    assert tray.view.pid == pid and tray.bridge._client is followed  # the same connection
