#!/usr/bin/env bash
# Prebuilds exllamav2's C++/CUDA extension (exllamav2_ext) on a CPU machine whose nvcc is the GPU
# image's (CUDA 13.0), so that bench/gpu_check.sh on a fresh GPU machine loads it instead of
# JIT-compiling it (2 min 16 s of scarce device time on the H200).
#
# The GPU image has Python 3.12 and torch 2.11.0+cu130 (PyPI's manylinux x86_64 wheel is that
# build). This script makes build/exl2_prep/venv with that very wheel (sha256 pinned) and its
# nvidia-* dependencies (about 4.6 GB, so that `import torch` works here without a GPU), then runs
# exllamav2 0.3.2's own ext.py (from the pinned PyPI wheel, unchanged) with the same environment as
# gpu_check.sh (TORCH_CUDA_ARCH_LIST=9.0, TORCH_EXTENSIONS_DIR): ext.py's
# torch.utils.cpp_extension.load call, with its sources and flags, builds the module. The exllamav2
# package is entered without running its __init__.py (which imports the whole library and its
# dependencies); ext.py itself only needs torch, rich and two small exllamav2 modules.
#
# Checks: a fresh process imports `torch, exllamav2_ext` from a copy decompressed from the .xz
# exactly as gpu_check.sh does (Python dlopens with RTLD_NOW: every symbol must resolve against this
# torch 2.11.0+cu130), then exllamav2.ext imports with that module and does not JIT (build_jit False);
# the .so holds sm_90 cubins.
#
# Result: build/exl2_prebuilt/exllamav2_ext.so.xz (the only file there: carry the folder,
#         carry=["build/exl2_prebuilt"]) and build/exl2_prep/exllamav2_ext.json (versions, flags,
#         sizes, sha256). The build folder build/exl2_prep/torch_extensions is kept:
#         a rerun with nothing changed does not recompile.
#
# usage: bash bench/exl2_prep.sh          # in the foreground (about 21 min on 2 cores: compile 19 min)
#        bash bench/exl2_prep.sh --bg     # in the background: log build/exl2_prep/prep.log, pid .../prep.pid
# env:   CUDA_HOME (/usr/local/cuda-13.0), EXL2_PREP_PYTHON (a Python 3.12; default python3.12 or
#        pyenv's 3.12.1), EXL2_PREP_JOBS (MAX_JOBS; nproc), EXL2_PREP_DIR (build/exl2_prep)
set -euo pipefail

ROOT="${EXL2_PREP_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
PREP="${EXL2_PREP_DIR:-$ROOT/build/exl2_prep}"

if [[ "${1:-}" == "--bg" ]]; then
  mkdir -p "$PREP"
  # a copy runs (bash reads a script as it goes: editing this file must not change a running one)
  cp "${BASH_SOURCE[0]}" "$PREP/exl2_prep.run.sh"
  EXL2_PREP_ROOT="$ROOT" setsid nohup bash "$PREP/exl2_prep.run.sh" >"$PREP/prep.log" 2>&1 </dev/null &
  echo $! >"$PREP/prep.pid"
  echo "exl2_prep: running in the background, pid $(cat "$PREP/prep.pid")"
  echo "  follow: tail -f $PREP/prep.log   (ends with '== done' or 'exl2_prep: ...' on failure)"
  exit 0
fi

TORCH_VERSION=2.11.0
TORCH_WHEEL=torch-2.11.0-cp312-cp312-manylinux_2_28_x86_64.whl
TORCH_SHA256=0f68f4ac6d95d12e896c3b7a912b5871619542ec54d3649cf48cc1edd4dd2756
EXL2_WHEEL="${NOSPIN_WHEELS:-$ROOT/bench/vendor/wheels}/exllamav2-0.3.2-py3-none-any.whl"
EXL2_SHA256=7cd61ae4bf1d8d12034595ab9731f0f43bac415d6394fbb273d4383293d6079e
# what pip resolved for the torch wheel on 2026-12 (pinned so a rerun gets the same libraries),
# plus ninja (cpp_extension runs it), rich (ext.py imports it) and numpy (quiets torch's warning)
PINS=(
  cuda-bindings==13.5.0 cuda-pathfinder==1.9.1 cuda-toolkit==13.0.2 nvidia-cublas==13.1.0.3
  nvidia-cuda-cupti==13.0.85 nvidia-cuda-nvrtc==13.0.88 nvidia-cuda-runtime==13.0.96
  nvidia-cudnn-cu13==9.19.0.56 nvidia-cufft==12.0.0.61 nvidia-cufile==1.15.1.6
  nvidia-curand==10.4.0.35 nvidia-cusolver==12.0.4.66 nvidia-cusparse==12.6.3.3
  nvidia-cusparselt-cu13==0.8.0 nvidia-nccl-cu13==2.28.9 nvidia-nvjitlink==13.0.88
  nvidia-nvshmem-cu13==3.4.5 nvidia-nvtx==13.0.85 triton==3.6.0
  ninja==1.13.2 rich==15.0.0 numpy==2.5.5
)
export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda-13.0}"
JOBS="${EXL2_PREP_JOBS:-$(nproc)}"
VENV="$PREP/venv"
VPY="$VENV/bin/python"
SRC="$PREP/src"          # the exllamav2 wheel, unpacked
EXT_DIR="$PREP/torch_extensions"
OUTDIR="$ROOT/build/exl2_prebuilt"
XZ="$OUTDIR/exllamav2_ext.so.xz"

