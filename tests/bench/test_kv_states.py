"""``nospin bench kv-states``: both allocations side by side, with the embedded model."""

from __future__ import annotations

import argparse

import pytest

from bench.kv_states import run, summary


def test_summary_takes_the_second_half() -> None:
    timeline = [[1, 0.5, 700.0], [26, 9.0, 760.0], [51, 18.0, 770.0], [60, 21.0, 790.0]]
    assert summary(timeline) == {"start": 700.0, "second_half_mean": 780.0,
                                 "second_half_max": 790.0}


@pytest.mark.slow
def test_a_small_run_has_both_allocations_timelines() -> None:
    """bench/kv_states.py measures the llamacpp engine's KV state buffers."""
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed: the llamacpp "
                        "engine's KV states are measured where it is (installers/install.sh "
                        "--native)")
    args = argparse.Namespace(allocations="mapped,heap", docs=4, requests=3, slots=1, threads=1,
                              seed=0, child="")
    out = run(args)
    assert set(out["timeline"]) == {"mapped", "heap"}
    for allocation in ("mapped", "heap"):
        assert [row[0] for row in out["timeline"][allocation]] == [1, 3]
        assert out["rss_mb"][allocation]["start"] > 100  # the model is loaded
    assert out["kv_states_mb"] > 0  # documents 3, 2, 3 of 4 (seed 0): a state saved
    with pytest.raises(SystemExit, match="--allocations: stack"):
        run(argparse.Namespace(**{**vars(args), "allocations": "mapped,stack"}))
