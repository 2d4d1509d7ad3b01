"""The Latency window: recent requests as a live chart, drawn with QPainter.

Each finished request is one column: a dot for the time to its first token and a dot (joined by a
line) for the time to its finished completion. Columns whose request ran at tier 2 or 3 get a
tinted band, and every change of tier is marked with a label. Dashed lines give p50 and p95 of
the finished times of the requests shown (first-token percentiles are in the summary line).
"""

from __future__ import annotations

import math
import time

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPaintEvent, QPen
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from ui import state as st

__all__ = ["LatencyChart", "LatencyWindow", "nice_ceiling"]

_FIRST = QColor("#3b82c4")  # first token
_TOTAL = QColor("#24292f")  # finished
_P50 = QColor("#2da44e")
_P95 = QColor("#d1242f")
_TIER_BANDS = {2: QColor(227, 160, 8, 46), 3: QColor(110, 86, 207, 46)}
_TIER_TEXT = {1: "tier 1", 2: "tier 2 · capped", 3: "tier 3 · fast"}
_TIER_LABEL_COLORS = {1: QColor("#57606a"), 2: QColor("#9a6700"), 3: QColor("#5b45b8")}
_GRID = QColor("#e5e8eb")
_AXIS_TEXT = QColor("#57606a")


def nice_ceiling(value: float) -> float:
    """The smallest 1/2/2.5/5 x 10^n at or above ``value`` (axis maxima): 730 -> 1000."""
    if value <= 0:
        return 100.0
    exp = 10 ** math.floor(math.log10(value))
    for step in (1.0, 2.0, 2.5, 5.0, 10.0):
        if value <= step * exp + 1e-9:
            return float(step * exp)
    return float(10 * exp)


def _axis_label(ms: float) -> str:
    if ms >= 1000:
        seconds = ms / 1000
        return f"{seconds:.1f} s" if seconds % 1 else f"{seconds:.0f} s"
    return f"{ms:.0f} ms"


