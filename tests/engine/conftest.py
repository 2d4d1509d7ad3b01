"""Engine test fixtures: the embedded model, loaded once per session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.config import EngineConfig
from app.errors import ModelNotInstalled


@pytest.fixture(scope="session")
def embedded_model() -> Path:
    """Path of the assembled embedded model; skips when its packages are not installed."""
    from engine.models import embedded_model_path

    try:
        return embedded_model_path()
    except ModelNotInstalled as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def qwen_vocab(embedded_model: Path) -> Any:
    """A vocabulary-only llama.cpp model of the embedded model (loads in a fraction of a second);
    skips where llama-cpp-python is not installed."""
    llama_cpp = pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed: "
                                    "llama.cpp's own vocabulary is compared where it is "
                                    "(installers/install.sh --native)")

    llm = llama_cpp.Llama(str(embedded_model), vocab_only=True, verbose=False)
    yield llm
    llm.close()


@pytest.fixture(scope="session")
def gguf_vocab(embedded_model: Path) -> Any:
    """The embedded model's vocabulary read from its GGUF metadata (engine/gguf_vocab.py)."""
    from engine.gguf_vocab import GGUFVocab

    return GGUFVocab.load(embedded_model)


@pytest.fixture(params=["llama.cpp", "gguf"])
def qwen_backend(request: pytest.FixtureRequest) -> Any:
    """Each tokenizer backend of the embedded model in turn (engine/tokenizer.py)."""
    if request.param == "gguf":
        return request.getfixturevalue("gguf_vocab")
    from engine.tokenizer import LlamaVocab

    return LlamaVocab(request.getfixturevalue("qwen_vocab"))


@pytest.fixture(scope="session")
def llamacpp_engine(embedded_model: Path) -> Iterator[Any]:
    """The llamacpp engine with the embedded model; shared by the slow tests of a session."""
    from engine.llamacpp import LlamaCppEngine
    from engine.profiles import QWEN25_CODER

    engine = LlamaCppEngine(
        model_path=embedded_model,
        profile=QWEN25_CODER,
        config=EngineConfig(n_ctx=2048, kv_state_slots=4, speculation=False),
    )
    engine.start()
    yield engine
    engine.close()
