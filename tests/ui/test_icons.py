"""Tray icons: one distinct picture per state at every size, HiDPI pixmaps at device size."""

from __future__ import annotations

from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from ui.icons import ICON_SIZES, icon_for, pixmap_for
from ui.state import TrayState


def _bytes(image: QImage) -> bytes:
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    return bytes(image.constBits())


def test_states_look_different_at_tray_sizes(qtbot: QtBot) -> None:
    for size in (16, 22, 32):
        images = {state: _bytes(pixmap_for(state, size).toImage()) for state in TrayState}
        assert len(set(images.values())) == len(TrayState), size
        for state, data in images.items():  # something drawn, and transparent corners
            image = pixmap_for(state, size).toImage()
            assert any(data), state
            assert image.pixelColor(0, 0).alpha() == 0


def test_hidpi_pixmaps_and_icon_sizes(qtbot: QtBot) -> None:
    pixmap = pixmap_for(TrayState.FAST, 16, dpr=2.0)
    assert (pixmap.width(), pixmap.height()) == (32, 32) and pixmap.devicePixelRatio() == 2.0
    icon = icon_for(TrayState.READY)
    assert {s.width() for s in icon.availableSizes()} == set(ICON_SIZES)
    assert icon_for(TrayState.READY) is icon  # cached
