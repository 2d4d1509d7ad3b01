"""The install manifest: a JSON record of everything ``nospin install`` created.

Kept at ``<data dir>/install-manifest.json`` and rewritten after each install step, so an
interrupted install can still be uninstalled. ``nospin uninstall`` reads only this file (not a
fresh plan): it removes exactly what was recorded, and runs the stop commands recorded with it,
even when the options or the nospin version changed since.

Entry kinds::

    dir       a folder the install had to create (removed at the end when empty)
    file      a service file, with the sha256 of what was written
    link      a symbolic link (systemd's enable link), with its target
    venv      the dedicated virtual environment (removed whole)
    model     the assembled embedded model (in nospin's cache dir)
    config    the config file, when the install wrote it (kept unless --purge)
    external  a file a registration command creates (the Windows Start-up shortcut)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from app.errors import ConfigError
from app.paths import atomic_write

EntryKind = Literal["dir", "file", "link", "venv", "model", "config", "external"]
MANIFEST_VERSION = 1


@dataclass(frozen=True, slots=True)
class Entry:
    """One thing the install created."""

    kind: EntryKind
    path: str
    sha256: str = ""  # file: hash of the content written
    target: str = ""  # link: where it points


@dataclass(slots=True)
class Manifest:
    """What an install left on the machine, and how to stop its services."""

    platform: str
    nospin_version: str
    options: dict[str, Any] = field(default_factory=dict)  # the InstallOptions used, as data
    entries: list[Entry] = field(default_factory=list)  # in creation order
    deactivate: list[list[str]] = field(default_factory=list)  # uninstall runs these first
    after_remove: list[list[str]] = field(default_factory=list)  # ... and these last
    owned_dirs: list[str] = field(default_factory=list)  # nospin's folders, emptied
    keep: list[str] = field(default_factory=list)  # user data kept unless --purge

    def add(self, entry: Entry) -> None:
        """Record ``entry``; an older record of the same path is replaced where it stands."""
        for i, e in enumerate(self.entries):
            if e.path == entry.path:
                self.entries[i] = entry
                return
        self.entries.append(entry)

    def drop(self, path: str) -> None:
        self.entries = [e for e in self.entries if e.path != path]

    def find(self, path: str) -> Entry | None:
        return next((e for e in self.entries if e.path == path), None)

    def of_kind(self, *kinds: EntryKind) -> list[Entry]:
        return [e for e in self.entries if e.kind in kinds]

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": MANIFEST_VERSION, "platform": self.platform,
            "nospin_version": self.nospin_version, "options": self.options,
            "entries": [{k: v for k, v in (("kind", e.kind), ("path", e.path),
                                           ("sha256", e.sha256), ("target", e.target)) if v}
                        for e in self.entries],
            "deactivate": self.deactivate, "after_remove": self.after_remove,
            "owned_dirs": self.owned_dirs, "keep": self.keep,
        }

    @classmethod
    def from_dict(cls, data: Any) -> Manifest:
        if not isinstance(data, dict) or data.get("version") != MANIFEST_VERSION:
            raise ConfigError("the install manifest has an unknown format")
        try:
            return cls(
                platform=str(data["platform"]), nospin_version=str(data["nospin_version"]),
                options=dict(data.get("options", {})),
                entries=[Entry(kind=e["kind"], path=str(e["path"]),
                               sha256=str(e.get("sha256", "")), target=str(e.get("target", "")))
                         for e in data["entries"]],
                deactivate=[[str(a) for a in c] for c in data.get("deactivate", [])],
                after_remove=[[str(a) for a in c] for c in data.get("after_remove", [])],
                owned_dirs=[str(p) for p in data.get("owned_dirs", [])],
                keep=[str(p) for p in data.get("keep", [])],
            )
        except (KeyError, TypeError) as exc:
            raise ConfigError("the install manifest is damaged", detail=str(exc)) from exc


def load_manifest(path: Path) -> Manifest | None:
    """The manifest at ``path``, or None when there is none (nothing installed)."""
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(f"cannot read the install manifest {path}", detail=str(exc)) from exc
    try:
        return Manifest.from_dict(json.loads(raw))
    except ValueError as exc:
        raise ConfigError(f"the install manifest {path} is not JSON", detail=str(exc)) from exc


def save_manifest(path: Path, manifest: Manifest) -> None:
    atomic_write(path, (json.dumps(manifest.to_dict(), indent=2) + "\n").encode("utf-8"),
                 mode=0o644)
