"""The tray menu: live figures at the top, then toggles, windows and daemon actions.

Built once; :meth:`TrayMenu.update_view` refreshes it from each new :class:`DaemonView`. The
figures panel (:class:`FiguresPanel`) is also the body of the fallback status window.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMenu,
    QVBoxLayout,
    QWidget,
    QWidgetAction,
)

from ui import state as st
from ui.icons import STATE_COLORS

__all__ = ["FiguresPanel", "MenuActions", "TrayMenu"]


class StatusDot(QWidget):
    """A small filled circle in the state's colour."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.color = QColor(STATE_COLORS[st.TrayState.DOWN])
        self.setFixedSize(12, 12)

    def set_state(self, state: st.TrayState) -> None:
        self.color = QColor(STATE_COLORS[state])
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(self.color)
        p.drawEllipse(1, 1, 10, 10)
        p.end()


class FiguresPanel(QWidget):
    """State headline and the live figures (label: value rows)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(14, 10, 14, 8)
        outer.setSpacing(8)
        head = QHBoxLayout()
        head.setSpacing(8)
        self.dot = StatusDot()
        self.title = QLabel()
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.08)
        self.title.setFont(font)
        self.title.setObjectName("figuresTitle")
        head.addWidget(self.dot, 0, Qt.AlignmentFlag.AlignVCenter)
        head.addWidget(self.title, 1)
        outer.addLayout(head)
        self.grid = QGridLayout()
        self.grid.setHorizontalSpacing(18)
        self.grid.setVerticalSpacing(3)
        self.grid.setColumnStretch(1, 1)
        outer.addLayout(self.grid)
        self._rows: list[tuple[QLabel, QLabel]] = []

    def update_view(self, view: st.DaemonView) -> None:
        state = st.tray_state(view)
        self.dot.set_state(state)
        self.title.setText(st.headline(view))
        rows = st.figures(view)
        while len(self._rows) < len(rows):
            label, value = QLabel(), QLabel()
            label.setObjectName("figureLabel")
            label.setStyleSheet("color: palette(placeholder-text);")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            n = len(self._rows)
            self.grid.addWidget(label, n, 0)
            self.grid.addWidget(value, n, 1)
            self._rows.append((label, value))
        for i, (label, value) in enumerate(self._rows):
            visible = i < len(rows)
            label.setVisible(visible)
            value.setVisible(visible)
            if visible:
                label.setText(rows[i].label)
                value.setText(rows[i].value)
        self.adjustSize()


class MenuActions:
    """What the menu's entries call (the app wires them to the bridge and its windows)."""

    def __init__(
        self,
        *,
        fast_mode: Callable[[bool], None],
        speculation: Callable[[bool], None],
        paused: Callable[[bool], None],
        settings: Callable[[], object],
        latency: Callable[[], object],
        open_logs: Callable[[], None],
        start_daemon: Callable[[], None],
        restart_daemon: Callable[[], None],
        quit: Callable[[], None],
    ) -> None:
        self.fast_mode = fast_mode
        self.speculation = speculation
        self.paused = paused
        self.settings = settings
        self.latency = latency
        self.open_logs = open_logs
        self.start_daemon = start_daemon
        self.restart_daemon = restart_daemon
        self.quit = quit


class TrayMenu(QMenu):
    """The context menu of the tray icon (and the status window's menu button)."""

    def __init__(self, actions: MenuActions, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("trayMenu")
        self.figures = FiguresPanel()
        panel = QWidgetAction(self)
        panel.setDefaultWidget(self.figures)
        self.addAction(panel)
        self.addSeparator()
        self.start_action = self._add("Start daemon", actions.start_daemon)
        self.fast_action = self._toggle("Fast mode", actions.fast_mode)
        self.speculation_action = self._toggle("Speculative decoding", actions.speculation)
        self.pause_action = self._toggle("Pause completions", actions.paused)
        self.addSeparator()
        self.settings_action = self._add("Settings…", actions.settings)
        self.latency_action = self._add("Latency…", actions.latency)
        self.logs_action = self._add("Open logs", actions.open_logs)
        self.restart_action = self._add("Restart daemon", actions.restart_daemon)
        self.addSeparator()
        self.quit_action = self._add("Quit tray", actions.quit)
        self.update_view(st.DaemonView())

    def _add(self, text: str, fn: Callable[[], object]) -> QAction:
        action = QAction(text, self)
        action.triggered.connect(lambda _checked=False: fn())
        self.addAction(action)
        return action

    def _toggle(self, text: str, fn: Callable[[bool], None]) -> QAction:
        action = QAction(text, self)
        action.setCheckable(True)
        action.triggered.connect(fn)
        self.addAction(action)
        return action

    def update_view(self, view: st.DaemonView) -> None:
        """Refresh figures, toggles and which entries apply (no daemon: offer to start one)."""
        self.figures.update_view(view)
        running = view.running
        self.start_action.setVisible(not running)
        for action, checked in ((self.fast_action, view.fast_mode),
                                (self.speculation_action, view.speculation),
                                (self.pause_action, view.paused)):
            action.setVisible(running)
            action.setChecked(checked and running)
        self.settings_action.setEnabled(running)
        self.restart_action.setVisible(running)
        self.adjustSize()
