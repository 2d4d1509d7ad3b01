"""`nospin bench startup` with the embedded model (one fresh start, no load comparison)."""

from __future__ import annotations

import argparse
import json

import pytest

from bench import startup


@pytest.mark.slow
def test_a_fresh_start_is_timed_as_a_user_sees_it() -> None:
    from app.errors import ModelNotInstalled
    from engine.models import embedded_model_path

    try:
        embedded_model_path()
    except ModelNotInstalled as exc:
        pytest.skip(str(exc))
    parser = argparse.ArgumentParser()
    startup.add_arguments(parser)
    result = startup.run(parser.parse_args(["--runs", "1", "--idle-s", "1", "--loads", "0"]))
    json.dumps(result)
    (run,) = result["runs"]
    assert run["text"].strip()  # README's completion came back
    assert run["first_completion_wall_ms"] > run["timings"]["total_ms"] > 0
    assert 0 < run["status_cli_ms"] < run["first_completion_wall_ms"]
    assert run["idle_cpu_percent_of_a_core"] is not None
    assert "load_beside_a_python_thread" not in result
    healing = result["healing_table"]  # 151,665 texts in steps of 16,384: ten, the last sorts
    assert healing["steps"] == 10 and healing["at_once_ms"] > 0 and healing["last_step_ms"] > 0
