"""What the GPU check brings in bench/vendor/: the prebuilt binaries (bench/gpu_vendor.sh) are whole
and agree with their manifests, so a fresh GPU machine uses them instead of compiling; the wheels
PyPI serves are pinned by sha256 and fetched by prepare.sh, never tracked (bench/vendor/README.md).
"""

from __future__ import annotations

import hashlib
import json
import lzma
import os
import re
import subprocess
import tarfile
from pathlib import Path

import pytest

from bench.fatbin import summary
from bench.flash_min import MODULE, _digest, _kit_files

VENDOR = Path(__file__).resolve().parents[2] / "bench" / "vendor"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def test_the_exllamav2_extension_matches_its_manifest(tmp_path: Path) -> None:
    manifest = json.loads((VENDOR / "exllamav2_ext.json").read_text())
    packed = (VENDOR / "exllamav2_ext.so.xz").read_bytes()
    assert (len(packed), _sha256(packed)) == (manifest["xz_bytes"], manifest["xz_sha256"])
    module = lzma.decompress(packed)
    assert (len(module), _sha256(module)) == (manifest["so_bytes"], manifest["so_sha256"])
    assert module[:4] == b"\x7fELF" and manifest["torch"] == "2.11.0+cu130"
    (tmp_path / "exllamav2_ext.so").write_bytes(module)
    # H200 machine code only (no PTX to JIT there), as the manifest says
    assert summary(tmp_path / "exllamav2_ext.so") == manifest["fatbin"] == "cubin:sm_90 x28"


def test_the_flash_attn_binding_was_built_from_the_kit_beside_it(tmp_path: Path) -> None:
    with tarfile.open(VENDOR / "flash_min.tar.xz") as tar:
        tar.extractall(tmp_path, filter="data")
    kit, ext = tmp_path / "kit", tmp_path / "ext"
    # the stamp bench/flash_min.prebuilt compares: the binding belongs to this very kit
    assert (ext / "kit.sha256").read_text().strip() == _digest(kit, _kit_files(kit))
    assert list((ext / "site").glob(MODULE + "*.so"))
    assert (ext / "site" / "flash_attn" / "__init__.py").is_file()
    assert not (ext / "build").exists()  # only what a GPU machine loads travels


PREPARE = VENDOR / "prepare.sh"


def _git(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(VENDOR), *args], capture_output=True, text=True, check=False
    )


def test_the_registry_wheels_are_fetched_not_tracked() -> None:
    """The wheels PyPI serves travel by bench/vendor/prepare.sh into wheels/, which git must carry
    as untracked (not ignored: the device tool drops ignored files) and never hold."""
    if _git("rev-parse", "--is-inside-work-tree").returncode != 0:
        pytest.skip("not a git checkout")
    tracked = _git("ls-files", ".").stdout.split()
    assert tracked and not [name for name in tracked if name.endswith(".whl")]
    assert _git("check-ignore", "-q", "wheels/msgspec-0.23.0-py3-none-any.whl").returncode == 1


def test_every_pin_names_one_version_and_its_sha256() -> None:
    pins = [
        line.split()
        for line in (VENDOR / "requirements.txt").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert len(pins) == 12
    for spec, digest in pins:
        assert re.fullmatch(r"[a-z0-9-]+==[0-9.]+", spec), spec
        assert re.fullmatch(r"--hash=sha256:[0-9a-f]{64}", digest), digest


def _check(folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NOSPIN_WHEELS": str(folder)}
    return subprocess.run(
        ["bash", str(PREPARE), "--check"], capture_output=True, text=True, env=env, check=False
    )


def test_the_check_names_a_missing_or_altered_wheel(tmp_path: Path) -> None:
    missing = _check(tmp_path)
    assert missing.returncode == 1
    assert "missing exllamav2==0.3.2" in missing.stderr
    (tmp_path / "exllamav2-0.3.2-py3-none-any.whl").write_bytes(b"not the wheel")
    altered = _check(tmp_path)
    assert altered.returncode == 1
    assert "sha256 mismatch for " + str(tmp_path / "exllamav2-0.3.2-py3-none-any.whl") in (
        altered.stderr
    )
    assert "missing exllamav2" not in altered.stderr