class LatencyChart(QWidget):
    """The chart itself; ``set_points`` redraws it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.points: tuple[st.RequestPoint, ...] = ()
        self.max_columns = 60  # most recent requests drawn
        self.setMinimumSize(520, 280)
        self.setAutoFillBackground(False)

    def sizeHint(self) -> QSize:
        return QSize(720, 340)

    def set_points(self, points: tuple[st.RequestPoint, ...]) -> None:
        self.points = points
        self.update()

    def visible_points(self) -> tuple[st.RequestPoint, ...]:
        return self.points[-self.max_columns:]

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            self._paint(p)
        finally:
            p.end()

    def _paint(self, p: QPainter) -> None:
        p.fillRect(self.rect(), QColor("#ffffff"))
        small = QFont(self.font())
        small.setPointSizeF(max(7.0, small.pointSizeF() * 0.88))
        p.setFont(small)
        fm = p.fontMetrics()
        points = self.visible_points()
        left, right = fm.horizontalAdvance("00.0 s") + 18, 64
        top, bottom = 34, fm.height() + 14
        plot = QRectF(left, top, self.width() - left - right, self.height() - top - bottom)

        self._legend(p, plot)
        if not points:
            p.setPen(_AXIS_TEXT)
            p.drawText(plot, Qt.AlignmentFlag.AlignCenter,
                       "No requests yet: completions appear here as they finish.")
            p.setPen(QPen(_GRID, 1))
            p.drawRect(plot)
            return

        served = [pt for pt in points if pt.served]
        highest = max([pt.total_ms for pt in points]
                      + [pt.first_token_ms or 0.0 for pt in points])
        y_max = nice_ceiling(highest * 1.08)

        def y_of(ms: float) -> float:
            return plot.bottom() - min(ms, y_max) / y_max * plot.height()

        n = len(points)
        col = plot.width() / max(n, 1)

        def x_of(i: int) -> float:
            return plot.left() + col * (i + 0.5)

        # tier bands (one rectangle per run of a tier) and a mark at every change of tier
        runs = _tier_runs(points)
        for index, (start, stop, tier) in enumerate(runs):
            band = _TIER_BANDS.get(tier)
            x0, x1 = plot.left() + col * start, plot.left() + col * stop
            if band is not None:
                p.fillRect(QRectF(x0, plot.top(), x1 - x0, plot.height()), band)
            if index > 0:
                p.setPen(QPen(_TIER_LABEL_COLORS[tier], 1, Qt.PenStyle.DotLine))
                p.drawLine(QPointF(x0, plot.top()), QPointF(x0, plot.bottom()))
            label = _TIER_TEXT[tier]
            room = (runs[index + 1][0] if index + 1 < len(runs) else n) * col + plot.left() - x0
            if (index > 0 or tier != 1) and fm.horizontalAdvance(label) + 8 <= room:
                p.setPen(_TIER_LABEL_COLORS[tier])
                p.drawText(QPointF(x0 + 4, plot.top() + fm.ascent() + 3), label)

        # grid and y axis
        lead = round(y_max / 10 ** math.floor(math.log10(y_max)), 1)
        steps = 4 if lead == 2.0 else 5  # ticks at round values: 0.5 s, 1 s, 20 ms ...
        for k in range(steps + 1):
            ms = y_max * k / steps
            y = y_of(ms)
            p.setPen(QPen(_GRID, 1))
            p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
            p.setPen(_AXIS_TEXT)
            p.drawText(QRectF(0, y - fm.height() / 2, left - 8, fm.height()),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                       _axis_label(ms))
        p.setPen(_AXIS_TEXT)
        age = time.time() - points[0].time
        oldest = f"{n} requests · oldest {_age(age)} ago" if n > 1 else "1 request"
        p.drawText(QRectF(plot.left(), plot.bottom() + 4, plot.width(), fm.height() + 4),
                   Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, oldest)
        p.drawText(QRectF(plot.left(), plot.bottom() + 4, plot.width(), fm.height() + 4),
                   Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop, "newest")

        # p50 / p95 of the finished times
        if served:
            pct = st.percentiles(points)
            label_y: dict[str, float] = {}
            for key in ("total_p50", "total_p95"):
                value = pct[key]
                if value is not None:
                    label_y[key] = y_of(value)
            if len(label_y) == 2 and label_y["total_p50"] - label_y["total_p95"] < fm.height():
                middle = (label_y["total_p50"] + label_y["total_p95"]) / 2  # keep labels apart
                label_y = {"total_p50": middle + fm.height() / 2,
                           "total_p95": middle - fm.height() / 2}
            for key, color, name in (("total_p50", _P50, "p50"), ("total_p95", _P95, "p95")):
                value = pct[key]
                if value is None:
                    continue
                y = y_of(value)
                p.setPen(QPen(color, 1.4, Qt.PenStyle.DashLine))
                p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y))
                p.setPen(color)
                ly = label_y[key]
                p.drawText(QRectF(plot.right() + 6, ly - fm.height() / 2, right - 6, fm.height()),
                           Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                           f"{name} {_axis_label(value) if value >= 1000 else f'{value:.0f}'}")

        # finished: line + dots; first token: dots
        path = QPainterPath()
        for i, pt in enumerate(points):
            pos = QPointF(x_of(i), y_of(pt.total_ms))
            if i == 0:
                path.moveTo(pos)
            else:
                path.lineTo(pos)
        p.setPen(QPen(QColor(36, 41, 47, 90), 1.2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPath(path)
        radius = max(2.0, min(4.0, col * 0.3))
        for i, pt in enumerate(points):
            p.setPen(Qt.PenStyle.NoPen)
            if pt.first_token_ms is not None:
                p.setBrush(_FIRST)
                p.drawEllipse(QPointF(x_of(i), y_of(pt.first_token_ms)), radius, radius)
            if pt.served:
                p.setBrush(_TOTAL)
                p.drawEllipse(QPointF(x_of(i), y_of(pt.total_ms)), radius, radius)
            else:  # shed, cancelled or failed: a hollow red ring
                p.setPen(QPen(_P95, 1.5))
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawEllipse(QPointF(x_of(i), y_of(pt.total_ms)), radius, radius)
        p.setPen(QPen(QColor("#d0d7de"), 1))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(plot)

    def _legend(self, p: QPainter, plot: QRectF) -> None:
        fm = p.fontMetrics()
        x = plot.left()
        y = 10 + fm.ascent()
        entries: list[tuple[str, QColor, str]] = [
            ("dot", _FIRST, "first token"),
            ("dot", _TOTAL, "finished"),
            ("dash", _P50, "p50 finished"),
            ("dash", _P95, "p95 finished"),
            ("band", _TIER_BANDS[2], "tier 2"),
            ("band", _TIER_BANDS[3], "tier 3"),
        ]
        for kind, color, text in entries:
            mid = y - fm.ascent() / 2 + 1
            if kind == "dot":
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(color)
                p.drawEllipse(QPointF(x + 5, mid), 4, 4)
                x += 14
            elif kind == "dash":
                p.setPen(QPen(color, 1.6, Qt.PenStyle.DashLine))
                p.drawLine(QPointF(x, mid), QPointF(x + 18, mid))
                x += 24
            else:
                p.setPen(Qt.PenStyle.NoPen)
                p.fillRect(QRectF(x, mid - 6, 14, 12), QColor(color.red(), color.green(),
                                                               color.blue(), 110))
                x += 20
            p.setPen(_AXIS_TEXT)
            p.drawText(QPointF(x, y), text)
            x += fm.horizontalAdvance(text) + 18


def _tier_runs(points: tuple[st.RequestPoint, ...]) -> list[tuple[int, int, int]]:
    """(first index, index past the end, tier) of each run of one tier; requests without a tier
    (cache answers, shed) join the run they are in."""
    runs: list[tuple[int, int, int]] = []
    for i, pt in enumerate(points):
        tier = pt.tier or (runs[-1][2] if runs else 1)
        if runs and runs[-1][2] == tier:
            runs[-1] = (runs[-1][0], i + 1, tier)
        else:
            runs.append((i, i + 1, tier))
    return runs


def _age(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


class LatencyWindow(QWidget):
    """The chart and a summary line; ``update_view`` follows the bridge."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("nospin Latency")
        self.setObjectName("latencyWindow")
        self.chart = LatencyChart()
        self.summary = QLabel()
        self.summary.setObjectName("latencySummary")
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 12, 14, 12)
        layout.setSpacing(8)
        layout.addWidget(self.summary)
        layout.addWidget(self.chart, 1)
        self.resize(760, 400)

    def update_view(self, view: st.DaemonView) -> None:
        self.chart.set_points(view.points)
        shown = self.chart.visible_points()
        pct = st.percentiles(shown)
        state = st.headline(view) if view.running else "daemon not running"
        self.summary.setText(
            f"<b>{state}</b> &nbsp;·&nbsp; last {len(shown)} requests &nbsp;·&nbsp; "
            f"first token p50 {st.format_ms(pct['first_p50'])}, "
            f"p95 {st.format_ms(pct['first_p95'])} &nbsp;·&nbsp; "
            f"finished p50 {st.format_ms(pct['total_p50'])}, "
            f"p95 {st.format_ms(pct['total_p95'])}")
