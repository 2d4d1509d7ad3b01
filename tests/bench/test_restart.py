"""``nospin bench restart`` end to end with the tests' scripted engine (two daemons per run)."""

from __future__ import annotations

import argparse

from bench import restart
from daemon.latency_model import LEARNT


def args(**changes: object) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    restart.add_arguments(parser)
    ns = parser.parse_args(["--engine", "fake", "--runs", "1", "--positions", "2"])
    vars(ns).update(changes)
    return ns


def test_the_second_daemon_starts_from_what_the_first_learnt() -> None:
    out = restart.run(args())
    [run] = out["runs"]
    first, second = run["sessions"]
    assert run["speed_file_saved"] and out["positions"] == 2
    assert first["model_start"]["num_restored"] == 0 and first["model_start"]["fill_ratio"] == 1.0
    assert second["model_start"]["num_restored"] == len(LEARNT)  # every figure
    assert second["model_start"]["fill_ratio"] == first["model_end"]["fill_ratio"] < 1.0
    assert len(out["after_restart"]["tiers"]) == 2 and out["before_restart"]["first_tiers"]
    # the prediction is read from each reply's tier_reason: a change of its wording shows here
    assert all(r["predicted_ms"] for s in (first, second) for r in s["completions"])


def test_forget_starts_the_second_from_the_priors_too() -> None:
    out = restart.run(args(forget=True))
    second = out["runs"][0]["sessions"][1]
    assert second["model_start"]["num_restored"] == 0
    assert second["model_start"]["fill_ratio"] == 1.0


def test_cursor_places_spread_over_indented_lines() -> None:
    text = "def f():\n    a = 1\n    # note\n\n    b = 2\n    return a + b\n"
    assert restart.cursor_places(text, 2) == [(4, 4), (5, 4)]  # comments and blanks skipped
    assert restart.cursor_places(text, 1) == [(4, 4)]
    assert restart.cursor_places("x = 1\n", 3) == []
