"""How llama-cpp-python is compiled here, and a crash probe for the CPU engine.

pip builds llama-cpp-python from source with ``-march=native``. On a CPU that lists AMX (Intel
Xeon Sapphire Rapids and later) that compiles ggml's AMX matrix kernels, and a virtual machine
that lists AMX without enabling its tile state makes their first ``ldtilecfg`` fault: every
prompt crashed the process with SIGSEGV (seen here on 2026-12-02, a 2-core "Intel Xeon
Processor" VM; ``dmesg``: general protection fault in ``ggml_backend_amx_mul_mat``). A segfault
cannot be caught in Python, so it would take the daemon down with it.

nospin therefore builds llama.cpp for this CPU without AMX: ``-mno-amx-*`` (GCC and Clang keep
an explicit ``-mno-`` over what ``-march=native`` implies, whatever the order) in CFLAGS and
CXXFLAGS, which CMake reads. AVX-512, VNNI and weight repacking stay. ``NOSPIN_LLAMA_AMX=1``
keeps AMX, for a machine where it works. ``installers/install.sh`` does the same in shell.

``python -m engine.cpu_build MODEL.gguf`` loads a model as the engine does and decodes a few
tokens; ``nospin doctor`` runs it in a child process, so a crash is a verdict, not an exit.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import platform
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from app.errors import EngineUnavailable

log = logging.getLogger(__name__)

AMX_OFF = ("-mno-amx-tile", "-mno-amx-int8", "-mno-amx-bf16")
KEEP_AMX = "NOSPIN_LLAMA_AMX"  # set (non-empty) to build llama.cpp with AMX
PACKAGE = "llama-cpp-python"


def build_env(environ: Mapping[str, str], machine: str, platform_name: str,
              compiler_ok: Callable[[], bool]) -> dict[str, str]:
    """CFLAGS / CXXFLAGS to build llama-cpp-python with here; {} leaves the build as it is.

    Only x86-64 with a GCC or Clang that knows the flags (GCC >= 11; ``compiler_ok``, asked
    last: it runs the compiler); not Windows (MSVC).
    """
    if environ.get(KEEP_AMX) or platform_name == "win32":
        return {}
    if machine.lower() not in ("x86_64", "amd64") or not compiler_ok():
        return {}
    flags = " ".join(AMX_OFF)
    out: dict[str, str] = {}
    for key in ("CFLAGS", "CXXFLAGS"):
        old = environ.get(key, "").strip()
        out[key] = flags if not old else old if flags in old else f"{old} {flags}"
    return out


def compiler_accepts_amx_off(compiler: str | None = None) -> bool:
    """Whether the C compiler pip will use knows ``-mno-amx-*`` (GCC >= 11, Clang >= 12)."""
    cc = compiler or os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return False
    try:
        proc = subprocess.run([cc, *AMX_OFF, "-x", "c", "-E", "-"], input="", text=True,
                              capture_output=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0


def build_env_here() -> dict[str, str]:
    """:func:`build_env` for this machine and process environment."""
    return build_env(os.environ, platform.machine(), sys.platform, compiler_accepts_amx_off)


def built_with_amx(system_info: str) -> bool:
    """Whether llama.cpp's ``llama_print_system_info()`` says its AMX kernels are compiled in."""
    return "AMX_INT8 = 1" in system_info


def system_info() -> str:
    """This process's llama.cpp build, as ``llama_print_system_info()`` prints it: the one
    llama-cpp-python (the llamacpp engine) is built with, else xllamacpp's (a prebuilt wheel);
    EngineUnavailable when neither is installed."""
    try:
        import llama_cpp
    except ImportError:
        try:
            import xllamacpp
        except ImportError as exc:
            raise EngineUnavailable("neither llama-cpp-python nor xllamacpp is installed",
                                    detail=str(exc)) from exc
        return str(xllamacpp.get_system_info()).strip()
    info: bytes = llama_cpp.llama_print_system_info()
    return info.decode("utf-8", "replace").strip()


PROBE_TIMEOUT_S = 180.0


def extra_buffers_safe(
    model: Path, folder: Path, *, info: str | None = None,
    run: Callable[..., subprocess.CompletedProcess[str]] = subprocess.run,
) -> bool:
    """Whether the CPU engine may load ``model`` with llama.cpp's extra buffer types (its AMX
    kernels, repacked weights). Always for a build without AMX. For a build with AMX (a wheel
    from before the installers left it out, or ``pip install`` by hand) a child process decodes
    a few tokens once per build, CPU and model (the verdict is kept in ``folder``): when it
    dies, the engine loads without them, which keeps the AMX kernels out and works (checked on
    the VM of 2026-12-02) instead of crashing the daemon at its first completion. A probe that
    cannot run or times out says yes and is not kept."""
    info = system_info() if info is None else info
    if not built_with_amx(info):
        return True
    key = hashlib.blake2b(f"{info}|{_cpu_name()}|{model.resolve()}".encode(),
                          digest_size=8).hexdigest()
    stamp = folder / f"llama-amx-check-{key}.json"
    try:
        return bool(json.loads(stamp.read_text(encoding="utf-8"))["ok"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    try:
        proc = run([sys.executable, "-m", "engine.cpu_build", str(model)], capture_output=True,
                   text=True, timeout=PROBE_TIMEOUT_S, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("cannot check llama.cpp's AMX kernels here (%s): loading with them", exc)
        return True
    ok = proc.returncode >= 0  # killed by a signal: the kernels crash on this machine
    if not ok:
        log.warning("llama.cpp's AMX kernels crash on this machine (a probe decode died with "
                    "signal %d): the CPU engine loads without llama.cpp's extra buffer types. "
                    "Rebuild llama-cpp-python without AMX: `nospin doctor` says how.",
                    -proc.returncode)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        stamp.write_text(json.dumps({"ok": ok, "returncode": proc.returncode}), encoding="utf-8")
    except OSError as exc:  # a full disk: probe again next time
        log.warning("cannot keep the AMX check's verdict in %s: %s", stamp, exc)
    return ok


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor()


def decode_probe(model: Path, tokens: int = 4) -> str:
    """Load ``model`` as the CPU engine does and decode ``tokens`` tokens; a one-line report.

    Run it in a child process (``python -m engine.cpu_build``): a broken build kills the
    process rather than raising.
    """
    from engine.llamacpp_session import load_llama

    llm = load_llama(model, n_ctx=128, n_threads=0, n_batch=32)
    prompt = llm.tokenize(b"def add(a, b):\n    return", add_bos=False, special=False)
    produced = 0
    for _ in llm.generate(prompt, temp=0.0):
        produced += 1
        if produced >= tokens:
            break
    return f"ok: {len(prompt)} prompt tokens, {produced} decoded"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m engine.cpu_build MODEL.gguf", file=sys.stderr)
        return 2
    print(system_info(), flush=True)  # first: a crash below still leaves it in the output
    print(decode_probe(Path(argv[0])))
    return 0


if __name__ == "__main__":  # pragma: no cover - run as a child process by nospin doctor
    raise SystemExit(main(sys.argv[1:]))
