#!/usr/bin/env bash
# Install nospin for this user on Linux or macOS as a service (docs/install.md):
# its own venv in the user data folder, the embedded model, a default config, and a systemd
# user unit + tray autostart entry (Linux) or launchd agents (macOS).
#   bash installers/user-install.sh                 # from this checkout
#   bash installers/user-install.sh --gpu --dry-run # options go to `nospin install`
#   bash installers/user-install.sh --prebuilt      # compile nothing (the CPU engine: xllamacpp)
#   bash installers/user-install.sh --no-choose     # keep the 0.5B, measure nothing (--choose:
#                                                   # measure the models whatever the machine)
#   NOSPIN_SOURCE=dist/nospin-0.1.0-py3-none-any.whl bash installers/user-install.sh
# A throw-away bootstrap venv runs `nospin install`, which creates the real one; pip's cache
# makes the second install of the dependencies quick. Uninstall: `nospin uninstall [--purge]`.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
source="${NOSPIN_SOURCE:-$here}"
python="${PYTHON:-python3}"
"$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' || {
  echo "nospin needs Python 3.11 or newer ($python is older)" >&2; exit 1; }
boot="$(mktemp -d "${TMPDIR:-/tmp}/nospin-bootstrap.XXXXXX")"
trap 'rm -rf "$boot"' EXIT
"$python" -m venv "$boot"
req="$source"
if [ -d "$source" ]; then  # pip builds in the source folder: build from a copy, not the checkout
  "$python" - "$source" "$boot/src" <<'PY'
import shutil, sys
shutil.copytree(sys.argv[1], sys.argv[2], ignore=shutil.ignore_patterns(
    ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".mypy_cache",
    ".pytest_cache", ".ruff_cache", ".hypothesis"))
PY
  req="$boot/src"
fi
. "$here/installers/llama-flags.sh"  # llama.cpp without AMX, here and in `nospin install`
# the bootstrap needs nospin's own dependencies only (no llama-cpp-python); with --prebuilt
# wheels only there too, so nothing at all is compiled
wheels_only=()
for arg in "$@"; do
  if [ "$arg" = --prebuilt ]; then wheels_only=(--only-binary :all:); fi
done
"$boot/bin/python" -m pip install --disable-pip-version-check -q \
  ${wheels_only[@]+"${wheels_only[@]}"} "$req"
"$boot/bin/python" -I -m app.cli install --source "$source" "$@"
