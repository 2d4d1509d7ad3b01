"""The GPU check's report: stages, checks and failures, printed as they come and kept for the
JSON output; and the thresholds the checks share."""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from typing import Any

# a faithful draft (the model itself) must keep speculation on with a margin over the 0.4 rule
FAITHFUL_MIN_ACCEPTANCE = 0.5

# a generation that ended by itself: a random-weight model's text often repeats, and the
# engines' StreamFilter ends degenerate repetition (finish reason "repetition")
NATURAL_END = ("length", "stop", "repetition")  # FinishReason values


class Report:
    """Collects stages, checks and failures; becomes the JSON output."""

    def __init__(self, budget_s: float) -> None:
        self.t0 = time.monotonic()
        self.budget_s = budget_s
        self.data: dict[str, Any] = {"ok": False, "stages": {}, "checks": [], "failures": []}

    def elapsed(self) -> float:
        return time.monotonic() - self.t0

    def check(self, name: str, ok: bool, value: Any = None, expect: Any = None) -> bool:
        entry = {"name": name, "ok": bool(ok), "value": value}
        if expect is not None:
            entry["expect"] = expect
        self.data["checks"].append(entry)
        if not ok:
            self.data["failures"].append(name)
        print(f"[{self.elapsed():7.1f}s] {'ok  ' if ok else 'FAIL'} {name}: {value}", flush=True)
        return bool(ok)

    def stage(self, name: str, fn: Callable[[], dict[str, Any]], *, required: bool = False) -> bool:
        if self.elapsed() > self.budget_s:
            self.data["stages"][name] = {"ok": False, "skipped": "time budget spent"}
            print(f"[{self.elapsed():7.1f}s] skip {name}: time budget spent", flush=True)
            return False
        print(f"[{self.elapsed():7.1f}s] stage {name}", flush=True)
        t = time.monotonic()
        try:
            info = fn()
            ok = True
        except Exception as exc:
            info = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
            ok = False
            self.data["failures"].append(f"stage {name}")
            print(info["traceback"], flush=True)
        info.update(ok=ok, s=round(time.monotonic() - t, 2))
        self.data["stages"][name] = info
        if not ok and required:
            raise SystemExit(2)
        return ok
