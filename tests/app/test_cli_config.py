"""``nospin config get|set|path``: through a running daemon (a real ``nospin daemon`` process,
fake engine), else on its file."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.config import default_config_path, parse_assignments
from app.errors import ConfigError
from daemon import lifecycle
from tests.app.test_cli_complete import nospin
from tests.daemon.harness import short_home, write_project


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with short_home(monkeypatch) as path:
        yield path
        lifecycle.stop_daemon(20.0)  # the daemon a test started


def test_values_are_read_as_the_keys_types() -> None:
    """``nospin config set`` and the benchmarks' ``--set`` (bench latency, bench load)."""
    assert parse_assignments([
        "engine.n_ctx=8192", "completion.paused=on", "engine.speculation=NO",
        "tiers.cap_ms=1400", "context.shares.cursor=0.35", "engine.model= /m/a b.gguf",
        "engine.draft_model=prompt-lookup", 'context.layout="stable"']) == {
        "engine.n_ctx": 8192, "completion.paused": True, "engine.speculation": False,
        "tiers.cap_ms": 1400.0, "context.shares.cursor": 0.35, "engine.model": "/m/a b.gguf",
        "engine.draft_model": "prompt-lookup", "context.layout": "stable"}
    for bad, says in (("engine.n_ctx=lots", "whole number"), ("completion.paused=maybe",
                      "true or false"), ("tiers.cap_ms=soon", "is a number"),
                      ("engine=1", "unknown"), ("engine.nope=1", "unknown"),
                      ("engine.n_ctx", "KEY=VALUE")):
        with pytest.raises(ConfigError, match=says):
            parse_assignments([bad])


def test_without_a_daemon_the_file_is_read_and_changed(home: Path) -> None:
    path = default_config_path()
    assert nospin(home, "config", "path").stdout.strip() == str(path)
    assert nospin(home, "config", "get", "engine.n_ctx").stdout == "4096\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("# mine\n[completion]\ndebounce_ms = 90  # slow keyboard\n")
    done = nospin(home, "config", "set", "engine.n_ctx=8192", "completion.paused=true")
    assert done.returncode == 0 and "no daemon runs" in done.stdout, done.stderr
    text = path.read_text()
    assert "# mine" in text and "# slow keyboard" in text
    assert tomllib.loads(text)["engine"]["n_ctx"] == 8192
    got = nospin(home, "config", "get", "completion")
    assert "debounce_ms = 90" in got.stdout and "paused = true" in got.stdout
    secret = nospin(home, "config", "set", "engine.remote_api_key=sk-secret")
    assert secret.returncode == 0 and "sk-secret" not in secret.stdout, secret.stdout
    for shown in (nospin(home, "config", "get").stdout,
                  nospin(home, "config", "get", "engine", "--json").stdout):
        assert "sk-secret" not in shown and "***" in shown
    assert nospin(home, "config", "get", "engine.remote_api_key").stdout == "sk-secret\n"
    refused = nospin(home, "config", "set", "engine.n_ctx=100")
    assert refused.returncode == 1 and "nothing was changed" in refused.stderr
    assert tomllib.loads(path.read_text())["engine"]["n_ctx"] == 8192
    assert not lifecycle.socket_path().exists()  # no daemon was started for this


def test_with_a_daemon_changes_apply_at_once(home: Path) -> None:
    src = write_project(home / "proj")
    assert nospin(home, "complete", f"{src}:2:5").returncode == 0  # starts a daemon
    done = nospin(home, "config", "set", "engine.model=/models/other.gguf",
                  "completion.debounce_ms=120")
    assert done.returncode == 0, done.stderr
    assert "in the running daemon" in done.stdout and "loaded a new engine" in done.stdout
    assert nospin(home, "config", "get", "engine.model").stdout == "/models/other.gguf\n"
    assert tomllib.loads(default_config_path().read_text())["completion"]["debounce_ms"] == 120
    refused = nospin(home, "config", "set", "engine.model=/models/missing.gguf")
    assert refused.returncode == 1 and "did not start" in refused.stderr, refused.stderr
    got = json.loads(nospin(home, "config", "get", "engine", "--json").stdout)
    assert got["model"] == "/models/other.gguf"
    # --file: the file only, for the next start
    assert nospin(home, "config", "set", "--file", "completion.debounce_ms=80").returncode == 0
    assert nospin(home, "config", "get", "completion.debounce_ms").stdout == "120\n"
    assert nospin(home, "config", "get", "--file", "completion.debounce_ms").stdout == "80\n"
    assert nospin(home, "complete", f"{src}:2:5").returncode == 0  # still serving
