"""Token counts for the ``remote`` engine: a local copy of the server model's vocabulary.

The context assembler needs exact token counts, many per request, so asking the server each time
is out of the question. ``engine.remote_tokenizer`` names a local vocabulary instead:

- ``""`` (auto): the embedded model's (Qwen2.5-Coder-0.5B) when the profile is qwen2.5-coder
  (every Qwen2.5-Coder size shares it) and the embedded model is installed; else the estimate;
- ``"embedded"``: the embedded model's, whatever the profile (an error when it is missing);
- a path to a GGUF file: that model's vocabulary (llama.cpp loads the vocabulary only, or,
  without llama-cpp-python, engine/gguf_vocab.py reads it from the file's metadata);
- a path to an HF ``tokenizer.json``, or to a model folder holding one (what a vLLM or TabbyAPI
  server loads): counted with the ``tokenizers`` package;
- ``"estimate"``: characters / 3.3.

At start the engine checks the local count against the server's tokenizer where one answers
(llama.cpp server ``/tokenize``, llama-cpp-python ``/extras/tokenize``, vLLM ``/tokenize``,
TabbyAPI ``/v1/token/encode``): a different count means a different vocabulary, and the engine
falls back to the estimate with a warning. No endpoint (or no server yet): the local vocabulary
is used unchecked.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.errors import ConfigError, ModelError
from engine.profiles import QWEN25_CODER, ModelProfile

log = logging.getLogger(__name__)

CHARS_PER_TOKEN = 3.3  # the estimate without a local vocabulary

# Source text with what tokenizers disagree on: indentation, tabs, operators, a comment,
# non-ASCII, digits.
PROBE = (
    "def mean(values: list[float]) -> float:\n"
    '    """Arithmetic mean; 0.0 for [] (café, naïve)."""\n'
    "\tif not values:  # nothing to average\n"
    "        return 0.0\n"
    "    return sum(values) / len(values) ** 1 != 12345\n"
)

# (path under the server's root, request body) per known tokenize endpoint; "{text}" and
# "{model}" are filled in
_ENDPOINTS: tuple[tuple[str, dict[str, Any]], ...] = (
    # llama.cpp server (content) and vLLM (prompt, model) share the path
    ("/tokenize", {"content": "{text}", "prompt": "{text}", "model": "{model}",
                   "add_special": False, "add_special_tokens": False}),
    ("/extras/tokenize", {"input": "{text}", "model": "{model}"}),  # llama-cpp-python
    ("/v1/token/encode", {"text": "{text}", "add_bos_token": False}),  # TabbyAPI
)

# post(path, body, timeout) -> (HTTP status, response body); raises OSError when unreachable
Post = Callable[[str, bytes, float], tuple[int, bytes]]


@dataclass(frozen=True, slots=True)
class RemoteVocabulary:
    """A local vocabulary for counting: where it came from and whether the server agreed."""

    count: Callable[[str], int]
    source: str  # "embedded" or the GGUF path
    checked: str  # "", or how the server's tokenizer answered the probe


def estimate(text: str) -> int:
    """Characters / CHARS_PER_TOKEN (at least 1 for non-empty text)."""
    return 0 if not text else max(1, round(len(text) / CHARS_PER_TOKEN))


def load_vocabulary(setting: str, profile: ModelProfile) -> RemoteVocabulary | None:
    """The local vocabulary ``setting`` names (module docstring); None: count by estimate.

    Raises ConfigError for a path that is not a GGUF file, ModelNotInstalled when "embedded" is
    asked for and missing, ModelError when the file does not load or does not fit the profile.
    """
    choice = setting.strip()
    if choice == "estimate":
        return None
    if choice in ("", "embedded"):
        if not choice and profile.name != QWEN25_CODER.name:
            return None  # auto: no local copy of this family's vocabulary
        from engine.models import embedded_model_path

        try:
            path = embedded_model_path()
        except ModelError:
            if choice:
                raise
            log.info("remote engine: embedded model not installed, counting tokens by estimate")
            return None
        return RemoteVocabulary(_gguf_counter(path, profile), "embedded", "")
    path = Path(choice).expanduser()
    if path.is_dir():
        path = path / "tokenizer.json"
    if path.suffix.lower() == ".gguf" and path.is_file():
        return RemoteVocabulary(_gguf_counter(path, profile), str(path), "")
    if path.name == "tokenizer.json" and path.is_file():
        return RemoteVocabulary(_hf_counter(path), str(path), "")
    raise ConfigError(
        "engine.remote_tokenizer must be '', 'embedded', 'estimate', a GGUF file, a "
        f"tokenizer.json or a folder holding one, not {setting!r}"
    )


def _gguf_counter(path: Path, profile: ModelProfile) -> Callable[[str], int]:
    """Exact counts from the vocabulary of a GGUF file: llama.cpp's (vocabulary only, ~0.3 s)
    where llama-cpp-python is installed, else the GGUF metadata's (engine/gguf_vocab.py)."""
    from engine.tokenizer import Tokenizer, open_vocab

    return Tokenizer(open_vocab(path), profile).count