die() { echo "exl2_prep: $*" >&2; exit 1; }
[[ -x "$CUDA_HOME/bin/nvcc" ]] || die "no nvcc at $CUDA_HOME/bin/nvcc (set CUDA_HOME)"
"$CUDA_HOME/bin/nvcc" --version | grep -q 'release 13\.0' \
  || die "nvcc is not CUDA 13.0 (torch $TORCH_VERSION+cu130 and the GPU image use 13.0)"
mkdir -p "$PREP/wheels" "$OUTDIR"
T_START=$(date +%s)

# 1. The torch wheel (PyPI's cp312 manylinux x86_64 wheel is the +cu130 build).
WHL="$PREP/wheels/$TORCH_WHEEL"
T0=$(date +%s)
if [[ ! -f "$WHL" ]] || ! echo "$TORCH_SHA256  $WHL" | sha256sum -c --quiet - 2>/dev/null; then
  echo "== downloading $TORCH_WHEEL (531 MB)"
  rm -f "$WHL"
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
    --platform manylinux_2_28_x86_64 "torch==$TORCH_VERSION" -d "$PREP/wheels"
fi
echo "$TORCH_SHA256  $WHL" | sha256sum -c --quiet - || die "sha256 mismatch for $WHL"
unzip -p "$WHL" torch/version.py | grep -q "^cuda: Optional\[str\] = '13.0'" \
  || die "$TORCH_WHEEL is not the CUDA 13.0 build"
DOWNLOAD_S=$(( $(date +%s) - T0 ))
echo "== torch wheel ok ($DOWNLOAD_S s)"

# 2. The venv: Python 3.12 with that torch and its CUDA libraries.
T0=$(date +%s)
if [[ ! -f "$VENV/.ok" ]] || [[ "$(cat "$VENV/.ok")" != "$TORCH_SHA256 ${PINS[*]}" ]]; then
  PY312="${EXL2_PREP_PYTHON:-}"
  if [[ -z "$PY312" ]]; then
    for p in python3.12 /root/.pyenv/versions/3.12.1/bin/python3; do
      if "$p" -c 'import sys; assert sys.version_info[:2] == (3, 12)' 2>/dev/null; then
        PY312="$p"; break
      fi
    done
  fi
  [[ -n "$PY312" ]] || die "no Python 3.12 (set EXL2_PREP_PYTHON)"
  echo "== venv $VENV ($("$PY312" --version); torch + nvidia libraries, about 4.6 GB)"
  rm -rf "$VENV"
  "$PY312" -m venv "$VENV"
  printf '%s\n' "${PINS[@]}" >"$PREP/constraints.txt"
  "$VPY" -m pip install -q --disable-pip-version-check -c "$PREP/constraints.txt" "$WHL" \
    ninja rich numpy >"$PREP/pip.log" 2>&1 || { tail -20 "$PREP/pip.log" >&2; die "pip failed"; }
  "$VPY" -c "import torch; assert torch.__version__ == '$TORCH_VERSION+cu130', torch.__version__" \
    || die "torch does not import in $VENV"
  echo "$TORCH_SHA256 ${PINS[*]}" >"$VENV/.ok"
fi
VENV_S=$(( $(date +%s) - T0 ))
echo "== venv ok ($VENV_S s)"

# 3. exllamav2's sources, from its PyPI wheel (bench/vendor/prepare.sh fetches it, sha256 pinned).
[[ -f "$EXL2_WHEEL" ]] || bash "$ROOT/bench/vendor/prepare.sh" || die "bench/vendor/prepare.sh failed"
echo "$EXL2_SHA256  $EXL2_WHEEL" | sha256sum -c --quiet - || die "sha256 mismatch for $EXL2_WHEEL"
rm -rf "$SRC"
mkdir -p "$SRC"
unzip -q "$EXL2_WHEEL" 'exllamav2/*' -d "$SRC"

