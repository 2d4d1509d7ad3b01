"""Screenshots of the tray for the docs, taken on a virtual X display with a real tray host.

    python -m ui.screenshots --out docs/screenshots          # Xvfb + trayer + the embedded model
    python -m ui.screenshots --out /tmp/shots --fake          # the tests' fake engine (fast)

Needs Debian's ``xvfb`` and ``trayer`` (``x11-xserver-utils`` and ``xdotool`` for the desktop
colour and the tooltip, optional). It starts ``Xvfb`` and ``trayer`` (the system tray host; no
window manager needed) and a daemon in a private ``NOSPIN_HOME`` (the embedded model is linked
from the user cache, not assembled again); sends real completions as a user types them (a few
keystrokes at each of several cursor places in a copy of some files of this repository; some at
forced tier 2 and in fast mode, so the chart shows tier changes); starts the tray, sends a few
more while it runs, and saves ``tray.png`` (the icon with its tooltip), ``menu.png``,
``settings.png``, ``settings-engine.png``, ``latency.png`` and ``icons.png``.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SCREEN = (1280, 800)
DESKTOP = "#4a5566"
DEADLINE_MS = 15_000  # a shared 2-core box needs seconds for a cold prompt; answers, not timeouts
BUDGET_TOKENS = 1024  # context budget of the screenshots' daemon (slim prompts, design.md §7)
SAMPLE_FILES = ("app/config.py", "daemon/metrics.py", "app/errors.py", "daemon/lifecycle.py")


@contextlib.contextmanager
def virtual_desktop() -> Iterator[None]:
    """Xvfb on DISPLAY with trayer docked top right (a panel with a system tray)."""
    procs: list[subprocess.Popen[bytes]] = []
    number = next((n for n in range(93, 120) if not Path(f"/tmp/.X{n}-lock").exists()), 120)
    display = f":{number}"
    try:
        xvfb = subprocess.Popen(
            ["Xvfb", display, "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24", "-nolisten", "tcp",
             "-dpi", "96"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        procs.append(xvfb)
        os.environ["DISPLAY"] = display
        _wait(lambda: Path(f"/tmp/.X11-unix/X{number}").exists() or xvfb.poll() is not None,
              10, "Xvfb did not start")
        if xvfb.poll() is not None:
            raise SystemExit(f"Xvfb {display} exited with status {xvfb.returncode}")
        # Qt aborts the process (no clean-up) when its xcb plugin cannot load: try it apart first
        probe = subprocess.run([sys.executable, "-c", "from PySide6.QtWidgets import QApplication;"
                                " QApplication(['probe'])"], capture_output=True, text=True)
        if probe.returncode != 0:
            raise SystemExit("Qt cannot open the X display (apt-get install libxcb-cursor0?):\n"
                             + probe.stderr[-600:])
        if shutil.which("xsetroot"):
            subprocess.run(["xsetroot", "-solid", DESKTOP], check=False)
        procs.append(subprocess.Popen(
            ["trayer", "--edge", "top", "--align", "right", "--widthtype", "request",
             "--height", "28", "--iconspacing", "6", "--padding", "8", "--margin", "0",
             "--transparent", "true", "--alpha", "0", "--tint", "0x1f2328",
             "--SetDockType", "true", "--SetPartialStrut", "true"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(1.5)
        yield
    finally:
        for proc in reversed(procs):
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(5)


def _wait(ready: Callable[[], bool], timeout_s: float, message: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not ready():
        if time.monotonic() > deadline:
            raise SystemExit(message)
        time.sleep(0.1)


def private_home(fake: bool) -> Path:
    """A fresh NOSPIN_HOME; the embedded model is linked from the user's cache."""
    home = Path(tempfile.mkdtemp(prefix="nsshot", dir="/tmp"))
    os.environ["NOSPIN_HOME"] = str(home)
    (home / "config").mkdir(mode=0o700)
    (home / "config" / "config.toml").write_text(
        f"[context]\nbudget_tokens = {BUDGET_TOKENS}\n")
    if fake:
        os.environ["NOSPIN_ENGINE_FACTORY"] = "tests.daemon.fakes:make_engine"
        os.environ["PYTHONPATH"] = str(REPO)
    else:
        import platformdirs

        models = Path(platformdirs.user_cache_dir("nospin")) / "models"
        if models.is_dir():
            (home / "cache").mkdir(parents=True)
            (home / "cache" / "models").symlink_to(models)
    return home


