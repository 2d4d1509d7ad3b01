"""Corpora tracked as ``NAME.tar.xz``: unpacked whole on first use, refused when unsafe."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from app.errors import InputError
from app.evaluation.corpus_archive import corpus_folder, pack, unpack_all

CORPORA = Path(__file__).resolve().parents[2] / "bench" / "corpora"


def _project(root: Path) -> Path:
    folder = root / "proj"
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "a.go").write_text("package a\n\nfunc A() int { return 1 }\n")
    (folder / "go.mod").write_text("module example.com/a\n")
    return folder


def test_a_packed_folder_comes_back_byte_for_byte_and_reproducibly(tmp_path: Path) -> None:
    folder = _project(tmp_path)
    archive = pack(folder)
    first = archive.read_bytes()
    assert pack(folder).read_bytes() == first  # no times or owners inside
    for path in sorted(folder.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    folder.rmdir()
    assert corpus_folder(str(folder)) == folder
    assert (folder / "src" / "a.go").read_text() == "package a\n\nfunc A() int { return 1 }\n"
    assert (folder / "go.mod").is_file()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no staging


def test_an_existing_folder_or_a_missing_archive_is_left_alone(tmp_path: Path) -> None:
    folder = _project(tmp_path)
    (folder / "local.txt").write_text("kept")
    pack(folder)
    assert corpus_folder(folder) == folder and (folder / "local.txt").read_text() == "kept"
    assert corpus_folder(tmp_path / "none") == tmp_path / "none"  # the caller says "not a folder"


def test_members_outside_the_corpus_folder_are_refused(tmp_path: Path) -> None:
    archive = tmp_path / "evil.tar.xz"
    with tarfile.open(archive, "w:xz") as tar:
        data = b"x"
        info = tarfile.TarInfo("other/escape.txt")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    with pytest.raises(InputError, match="outside evil/"):
        corpus_folder(tmp_path / "evil")
    assert not (tmp_path / "evil").exists() and not (tmp_path / "other").exists()


def test_a_truncated_archive_is_a_clear_error(tmp_path: Path) -> None:
    archive = pack(_project(tmp_path))
    archive.write_bytes(archive.read_bytes()[:60])
    target = tmp_path / "proj"
    for path in sorted(target.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    target.rmdir()
    with pytest.raises(InputError, match="cannot unpack the corpus"):
        corpus_folder(target)
    assert not target.exists()


def test_every_vendored_corpus_is_an_archive_with_its_folder_unpacked() -> None:
    folders = unpack_all(CORPORA)
    names = {f.name for f in folders}
    assert {"chi", "hono", "reqwest", "gson", "leveldb", "hiredis"} <= names
    assert all(any(f.rglob("*.*")) for f in folders)
    readme = (CORPORA / "README.md").read_text(encoding="utf-8")
    assert all(f"`{name}/`" in readme for name in names)
