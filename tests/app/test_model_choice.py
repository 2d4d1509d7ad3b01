"""Which model meets the typing targets: the choice (pure) and the command on the real daemon."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.errors import ConfigError
from app.model_choice import Candidate, Trial, choose, parse_candidates

BIG, SMALL = "qwen2.5-coder-1.5b", "embedded"


def trial(model: str, draft: str, p50: float | None, p95: float | None, skipped: str = ""
          ) -> Trial:
    return Trial(Candidate(model, draft), p50_ms=p50, p95_ms=p95, skipped=skipped)


def test_candidates_are_read_in_order_with_their_drafts() -> None:
    got = parse_candidates(f"{BIG}+embedded, {BIG}+prompt-lookup,{BIG},{SMALL}+auto")
    assert [(c.model, c.draft) for c in got] == [
        (BIG, "embedded"), (BIG, "prompt-lookup"), (BIG, ""), (SMALL, "auto")]
    assert got[0].settings() == {"engine.model": BIG, "engine.draft_model": "embedded"}
    with pytest.raises(ConfigError):
        parse_candidates("+embedded")
    with pytest.raises(ConfigError):
        parse_candidates(" , ")


def test_the_largest_model_that_meets_the_targets_with_its_fastest_setup() -> None:
    trials = [trial(BIG, "embedded", 280, 900), trial(BIG, "prompt-lookup", 240, 1000),
              trial(BIG, "", 310, 900), trial(SMALL, "auto", 150, 500)]
    assert choose(trials).candidate == Candidate(BIG, "prompt-lookup")


def test_a_model_that_misses_either_target_gives_way_to_the_next() -> None:
    trials = [trial(BIG, "embedded", 280, 1200), trial(BIG, "", 320, 900),
              trial(SMALL, "auto", 250, 700)]
    assert choose(trials).candidate == Candidate(SMALL, "auto")


def test_when_none_meets_them_the_last_that_ran_is_kept_and_skips_never_win() -> None:
    trials = [trial(BIG, "embedded", None, None, skipped="not installed"),
              trial(SMALL, "auto", 1475, 2431)]
    got = choose(trials)
    assert got.candidate == Candidate(SMALL, "auto") and not got.meets_targets
    assert not trial(BIG, "", 100, 100, skipped="not installed").meets_targets


@pytest.mark.slow
def test_choose_runs_the_typing_replay_skips_what_is_not_installed_and_applies(
        tmp_path: Path) -> None:
    """The command end to end: a real daemon per candidate (a tiny replay), a candidate whose
    model is not installed skipped with the pip command, the choice written to the config."""
    env = dict(os.environ, NOSPIN_HOME=str(tmp_path))
    proc = subprocess.run(
        [sys.executable, "-m", "app.cli", "model", "choose", "--candidates",
         f"{tmp_path / 'missing.gguf'}+,{SMALL}+auto", "--files", "1", "--points", "1",
         "--keys", "2", "--apply"],
        capture_output=True, text=True, env=env, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    missing, small = out["trials"]
    assert missing["skipped"] and missing["finished_p50_ms"] is None
    assert not small["skipped"] and small["completed"] >= 1
    assert small["finished_p50_ms"] is not None and small["finished_p50_ms"] > 0
    assert out["chosen"] == f"{SMALL}+auto" and out["applied"]
    assert "[model choose] 2/2" in proc.stderr
    text = (tmp_path / "config" / "config.toml").read_text()
    assert 'model = "embedded"' in text and 'draft_model = "auto"' in text
