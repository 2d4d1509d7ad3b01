"""Build the configured Engine from ``app.config.Config``; the one place a profile is chosen.

Called once by the daemon (and by CLI commands and benchmarks) before ``engine.start()``.
``engine.kind`` picks the backend (``engine_kind`` resolves ``auto``, the default: llamacpp
where llama-cpp-python is installed, else xllamacpp): ``llamacpp`` (a GGUF file or a packaged
model name such as ``qwen2.5-coder-1.5b``; an empty ``engine.model`` means the embedded model),
``xllamacpp`` (the same GGUF models on llama.cpp's own server in-process, parallel slots),
``exllamav2`` (imported lazily from ``engine.exllama``) or ``remote``.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
from collections.abc import Callable, Iterator
from pathlib import Path

import msgspec

from app.config import AUTO, PROMPT_LOOKUP, Config, EngineConfig, draft_for
from app.errors import ConfigError, EngineUnavailable, ModelError
from engine.base import Engine, TokenCounter
from engine.models import read_gguf_metadata, resolve_model_path
from engine.profiles import ModelProfile, select_profile
from engine.requantize import cpu_weights

# how to get llama-cpp-python (engine.kind "llamacpp"): it compiles for this CPU (~6 min on 2 cores)
NATIVE_INSTALL = "bash installers/install.sh --native (or pip install 'nospin[native]')"


def native_installed(find_spec: Callable[[str], object | None] = importlib.util.find_spec
                     ) -> bool:
    """Whether llama-cpp-python (the llamacpp engine) is installed; it is not imported."""
    return find_spec("llama_cpp") is not None


def engine_kind(e: EngineConfig,
                find_spec: Callable[[str], object | None] = importlib.util.find_spec) -> str:
    """The engine kind that runs for ``e``: ``e.kind``, where ``"auto"`` is ``"llamacpp"`` when
    llama-cpp-python is installed (built for this CPU: the faster one where it is) and
    ``"xllamacpp"`` (prebuilt wheels) otherwise. Called wherever the kind decides something;
    ``find_spec`` looks for the package (``nospin doctor``'s probe passes its own)."""
    if e.kind != AUTO:
        return e.kind
    return "llamacpp" if native_installed(find_spec) else "xllamacpp"


def resolved(e: EngineConfig,
             find_spec: Callable[[str], object | None] = importlib.util.find_spec
             ) -> EngineConfig:
    """``e`` with ``kind`` the engine that runs (``engine_kind``): for code that asks which
    engine a setting applies to (``engine.requantize.applies``: the CPU engines)."""
    kind = engine_kind(e, find_spec)
    return e if kind == e.kind else msgspec.structs.replace(e, kind=kind)


def create_engine(config: Config) -> Engine:
    """Return an unstarted Engine for ``config.engine``; raise ConfigError/ModelError."""
    e = config.engine
    kind = engine_kind(e)
    if kind == "llamacpp":
        return _llamacpp(e)
    if kind == "xllamacpp":
        return _xllamacpp(e)
    if kind == "exllamav2":
        return _exllamav2(e)
    if kind == "remote":
        from engine.remote import RemoteEngine

        return RemoteEngine(config=e, profile=profile_for(e))
    raise ConfigError(
        f"engine.kind must be auto, llamacpp, xllamacpp, exllamav2 or remote, not {e.kind!r}"
    )


def profile_for(e: EngineConfig, model_path: Path | None = None) -> ModelProfile:
    """The prompt profile of the configured model: configured name, else a guess.

    Looks at the GGUF metadata when ``model_path`` is a GGUF file, then at the model's name
    (file, folder, or remote model id). The embedded model is Qwen2.5-Coder.
    """
    metadata: dict[str, str] = {}
    if model_path is not None and model_path.is_file() and model_path.suffix == ".gguf":
        metadata = read_gguf_metadata(model_path)
    name = model_path.name if model_path is not None else (e.remote_model or e.model)
    return select_profile(e.model_profile, name, metadata)


def _cpu_model(e: EngineConfig, kind: str) -> Path:
    """The GGUF file a CPU engine loads for ``engine.model``: its CPU weights (requantize)."""
    model_path = resolve_model_path(e.model)
    if model_path.is_dir():
        raise ModelError(f"the {kind} engine needs a GGUF file, {model_path} is a folder")
    return cpu_weights(model_path, enabled=e.requantize)


def _llamacpp(e: EngineConfig) -> Engine:
    if not native_installed():
        raise ConfigError('engine.kind = "llamacpp" needs llama-cpp-python, which is not '
                          f'installed: {NATIVE_INSTALL}; or set engine.kind = "auto"')
    from engine.llamacpp import LlamaCppEngine

    model_path = _cpu_model(e, "llamacpp")
    spec = draft_for(e, "llamacpp")  # the engine loads it only with engine.speculation
    draft: Path | None = None
    if spec == PROMPT_LOOKUP:
        draft = Path(PROMPT_LOOKUP)
    elif spec:
        draft = resolve_model_path(spec)
    return LlamaCppEngine(
        model_path=model_path, profile=profile_for(e, model_path), config=e, draft_model_path=draft
    )


def _xllamacpp(e: EngineConfig) -> Engine:
    from engine.xllamacpp import XLlamaCppEngine

    model_path = _cpu_model(e, "xllamacpp")
    # the server drafts for every request or for none
    spec = draft_for(e, "xllamacpp") if e.speculation else ""
    if spec and spec != PROMPT_LOOKUP:
        spec = str(cpu_weights(resolve_model_path(spec), enabled=e.requantize))
    return XLlamaCppEngine(model_path=model_path, profile=profile_for(e, model_path), config=e,
                           draft=spec)


def _exllamav2(e: EngineConfig) -> Engine:
    try:
        module = importlib.import_module("engine.exllama")
    except ImportError as exc:
        raise EngineUnavailable(
            "the exllamav2 engine cannot be imported here", detail=str(exc)
        ) from exc
    cls = getattr(module, "ExLlamaV2Engine", None)
    if cls is None:
        raise EngineUnavailable("engine.exllama has no ExLlamaV2Engine")
    engine: Engine = cls(e)
    return engine


def load_tokenizer(config: Config) -> TokenCounter | None:
    """The configured model's exact tokenizer without loading its weights, or None.

    For GGUF engines only (llamacpp, xllamacpp: reading the vocabulary takes well under a
    second): the xllamacpp engine's own (engine/gguf_vocab.py, the GGUF metadata through HF
    tokenizers), the llamacpp engine's llama.cpp vocabulary where llama-cpp-python is installed
    (else the GGUF one: the same ids). Other engines count with their loaded model, and callers
    fall back to the character estimator.
    """
    e = config.engine
    if engine_kind(e) not in ("llamacpp", "xllamacpp"):
        return None
    from engine.tokenizer import Tokenizer, llama_cpp_available, open_vocab

    model_path = resolve_model_path(e.model)
    llama = engine_kind(e) == "llamacpp" and llama_cpp_available()
    # llama.cpp prints context warnings to stderr even when not verbose
    with _quiet_stderr() if llama else contextlib.nullcontext():
        vocab = open_vocab(model_path, llama=llama)
    return Tokenizer(vocab, profile_for(e, model_path))


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Silence file descriptor 2 (native library chatter) for the duration of a block."""
    try:
        saved = os.dup(2)
    except OSError:  # no stderr to silence
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
