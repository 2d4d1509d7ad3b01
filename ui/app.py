"""The tray application: icon, menu, windows, wired to a :class:`DaemonBridge`.

``run_tray(argv)`` is the entry point of ``nospin tray``. Where the desktop has a system tray
the app lives there (icon + tooltip + menu); where it has none
(``QSystemTrayIcon.isSystemTrayAvailable()`` is false: offscreen, some Wayland desktops) it
shows a small status window with the same figures and actions instead.
"""

from __future__ import annotations

import argparse
import collections
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject, QUrl
from PySide6.QtGui import QCursor, QDesktopServices, QIcon
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSystemTrayIcon,
    QVBoxLayout,
    QWidget,
)

from app.paths import state_dir
from ui import state as st
from ui.bridge import DaemonBridge
from ui.icons import icon_for
from ui.latency import LatencyWindow
from ui.menu import FiguresPanel, MenuActions, TrayMenu
from ui.settings import SettingsDialog

__all__ = ["StatusWindow", "TrayApp", "run_tray"]


class StatusWindow(QWidget):
    """The fallback when there is no system tray: figures and the menu's actions in a window."""

    def __init__(self, menu: TrayMenu, actions: MenuActions) -> None:
        super().__init__()
        self.setWindowTitle("nospin")
        self.setObjectName("statusWindow")
        self.figures = FiguresPanel()
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.setContentsMargins(14, 0, 14, 0)
        self.message.setStyleSheet("color: palette(placeholder-text);")
        self.start_button = QPushButton("Start daemon")
        self.start_button.clicked.connect(actions.start_daemon)
        self.latency_button = QPushButton("Latency…")
        self.latency_button.clicked.connect(actions.latency)
        self.menu_button = QPushButton("More")
        self.menu_button.setMenu(menu)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(14, 0, 14, 0)
        buttons.addWidget(self.start_button)
        buttons.addStretch(1)
        buttons.addWidget(self.latency_button)
        buttons.addWidget(self.menu_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 12)
        layout.setSpacing(8)
        layout.addWidget(self.figures)
        layout.addWidget(self.message)
        layout.addLayout(buttons)
        self.setMinimumWidth(340)

    def update_view(self, view: st.DaemonView) -> None:
        self.figures.update_view(view)
        self.start_button.setVisible(not view.running)
        self.setWindowIcon(icon_for(st.tray_state(view)))
        self.setWindowTitle(f"nospin: {st.STATE_TITLES[st.tray_state(view)].lower()}")


