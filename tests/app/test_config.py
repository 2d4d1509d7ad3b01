"""config.toml written and read back: every string escaped, control characters refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config import Config, load, save, with_changes
from app.errors import ConfigError


def test_strings_with_quotes_backslashes_and_unicode_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    odd = 'C:\\models\\"coder" é [x] = # not a comment'
    config = with_changes(Config(), {"engine.model": odd, "engine.remote_url": "http://h:1/v1"})
    save(config, path)
    assert load(path) == config and load(path).engine.model == odd


@pytest.mark.parametrize("bad", ["a\x00b", "line\nbreak", "bell\x07", "del\x7f", "tab\there"])
def test_a_control_character_is_refused_and_nothing_is_written(tmp_path: Path, bad: str) -> None:
    """config.set with a NUL wrote the raw byte into config.toml before, and the next daemon
    refused to start ("not valid TOML")."""
    path = tmp_path / "config.toml"
    save(Config(), path)
    before = path.read_bytes()
    with pytest.raises(ConfigError, match=r"engine\.model must not contain control characters"):
        save(with_changes(Config(), {"engine.model": bad}), path)
    assert path.read_bytes() == before and load(path) == Config()
