"""config.toml written and read back: every string escaped, control characters refused."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.config import Config, load, save, to_dict, update_file, with_changes
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


@pytest.mark.parametrize(("key", "value", "message"), [
    ("daemon.tcp_port", 99999, "daemon.tcp_port must be between 0 and 65535, not 99999"),
    ("daemon.tcp_port", -1, "daemon.tcp_port must be between 0 and 65535, not -1"),
    ("daemon.max_message_bytes", 0, "daemon.max_message_bytes must be at least 65536, not 0"),
    ("engine.model_profile", "nonsense",
     "engine.model_profile must be \"\" (guess from the model) or one of codellama, "
     "deepseek-coder, plain, qwen2.5-coder, starcoder2, not 'nonsense'"),
    ("completion.max_tokens", 0, "completion.max_tokens must be between 1 and 2048, not 0"),
    ("completion.max_tokens", 4096, "completion.max_tokens must be between 1 and 2048"),
    ("completion.debounce_ms", -1, "completion.debounce_ms must be between 0 and 10000"),
    ("engine.n_ctx", 0, "engine.n_ctx must be at least context.budget_tokens + "
     "completion.max_tokens (2112), not 0"),
    ("engine.n_ctx", 2048, "engine.n_ctx must be at least context.budget_tokens"),
    ("engine.n_threads", -3, "engine.n_threads must be between 0 and 1024, not -3"),
    ("engine.kv_state_slots", -1, "engine.kv_state_slots must be at least 0, not -1"),
    ("engine.max_batch", 0, "engine.max_batch must be at least 1, not 0"),
    ("engine.remote_timeout_s", 0, "engine.remote_timeout_s must be above 0, not 0.0"),
    ("context.anchor_lines", 0, "context.anchor_lines must be at least 1, not 0"),
    ("context.cursor_lines_before", -5, "context.cursor_lines_before must be at least 0, not -5"),
    ("context.cursor_lines_after", -1, "context.cursor_lines_after must be at least 0"),
    ("context.max_file_bytes", -1, "context.max_file_bytes must be at least 1024, not -1"),
    ("context.max_file_bytes", 0, "context.max_file_bytes must be at least 1024, not 0"),
    ("context.whole_file_min_budget", -1, "context.whole_file_min_budget must be at least 0"),
    ("context.stable_max_budget", -1, "context.stable_max_budget must be at least 0"),
    ("context.fast_file_block_share", 0.9,
     "context.fast_file_block_share must be between 0 and 0.8, not 0.9"),
    ("context.session_idle_current_file_s", -1.0,
     "context.session_idle_current_file_s must be at least 0"),
    ("context.session_reset_s", -1.0, "context.session_reset_s must be at least 0"),
    ("context.suffix_max_lines", -1, "context.suffix_max_lines must be at least 0"),
    ("tiers.normal_ms", float("nan"), "tiers must satisfy 0 < normal_ms <= cap_ms <= fast_ms"),
    ("tiers.cap_tokens", 0, "tiers.cap_tokens must be at least 1"),
])
def test_values_out_of_range_are_refused_naming_the_key_and_range(
        key: str, value: object, message: str) -> None:
    """These passed validation before (and doctor said "ok config"), then broke the daemon or
    were changed where used: a port of 99999, every command failing, completions erroring."""
    with pytest.raises(ConfigError, match=re.escape(message)):
        with_changes(Config(), {key: value})


@pytest.mark.parametrize(("key", "value"), [
    ("engine.n_threads", 0),  # thread counts measured
    ("engine.kv_state_slots", 0),  # no KV states kept
    ("daemon.tcp_port", 0), ("daemon.tcp_port", 65535),
    ("engine.model_profile", ""), ("engine.model_profile", "starcoder2"),
    ("context.cursor_lines_before", 0), ("context.whole_file_min_budget", 0),
    ("completion.max_tokens", 2048), ("completion.debounce_ms", 0),
    ("engine.n_ctx", 2112),
])
def test_edge_values_that_mean_something_are_accepted(key: str, value: object) -> None:
    assert load_dict_value(with_changes(Config(), {key: value}), key) == value


def load_dict_value(config: Config, dotted: str) -> object:
    node: object = to_dict(config)
    for part in dotted.split("."):
        assert isinstance(node, dict)
        node = node[part]
    return node


def test_the_model_profiles_named_are_the_engine_s() -> None:
    from engine.profiles import PROFILES

    for name in PROFILES:
        assert with_changes(Config(), {"engine.model_profile": name}).engine.model_profile == name


def test_prompt_lookup_drafting_is_refused_for_the_gpu_engine() -> None:
    """The exllamav2 engine drafts with a model folder: "prompt-lookup" failed only at load,
    as a folder that does not exist."""
    with pytest.raises(ConfigError, match=re.escape(
            "engine.draft_model = 'prompt-lookup' is for the llamacpp engine")):
        with_changes(Config(), {"engine.kind": "exllamav2", "engine.draft_model": "prompt-lookup"})
    ok = with_changes(Config(), {"engine.draft_model": "prompt-lookup"})
    assert ok.engine.kind == "auto" and ok.engine.draft_model == "prompt-lookup"


def test_the_auto_draft_is_prompt_lookup_with_three_tokens_on_the_llamacpp_engine() -> None:
    from app.config import PROMPT_LOOKUP, EngineConfig, draft_for, draft_tokens_for

    auto = EngineConfig()
    assert (auto.draft_model, auto.num_draft_tokens) == ("auto", 0)
    assert (draft_for(auto, "llamacpp"), draft_tokens_for(auto, "llamacpp")) == (PROMPT_LOOKUP, 3)
    for kind in ("xllamacpp", "exllamav2", "remote"):  # not measured faster there
        assert draft_for(auto, kind) == ""
    model = EngineConfig(draft_model="embedded")
    assert (draft_for(model, "llamacpp"), draft_tokens_for(model, "llamacpp")) == ("embedded", 5)
    pinned = EngineConfig(draft_model=PROMPT_LOOKUP, num_draft_tokens=4)
    assert (draft_for(pinned, "xllamacpp"), draft_tokens_for(pinned, "xllamacpp")) == (
        PROMPT_LOOKUP, 4)
    assert draft_for(EngineConfig(draft_model=""), "llamacpp") == ""
    with pytest.raises(ConfigError, match="num_draft_tokens"):
        with_changes(Config(), {"engine.num_draft_tokens": 17})
