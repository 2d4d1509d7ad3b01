"""Tray icons drawn with QPainter at run time: one distinct shape and colour per state.

No image files: every size is painted on demand in a 64-unit design space, so the icons stay
crisp from a 16 px panel to a 2x HiDPI tray. The shapes differ as well as the colours (a check,
a warning triangle, a lightning bolt, a ring, two bars, a cross, a struck-through ring), so the
state reads without colour vision too.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap, QPolygonF

from ui.state import TrayState

__all__ = ["ICON_SIZES", "STATE_COLORS", "icon_for", "pixmap_for"]

ICON_SIZES = (16, 20, 22, 24, 32, 40, 48, 64, 96, 128)

# main colour of each state (also used for the status dot in the menu and window)
STATE_COLORS: dict[TrayState, str] = {
    TrayState.READY: "#2da44e",
    TrayState.DEGRADED: "#e3a008",
    TrayState.FAST: "#6e56cf",
    TrayState.BUSY: "#3b82c4",
    TrayState.PAUSED: "#8a8f98",
    TrayState.FAILED: "#d1242f",
    TrayState.HUNG: "#b4581c",
    TrayState.DOWN: "#8a8f98",
}
_WHITE = QColor("#ffffff")


def _badge(p: QPainter, color: QColor) -> None:
    """A filled disc with a slightly darker rim (visible on light and dark panels)."""
    p.setPen(QPen(color.darker(135), 3.0))
    p.setBrush(QBrush(color))
    p.drawEllipse(QRectF(4, 4, 56, 56))


def _stroke(p: QPainter, color: QColor, width: float) -> None:
    pen = QPen(color, width)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)


def _ready(p: QPainter, color: QColor) -> None:
    _badge(p, color)
    _stroke(p, _WHITE, 8.0)
    path = QPainterPath(QPointF(18, 33))
    path.lineTo(28, 43)
    path.lineTo(46, 22)
    p.drawPath(path)


def _degraded(p: QPainter, color: QColor) -> None:
    tri = QPolygonF([QPointF(32, 5), QPointF(61, 57), QPointF(3, 57)])
    pen = QPen(color.darker(135), 3.0)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    p.setPen(pen)
    p.setBrush(QBrush(color))
    p.drawPolygon(tri)
    dark = QColor("#3d2a00")
    _stroke(p, dark, 7.5)
    p.drawLine(QPointF(32, 23), QPointF(32, 38))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(dark))
    p.drawEllipse(QPointF(32, 48), 4.2, 4.2)


def _fast(p: QPainter, color: QColor) -> None:
    _badge(p, color)
    bolt = QPolygonF([QPointF(36, 9), QPointF(17, 36), QPointF(30, 36), QPointF(26, 55),
                      QPointF(47, 26), QPointF(34, 26), QPointF(36, 9)])
    p.setPen(QPen(_WHITE, 1.5))
    p.setBrush(QBrush(_WHITE))
    p.drawPolygon(bolt)


def _busy(p: QPainter, color: QColor) -> None:
    _badge(p, color)
    _stroke(p, _WHITE, 7.5)
    p.drawArc(QRectF(17, 17, 30, 30), 90 * 16, -270 * 16)  # a three-quarter ring
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(_WHITE))
    p.drawPolygon(QPolygonF([QPointF(32, 9), QPointF(41, 17), QPointF(32, 25)]))  # arrowhead


def _paused(p: QPainter, color: QColor) -> None:
    _badge(p, color)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(_WHITE))
    p.drawRoundedRect(QRectF(21, 18, 8, 28), 2, 2)
    p.drawRoundedRect(QRectF(35, 18, 8, 28), 2, 2)


def _failed(p: QPainter, color: QColor) -> None:
    _badge(p, color)
    _stroke(p, _WHITE, 8.0)
    p.drawLine(QPointF(22, 22), QPointF(42, 42))
    p.drawLine(QPointF(42, 22), QPointF(22, 42))


def _hung(p: QPainter, color: QColor) -> None:
    _badge(p, color)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(_WHITE))
    for x in (18, 32, 46):  # an ellipsis: waiting for an answer
        p.drawEllipse(QPointF(x, 32), 5.0, 5.0)


def _down(p: QPainter, color: QColor) -> None:
    _stroke(p, color, 7.0)
    p.drawEllipse(QRectF(8, 8, 48, 48))
    p.drawLine(QPointF(17, 47), QPointF(47, 17))


_PAINTERS: dict[TrayState, Callable[[QPainter, QColor], None]] = {
    TrayState.READY: _ready,
    TrayState.DEGRADED: _degraded,
    TrayState.FAST: _fast,
    TrayState.BUSY: _busy,
    TrayState.PAUSED: _paused,
    TrayState.FAILED: _failed,
    TrayState.HUNG: _hung,
    TrayState.DOWN: _down,
}


def pixmap_for(state: TrayState, size: int, *, dpr: float = 1.0) -> QPixmap:
    """The icon of ``state`` painted at ``size`` logical pixels (``size * dpr`` device pixels)."""
    device = max(1, round(size * dpr))
    pixmap = QPixmap(device, device)
    pixmap.fill(Qt.GlobalColor.transparent)
    p = QPainter(pixmap)
    try:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.scale(device / 64.0, device / 64.0)
        _PAINTERS[state](p, QColor(STATE_COLORS[state]))
    finally:
        p.end()
    pixmap.setDevicePixelRatio(dpr)
    return pixmap


_cache: dict[TrayState, QIcon] = {}


def icon_for(state: TrayState) -> QIcon:
    """A QIcon of ``state`` with pixmaps at every usual tray size (cached)."""
    icon = _cache.get(state)
    if icon is None:
        icon = QIcon()
        for size in ICON_SIZES:
            icon.addPixmap(pixmap_for(state, size))
        _cache[state] = icon
    return icon
