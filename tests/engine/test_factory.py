"""engine/factory.py: engine.kind "auto" resolved in one place, and what the kinds need."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from app.config import Config, EngineConfig
from app.errors import ConfigError
from engine import factory


def with_llama(name: str) -> object | None:
    return object() if name == "llama_cpp" else importlib.util.find_spec(name)


def without_llama(name: str) -> object | None:
    return None if name == "llama_cpp" else importlib.util.find_spec(name)


def test_auto_is_llamacpp_where_llama_cpp_python_is_installed_else_xllamacpp() -> None:
    auto = EngineConfig()
    assert auto.kind == "auto"
    assert factory.engine_kind(auto, with_llama) == "llamacpp"
    assert factory.engine_kind(auto, without_llama) == "xllamacpp"
    for kind in ("llamacpp", "xllamacpp", "exllamav2", "remote"):  # asked for: as it is
        assert factory.engine_kind(EngineConfig(kind=kind), without_llama) == kind
    assert factory.resolved(auto, without_llama).kind == "xllamacpp"
    assert factory.resolved(auto, with_llama) == EngineConfig(kind="llamacpp")
    explicit = EngineConfig(kind="remote", remote_url="http://127.0.0.1:9")
    assert factory.resolved(explicit, with_llama) is explicit


def test_llamacpp_without_llama_cpp_python_names_the_command_that_installs_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(factory, "native_installed", lambda *_a: False)
    with pytest.raises(ConfigError, match=re.escape("installers/install.sh --native")) as caught:
        factory.create_engine(Config(engine=EngineConfig(kind="llamacpp")))
    assert "llama-cpp-python" in str(caught.value) and '"auto"' in str(caught.value)


def test_auto_builds_the_engine_that_is_installed(embedded_model: Path) -> None:
    """Not started: nothing is loaded."""
    engine = factory.create_engine(Config())
    assert engine.name == factory.engine_kind(EngineConfig())
    assert engine.name == ("llamacpp" if factory.native_installed() else "xllamacpp")
