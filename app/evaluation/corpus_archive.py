"""Corpora kept as ``NAME.tar.xz`` and unpacked on first use into the folder ``NAME`` beside it.

``bench/corpora/`` tracks each vendored project as one archive (a tenth of its files' size, so
that the tree the GPU machine receives stays small); the folders are ignored by git. Every
command and test that takes a corpus folder passes it through :func:`corpus_folder`, so
``--corpus bench/corpora/chi`` works on a fresh clone as it does once unpacked.
"""

from __future__ import annotations

import os
import shutil
import tarfile
import tempfile
from pathlib import Path

from app.errors import InputError

SUFFIX = ".tar.xz"


def archive_of(folder: Path) -> Path:
    """The archive that holds ``folder``: ``NAME.tar.xz`` beside it."""
    return folder.with_name(folder.name + SUFFIX)


def corpus_folder(path: Path | str) -> Path:
    """``path`` as a folder: unpacked from its archive when only the archive exists.

    The archive's members must lie under one top folder named like the archive; the folder
    appears whole or not at all (unpacked beside it, then renamed)."""
    folder = Path(path)
    archive = archive_of(folder)
    if folder.is_dir() or not archive.is_file():
        return folder
    staging = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        with tarfile.open(archive, "r:xz") as tar:
            for member in tar.getmembers():
                top = Path(member.name).parts[0] if member.name else ""
                if top != folder.name:
                    raise InputError(f"{archive}: member {member.name!r} is outside "
                                     f"{folder.name}/")
            tar.extractall(staging, filter="data")
        try:
            os.replace(staging / folder.name, folder)
        except OSError:
            if not folder.is_dir():  # not another process unpacking the same archive
                raise
    except (tarfile.TarError, EOFError, OSError) as exc:
        raise InputError(f"cannot unpack the corpus {archive}: {exc}") from exc
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def unpack_all(folder: Path) -> list[Path]:
    """Every archive directly under ``folder`` unpacked; the corpus folders, sorted."""
    return [corpus_folder(a.with_name(a.name[: -len(SUFFIX)]))
            for a in sorted(folder.glob(f"*{SUFFIX}"))]


def pack(folder: Path) -> Path:
    """``folder`` written as its archive, reproducibly (sorted names, no owners or times)."""
    def clean(info: tarfile.TarInfo) -> tarfile.TarInfo:
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        info.mtime = 0
        return info

    archive = archive_of(folder)
    files = sorted(p for p in folder.rglob("*") if p.is_file())
    with tarfile.open(archive, "w:xz", preset=9) as tar:
        for path in files:
            tar.add(path, arcname=str(path.relative_to(folder.parent)), filter=clean)
    return archive
