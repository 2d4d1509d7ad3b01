"""The GPU check's report: stages, checks and failures, printed as they come and kept for the
JSON output; and the thresholds the checks share."""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

# A faithful draft (the model itself) is accepted nearly always once attention is causal in the
# verify pass: 0.63 on the H200 through exllamav2's unmasked SDPA (run 2), about 1.0 expected
# with no_sdpa (ties of a random head and the Q8 cache's rounding aside). Below 0.8 the verify
# pass still sees something the one-token draft passes do not.
FAITHFUL_MIN_ACCEPTANCE = 0.8

# a generation that ended by itself: a random-weight model's text often repeats, and the
# engines' StreamFilter ends degenerate repetition (finish reason "repetition")
NATURAL_END = ("length", "stop", "repetition")  # FinishReason values


class Report:
    """Collects stages, checks and failures; becomes the JSON output."""

    def __init__(self, budget_s: float, out: Path | None = None) -> None:
        self.t0 = time.monotonic()
        self.budget_s = budget_s
        self.out = out  # rewritten after every stage: a run cut short still leaves its figures
        self.data: dict[str, Any] = {"ok": False, "stages": {}, "checks": [], "failures": []}

    def save(self, *, partial: bool) -> str:
        """The JSON text; written to ``out`` (with ``"partial": true`` until the run ends)."""
        self.data["partial"] = partial
        self.data["total_s"] = round(self.elapsed(), 1)
        text = json.dumps(self.data, indent=2, default=str)
        if self.out is not None:
            try:
                self.out.write_text(text)
            except OSError as exc:
                print(f"cannot write {self.out}: {exc}", flush=True)
        return text

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

    def run(self, body: Callable[[], None]) -> int:
        """Run ``body`` (its stages), then save and print the final JSON. Exit code: 0 every
        check passed, 1 one failed, 2 a required stage failed (setup)."""
        try:
            body()
            code = 0 if not self.data["failures"] else 1
        except SystemExit as exc:
            code = int(exc.code or 2)
        self.data["ok"] = code == 0
        print(self.save(partial=False))
        return code

    def stage(
        self,
        name: str,
        fn: Callable[[], dict[str, Any]],
        *,
        required: bool = False,
        expect_s: float = 0.0,
    ) -> bool:
        """Run one stage unless it would end past the budget (``expect_s``: its usual time)."""
        if self.elapsed() + expect_s > self.budget_s:
            self.data["stages"][name] = {"ok": False, "skipped": "time budget spent"}
            print(f"[{self.elapsed():7.1f}s] skip {name}: time budget spent", flush=True)
            self.save(partial=True)
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
        self.save(partial=True)
        if not ok and required:
            raise SystemExit(2)
        return ok