# 4. The build: exllamav2/ext.py as the GPU machine runs it (gpu_check.sh's environment).
export PATH="$VENV/bin:$PATH"   # ninja
export TORCH_CUDA_ARCH_LIST=9.0 MAX_JOBS="$JOBS" TORCH_EXTENSIONS_DIR="$EXT_DIR"
unset PYTHONPATH
# This machine's CUDA 13.0 is nvcc + cudart only: torch's ATen/cuda/CUDAContextLight.h includes
# cusparse.h, cublas_v2.h, cublasLt.h and cusolverDn.h, which the GPU image's full toolkit has.
# The CUDA 13 wheels of torch's own dependencies carry them (nvidia/cu13/include). Given through
# C(PLUS)_INCLUDE_PATH, gcc (and nvcc's host preprocessing) search them after every -isystem
# directory, so the toolkit's headers still win and the compile commands stay the GPU machine's.
NV_INC="$("$VPY" -c 'import nvidia, os; print(os.path.join(nvidia.__path__[0], "cu13", "include"))')"
[[ -f "$NV_INC/cusparse.h" ]] || die "no cusparse.h in $NV_INC"
if [[ ! -f "$CUDA_HOME/include/cusparse.h" ]]; then
  export CPLUS_INCLUDE_PATH="$NV_INC" C_INCLUDE_PATH="$NV_INC"
  echo "== headers missing from $CUDA_HOME/include taken from $NV_INC"
fi
T0=$(date +%s)
echo "== building exllamav2_ext with exllamav2/ext.py (MAX_JOBS=$JOBS; nothing to do if built)"
"$VPY" - "$SRC" <<'PY'
import sys
import types

src = sys.argv[1]
try:
    import exllamav2_ext  # noqa: F401  (must not be importable: ext.py would not build)
    sys.exit("exl2_prep: an exllamav2_ext is already importable here")
except ImportError:
    pass
pkg = types.ModuleType("exllamav2")  # the package, without its __init__.py
pkg.__path__ = [f"{src}/exllamav2"]
sys.modules["exllamav2"] = pkg
import exllamav2.ext as ext  # noqa: E402  (runs ext.py: cpp_extension.load, build, import)

assert ext.build_jit, "ext.py did not build"
print("exl2_prep: built", ext.exllamav2_ext.__file__)
PY
COMPILE_S=$(( $(date +%s) - T0 ))
SO="$(find "$EXT_DIR" -name exllamav2_ext.so | head -1)"
[[ -f "$SO" ]] || die "no exllamav2_ext.so under $EXT_DIR"
echo "== build: $COMPILE_S s, $SO ($(stat -c %s "$SO") bytes)"

# 5. Compress (python lzma as gpu_check.sh reads it), only the .xz goes to build/exl2_prebuilt.
T0=$(date +%s)
rm -f "$OUTDIR/exllamav2_ext.so"
if [[ ! -f "$XZ" || "$SO" -nt "$XZ" ]]; then
  "$VPY" -c "import lzma,sys; lzma.open(sys.argv[2]+'.part','wb',preset=9|lzma.PRESET_EXTREME).write(open(sys.argv[1],'rb').read())" \
    "$SO" "$XZ"
  mv "$XZ.part" "$XZ"
fi
XZ_S=$(( $(date +%s) - T0 ))
echo "== $XZ: $(stat -c %s "$XZ") bytes ($XZ_S s)"

# 6. Checks, as gpu_check.sh does them, in fresh processes without a GPU.
CHK="$PREP/check"
rm -rf "$CHK"; mkdir -p "$CHK"
"$VPY" -c "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" \
  "$XZ" "$CHK/exllamav2_ext.so"
cmp -s "$SO" "$CHK/exllamav2_ext.so" || die "the .xz does not decompress to the built .so"
(cd "$CHK" && env -u TORCH_EXTENSIONS_DIR PYTHONPATH="$CHK" "$VPY" -c "import torch, exllamav2_ext") \
  || die "import torch, exllamav2_ext fails with the prebuilt module"
