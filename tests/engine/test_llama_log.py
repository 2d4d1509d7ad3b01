"""llama.cpp's log muted natively (engine/llama_log.py), with the real library."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.errors import ModelError
from engine.llama_log import muted
from engine.llamacpp_session import load_llama

pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed: the llamacpp "
                    "engine's tests run where it is (installers/install.sh --native)")


@pytest.fixture
def llama_logs_everything() -> Iterator[None]:
    """Loads below are verbose: llama-cpp-python's callback prints every line it gets (and
    leaves the descriptors alone); its logger's level is put back after."""
    logger = logging.getLogger("llama-cpp-python")
    level = logger.level
    yield
    logger.setLevel(level)


def _vocab(path: Path) -> None:
    import llama_cpp

    llama_cpp.Llama(str(path), vocab_only=True, verbose=True).close()


def _native_lines(err: str) -> int:
    """llama.cpp's own log lines in captured stderr (verbose loads print Python lines too)."""
    return sum(line.startswith(("llama_model_loader:", "print_info:", "load:"))
               for line in err.splitlines())


def test_muted_blocks_log_nothing_and_the_log_comes_back(
    embedded_model: Path, llama_logs_everything: None, capfd: pytest.CaptureFixture[str]
) -> None:
    _vocab(embedded_model)
    assert _native_lines(capfd.readouterr().err) > 50  # each through llama-cpp-python's callback

    with muted():
        _vocab(embedded_model)
    assert _native_lines(capfd.readouterr().err) == 0  # none reached Python at all

    _vocab(embedded_model)  # after the block: llama-cpp-python's callback again
    assert _native_lines(capfd.readouterr().err) > 50


def test_nested_and_concurrent_blocks_share_one_mute(
    embedded_model: Path, llama_logs_everything: None, capfd: pytest.CaptureFixture[str]
) -> None:
    inside = threading.Event()
    leave = threading.Event()

    def other() -> None:
        with muted():
            inside.set()
            leave.wait(30)

    thread = threading.Thread(target=other)
    thread.start()
    assert inside.wait(30)
    with muted():
        with muted():
            pass
        _vocab(embedded_model)  # the other thread's block still holds the mute
    _vocab(embedded_model)
    assert _native_lines(capfd.readouterr().err) == 0
    leave.set()
    thread.join(30)
    _vocab(embedded_model)
    assert _native_lines(capfd.readouterr().err) > 50


def test_a_failed_load_gives_the_log_back(
    tmp_path: Path, embedded_model: Path, llama_logs_everything: None,
    capfd: pytest.CaptureFixture[str],
) -> None:
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"GGUF" + b"\x03\x00\x00\x00" + b"\xff" * 64)  # a header, then garbage
    with pytest.raises(ModelError, match="cannot load model"):
        load_llama(bad, n_ctx=256, n_threads=1)
    capfd.readouterr()
    _vocab(embedded_model)
    assert _native_lines(capfd.readouterr().err) > 50
