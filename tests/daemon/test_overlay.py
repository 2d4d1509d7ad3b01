"""Open buffers laid over the project index (daemon/overlay.py), with the real parser."""

from __future__ import annotations

from pathlib import Path

import pytest

from daemon.index import ProjectIndex
from daemon.overlay import Buffer, BufferOverlay, buffer_summary
from daemon.parse import summarize

SAVED = '''def area(w: float, h: float) -> float:
    """Width times height."""
    return w * h


def scale(x: float) -> float:
    return 2 * x
'''

EDITED = SAVED + '''

def perimeter(w: float, h: float) -> float:
    """Twice the sum of the sides."""
    return 2 * (w + h)
'''


def index_of(files: dict[str, str]) -> ProjectIndex:
    index = ProjectIndex(Path("/nowhere"))
    index.apply({path: summarize(path, text) for path, text in files.items()})
    return index


def never_on_disk(path: str) -> bool:
    return False


def test_a_buffer_differing_from_its_saved_file_lends_its_definitions() -> None:
    index = index_of({"shapes.py": SAVED, "main.py": "import shapes\n"})
    base = index.snapshot()
    overlay = BufferOverlay()
    seen = overlay.snapshot(base, [Buffer("shapes.py", EDITED)], on_disk=never_on_disk)
    assert [r.path for r in seen.lookup("perimeter")] == ["shapes.py"]
    assert seen.lookup("perimeter")[0].definition.doc == "Twice the sum of the sides."
    assert seen.files["main.py"] is base.files["main.py"]
    assert not base.lookup("perimeter")  # the index itself is left as it was
    # asked again with the same texts and index: the same snapshot, nothing parsed again
    assert overlay.snapshot(base, [Buffer("shapes.py", EDITED)], on_disk=never_on_disk) is seen


def test_a_buffer_equal_to_its_saved_file_changes_nothing() -> None:
    base = index_of({"shapes.py": SAVED}).snapshot()
    overlay = BufferOverlay()
    assert overlay.snapshot(base, [Buffer("shapes.py", SAVED)], on_disk=never_on_disk) is base


def test_the_requesting_document_and_buffers_past_the_limit_are_left_out() -> None:
    base = index_of({"shapes.py": SAVED, "b.py": "x = 1\n", "c.py": "y = 2\n"}).snapshot()
    overlay = BufferOverlay(max_buffers=2)
    buffers = [Buffer("b.py", "def bee():\n    pass\n"), Buffer("shapes.py", EDITED),
               Buffer("c.py", "def sea():\n    pass\n")]
    seen = overlay.snapshot(base, buffers, exclude="shapes.py", on_disk=never_on_disk)
    assert seen.lookup("bee") and seen.lookup("sea") and not seen.lookup("perimeter")
    seen = overlay.snapshot(base, buffers, on_disk=never_on_disk)
    assert seen.lookup("bee") and seen.lookup("perimeter") and not seen.lookup("sea")
    # buffers equal to their saved files take no place: the older edited one still counts
    clean = [Buffer("b.py", "x = 1\n"), Buffer("shapes.py", SAVED), *buffers[2:]]
    seen = BufferOverlay(max_buffers=1).snapshot(base, clean, on_disk=never_on_disk)
    assert seen.lookup("sea")


def test_a_new_file_not_saved_yet_counts_one_the_indexer_left_out_does_not() -> None:
    base = index_of({"main.py": "import fresh\n"}).snapshot()
    overlay = BufferOverlay()
    new = [Buffer("fresh.py", "def brand_new(n: int) -> int:\n    return n\n")]
    seen = overlay.snapshot(base, new, on_disk=never_on_disk)
    assert seen.lookup("brand_new") and seen.resolve_module("fresh", "main.py") == "fresh.py"
    assert overlay.snapshot(base, new, on_disk=lambda path: True) is base  # ignored on disk
    notes = [Buffer("notes.txt", "def looks_like_code():\n")]  # no grammar: no definitions
    assert overlay.snapshot(base, notes, on_disk=never_on_disk) is base


def test_a_buffer_that_does_not_parse_keeps_the_definitions_the_parser_lost() -> None:
    saved = summarize("shapes.py", EDITED)
    # an unclosed bracket in area(): tree-sitter's recovery loses what follows
    broken = EDITED.replace("return w * h", "return max(w * h,")
    buffer = summarize("shapes.py", broken)
    assert buffer.has_syntax_errors
    merged = buffer_summary(saved, buffer)
    names = [d.name for d in merged.definitions]
    assert {"area", "scale", "perimeter"} <= set(names)
    assert names == sorted(names, key=[d.name for d in saved.definitions].index)
    # a buffer that parses is taken as it is: a deleted function is gone
    without_scale = summarize("shapes.py", EDITED.replace("def scale", "def rescale"))
    assert "scale" not in [d.name for d in buffer_summary(saved, without_scale).definitions]


def test_index_changes_are_seen_through_the_overlay() -> None:
    index = index_of({"shapes.py": SAVED, "other.py": "def old():\n    pass\n"})
    overlay = BufferOverlay()
    first = overlay.snapshot(index.snapshot(), [Buffer("shapes.py", EDITED)],
                             on_disk=never_on_disk)
    index.apply({"other.py": summarize("other.py", "def renamed():\n    pass\n")})
    second = overlay.snapshot(index.snapshot(), [Buffer("shapes.py", EDITED)],
                              on_disk=never_on_disk)
    assert second is not first and second.lookup("renamed") and not second.lookup("old")
    assert second.lookup("perimeter")
    # the buffer saved: the index holds the same text and the overlay steps aside
    index.apply({"shapes.py": summarize("shapes.py", EDITED)})
    saved = index.snapshot()
    assert overlay.snapshot(saved, [Buffer("shapes.py", EDITED)], on_disk=never_on_disk) is saved


def test_a_buffer_that_cannot_be_summarised_leaves_the_saved_file(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import daemon.overlay

    def broken(path: str, text: str) -> None:
        raise RecursionError("too deep")

    base = index_of({"shapes.py": SAVED}).snapshot()
    monkeypatch.setattr(daemon.overlay, "summarize", broken)
    overlay = BufferOverlay()
    for _ in range(2):
        assert overlay.snapshot(base, [Buffer("shapes.py", EDITED)], on_disk=never_on_disk) is base
    assert caplog.text.count("summarising the buffer of shapes.py failed") == 1
