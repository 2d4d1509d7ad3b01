# Sourced by install.sh and user-install.sh: build llama.cpp for this CPU (-march=native) but
# without AMX. On a virtual machine that lists AMX without enabling it, its AMX kernels crash the
# first prompt (engine/cpu_build.py, docs/install.md). NOSPIN_LLAMA_AMX=1 keeps AMX.
# Sets amx_off to the flags it added to CFLAGS/CXXFLAGS ("" when none apply here).
amx_off="-mno-amx-tile -mno-amx-int8 -mno-amx-bf16"
# shellcheck disable=SC2086 # the flags are three words
if [ -z "${NOSPIN_LLAMA_AMX:-}" ] && [ "$(uname -m)" = x86_64 ] \
    && echo | "${CC:-cc}" $amx_off -x c -E - >/dev/null 2>&1; then
  export CFLAGS="${CFLAGS:+$CFLAGS }$amx_off" CXXFLAGS="${CXXFLAGS:+$CXXFLAGS }$amx_off"
else
  amx_off=""
fi
