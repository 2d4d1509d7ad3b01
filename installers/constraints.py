"""The exact versions `installers/install.sh` installs: `installers/constraints.txt`.

pyproject.toml says which versions nospin works with (ranges); the constraints file says which
ones the tests last ran on, for every package a development install brings (dependencies of
dependencies included), so that a clean clone installs what passed, whatever was released since.
A release of watchdog within its range (7.1.1) broke the watcher in CI before this file existed.

The file covers both set-ups: it is written from a native development venv
(`install.sh --dev --native`: llama-cpp-python and its server too), and a prebuilt one
(`install.sh --dev --prebuilt`, CI) installs a subset of it.

Update it deliberately: upgrade the venv (`.venv/bin/pip install -U PACKAGE`), run the tests,
then write the file from the venv and commit both:

    .venv/bin/python installers/constraints.py          # rewrite installers/constraints.txt
    .venv/bin/python installers/constraints.py --check  # exit 1 if the venv differs from it

Needs `packaging` (a dependency of pytest: present in a development install).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

HERE = Path(__file__).resolve().parent
CONSTRAINTS = HERE / "constraints.txt"
#: The extras `install.sh --dev --native` installs (keep in step with its --dev option); a
#: prebuilt development install has all but NATIVE_EXTRAS.
DEV_EXTRAS = ("dev", "tray", "native", "server")
NATIVE_EXTRAS = ("native", "server")  # llama-cpp-python, built from source

HEADER = """\
# The exact versions `installers/install.sh` installs (pip -c): what the tests last passed on.
# Written by `.venv/bin/python installers/constraints.py` from a development venv; the ranges
# nospin supports are in pyproject.toml. Update both deliberately (installers/constraints.py).
"""

#: ``lookup(name) -> (canonical name, version, requirement strings)``, or None when not installed.
Lookup = Callable[[str], "tuple[str, str, list[str]] | None"]


def installed(name: str) -> tuple[str, str, list[str]] | None:
    """The installed distribution ``name`` in this environment."""
    try:
        dist = distribution(name)
    except PackageNotFoundError:
        return None
    return canonicalize_name(dist.metadata["Name"]), dist.version, list(dist.requires or [])


def closure(root: str, extras: Iterable[str], lookup: Lookup = installed) -> dict[str, str]:
    """Every installed distribution ``root[extras]`` needs, directly or not: name -> version.
    The root itself is left out; requirements whose markers do not apply here are skipped, and
    so are requirements that are not installed (the caller decides whether that is an error)."""
    pinned: dict[str, str] = {}
    todo: list[tuple[str, frozenset[str]]] = [(root, frozenset(extras))]
    done: set[tuple[str, frozenset[str]]] = set()
    root_name = canonicalize_name(root)
    while todo:
        name, wanted = todo.pop()
        key = (canonicalize_name(name), wanted)
        if key in done:
            continue
        done.add(key)
        found = lookup(name)
        if found is None:
            continue
        cname, version, requires = found
        if cname != root_name:
            pinned[cname] = version
        environments = [{"extra": extra} for extra in sorted(wanted)] or [{"extra": ""}]
        for raw in requires:
            req = Requirement(raw)
            if req.marker is not None and not any(req.marker.evaluate(env)
                                                  for env in environments):
                continue
            todo.append((req.name, frozenset(req.extras)))
    return dict(sorted(pinned.items()))


def render(pins: dict[str, str]) -> str:
    return HEADER + "".join(f"{name}=={version}\n" for name, version in pins.items())


def parse(text: str) -> dict[str, str]:
    """``name==version`` lines of a constraints file (comments and blank lines skipped)."""
    pins: dict[str, str] = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            pins[canonicalize_name(name)] = version.strip()
    return pins


def differences(want: dict[str, str], have: dict[str, str]) -> list[str]:
    """What differs between the file (``want``) and an environment (``have``), a line each."""
    out = []
    for name in sorted(set(want) | set(have)):
        if name not in have:
            out.append(f"{name}: {want[name]} in the file, not needed here")
        elif name not in want:
            out.append(f"{name}: {have[name]} installed, not in the file")
        elif want[name] != have[name]:
            out.append(f"{name}: {want[name]} in the file, {have[name]} installed")
    return out


def native_here() -> bool:
    """Whether this environment has the native build (llama-cpp-python)."""
    return installed("llama-cpp-python") is not None


def compare() -> list[str] | None:
    """How this environment differs from the file (:func:`differences`); None where nospin is
    not installed here (run from the source tree), so there is nothing to compare. A prebuilt
    environment is compared with the pins of what it has: the native build's packages are
    the file's too, not missing here."""
    if installed("nospin") is None:
        return None
    pins = parse(CONSTRAINTS.read_text(encoding="utf-8"))
    have = closure("nospin", DEV_EXTRAS)
    if not native_here():
        pins = {name: version for name, version in pins.items()
                if name in have or installed(name) is not None}
    return differences(pins, have)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare the file with this environment instead of writing it")
    args = parser.parse_args(argv)
    if installed("nospin") is None:
        print("nospin is not installed in this environment: run installers/install.sh --dev",
              file=sys.stderr)
        return 2
    if args.check:
        diff = compare() or []
        for line in diff:
            print(line)
        return 1 if diff else 0
    if not native_here():
        print("llama-cpp-python is not installed here: write the file from a native "
              "development venv (installers/install.sh --dev --native), it pins both set-ups",
              file=sys.stderr)
        return 2
    have = closure("nospin", DEV_EXTRAS)
    CONSTRAINTS.write_text(render(have), encoding="utf-8")
    print(f"{CONSTRAINTS}: {len(have)} packages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
