"""Open buffers and incremental edits (pure)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.errors import CursorError, InputError
from daemon.documents import (
    Document,
    DocumentStore,
    Edit,
    apply_edits,
    find_root,
    normalise_path,
    offset_of,
)


@pytest.mark.parametrize(("text", "edits", "expected"), [
    ("abc\ndef\n", [Edit(0, 1, 0, 2, "X")], "aXc\ndef\n"),
    ("abc\ndef\n", [Edit(0, 3, 1, 0, "")], "abcdef\n"),  # join lines
    ("abc\n", [Edit(1, 0, 1, 0, "new\n")], "abc\nnew\n"),  # append at the end
    ("", [Edit(0, 0, 0, 0, "x")], "x"),
    ("ab", [Edit(0, 0, 0, 0, "1"), Edit(0, 3, 0, 3, "2")], "1ab2"),  # each on the previous result
    ("héllo", [Edit(0, 1, 0, 2, "e")], "hello"),  # columns are code points
])
def test_apply_edits(text: str, edits: list[Edit], expected: str) -> None:
    assert apply_edits(text, edits) == expected


@pytest.mark.parametrize(("line", "col"), [(2, 0), (0, 4), (1, 1)])
def test_positions_outside_are_cursor_errors(line: int, col: int) -> None:
    with pytest.raises(CursorError):
        offset_of("abc\n", line, col)


def test_store_open_change_close() -> None:
    store = DocumentStore(max_documents=1)
    store.open(Document("/a.py", "x", None, 1, "/"))
    with pytest.raises(InputError, match="too many"):
        store.open(Document("/b.py", "y", None, 1, "/"))
    old, new = store.change("/a.py", text=None, edits=[Edit(0, 1, 0, 1, "y")], version=2)
    assert (old.text, new.text, new.version) == ("x", "xy", 2)
    with pytest.raises(InputError, match="exactly one"):
        store.change("/a.py", text="z", edits=[], version=3)
    assert store.close("/a.py") is not None and len(store) == 0
    with pytest.raises(InputError, match="not open"):
        store.change("/a.py", text="z", edits=None, version=3)


def test_paths_and_roots(tmp_path: Path) -> None:
    assert normalise_path("file:///tmp/a%20b.py") == "/tmp/a b.py"
    assert normalise_path("x/../y.py", root="/r") == "/r/y.py"
    with pytest.raises(InputError):
        normalise_path("rel.py")
    with pytest.raises(InputError, match="NUL"):
        normalise_path("/a\0b.py")
    (tmp_path / "proj" / "pkg").mkdir(parents=True)
    (tmp_path / "proj" / "pyproject.toml").write_text("")
    assert find_root(str(tmp_path / "proj" / "pkg" / "m.py")) == str(tmp_path / "proj")
