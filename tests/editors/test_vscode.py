"""The VS Code extension (editors/vscode): type-check, lint, unit tests under node, bundle and
package it as a .vsix. Needs npm and the extension's dependencies (`npm ci`, which
``installers/install.sh --dev`` runs); skips with the reason otherwise."""

from __future__ import annotations

import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

EXTENSION = Path(__file__).parents[2] / "editors" / "vscode"


def npm(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(["npm", *args], cwd=EXTENSION, capture_output=True, text=True,
                            timeout=timeout)
    assert result.returncode == 0, f"npm {' '.join(args)}:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def node_modules() -> Path:
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("npm/node not installed: the VS Code extension is built in CI")
    modules = EXTENSION / "node_modules"
    if not (modules / "vscode-languageclient").is_dir():
        pytest.skip("editors/vscode has no node_modules: run `npm ci` there "
                    "(installers/install.sh --dev does)")
    return modules


def test_typecheck_lint_and_unit_tests(node_modules: Path) -> None:
    npm("run", "typecheck")
    npm("run", "lint")
    result = npm("test")
    assert "# fail 0" in result.stdout and "# pass" in result.stdout, result.stdout


def test_bundle_and_package_vsix(node_modules: Path, tmp_path: Path) -> None:
    npm("run", "build")
    vsix = tmp_path / "nospin.vsix"
    npm("exec", "--", "vsce", "package", "--no-dependencies", "--out", str(vsix))
    with zipfile.ZipFile(vsix) as archive:
        names = set(archive.namelist())
        manifest = json.loads(archive.read("extension/package.json"))
    assert "extension/dist/extension.js" in names
    assert not any(name.startswith("extension/src/") for name in names)
    assert manifest["main"] == "./dist/extension.js"
    commands = {c["command"] for c in manifest["contributes"]["commands"]}
    assert {"nospin.showStatus", "nospin.setFastMode"} <= commands
    assert "nospin.daemonAddress" in manifest["contributes"]["configuration"]["properties"]
