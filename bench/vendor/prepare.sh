#!/usr/bin/env bash
# Fill bench/vendor/wheels/ with the wheels the GPU check installs, from PyPI, each checked against
# the sha256 pinned in bench/vendor/requirements.txt. Run it on a machine with network right before
# a device call: the folder is untracked and not ignored, so the device tool carries it; the GPU
# machine has no network and installs from it with --no-index (bench/gpu_check.sh).
#
# usage: bash bench/vendor/prepare.sh           # download what is missing, verify every wheel
#        bash bench/vendor/prepare.sh --check   # verify only (exit 1 if a wheel is missing or wrong)
#        bash bench/vendor/prepare.sh --clean   # remove the folder (after the device call)
# env:   NOSPIN_WHEELS (the folder; default bench/vendor/wheels), PIP (default: python3 -m pip)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REQ="$HERE/requirements.txt"
DEST="${NOSPIN_WHEELS:-$HERE/wheels}"
read -r -a PIP <<<"${PIP:-python3 -m pip}"

die() { echo "prepare: $*" >&2; exit 1; }

# Each requirement line: "name==version --hash=sha256:HEX"; the wheel file name starts with the
# name (dashes as underscores), "-", the version.
verify() {
  local bad=0 n=0 name version hash files
  while read -r spec flag; do
    [[ -z "$spec" || "$spec" == \#* ]] && continue
    name=${spec%%==*}; version=${spec#*==}; hash=${flag#--hash=sha256:}
    shopt -s nullglob
    files=("$DEST/${name//-/_}-$version-"*.whl)
    shopt -u nullglob
    n=$((n + 1))
    if [[ ${#files[@]} -ne 1 ]]; then
      echo "prepare: missing $name==$version in $DEST" >&2; bad=1; continue
    fi
    if ! echo "$hash  ${files[0]}" | sha256sum -c --quiet - 2>/dev/null; then
      echo "prepare: sha256 mismatch for ${files[0]}" >&2; bad=1
    fi
  done <"$REQ"
  [[ $bad -eq 0 ]] && echo "prepare: $n wheels in $DEST, every sha256 as pinned" >&2
  return $bad
}

case "${1:-}" in
  --clean) rm -rf "$DEST"; echo "prepare: removed $DEST" >&2; exit 0 ;;
  --check) verify; exit $? ;;
  "") ;;
  *) die "unknown argument ${1} (none, --check or --clean)" ;;
esac

mkdir -p "$DEST"
# the GPU image: CPython 3.12 on x86_64 glibc; binary wheels only, no dependency resolution (the
# requirements list is the whole set), each file's sha256 checked by pip against the pin
"${PIP[@]}" download -q --disable-pip-version-check --no-deps --only-binary=:all: \
  --require-hashes -r "$REQ" --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_26_x86_64 \
  --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
  --platform manylinux_2_5_x86_64 --platform manylinux1_x86_64 \
  -d "$DEST" || die "pip download failed (network? a pin no longer served?)"
verify
