"""The daemon's log keeps the lines other threads write while a model loads."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

SCRIPT = textwrap.dedent("""
    import logging, sys, threading, time
    from pathlib import Path
    logging.basicConfig(level=logging.INFO, format="%(message)s")  # as app.cli does
    if sys.argv[2] == "own":
        from app.commands.daemon import log_to_own_descriptor
        log_to_own_descriptor()
    from engine.llamacpp_session import load_llama
    stop = threading.Event()
    def tick():
        i = 0
        while not stop.is_set():
            logging.info("tick %d", i)
            i += 1
            time.sleep(0.005)
    thread = threading.Thread(target=tick)
    thread.start()
    time.sleep(0.1)
    load_llama(Path(sys.argv[1]), n_ctx=512, n_threads=1)
    time.sleep(0.1)
    stop.set()
    thread.join()
""")


def _ticks(model: Path, mode: str) -> tuple[int, int]:
    """(lines logged, lines that reached stderr) by a thread logging beside a model load."""
    err = subprocess.run([sys.executable, "-c", SCRIPT, str(model), mode], capture_output=True,
                         text=True, check=True, cwd=Path(__file__).resolve().parents[2]).stderr
    seen = [int(n) for n in re.findall(r"^tick (\d+)$", err, flags=re.M)]
    return max(seen) + 1, len(seen)


@pytest.mark.slow
def test_lines_logged_during_a_model_load_reach_the_log() -> None:
    """llama-cpp-python's load points descriptors 1 and 2 at /dev/null (app/commands/daemon.py
    log_to_own_descriptor keeps the daemon's log out of its way)."""
    pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed: its load is "
                        "checked where it is (installers/install.sh --native)")
    from app.errors import ModelNotInstalled
    from engine.models import embedded_model_path

    try:
        model = embedded_model_path()
    except ModelNotInstalled as exc:
        pytest.skip(str(exc))
    logged, seen = _ticks(model, "own")
    assert seen == logged
    logged, seen = _ticks(model, "plain")  # llama-cpp-python's /dev/null swallows some
    assert seen < logged
