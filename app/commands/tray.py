"""``nospin tray``: the tray icon with live latency, tiers, toggles and settings (PySide6)."""

from __future__ import annotations

import argparse
from typing import Any

from app.errors import NospinError


def register(sub: Any) -> None:
    parser = sub.add_parser("tray", help="show the tray icon: latency, tier, fast mode, settings")
    parser.add_argument("--window", action="store_true",
                        help="show a status window even where a system tray exists")
    parser.add_argument("--start", action="store_true", help="start a daemon when none runs")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from ui.app import run_tray
    except ImportError as exc:
        raise NospinError("the tray needs PySide6: install the `tray` extra "
                          "(pip install 'nospin[tray]' or installers/install.sh --tray)",
                          detail=str(exc)) from exc
    argv = [*(["--window"] if args.window else []), *(["--start"] if args.start else [])]
    return run_tray(argv)
