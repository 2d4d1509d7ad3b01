#!/usr/bin/env bash
# GPU check of the exllamav2 engine, for a CUDA machine with no network (see docs/gpu.md).
# Installs the wheels in bench/vendor/ into build/gpu_site, builds exllamav2's extension into
# build/torch_extensions (kept between runs on the same machine), runs bench/gpu_check.py and
# writes gpu_check.json and gpu_check.log to $OUT (default build/gpu_check_out).
# Extra arguments go to gpu_check.py (e.g. --skip quantize --budget-s 400).
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
if [ ! -f "$SITE/.installed" ]; then
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target "$SITE" "$ROOT"/bench/vendor/*.whl || { echo "wheel install failed" >&2; exit 2; }
  touch "$SITE/.installed"
fi
export PYTHONPATH="$SITE:$ROOT${PYTHONPATH:+:$PYTHONPATH}"
"$PY" bench/gpu_check.py --work "$ROOT/build/gpu_check" --out "$OUT/gpu_check.json" "$@" \
  2>&1 | tee "$OUT/gpu_check.log"
rc=${PIPESTATUS[0]}
echo "gpu_check exit $rc"
exit "$rc"
