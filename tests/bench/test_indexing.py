"""`nospin bench indexing` with the embedded model on a small project."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from bench import indexing


@pytest.mark.slow
def test_prefills_beside_a_scan_of_a_small_project(tmp_path: Path) -> None:
    from engine.models import embedded_model_path

    try:
        embedded_model_path()
    except Exception as exc:  # the model packages are not installed
        pytest.skip(str(exc))
    for i in range(40):
        (tmp_path / f"m{i}.py").write_text(
            "".join(f"def f{i}_{j}(x):\n    return x + {j}\n\n" for j in range(30)))
    (tmp_path / "skipped").mkdir()
    (tmp_path / "skipped" / "big.py").write_text("x = 1\n")
    parser = argparse.ArgumentParser()
    indexing.add_arguments(parser)
    result = indexing.run(parser.parse_args(
        ["--root", str(tmp_path), "--prompts", "1", "--exclude", "skipped/"]))
    json.dumps(result)
    assert result["root"] == str(tmp_path)
    assert result["prefills_during_scan"] >= 1
    assert 0 < result["prefill_ms_per_token_idle"] < 1_000
    assert 0 < result["prefill_ms_per_token_during_scan"] < 1_000
    assert result["scan_s"] >= 0
    assert result["files_indexed"] == 40  # skipped/ left out
