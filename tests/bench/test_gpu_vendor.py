"""The GPU check's prebuilt binaries in bench/vendor/ (bench/gpu_vendor.sh) are whole and agree
with their manifests: a fresh GPU machine uses them instead of compiling (docs/gpu.md)."""

from __future__ import annotations

import hashlib
import json
import lzma
import tarfile
from pathlib import Path

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
