"""installers/constraints.txt: the exact versions a development install gets (pip -c), written by
installers/constraints.py. A watchdog release inside pyproject's range broke CI before it."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from installers import constraints

ROOT = Path(__file__).resolve().parents[2]


def test_closure_follows_extras_and_markers_and_stops_at_cycles() -> None:
    graph = {
        "app": ("App", "1.0", ["a>=1", "b; extra == 'x'", "c; extra == 'y'",
                               "d; python_version < '3'", "ghost"]),
        "a": ("A", "1.2", ["e[fast]", "app"]),  # a cycle back to the root
        "b": ("b", "2.0", []),
        "c": ("c", "3.0", []),
        "e": ("e", "0.1", ["f; extra == 'fast'"]),
        "f": ("F_Lib", "9", []),
    }

    def lookup(name: str) -> tuple[str, str, list[str]] | None:
        found = graph.get(name)
        return None if found is None else (canonicalize_name(found[0]), found[1], found[2])

    assert constraints.closure("app", ["x"], lookup) == {
        "a": "1.2", "b": "2.0", "e": "0.1", "f-lib": "9"}
    assert constraints.closure("app", [], lookup) == {"a": "1.2", "e": "0.1", "f-lib": "9"}


def test_render_parse_and_differences() -> None:
    pins = {"a": "1.0", "b-c": "2.0"}
    text = constraints.render(pins)
    assert text.startswith("#") and constraints.parse(text) == pins
    assert constraints.parse("B_C==2.0  # why\n\n") == {"b-c": "2.0"}
    assert constraints.differences({"a": "1.0", "b": "1"}, {"a": "1.1", "c": "3"}) == [
        "a: 1.0 in the file, 1.1 installed", "b: 1 in the file, not needed here",
        "c: 3 installed, not in the file"]


def pinned() -> dict[str, str]:
    pins: dict[str, str] = constraints.parse(constraints.CONSTRAINTS.read_text(encoding="utf-8"))
    return pins


def test_the_file_names_every_package_a_development_install_needs() -> None:
    """pyproject.toml gained or lost a dependency and the file was not written again: the new
    one would install at whatever version is newest."""
    needed = constraints.closure("nospin", constraints.DEV_EXTRAS)
    assert "watchdog" in needed and "pytest" in needed
    missing = sorted(set(needed) - set(pinned()))
    extra = sorted(set(pinned()) - set(needed))
    if not constraints.native_here():  # a prebuilt venv: the native build's pins are not here
        extra = [name for name in extra if constraints.installed(name) is not None]
    assert not missing and not extra, (
        f"not pinned: {missing}; pinned, not needed: {extra}: "
        "run .venv/bin/python installers/constraints.py")


def test_every_pin_is_inside_pyprojects_ranges() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = list(project["dependencies"])
    for extra in constraints.DEV_EXTRAS:
        requirements += project["optional-dependencies"][extra]
    pins = pinned()
    checked = 0
    for raw in requirements:
        req = Requirement(raw)
        version = pins.get(canonicalize_name(req.name))
        if version is not None:
            assert req.specifier.contains(version, prereleases=True), (raw, version)
            checked += 1
    assert checked >= 30


def test_install_sh_installs_with_the_file() -> None:
    script = (ROOT / "installers" / "install.sh").read_text(encoding="utf-8")
    assert '-c "$here/installers/constraints.txt"' in script
    assert '"${pip[@]}" install -q "${constraints[@]}" ${wheels_only[@]+"${wheels_only[@]}"}' \
        in script
    # the file covers what --dev installs, natively built or not
    assert '--dev) extras="${extras:+$extras,}dev,tray"' in script
    assert 'extras="${extras:+$extras,}native${dev:+,server}"' in script
    assert set(constraints.DEV_EXTRAS) == {"dev", "tray", *constraints.NATIVE_EXTRAS}
    assert set(constraints.NATIVE_EXTRAS) == {"native", "server"}