class TrayApp(QObject):
    """Owns the bridge, the tray icon (or status window), the menu and the windows."""

    def __init__(
        self,
        *,
        bridge: DaemonBridge | None = None,
        use_tray: bool | None = None,
        open_url: Callable[[QUrl], object] = QDesktopServices.openUrl,
        on_quit: Callable[[], None] | None = None,
    ) -> None:
        super().__init__()
        self.bridge = bridge or DaemonBridge()
        self._open_url = open_url
        self._on_quit = on_quit or QApplication.quit
        self.actions = MenuActions(
            fast_mode=self.bridge.set_fast_mode,
            speculation=self.bridge.set_speculation,
            paused=self.bridge.set_paused,
            settings=self.show_settings,
            latency=self.show_latency,
            open_logs=self.open_logs,
            start_daemon=self.start_daemon,
            restart_daemon=self.restart_daemon,
            quit=self.quit,
        )
        self.menu = TrayMenu(self.actions)
        self.settings: SettingsDialog | None = None
        self.latency: LatencyWindow | None = None
        self.tray: QSystemTrayIcon | None = None
        self.window: StatusWindow | None = None
        # notifications shown (the latest 100, newest last), for tests and logs
        self.messages: collections.deque[str] = collections.deque(maxlen=100)
        if use_tray is None:
            use_tray = QSystemTrayIcon.isSystemTrayAvailable()
        if use_tray:
            self.tray = QSystemTrayIcon(icon_for(st.TrayState.DOWN))
            self.tray.setContextMenu(self.menu)
            self.tray.activated.connect(self._activated)
            self.tray.setToolTip(st.tooltip(st.DaemonView()))
        else:
            self.window = StatusWindow(self.menu, self.actions)
            self.window.update_view(st.DaemonView())
        self._offered_start = False
        self._shown = self.bridge.view  # the view the icon, menu and window show now
        self.bridge.viewChanged.connect(self.update_view)
        self.bridge.commandFinished.connect(self._command_finished)

    @property
    def view(self) -> st.DaemonView:
        """The view on screen: the bridge remembers a new one before the widgets show it."""
        return self._shown

    @property
    def state(self) -> st.TrayState:
        return st.tray_state(self._shown)

    def show(self) -> None:
        """Show the icon (or the status window) and start following the daemon."""
        if self.tray is not None:
            self.tray.show()
        if self.window is not None:
            self.window.show()
        self.bridge.start()

    def update_view(self, view: st.DaemonView) -> None:
        state = st.tray_state(view)
        self.menu.update_view(view)
        if self.tray is not None:
            self.tray.setIcon(icon_for(state))
            self.tray.setToolTip(st.tooltip(view))
        if self.window is not None:
            self.window.update_view(view)
        if self.latency is not None:
            self.latency.update_view(view)
        self._shown = view
        if not view.running and not view.error and not self._offered_start:
            self._offered_start = True
            self.notify("No nospin daemon is running. Choose “Start daemon” to start one.")

    def notify(self, text: str) -> None:
        """A desktop notification (tray) or a line in the status window."""
        self.messages.append(text)
        if self.tray is not None and QSystemTrayIcon.supportsMessages():
            self.tray.showMessage("nospin", text, icon_for(self.state), 6000)
        if self.window is not None:
            self.window.message.setText(text)

    def _command_finished(self, what: str, ok: bool, message: str) -> None:
        if not ok:
            self.notify(f"{what.replace('_', ' ').capitalize()} failed: {message}")
            self.update_view(self.bridge.view)  # undo the toggle's optimistic tick
        elif message and self.window is not None:
            self.window.message.setText(message)

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self.menu.popup(QCursor.pos())

    # ------------------------------------------------------------------ actions
    def show_settings(self) -> SettingsDialog:
        if self.settings is None:
            self.settings = SettingsDialog(self.bridge)
        if self.bridge.view.config:
            self.settings.load(self.bridge.view.config)
        self.settings.show()
        self.settings.raise_()
        return self.settings

    def show_latency(self) -> LatencyWindow:
        if self.latency is None:
            self.latency = LatencyWindow()
        self.latency.update_view(self.bridge.view)
        self.latency.show()
        self.latency.raise_()
        return self.latency

    def log_path(self) -> Path:
        """The daemon's log file; its folder when the daemon logs to a terminal."""
        if self.bridge.view.log_path:
            return Path(self.bridge.view.log_path)
        candidate = state_dir() / "daemon.log"
        return candidate if candidate.exists() else state_dir()

    def open_logs(self) -> None:
        self._open_url(QUrl.fromLocalFile(str(self.log_path())))

    def start_daemon(self) -> None:
        self.notify("Starting the nospin daemon…")
        self.bridge.start_daemon()

    def restart_daemon(self) -> None:
        self.notify("Restarting the nospin daemon…")
        self.bridge.restart_daemon()

    def quit(self) -> None:
        """Quit the tray (the daemon keeps serving editors)."""
        self.close()
        self._on_quit()

    def close(self) -> None:
        self.bridge.stop()
        if self.tray is not None:
            self.tray.hide()
        for window in (self.window, self.settings, self.latency):
            if window is not None:
                window.close()


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="nospin tray")
    parser.add_argument("--window", action="store_true",
                        help="show the status window even where a system tray exists")
    parser.add_argument("--start", action="store_true",
                        help="start a daemon when none runs")
    return parser.parse_args(list(argv))


def run_tray(argv: Sequence[str]) -> int:
    """Run the tray until Quit; returns the exit status."""
    args = _parse(argv)
    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "nospin"])
    assert isinstance(app, QApplication)
    app.setApplicationName("nospin")
    app.setApplicationDisplayName("nospin")
    app.setWindowIcon(QIcon(icon_for(st.TrayState.READY)))
    tray = TrayApp(use_tray=False if args.window else None)
    app.setQuitOnLastWindowClosed(tray.window is not None)
    app.aboutToQuit.connect(tray.bridge.stop)
    tray.show()
    if args.start:
        tray.bridge.start_daemon()
    return int(app.exec())
