"""``nospin doctor [--json]``: check the install (venv, model and its sha256, GPU and CUDA,
flash-attn, daemon socket, service, tray) and say what to fix. Exit status 1 when a check
fails, 0 otherwise (warnings included)."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser("doctor", help="check the install and say what to fix")
    p.add_argument("--json", action="store_true", help="print the checks as JSON")
    p.add_argument("--quick", action="store_true",
                   help="do not rehash the model file (a second per 500 MB)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from app.install.doctor import Probe, format_results, run_checks
    from app.install.host import detect_host

    results = run_checks(Probe(host=detect_host(), verify_model=not args.quick))
    if args.json:
        print(json.dumps([asdict(r) for r in results], indent=2))
    else:
        print("nospin doctor")
        print(format_results(results))
    return 1 if any(r.status == "fail" for r in results) else 0
