#!/usr/bin/env bash
# GPU check of the exllamav2 engine, for a CUDA machine with no network (see docs/gpu.md).
# Installs the wheels in bench/vendor/wheels/ (filled by bench/vendor/prepare.sh on a machine with
# network right before the device call; untracked, so the device tool carries it) into
# build/gpu_site, builds exllamav2's extension into
# build/torch_extensions (kept between runs on the same machine), runs bench/gpu_check.py and
# writes gpu_check.json and gpu_check.log to $OUT (default build/gpu_check_out).
# Extra arguments go to gpu_check.py (e.g. --skip quantize --budget-s 400).
#
# Prebuilt binaries: build/exl2_prebuilt/exllamav2_ext.so.xz (carried) or else the repository's
# bench/vendor/exllamav2_ext.so.xz, and bench/vendor/flash_min.tar.xz (the flash-attn kit for the
# paged stage with its binding prebuilt), both made on a CPU machine by bench/gpu_vendor.sh. Each is
# used only when it imports with this machine's torch; otherwise the script compiles (2 min 16 s
# for exllamav2 on the H200). A compiled extension comes back xz-compressed as
# $OUT/exllamav2_ext.so.xz.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=${PYTHON:-python3}
OUT=${OUT:-$ROOT/build/gpu_check_out}
mkdir -p "$OUT" "$ROOT/build"
export TORCH_CUDA_ARCH_LIST=${TORCH_CUDA_ARCH_LIST:-9.0}
export MAX_JOBS=${MAX_JOBS:-16}
export TORCH_EXTENSIONS_DIR=${TORCH_EXTENSIONS_DIR:-$ROOT/build/torch_extensions}
export PYTHONUNBUFFERED=1
export PATH="$(dirname "$(command -v "$PY")"):$PATH"
SITE=$ROOT/build/gpu_site
WHEELS=${NOSPIN_WHEELS:-$ROOT/bench/vendor/wheels}
if [ ! -f "$SITE/.installed" ]; then
  bash "$ROOT/bench/vendor/prepare.sh" --check || {
    echo "no wheels to install: run 'bash bench/vendor/prepare.sh' before the device call" >&2
    exit 2
  }
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target "$SITE" "$WHEELS"/*.whl || { echo "wheel install failed" >&2; exit 2; }
  touch "$SITE/.installed"
fi
PRE=$ROOT/build/exl2_prebuilt
EXTRA=""
# prebuilt binaries: a carried build/exl2_prebuilt first, else the repository's (bench/vendor,
# made by bench/gpu_vendor.sh)
VENDOR=$ROOT/bench/vendor
XZ=$PRE/exllamav2_ext.so.xz
[ -f "$XZ" ] || XZ=$VENDOR/exllamav2_ext.so.xz
if [ -f "$XZ" ] && [ ! -f "$PRE/exllamav2_ext.so" ]; then
  mkdir -p "$PRE" && "$PY" -c \
    "import lzma,sys; open(sys.argv[2],'wb').write(lzma.open(sys.argv[1]).read())" \
    "$XZ" "$PRE/exllamav2_ext.so"
fi
if [ ! -d "$ROOT/build/fa_min/kit" ] && [ -f "$VENDOR/flash_min.tar.xz" ]; then
  mkdir -p "$ROOT/build/fa_min" && tar -C "$ROOT/build/fa_min" -xJf "$VENDOR/flash_min.tar.xz" \
    && echo "flash-attn kit and its prebuilt binding unpacked from $VENDOR/flash_min.tar.xz"
fi
if [ -f "$PRE/exllamav2_ext.so" ]; then
  if PYTHONPATH="$PRE" "$PY" -c "import torch, exllamav2_ext" 2>/dev/null; then
    EXTRA=$PRE
    echo "using the prebuilt extension in $PRE"
  else
    echo "the prebuilt extension in $PRE does not load with this torch: building"
  fi
fi
export PYTHONPATH="$SITE:$ROOT${EXTRA:+:$EXTRA}${PYTHONPATH:+:$PYTHONPATH}"
"$PY" -m bench.gpu_check --work "$ROOT/build/gpu_check" --out "$OUT/gpu_check.json" "$@" \
  2>&1 | tee "$OUT/gpu_check.log"
rc=${PIPESTATUS[0]}
# the repository's own GPU test (tests/engine/test_exllama.py, marked gpu), if pytest is there
if "$PY" -c "import pytest, hypothesis" 2>/dev/null; then
  "$PY" -m pytest -q -p no:cacheprovider -m gpu -rs tests/engine/test_exllama.py 2>&1 \
    | tee "$OUT/pytest_gpu.log" | tail -15
  echo "pytest -m gpu exit ${PIPESTATUS[0]}"
fi
so=$(find "$TORCH_EXTENSIONS_DIR" -name 'exllamav2_ext*.so' 2>/dev/null | head -1)
if [ -n "$so" ] && [ ! -f "$OUT/exllamav2_ext.so.xz" ]; then
  "$PY" -c "import lzma,sys; lzma.open(sys.argv[2],'wb',preset=6).write(open(sys.argv[1],'rb').read())" \
    "$so" "$OUT/exllamav2_ext.so.xz" && ls -l "$OUT/exllamav2_ext.so.xz"
fi
echo "gpu_check exit $rc"
exit "$rc"
