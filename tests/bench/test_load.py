"""`nospin bench load` against a private daemon with the scripted test engine."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from bench import load


def test_load_on_a_private_daemon_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "small.py").write_text("def add(a, b):\n    return a + b\n\n\nvalue = add(1, 2)\n")
    (src / "big.py").write_text("# a long line of comment text here\n" * 400)
    parser = argparse.ArgumentParser()
    load.add_arguments(parser)
    args = parser.parse_args(["--engine", "fake", "--clients", "2", "--requests", "6",
                              "--files", str(src), "--max-bytes", "1000"])
    result = load.run(args)
    json.dumps(result)
    assert result["num_files"] == 1  # big.py is over --max-bytes
    assert result["replies_lost"] == 0 and result["replies_duplicated"] == 0
    assert result["served"] == 12 and result["errors"] == {}
    assert len(result["slowest"]) == 5 and all("tier" in r for r in result["slowest"])
    assert sum(result["finish_reasons"].values()) == 12
    assert result["served_per_s"] > 0 and result["engine_served_per_s"] is not None
    assert result["needed_per_s_for_90pct"] is None  # zero think: no finite rate


def test_the_rate_serving_90_percent_counts_think_time_and_the_deadline() -> None:
    args = argparse.Namespace(think_ms=300, clients=16, deadline_ms=2500)
    assert load._needed(args) == round(0.9 * 16 / 2.8, 2)
    assert load._needed(argparse.Namespace(think_ms=0, clients=16, deadline_ms=2500)) is None
