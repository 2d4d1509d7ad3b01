"""engine/cpu_build.py: llama.cpp built without AMX, and the decode probe in a child process."""

from __future__ import annotations

import importlib.util
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cpu_build import (
    AMX_OFF,
    build_env,
    built_with_amx,
    compiler_accepts_amx_off,
    system_info,
)

FLAGS = " ".join(AMX_OFF)
# the tests of the installed build: they run where llama-cpp-python is installed
native = pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None,
                            reason="llama-cpp-python is not installed: its build is checked "
                            "where it is (installers/install.sh --native)")


def test_build_env_adds_the_flags_on_x86_64_only() -> None:
    def yes() -> bool:
        return True

    def no() -> bool:
        return False

    def unasked() -> bool:
        raise AssertionError("the compiler is asked only where the flags could apply")

    assert build_env({}, "x86_64", "linux", yes) == {"CFLAGS": FLAGS, "CXXFLAGS": FLAGS}
    mine = build_env({"CFLAGS": "-O2", "CXXFLAGS": f"-g {FLAGS}"}, "AMD64", "darwin", yes)
    assert mine == {"CFLAGS": f"-O2 {FLAGS}", "CXXFLAGS": f"-g {FLAGS}"}  # once, theirs kept
    assert build_env({}, "aarch64", "linux", unasked) == {}
    assert build_env({}, "arm64", "darwin", unasked) == {}
    assert build_env({}, "AMD64", "win32", unasked) == {}  # MSVC
    assert build_env({}, "x86_64", "linux", no) == {}  # GCC 10 does not know the flags
    assert build_env({"NOSPIN_LLAMA_AMX": "1"}, "x86_64", "linux", unasked) == {}


def test_compiler_check() -> None:
    assert not compiler_accepts_amx_off("/nonexistent/cc")
    assert not compiler_accepts_amx_off("false")
    if platform.machine() == "x86_64":
        gcc = subprocess.run(["gcc", "-dumpversion"], capture_output=True, text=True)
        if gcc.returncode == 0 and int(gcc.stdout.split(".")[0]) >= 11:
            assert compiler_accepts_amx_off("gcc")


def test_built_with_amx_reads_system_info() -> None:
    assert built_with_amx("CPU : AVX512 = 1 | AMX_INT8 = 1 | REPACK = 1 |")
    assert not built_with_amx("CPU : AVX512 = 1 | AVX512_VNNI = 1 | REPACK = 1 |")


@native
@pytest.mark.skipif(platform.machine() != "x86_64" or not compiler_accepts_amx_off(),
                    reason="AMX flags apply to x86-64 with GCC >= 11 or Clang")
def test_the_installed_llama_cpp_has_no_amx() -> None:
    """installers/install.sh builds llama-cpp-python without AMX, and rebuilds a cached wheel
    that has it: on a VM that lists AMX without enabling it, every prompt would crash."""
    import os

    if os.environ.get("NOSPIN_LLAMA_AMX"):
        pytest.skip("NOSPIN_LLAMA_AMX is set: AMX kept on purpose")
    info = system_info()
    assert info.startswith("CPU :") and not built_with_amx(info), info


# as where llama-cpp-python is not installed (the xllamacpp engine on its prebuilt wheel)
WITHOUT_LLAMA_CPP = """
import sys
sys.modules["llama_cpp"] = None
from engine.cpu_build import system_info
from engine.llama_log import muted
with muted():  # no llama-cpp-python log to mute: the block just runs
    print(system_info())
"""


def test_without_llama_cpp_the_build_is_xllamacpps_and_the_log_mute_runs_the_block() -> None:
    pytest.importorskip("xllamacpp")
    repo = Path(__file__).resolve().parents[2]
    proc = subprocess.run([sys.executable, "-c", WITHOUT_LLAMA_CPP], cwd=repo,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    import xllamacpp

    assert proc.stdout.strip() == str(xllamacpp.get_system_info()).strip()
    assert proc.stdout.startswith("CPU :")


@native
def test_decode_probe_in_a_child_process() -> None:
    from app.errors import NospinError
    from engine.models import embedded_model_path
    from engine.requantize import cpu_weights

    try:
        path = cpu_weights(embedded_model_path())
    except NospinError as exc:  # the model packages come with nospin; say so if not
        pytest.skip(f"embedded model unavailable: {exc}")
    proc = subprocess.run([sys.executable, "-m", "engine.cpu_build", str(path)],
                          capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = proc.stdout.strip().splitlines()
    assert lines[0].startswith("CPU :") and lines[-1].endswith("4 decoded"), lines
    bad = subprocess.run([sys.executable, "-m", "engine.cpu_build"], capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "usage" in bad.stderr


AMX_INFO = "CPU : AVX512 = 1 | AVX512_VNNI = 1 | AMX_INT8 = 1 | REPACK = 1 |"


class Child:
    """Runs a real child process (``code``) in place of the probe; counts the runs."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.runs = 0

    def __call__(self, argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        assert argv[1:3] == ["-m", "engine.cpu_build"]
        self.runs += 1
        return subprocess.run([sys.executable, "-c", self.code], capture_output=True,
                              text=True, timeout=60, check=False)


def test_a_build_with_crashing_amx_kernels_loads_without_extra_buffers(tmp_path: Path) -> None:
    """2026-12-02: a llama.cpp built with AMX faulted at every prompt on a VM listing AMX; loaded
    without the extra buffer types (use_extra_bufts) it ran. The engine probes once per build,
    CPU and model, in a child process, and keeps the verdict."""
    from engine.cpu_build import extra_buffers_safe

    model = tmp_path / "m.gguf"
    model.write_bytes(b"GGUF")
    never = Child("raise SystemExit('not run')")
    assert extra_buffers_safe(model, tmp_path, info="CPU : AVX512 = 1 |", run=never)
    assert never.runs == 0  # no AMX compiled in: nothing to check
    crash = Child("import faulthandler; faulthandler._sigsegv()")
    assert not extra_buffers_safe(model, tmp_path / "a", info=AMX_INFO, run=crash)
    assert not extra_buffers_safe(model, tmp_path / "a", info=AMX_INFO, run=crash)
    assert crash.runs == 1  # the verdict is kept
    works = Child("print('ok')")
    assert extra_buffers_safe(model, tmp_path / "b", info=AMX_INFO, run=works)

    def hangs(argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        raise subprocess.TimeoutExpired(argv, 1.0)

    assert extra_buffers_safe(model, tmp_path / "c", info=AMX_INFO, run=hangs)
    assert not (tmp_path / "c").exists()  # a probe that did not finish is no verdict


@native
def test_the_model_loads_and_decodes_without_extra_buffers() -> None:
    from app.errors import NospinError
    from engine.llamacpp_session import load_llama
    from engine.models import embedded_model_path
    from engine.requantize import cpu_weights

    try:
        path = cpu_weights(embedded_model_path())
    except NospinError as exc:
        pytest.skip(f"embedded model unavailable: {exc}")
    llm = load_llama(path, n_ctx=128, n_threads=0, n_batch=32, extra_buffers=False)
    assert llm.model_params.use_extra_bufts is False
    prompt = llm.tokenize(b"def add(a, b):\n    return", add_bos=False, special=False)
    produced = [t for _, t in zip(range(4), llm.generate(prompt, temp=0.0), strict=False)]
    assert len(produced) == 4
    again = load_llama(path, n_ctx=128, n_threads=0, n_batch=32)  # the defaults are restored
    assert again.model_params.use_extra_bufts is True
