#!/usr/bin/env bash
# Refresh the GPU check's prebuilt binaries in bench/vendor/, on a CPU machine whose nvcc is the
# GPU image's (CUDA 13.0), so that a fresh GPU machine compiles nothing (device time is scarce:
# exllamav2's extension took 2 min 16 s there, flash-attn's binding about 30 s):
#   bench/vendor/exllamav2_ext.so.xz + exllamav2_ext.json   bench/exl2_prep.sh (about 21 min here)
#   bench/vendor/flash_min.tar.xz   build/fa_min/kit (bench/flash_min_prep.sh, about 3 min) and its
#                                   torch binding built against the same torch 2.11.0+cu130 venv
#                                   (ext/site, ext/kit.sha256: bench/flash_min.py, about 35 s)
# bench/gpu_check.sh unpacks them into build/ when build/ has none, and uses each only when it
# imports with that machine's torch (else it builds, as without them).
#
# usage: bash bench/gpu_vendor.sh        (env: CUDA_HOME, as for the two prep scripts)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export CUDA_HOME="${CUDA_HOME:-/usr/local/cuda-13.0}"
bash bench/flash_min_prep.sh
bash bench/exl2_prep.sh
venv=build/exl2_prep/venv
inc=$(echo "$venv"/lib/python3.12/site-packages/nvidia/cu13/include)
# the toolkit here may lack the cuBLAS/cuSPARSE headers torch's headers include: the wheels' copies
# (searched after every -isystem folder, so the toolkit's own headers still win)
CPLUS_INCLUDE_PATH="$inc" C_INCLUDE_PATH="$inc" PATH="$ROOT/$venv/bin:$PATH" PYTHONPATH="$ROOT" \
  "$venv/bin/python" -m bench.flash_min --kit build/fa_min/kit --out build/fa_min/ext
cp build/exl2_prebuilt/exllamav2_ext.so.xz build/exl2_prep/exllamav2_ext.json bench/vendor/
tar -C build/fa_min --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 \
  -cf - kit ext/site ext/kit.sha256 | xz -9e >bench/vendor/flash_min.tar.xz
ls -l bench/vendor/exllamav2_ext.so.xz bench/vendor/flash_min.tar.xz
