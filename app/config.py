"""nospin configuration: typed sections, defaults from design.md, TOML on disk.

The config is read once at start and changed through the daemon (``config set``, fast mode),
which edits the file in place (``update_file``: only the changed keys; the user's comments,
layout and other edits stay), atomically, and keeps a snapshot (``nospin snapshot``). Every
field has a default, so an empty or missing file is a valid configuration.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import tomlkit
import tomlkit.exceptions
import tomlkit.items

from app.errors import ConfigError
from app.paths import atomic_write, config_dir


class BudgetShares(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Shares of the context budget (design.md §2); they must add up to 1."""

    cursor: float = 0.40  # cursor window, about +-50 lines (P0)
    enclosing: float = 0.15  # the enclosing function, whole (P0/P1)
    related: float = 0.15  # definitions of symbols used at the cursor, classes, dependencies (P1)
    retrieval: float = 0.10  # project-level retrieval: similar windows (P2)
    history: float = 0.10  # edit-history summary (P2)
    instructions: float = 0.10  # fixed: format tokens and instructions


LAYOUTS = ("auto", "stable", "cursor")
AUTO = "auto"  # engine.kind: the CPU engine that is installed (engine/factory.py engine_kind)


class ContextConfig(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    budget_tokens: int = 2048  # whole prompt budget, output reserve not included
    shares: BudgetShares = msgspec.field(default_factory=BudgetShares)
    cursor_lines_before: int = 50  # cursor window reach above the cursor (>= 0)
    # cursor window reach below (>= 0; not read: the suffix is suffix_max_lines/suffix_share)
    cursor_lines_after: int = 50
    # lines after the cursor line in the FIM suffix: up to suffix_max_lines while they fit
    # suffix_share of the budget (256 -> ~2 lines, 896 -> ~6): PSM prefills the suffix again at
    # every keystroke, and a longer one showed the 0.5B how a block goes on (docs/quality.md)
    suffix_max_lines: int = 8  # >= 0
    suffix_share: float = 0.08  # 0 to 0.5
    # a file whose whole text fits this share of the budget is shown whole, as the model would
    # see it in a naive prompt: the window from line 1 and the suffix to the end (0: never).
    # The eval's largest gain (docs/quality.md, fourth run); the suffix is prefilled again at
    # every keystroke, so on a CPU it costs latency on small files (docs/context.md)
    whole_file_share: float = 0.75  # 0 to 1
    # (>= 0) not below: the CPU fast tier (256) keeps its short suffix
    whole_file_min_budget: int = 512
    # "stable": the file's head and outline first, the same for every cursor position in the
    # file, then cross-file snippets as comments, enclosing code and the cursor window, so a
    # cursor move re-prefills only what follows the file block (docs/latency.md); "cursor": all
    # of the current file chosen around the cursor (outline upgrades, snippets before the file:
    # best identifier recall, docs/context.md); "auto": stable at budgets up to
    # stable_max_budget (where prefill is what the user waits for: CPU, fast tier), else cursor
    layout: str = "auto"
    stable_max_budget: int = 1024  # >= 0
    file_block_share: float = 0.2  # (0 to 0.8) stable layout: the file block's budget share
    # (0 to 0.8) the file block's share at a fast tier's budget (under whole_file_min_budget):
    # the cursor window needs the room (history points at 256: exact match 22.5% -> 23.4%,
    # docs/quality.md)
    fast_file_block_share: float = 0.1
    anchor_lines: int = 16  # (>= 1) window start snaps to multiples: typing keeps the prefix
    # (>= 1024) files over this are not indexed (reason: too large) nor completed in
    max_file_bytes: int = 1_000_000
    # (>= 1024) a document longer than this many characters is assembled from this many
    # characters around the cursor (line-aligned, on a fixed grid so typing keeps the prefix):
    # parsing and summarising a whole 1,000,000-character buffer took 5.5 s
    max_assemble_chars: int = 200_000
    session_idle_current_file_s: float = 30.0  # (>= 0) conversation idle: current file only
    session_reset_s: float = 600.0  # (>= 0) conversation idle: reset


class TierConfig(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Degradation tiers (design.md §4), decided from predicted latency."""

    normal_ms: float = 800.0  # under this: normal
    cap_ms: float = 1500.0  # past this: at most cap_tokens tokens
    fast_ms: float = 2500.0  # past this: fast mode (smaller context, no speculation)
    cap_tokens: int = 30  # >= 1
    # fast mode's context budget as a share of the normal one: 2,048 -> 256 tokens, what a 2-core
    # CPU prefills in time (docs/latency.md: 256 tokens 0.5 s p50, 512 1.8 s, 2,048 19.5 s)
    fast_budget_factor: float = 0.125
    force_fast: bool = False  # forced from the tray or config


class EngineConfig(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    # "auto" (llamacpp where llama-cpp-python is installed, else xllamacpp: engine/factory.py
    # engine_kind) | "llamacpp" | "xllamacpp" | "exllamav2" | "remote"
    kind: str = AUTO
    model: str = ""  # GGUF file, EXL2/HF folder; "" means the embedded default model
    # draft model for speculation (a model name, a GGUF file or an EXL2/HF folder); "" means
    # none; "prompt-lookup" (PROMPT_LOOKUP, llamacpp and xllamacpp) drafts from the prompt's
    # own text; "auto" (DRAFT_AUTO): what measured fastest per engine (draft_for)
    draft_model: str = "auto"
    # prompt format profile, a name of engine/profiles.PROFILES; "" means guess from the model
    model_profile: str = ""
    n_ctx: int = 4096  # at least context.budget_tokens + completion.max_tokens
    # 0: decode and prefill thread counts measured (engine/threads.py); N (to 1024): N for both
    n_threads: int = 0
    # llamacpp: load a packaged model as the faster re-quantization it declares (the embedded
    # 0.5B as Q8_0: prefill ~15% faster, the same predictions; engine/requantize.py)
    requantize: bool = True
    # (>= 1) llamacpp: tokens per prefill step; cancel/deadline checked between
    prefill_chunk: int = 64
    # llamacpp: a prompt ending inside a word is cut at the word's start and the first tokens
    # are constrained to re-spell it (engine/healing.py); off: only trailing blanks are cut
    token_healing: bool = True
    speculation: bool = True
    # draft tokens per step, 1 to 16; 0: auto (draft_tokens_for: 3 for prompt lookup, the only
    # count that paid on 2 CPU cores; 5 for a draft model, design.md §3)
    num_draft_tokens: int = 0
    speculation_min_acceptance: float = 0.4  # (0 to 1) below this speculation turns itself off
    # (>= 1) requests at once: exllamav2 paged batching, a remote server (one that publishes
    # fewer slots lowers it: engine/remote_limits.py)
    max_batch: int = 16
    kv_state_slots: int = 8  # (>= 0; 0: none) documents whose KV state is kept for switching
    # (1 to 64) xllamacpp: server slots, requests decoded at once (each holds n_ctx tokens)
    n_parallel: int = 4
    remote_url: str = ""  # OpenAI-compatible server base URL for kind "remote"
    remote_model: str = ""
    remote_api_key: str = ""
    remote_timeout_s: float = 10.0  # > 0
    # token counts for kind "remote": "" auto (the embedded model's vocabulary for a
    # qwen2.5-coder server), "embedded", a GGUF file's vocabulary, or "estimate"
    remote_tokenizer: str = ""


class CompletionConfig(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    max_tokens: int = 64  # 1 to 2048 (the protocol's limit)
    debounce_ms: int = 75  # (0 to 10000) editors wait this long after a keystroke before asking
    paused: bool = False  # completions paused from the tray


class DaemonConfig(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    tcp_port: int = 0  # 0: no tcp listener (ipc only); 1-65535: tcp://127.0.0.1:PORT, a token
    max_message_bytes: int = 8_000_000  # >= 65536
    # (>= 1) open documents per client: opening one more closes its least recently used
    max_documents_per_client: int = 100
    # (> 0) a document not opened, changed or completed in for this long is closed
    document_idle_s: float = 3600.0


class Config(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    context: ContextConfig = msgspec.field(default_factory=ContextConfig)
    tiers: TierConfig = msgspec.field(default_factory=TierConfig)
    engine: EngineConfig = msgspec.field(default_factory=EngineConfig)
    completion: CompletionConfig = msgspec.field(default_factory=CompletionConfig)
    daemon: DaemonConfig = msgspec.field(default_factory=DaemonConfig)


def default_config_path() -> Path:
    return config_dir() / "config.toml"


def validate(config: Config) -> Config:
    """Check values that types cannot; raise ConfigError naming the field and what it allows.

    Every numeric field has a range: a value outside it would break the daemon or be changed
    silently where it is used (a port over 65535, a message limit of 0 that fails every
    command, max_tokens 0 served as 1)."""
    s = config.context.shares
    total = s.cursor + s.enclosing + s.related + s.retrieval + s.history + s.instructions
    if abs(total - 1.0) > 1e-6:
        raise ConfigError(f"context.shares must add up to 1, they add up to {total:.3f}")
    for name in ("cursor", "enclosing", "related", "retrieval", "history", "instructions"):
        if getattr(s, name) < 0:
            raise ConfigError(f"context.shares.{name} must not be negative")
    c = config.context
    if c.layout not in LAYOUTS:
        raise ConfigError(f"context.layout must be one of {', '.join(LAYOUTS)}")
    _between("context.file_block_share", c.file_block_share, 0, 0.8)
    _between("context.fast_file_block_share", c.fast_file_block_share, 0, 0.8)
    _between("context.suffix_share", c.suffix_share, 0, 0.5)
    _between("context.whole_file_share", c.whole_file_share, 0, 1)
    _at_least("context.budget_tokens", c.budget_tokens, MIN_BUDGET_TOKENS)
    _at_least("context.cursor_lines_before", c.cursor_lines_before, 0)
    _at_least("context.cursor_lines_after", c.cursor_lines_after, 0)
    _at_least("context.suffix_max_lines", c.suffix_max_lines, 0)
    _at_least("context.whole_file_min_budget", c.whole_file_min_budget, 0)
    _at_least("context.stable_max_budget", c.stable_max_budget, 0)
    _at_least("context.anchor_lines", c.anchor_lines, 1)
    _at_least("context.max_file_bytes", c.max_file_bytes, MIN_FILE_BYTES)
    _at_least("context.max_assemble_chars", c.max_assemble_chars, MIN_FILE_BYTES)
    _at_least("context.session_idle_current_file_s", c.session_idle_current_file_s, 0)
    _at_least("context.session_reset_s", c.session_reset_s, 0)
    t = config.tiers
    if not 0 < t.normal_ms <= t.cap_ms <= t.fast_ms:
        raise ConfigError("tiers must satisfy 0 < normal_ms <= cap_ms <= fast_ms")
    _at_least("tiers.cap_tokens", t.cap_tokens, 1)
    if not 0.0 < t.fast_budget_factor <= 1.0:
        raise ConfigError("tiers.fast_budget_factor must be above 0 and at most 1")
    for key, value in _strings(to_dict(config)):
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
            raise ConfigError(f"{key} must not contain control characters ({value!r})")
    e = config.engine
    if e.kind not in ENGINE_KINDS:
        raise ConfigError(f"engine.kind must be auto, llamacpp, xllamacpp, exllamav2 or "
                          f"remote, not {e.kind!r}")
    if e.draft_model == PROMPT_LOOKUP and e.kind == "exllamav2":
        raise ConfigError(f"engine.draft_model = {PROMPT_LOOKUP!r} is for the llamacpp engine: "
                          "the exllamav2 engine drafts with a model (an EXL2 or HF folder)")
    if e.model_profile:
        from engine.profiles import PROFILES  # prompt formats only: no model library

        if e.model_profile not in PROFILES:
            raise ConfigError(f"engine.model_profile must be \"\" (guess from the model) or one "
                              f"of {', '.join(sorted(PROFILES))}, not {e.model_profile!r}")
    n = config.completion
    _between("completion.max_tokens", n.max_tokens, 1, MAX_TOKENS)
    _between("completion.debounce_ms", n.debounce_ms, 0, 10_000)
    need = c.budget_tokens + n.max_tokens  # the prompt at its budget and the completion
    if e.n_ctx < need:
        raise ConfigError(f"engine.n_ctx must be at least context.budget_tokens + "
                          f"completion.max_tokens ({need}), not {e.n_ctx}")
    _between("engine.n_threads", e.n_threads, 0, 1024)
    _at_least("engine.prefill_chunk", e.prefill_chunk, 1)
    _between("engine.num_draft_tokens", e.num_draft_tokens, 0, 16)
    _between("engine.speculation_min_acceptance", e.speculation_min_acceptance, 0, 1)
    _at_least("engine.max_batch", e.max_batch, 1)
    _at_least("engine.kv_state_slots", e.kv_state_slots, 0)
    _between("engine.n_parallel", e.n_parallel, 1, 64)
    if not e.remote_timeout_s > 0:
        raise ConfigError(f"engine.remote_timeout_s must be above 0, not {e.remote_timeout_s}")
    if e.kind == "remote" and not e.remote_url:
        raise ConfigError("engine.remote_url is required for engine.kind = 'remote'")
    d = config.daemon
    _between("daemon.tcp_port", d.tcp_port, 0, 65535)
    _at_least("daemon.max_message_bytes", d.max_message_bytes, MIN_MESSAGE_BYTES)
    _at_least("daemon.max_documents_per_client", d.max_documents_per_client, 1)
    if not d.document_idle_s > 0:
        raise ConfigError(f"daemon.document_idle_s must be above 0, not {d.document_idle_s}")
    return config


ENGINE_KINDS = (AUTO, "llamacpp", "xllamacpp", "exllamav2", "remote")
PROMPT_LOOKUP = "prompt-lookup"  # engine.draft_model value: drafts from the prompt's own text
DRAFT_AUTO = "auto"  # engine.draft_model value: draft_for decides per engine
# what engine.draft_model = "auto" is, per engine kind: prompt lookup with 3 draft tokens on the
# llamacpp engine (decode 1.18x, the same text: docs/engine.md "Speculative decoding"); none
# elsewhere until measured (xllamacpp cannot switch its server's drafting off per request)
AUTO_DRAFT = {"llamacpp": PROMPT_LOOKUP}
LOOKUP_DRAFT_TOKENS = 3
MODEL_DRAFT_TOKENS = 5


def draft_for(e: EngineConfig, kind: str) -> str:
    """The draft of speculation on engine ``kind`` (the one that runs: ``e.kind`` may be
    "auto", engine.factory.engine_kind resolves it): a model spec, PROMPT_LOOKUP, or "" for
    none; ``"auto"`` resolved with AUTO_DRAFT."""
    if e.draft_model != DRAFT_AUTO:
        return e.draft_model
    return AUTO_DRAFT.get(kind, "")


def draft_tokens_for(e: EngineConfig, kind: str) -> int:
    """Draft tokens per step: ``engine.num_draft_tokens``, or with 0 the count that suits the
    draft (LOOKUP_DRAFT_TOKENS for prompt lookup, MODEL_DRAFT_TOKENS for a model)."""
    if e.num_draft_tokens > 0:
        return e.num_draft_tokens
    return LOOKUP_DRAFT_TOKENS if draft_for(e, kind) == PROMPT_LOOKUP else MODEL_DRAFT_TOKENS
MAX_TOKENS = 2048  # the protocol's limit of a request's max_tokens (daemon/protocol.py)
MIN_BUDGET_TOKENS = 64  # context.budget_tokens (and nospin context --budget)
MIN_FILE_BYTES = 1024  # context.max_file_bytes: below, hardly a file gets completions
MIN_MESSAGE_BYTES = 65_536  # daemon.max_message_bytes: below, a buffer's text hardly fits


def _at_least(key: str, value: float, low: float) -> None:
    if not value >= low:  # NaN too
        raise ConfigError(f"{key} must be at least {low}, not {value}")


def _between(key: str, value: float, low: float, high: float) -> None:
    if not low <= value <= high:
        raise ConfigError(f"{key} must be between {low} and {high}, not {value}")


def _strings(data: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    """(dotted key, value) of every string setting."""
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _strings(value, f"{dotted}.")
        elif isinstance(value, str):
            yield dotted, value


def from_dict(data: dict[str, Any]) -> Config:
    """Build a validated Config from plain data (TOML, JSON); raise ConfigError on bad fields."""
    try:
        config = msgspec.convert(data, Config, strict=False)
    except msgspec.ValidationError as exc:
        raise ConfigError(f"invalid configuration: {exc}") from exc
    return validate(config)


def to_dict(config: Config) -> dict[str, Any]:
    result: dict[str, Any] = msgspec.to_builtins(config)
    return result


def load(path: Path | None = None, *, must_exist: bool = False) -> Config:
    """Read the config file (a missing file means all defaults, unless ``must_exist``: a file
    the user named, ``--config``, where a typo must not mean defaults)."""
    path = path or default_config_path()
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        if must_exist:
            raise ConfigError(f"the configuration file {path} does not exist (named with "
                              "--config); without --config the user's config is used") from None
        return Config()
    except OSError as exc:
        raise ConfigError(f"cannot read {path}", detail=str(exc)) from exc
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path} is not valid TOML", detail=str(exc)) from exc
    return from_dict(data)


def dumps_toml(config: Config) -> str:
    """Render a Config as TOML (tomlkit: nested tables, every string escaped)."""
    return tomlkit.dumps(to_dict(config))


def save(config: Config, path: Path | None = None) -> None:
    """Validate and write the whole config atomically (0600), replacing the file; nothing is
    written unless the text reads back as the same configuration. A change to an existing
    file goes through ``update_file``, which keeps the rest of the file as it is."""
    validate(config)
    text = dumps_toml(config)
    if from_dict(tomllib.loads(text)) != config:
        raise ConfigError("the configuration would not read back as written: nothing saved")
    atomic_write(path or default_config_path(), text.encode("utf-8"))


def update_file(path: Path, changes: dict[str, Any]) -> Config:
    """Set the dotted keys of ``changes`` in the config file at ``path`` and nothing else.

    The file is edited as it is now on disk (tomlkit): comments, layout and the values the user
    wrote stay, tables are created as needed, a missing file is created. Nothing is written
    (ConfigError) when the file does not parse, a key is unknown, or the edited file would not
    read back as a valid configuration holding the new values; an OSError (the file cannot be
    read or replaced) passes through, nothing written. Written atomically (0600). Returns the
    configuration the file now holds."""
    for dotted in changes:
        _check_key(dotted)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        text = ""
    except UnicodeDecodeError as exc:  # OSError: the caller's (the daemon: "not saved")
        raise ConfigError(f"{path} is not UTF-8 text: nothing was changed",
                          detail=str(exc)) from exc
    try:
        data = tomllib.loads(text)
        doc = tomlkit.parse(text)
    except (tomllib.TOMLDecodeError, tomlkit.exceptions.TOMLKitError) as exc:
        raise ConfigError(f"{path} is not valid TOML: nothing was changed; fix the file or "
                          "remove it (defaults)", detail=str(exc)) from exc
    for dotted, value in changes.items():
        node = data
        for part in dotted.split(".")[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise ConfigError(f"{path}: {dotted} cannot be set, the file's "
                                  f"{part} is not a table: nothing was changed")
        node[dotted.split(".")[-1]] = value
    try:
        target = from_dict(data)
    except ConfigError as exc:
        raise ConfigError(f"{path} would not be a valid configuration with this change: "
                          f"nothing was changed ({exc.message})", detail=exc.detail) from exc
    values = to_dict(target)
    try:
        for dotted in changes:
            normalized: Any = values  # the value as the configuration holds it (700 -> 700.0)
            for part in dotted.split("."):
                normalized = normalized[part]
            _set_in_doc(doc, dotted.split("."), normalized)
        new_text = tomlkit.dumps(doc)
        reread = from_dict(tomllib.loads(new_text))
    except (tomllib.TOMLDecodeError, tomlkit.exceptions.TOMLKitError, ConfigError) as exc:
        raise ConfigError(f"{path} could not be edited: nothing was changed",
                          detail=str(exc)) from exc
    if reread != target:
        raise ConfigError(f"{path} would not read back as written: nothing was changed")
    atomic_write(path, new_text.encode("utf-8"))
    return target


def _set_in_doc(doc: tomlkit.TOMLDocument, parts: list[str], value: Any) -> None:
    """Set ``parts`` (a dotted key) to ``value`` in the document, in the style the file uses:
    a missing section is a new ``[table]``, a missing sub-table of a section written with
    dotted keys (``context.budget_tokens = 512``) a dotted key, of an inline table a nested
    inline table (tomlkit would put a new ``[table]`` amid the dotted keys)."""
    node: Any = doc
    for i, part in enumerate(parts[:-1]):
        if part not in node:
            rest = parts[i:]
            if isinstance(node, tomlkit.items.InlineTable):
                nested: Any = value
                for key in reversed(rest[1:]):
                    nested = {key: nested}
                node[part] = nested
                return
            if isinstance(node, tomlkit.items.Table) and node.is_super_table():
                node.add(tomlkit.key(rest), value)
                return
            node[part] = tomlkit.table()
        node = node[part]
    node[parts[-1]] = value


def value_at(data: dict[str, Any], dotted: str) -> Any:
    """The value or section at ``dotted`` in ``to_dict`` data; ConfigError when none."""
    node: Any = data
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            raise ConfigError(f"unknown configuration key {dotted!r}")
        node = node[part]
    return node


def _check_key(dotted: str) -> Any:
    """The default of the setting ``dotted``; ConfigError unless it names one (not a
    section)."""
    default = value_at(to_dict(Config()), dotted)
    if isinstance(default, dict):
        raise ConfigError(f"unknown configuration key {dotted!r}")
    return default


_TRUE = frozenset({"true", "on", "yes", "1"})
_FALSE = frozenset({"false", "off", "no", "0"})


def parse_assignments(pairs: list[str]) -> dict[str, Any]:
    """``["engine.n_ctx=8192", "completion.paused=on"]`` as changes for ``with_changes``, each
    value read as its key's type (``nospin config set``, the benchmarks' ``--set``);
    ConfigError names a pair that is not KEY=VALUE, a key that is no setting, a bad value."""
    changes: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"{pair!r} is not KEY=VALUE (for example engine.n_ctx=8192)")
        changes[key] = _typed_value(key, text.strip(), _check_key(key))
    return changes


def _typed_value(key: str, text: str, default: Any) -> Any:
    """``text`` as the type of the key's default; ConfigError says what the key takes."""
    if isinstance(default, bool):
        if text.lower() in _TRUE | _FALSE:
            return text.lower() in _TRUE
        raise ConfigError(f"{key} is true or false, not {text!r}")
    if isinstance(default, int | float):
        try:
            return type(default)(text)
        except ValueError:
            kind = "a whole number" if isinstance(default, int) else "a number"
            raise ConfigError(f"{key} is {kind}, not {text!r}") from None
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]  # quoted as in TOML or a shell that kept the quotes
    return text


def with_changes(config: Config, changes: dict[str, Any]) -> Config:
    """Return a validated copy with dotted-key changes applied (``{"tiers.force_fast": True}``)."""
    data = to_dict(config)
    for dotted, value in changes.items():
        node = data
        parts = dotted.split(".")
        for part in parts[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                raise ConfigError(f"unknown configuration key {dotted!r}")
            node = child
        if parts[-1] not in node or isinstance(node[parts[-1]], dict):
            raise ConfigError(f"unknown configuration key {dotted!r}")
        node[parts[-1]] = value
    return from_dict(data)