def _hf_counter(path: Path) -> Callable[[str], int]:
    """Exact counts from an HF tokenizer.json (the ``tokenizers`` package)."""
    from tokenizers import Tokenizer as HFTokenizer
    try:
        tok = HFTokenizer.from_file(str(path))
    except Exception as exc:  # tokenizers raises its own Exception subclass
        raise ModelError(f"cannot read the tokenizer {path}", detail=str(exc)) from exc

    @functools.lru_cache(maxsize=4096)
    def count(text: str) -> int:
        return len(tok.encode(text, add_special_tokens=False).ids) if text else 0

    return count


def server_count(post: Post, root: str, model: str, text: str, timeout: float) -> tuple[int, str]:
    """The server's token count of ``text`` and the endpoint that gave it; (-1, why) when no
    known endpoint answers. Raises OSError when the server cannot be reached at all."""
    tried = []
    for path, template in _ENDPOINTS:
        body = {k: _fill(v, text, model) for k, v in template.items()}
        if not model:
            body.pop("model", None)
        status, raw = post(root + path, json.dumps(body).encode("utf-8"), timeout)
        if status != 200:
            tried.append(f"{path}: HTTP {status}")
            continue
        n = _count_of(raw)
        if n is not None:
            return n, path
        tried.append(f"{path}: no token count in the answer")
    return -1, "; ".join(tried)


def check_against_server(
    vocab: RemoteVocabulary, post: Post, root: str, model: str, timeout: float
) -> RemoteVocabulary | None:
    """``vocab`` with what the server said, or None when the server counts differently."""
    try:
        theirs, where = server_count(post, root, model, PROBE, timeout)
    except (OSError, ValueError) as exc:
        log.info("remote engine: tokenizer not checked (server unreachable: %s)", exc)
        return vocab
    if theirs < 0:
        log.info("remote engine: no tokenize endpoint (%s); %s vocabulary unchecked", where,
                 vocab.source)
        return vocab
    ours = vocab.count(PROBE)
    if theirs != ours:
        log.warning(
            "remote engine: the server's tokenizer (%s) counts %d tokens where the %s vocabulary "
            "counts %d: a different vocabulary, counting by estimate (set "
            "engine.remote_tokenizer to the server model's GGUF file)", where, theirs,
            vocab.source, ours,
        )
        return None
    return RemoteVocabulary(vocab.count, vocab.source, f"{where}: {theirs} tokens, same")


def _fill(value: Any, text: str, model: str) -> Any:
    if value == "{text}":
        return text
    if value == "{model}":
        return model
    return value


def _count_of(raw: bytes) -> int | None:
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    tokens = data.get("tokens")
    if isinstance(tokens, list):
        return len(tokens)
    for key in ("count", "length"):
        if isinstance(data.get(key), int):
            return int(data[key])
    return None
