"""config.toml written and read back: every string escaped, control characters refused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.config import Config, load, save, update_file, with_changes
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


def test_update_file_sets_only_the_changed_keys_and_keeps_comments(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    text = ("# laptop settings\n"
            "context.budget_tokens = 512  # small\n"
            "engine = { model = \"/m/a.gguf\" }\n\n"
            "[tiers]\n# below 1 s\nnormal_ms = 900.0\n")
    path.write_text(text)
    got = update_file(path, {"tiers.force_fast": True, "context.shares.cursor": 0.35,
                             "context.shares.history": 0.15, "engine.n_threads": 2,
                             "completion.max_tokens": 32})
    saved = path.read_text()
    assert saved.startswith("# laptop settings\ncontext.budget_tokens = 512  # small\n")
    assert "# below 1 s\nnormal_ms = 900.0\n" in saved and "force_fast = true" in saved
    assert got == load(path)
    assert got.context.budget_tokens == 512 and got.engine.model == "/m/a.gguf"
    assert got.engine.n_threads == 2 and got.completion.max_tokens == 32
    assert got.context.shares.cursor == 0.35 and got.tiers.normal_ms == 900.0


def test_update_file_creates_a_missing_file_with_the_changes_only(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "config.toml"
    update_file(path, {"tiers.normal_ms": 700})  # an int for a float field
    assert load(path) == with_changes(Config(), {"tiers.normal_ms": 700.0})
    assert path.read_text().strip() == "[tiers]\nnormal_ms = 700.0"


@pytest.mark.parametrize(("text", "changes", "message"), [
    ("[tiers\n", {"tiers.force_fast": True}, "is not valid TOML: nothing was changed"),
    ("[tiers]\ncap_tokens = 0\n", {"tiers.force_fast": True},
     "would not be a valid configuration with this change: nothing was changed"),
    ("# ok\n", {"tiers.cap_tokens": 0}, "tiers.cap_tokens must be at least 1"),
    ("# ok\n", {"no.such": 1}, "unknown configuration key 'no.such'"),
    ("# ok\n", {"context.shares": {}}, "unknown configuration key 'context.shares'"),
    ("# ok\n", {"engine.model": "a\nb"}, "engine.model must not contain control characters"),
    ("tiers = 3\n", {"tiers.force_fast": True}, "tiers is not a table"),
])
def test_update_file_refuses_and_leaves_the_file_alone(
        tmp_path: Path, text: str, changes: dict[str, object], message: str) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=re.escape(message)):
        update_file(path, changes)
    assert path.read_text() == text