echo "== check: 'import torch, exllamav2_ext' works from the decompressed .xz"
(cd "$CHK" && env TORCH_EXTENSIONS_DIR="$CHK/none" PYTHONPATH="$CHK" "$VPY" - "$SRC" "$CHK" <<'PY'
import sys
import types

pkg = types.ModuleType("exllamav2")
pkg.__path__ = [f"{sys.argv[1]}/exllamav2"]
sys.modules["exllamav2"] = pkg
import exllamav2.ext as ext  # noqa: E402

assert not ext.build_jit, "ext.py would build"
assert ext.exllamav2_ext.__file__.startswith(sys.argv[2]), ext.exllamav2_ext.__file__
print("== check: exllamav2.ext takes it (build_jit False):", ext.exllamav2_ext.__file__)
PY
) || die "exllamav2.ext does not take the prebuilt module"
# the module's machine code (bench/fatbin.py reads the .nv_fatbin section: no cuobjdump here)
FATBIN="$(PYTHONPATH="$ROOT" python3 -m bench.fatbin "$SO")"
echo "== fatbin: $FATBIN"
[[ "$FATBIN" == "cubin:sm_90 x"* && "$FATBIN" != *ptx* ]] || die "expected sm_90 cubins only in $SO"

# 7. Manifest: what the module is (timings are printed above, not recorded: a rerun that
# compiles nothing would record seconds that do not describe the committed module).
"$VPY" - "$PREP/exllamav2_ext.json" "$SO" "$XZ" "$JOBS" "$FATBIN" <<'PY'
import hashlib
import json
import platform
import subprocess
import sys
from pathlib import Path

out, so, xz, jobs, fatbin = sys.argv[1:]
import torch  # noqa: E402

ninja = Path(so).parent / "build.ninja"
# headers that came from the nvidia wheels (ninja keeps the objects' dependencies in .ninja_deps)
deps = subprocess.run(["ninja", "-C", str(Path(so).parent), "-t", "deps"], capture_output=True,
                      text=True, check=True).stdout
wheel_headers = sorted({Path(t).name for t in deps.split() if "/nvidia/cu13/include/" in t})
# the newest glibc / libstdc++ symbol versions the module needs (the GPU image must have them)
dyn = subprocess.run(["objdump", "-T", so], capture_output=True, text=True, check=True).stdout
import re  # noqa: E402


def newest(prefix: str) -> str:
    vs = {tuple(int(x) for x in v.split(".")) for v in re.findall(prefix + r"_([0-9.]+)\b", dyn)}
    return prefix + "_" + ".".join(map(str, max(vs))) if vs else ""


needs = [newest("GLIBC"), newest("GLIBCXX"), newest("CXXABI")]
libs = subprocess.run(["readelf", "-d", so], capture_output=True, text=True, check=True).stdout
needed = re.findall(r"\(NEEDED\).*\[(.*)\]", libs)
flags = {}
for line in ninja.read_text().splitlines():
    for key in ("cflags", "post_cflags", "cuda_cflags", "cuda_post_cflags", "ldflags"):
        if line.startswith(key + " = "):
            flags[key] = line[len(key) + 3:]
nvcc = subprocess.run(["nvcc", "--version"], capture_output=True, text=True).stdout.split("\n")
gcc = subprocess.run(["gcc", "--version"], capture_output=True, text=True).stdout.split("\n")[0]
m = {
    "exllamav2": "0.3.2 (PyPI wheel, ext.py unchanged)",
    "torch": torch.__version__, "torch_cuda": torch.version.cuda,
    "python": platform.python_version(), "nvcc": [ln for ln in nvcc if ln.startswith("Build")][0],
    "gcc": gcc, "glibc": platform.libc_ver()[1],
    "TORCH_CUDA_ARCH_LIST": "9.0", "MAX_JOBS": int(jobs),
    "fatbin": fatbin.strip(),
    "so_bytes": Path(so).stat().st_size,
    "so_sha256": hashlib.sha256(Path(so).read_bytes()).hexdigest(),
    "xz_bytes": Path(xz).stat().st_size,
    "xz_sha256": hashlib.sha256(Path(xz).read_bytes()).hexdigest(),
    "build_ninja_flags": flags,
    "headers_from_nvidia_wheels": wheel_headers,
    "needs_symbol_versions": needs,
    "needed_libraries": needed,
}
Path(out).write_text(json.dumps(m, indent=1) + "\n")
print("== manifest", out)
PY
echo "== timings: download ${DOWNLOAD_S} s, venv ${VENV_S} s, compile ${COMPILE_S} s, xz ${XZ_S} s," \
  "total $(( $(date +%s) - T_START )) s"
echo "== done: $XZ ($(stat -c %s "$XZ") bytes); carry=[\"build/exl2_prebuilt\"]"
