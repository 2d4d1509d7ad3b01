"""``nospin daemon --config``: a file named explicitly must exist."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import daemon.runner
from app import cli
from app import config as cfg
from tests.daemon.harness import short_home


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    """NOSPIN_HOME in tmp; run_daemon records its arguments instead of serving."""
    calls: list[dict[str, Any]] = []

    async def fake_run_daemon(config: cfg.Config, **kwargs: Any) -> None:
        calls.append({"config": config, **kwargs})

    monkeypatch.setattr(daemon.runner, "run_daemon", fake_run_daemon)
    monkeypatch.setattr("app.commands.daemon.log_to_own_descriptor", lambda: None)
    with short_home(monkeypatch):
        yield calls


def test_a_config_named_with_config_that_does_not_exist_is_an_error(
        started: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It ran on defaults without a word before, and a later fast-mode change created a file
    at the typo's path."""
    typo = tmp_path / "typo.toml"
    assert cli.main(["daemon", "--config", str(typo)]) == 1
    err = capsys.readouterr().err
    assert f"{typo} does not exist" in err and "--config" in err
    assert started == [] and not typo.exists()


def test_a_config_named_with_config_is_used(started: list[dict[str, Any]],
                                            tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text("[tiers]\nforce_fast = true\n")
    assert cli.main(["daemon", "--config", str(path)]) == 0
    assert started[0]["config"].tiers.force_fast and started[0]["config_path"] == path


def test_the_default_config_may_be_missing(started: list[dict[str, Any]]) -> None:
    assert not cfg.default_config_path().exists()
    assert cli.main(["daemon"]) == 0
    assert started[0]["config"] == cfg.Config()
    assert started[0]["config_path"] == cfg.default_config_path()


def test_eval_with_a_config_that_does_not_exist_is_an_error_too(
        started: list[dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    typo = tmp_path / "typo.toml"
    assert cli.main(["eval", "--corpus", str(tmp_path), "--config", str(typo)]) == 1
    assert f"{typo} does not exist" in capsys.readouterr().err
