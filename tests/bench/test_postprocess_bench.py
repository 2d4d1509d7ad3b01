"""``nospin bench postprocess``: runs through the CLI and reports every length."""

from __future__ import annotations

import json
import subprocess
import sys


def test_bench_postprocess_prints_json_for_every_length() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "app.cli", "bench", "postprocess", "--repeat", "1", "--json"],
        capture_output=True, text=True, check=True, timeout=120,
    )
    data = json.loads(out.stdout)
    for n in data["lengths"]:
        assert data[f"push_us_per_piece_{n}"] > 0 and data[f"cut_short_ms_{n}"] > 0
    assert data["growth"] > 0
