"""Configuration snapshots: atomic writes, list/show/diff."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from app.config import Config, to_dict, with_changes
from app.errors import ConfigError
from daemon.snapshots import (
    ConfigChange,
    SnapshotStore,
    default_snapshot_dir,
    format_diff,
    format_list,
)

T0 = 1_700_000_000.0


def metrics(p95: float, n: int) -> dict[str, object]:
    return {"num_requests": n, "total_ms": {"p50": p95 / 3, "p95": p95}, "tiers": {"fast": 0}}


def test_default_folder_honours_nospin_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NOSPIN_HOME", str(tmp_path))
    assert default_snapshot_dir() == tmp_path / "config" / "snapshots"
    assert SnapshotStore().directory == tmp_path / "config" / "snapshots"


def test_save_writes_one_private_json_file_atomically(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path / "snaps")
    snap = store.save(Config(), metrics(900.0, 40), reason="start", now=T0)
    files = list((tmp_path / "snaps").iterdir())
    assert [f.name for f in files] == [f"{snap.id}.json"]  # no temp file left behind
    assert stat.S_IMODE(os.stat(files[0]).st_mode) == 0o600
    data = json.loads(files[0].read_text())
    assert data == {
        "id": snap.id,
        "time": T0,
        "reason": "start",
        "config": to_dict(Config()),
        "metrics": metrics(900.0, 40),
    }
    assert snap.id.startswith("20231114-221320-000000-")


def test_failed_write_leaves_no_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = SnapshotStore(tmp_path)
    real_fsync = os.fsync

    def boom(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(OSError):
        store.save(Config(), {}, reason="x", now=T0)
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert list(tmp_path.iterdir()) == []
    assert store.list() == []


def test_list_show_and_refs(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path)
    a = store.save(Config(), metrics(3000.0, 100), reason="start", now=T0)
    fast = with_changes(Config(), {"tiers.force_fast": True})
    b = store.save(fast, metrics(2000.0, 80), reason="fast mode on", now=T0 + 60)
    c = store.save(fast, {}, reason="same time", now=T0 + 60)  # ids stay unique
    assert [s.id for s in store.list()] == [a.id, b.id, c.id]
    assert store.show("latest") == c
    assert store.show("previous") == b
    assert store.show(a.id) == a
    assert store.show(a.id[:15]) == a  # a unique prefix
    with pytest.raises(ConfigError):
        store.show("2023")  # ambiguous
    with pytest.raises(ConfigError):
        store.show("nope")
    table = format_list(store.list())
    assert "fast mode on" in table and a.id in table and "3000" in table


def test_unreadable_files_are_skipped(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path)
    store.save(Config(), {}, reason="ok", now=T0)
    (tmp_path / "broken.json").write_text("{not json")
    (tmp_path / "other.json").write_text('{"id": 3}')
    assert [s.reason for s in store.list()] == ["ok"]
    assert SnapshotStore(tmp_path / "missing").list() == []
    with pytest.raises(ConfigError):
        SnapshotStore(tmp_path / "missing").show("latest")


def test_diff_shows_changed_keys_and_metric_deltas(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path)
    store.save(Config(), metrics(3000.0, 100), reason="start", now=T0)
    changed = with_changes(Config(), {"tiers.force_fast": True, "completion.max_tokens": 32})
    store.save(changed, metrics(2400.0, 120), reason="tuning", now=T0 + 60)
    diff = store.diff()
    assert diff.config_changes == (
        ConfigChange("completion.max_tokens", 64, 32),
        ConfigChange("tiers.force_fast", False, True),
    )
    deltas = {d.key: d for d in diff.metric_deltas}
    assert deltas["total_ms.p95"].old == 3000.0 and deltas["total_ms.p95"].new == 2400.0
    assert deltas["total_ms.p95"].delta == pytest.approx(-600.0)
    assert deltas["num_requests"].delta == 20
    text = format_diff(diff)
    assert "tiers.force_fast: false -> true" in text
    assert "completion.max_tokens: 64 -> 32" in text
    assert "total_ms.p95" in text and "-600" in text


def test_diff_with_too_few_snapshots_says_so(tmp_path: Path) -> None:
    store = SnapshotStore(tmp_path)
    store.save(Config(), {}, reason="only", now=T0)
    with pytest.raises(ConfigError, match="previous"):
        store.diff()