def sample_project(home: Path) -> list[Path]:
    """A copy of a few files of this repository, as the project the 'user' edits."""
    root = home / "project"
    files = []
    for rel in SAMPLE_FILES:
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / rel, target)
        files.append(target)
    (root / "pyproject.toml").write_text("[project]\nname = 'sample'\n")
    return files


def typing(files: list[Path], sessions: int, start: int, keys: int = 4
           ) -> Iterator[tuple[Path, str, int, int]]:
    """(file, text, line, col) as a user types: ``sessions`` cursor places on code lines, each
    with ``keys`` keystrokes (the line grows by one character per request)."""
    found = 0
    for offset in range(10_000):
        path = files[(start + offset) % len(files)]
        lines = path.read_text().splitlines()
        index = 20 + (start * 37 + offset * 53) % max(1, len(lines) - 40)
        line = lines[index]
        stripped = line.strip()
        if len(stripped) < 16 or stripped.startswith(("#", '"', "'")):
            continue
        indent = len(line) - len(stripped)
        for key in range(keys):
            col = indent + max(3, len(stripped) // 4) + key
            # the text as typed so far: the rest of the line is not there yet
            text_lines = [*lines[:index], line[:col], *lines[index + 1:]]
            yield path, "\n".join(text_lines) + "\n", index, col
        found += 1
        if found >= sessions:
            return


def send_completions(sessions: int, start: int, files: list[Path], keys: int = 4) -> None:
    from app.client import Client

    with Client(autostart=False, idle_timeout_s=60.0) as client:
        for path, text, line, col in typing(files, sessions, start, keys):
            with contextlib.suppress(Exception):
                client.complete(str(path), line, col, text=text, multiline=False,
                                deadline_ms=DEADLINE_MS)


def start_daemon() -> None:
    from app.client import Client
    from daemon import lifecycle

    proc, log_file = lifecycle.spawn_daemon()
    threading.Thread(target=proc.wait, daemon=True).start()
    lifecycle.wait_for_socket(proc, log_file, timeout_s=60)
    with Client(autostart=False) as client:
        deadline = time.monotonic() + 180
        while client.status().engine.get("state") != "ready":
            if time.monotonic() > deadline:
                raise SystemExit("the engine did not load")
            time.sleep(0.5)


def stop_daemon() -> None:
    from daemon import lifecycle

    lifecycle.stop_daemon(30.0)


def history(files: list[Path]) -> None:
    """Requests before the tray starts: normal, then capped (tier 2), fast mode, normal again."""
    from app.client import Client

    send_completions(3, 0, files)
    with Client(autostart=False) as client:
        client.config_set({"tiers.normal_ms": 1.0, "tiers.cap_ms": 1.0},
                          note="screenshots: every request predicted past cap_ms")
    send_completions(1, 3, files)
    with Client(autostart=False) as client:
        client.config_set({"tiers.normal_ms": 800.0, "tiers.cap_ms": 1500.0})
        client.fast_mode(True)
    send_completions(1, 4, files)
    with Client(autostart=False) as client:
        client.fast_mode(False)
    send_completions(3, 5, files)


def take(out: Path, files: list[Path]) -> None:
    """Start the tray and save the screenshots (runs the Qt event loop while waiting)."""
    from PySide6.QtCore import QEventLoop, QPoint, QRect, QTimer
    from PySide6.QtGui import QColor, QFont, QFontInfo, QGuiApplication, QPainter, QPixmap
    from PySide6.QtWidgets import QApplication

    from ui import state as st
    from ui.app import TrayApp
    from ui.icons import pixmap_for

    app = QApplication(["nospin"])
    app.setApplicationName("nospin")
    app.setStyle("Fusion")
    font = QFont("Cantarell", 10)  # GNOME's UI font, when installed (fonts-cantarell)
    if QFontInfo(font).family() != "Cantarell":
        font = QFont("DejaVu Sans", 9)
    app.setFont(font)

    def pump(seconds: float) -> None:
        loop = QEventLoop()
        QTimer.singleShot(int(seconds * 1000), loop.quit)
        loop.exec()

    def until(ready: Callable[[], bool], timeout_s: float, what: str) -> None:
        deadline = time.monotonic() + timeout_s
        while not ready():
            if time.monotonic() > deadline:
                raise SystemExit(f"timed out waiting for {what}")
            pump(0.1)

    tray = TrayApp(use_tray=True, on_quit=lambda: None)
    tray.show()
    until(lambda: tray.view.running and bool(tray.view.points), 30, "the tray to connect")
    before = len(tray.view.points)
    live = threading.Thread(target=send_completions, args=(1, 8, files, 3), daemon=True)
    live.start()
    until(lambda: len(tray.view.points) >= before + 3 or not live.is_alive(), 120,
          "live requests")
    until(lambda: (tray.view.metrics.get("num_requests") or 0) >= 10, 30, "metrics")
    pump(1.0)
    screen = QGuiApplication.primaryScreen()
    assert tray.tray is not None
    icon = tray.tray.geometry()

    def grab(rect: QRect) -> QPixmap:
        return screen.grabWindow(0, rect.x(), rect.y(), rect.width(), rect.height())

    # 1. the icon in the panel, with its tooltip
    if shutil.which("xdotool"):
        subprocess.run(["xdotool", "mousemove", str(icon.center().x()), str(icon.center().y())],
                       check=False)
        pump(2.5)
    grab(QRect(SCREEN[0] - 460, 0, 460, 130)).save(str(out / "tray.png"))
    if shutil.which("xdotool"):
        subprocess.run(["xdotool", "mousemove", "300", "500"], check=False)
        pump(0.8)

    # 2. the menu, opened from the icon
    tray.menu.popup(QPoint(icon.left(), icon.bottom() + 2))
    pump(0.8)
    menu = tray.menu.geometry()
    area = menu.united(icon).adjusted(-24, 0, 24, 24)
    area.setTop(0)
    area = area.intersected(QRect(0, 0, *SCREEN))
    grab(area).save(str(out / "menu.png"))
    tray.menu.hide()
    pump(0.3)

    # 3. settings: the context tab (shares and their total) and the engine tab
    dialog = tray.show_settings()
    dialog.tabs.setCurrentIndex(1)
    dialog.adjustSize()
    pump(0.6)
    dialog.grab().save(str(out / "settings.png"))
    dialog.tabs.setCurrentIndex(0)
    pump(0.4)
    dialog.grab().save(str(out / "settings-engine.png"))
    dialog.close()

    # 4. the latency window with the recent requests
    window = tray.show_latency()
    window.resize(860, 430)
    pump(0.8)
    window.grab().save(str(out / "latency.png"))
    window.close()

    # 5. the icon states, for the docs
    states = list(st.TrayState)
    cell_w, height = 150, 96
    legend = QPixmap(cell_w * len(states), height)
    legend.fill(QColor("#ffffff"))
    p = QPainter(legend)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setFont(font)
    for i, state in enumerate(states):
        x = i * cell_w
        p.drawPixmap(x + cell_w // 2 - 44, 14, pixmap_for(state, 16))
        p.drawPixmap(x + cell_w // 2 - 22, 10, pixmap_for(state, 24))
        p.drawPixmap(x + cell_w // 2 + 10, 6, pixmap_for(state, 32))
        p.setPen(QColor("#24292f"))
        p.drawText(QRect(x, 50, cell_w, 40), 0x0084, st.STATE_TITLES[state])  # AlignHCenter|Top
    p.end()
    legend.save(str(out / "icons.png"))
    tray.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m ui.screenshots")
    parser.add_argument("--out", type=Path, default=REPO / "docs" / "screenshots")
    parser.add_argument("--fake", action="store_true", help="the tests' fake engine, no model")
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    for tool in ("Xvfb", "trayer"):
        if shutil.which(tool) is None:
            print(f"{tool} is missing: apt-get install -y xvfb trayer", file=sys.stderr)
            return 2
    os.environ.pop("QT_QPA_PLATFORM", None)
    home = private_home(args.fake)
    try:
        with virtual_desktop():
            files = sample_project(home)
            start_daemon()
            try:
                history(files)
                take(out, files)
            finally:
                stop_daemon()
    finally:
        shutil.rmtree(home, ignore_errors=True)
    for name in sorted(p.name for p in out.glob("*.png")):
        print(out / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
