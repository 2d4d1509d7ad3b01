"""Edit history: summary lines, merging of typing, dedupe, bounds, determinism."""

from __future__ import annotations

import difflib
import threading

from hypothesis import given, settings
from hypothesis import strategies as st

from daemon.history import (
    EditHistory,
    EditKind,
    HistoryLimits,
    _diff_opcodes,
    _names_touched,
    _unified_diff,
)
from daemon.symbols import Definition, DefKind, FileSummary

CSV_V1 = """\
import csv


def parse_row(row):
    fields = row.split(",")
    return fields


def write_row(row):
    return ",".join(row)


class Reader:
    def open(self):
        pass

    def close(self):
        pass
"""


def definition(name: str, start: int, end: int, *, parent: str = "") -> Definition:
    qualname = f"{parent}.{name}" if parent else name
    kind = DefKind.METHOD if parent else DefKind.FUNCTION
    return Definition(
        name=name,
        kind=kind,
        qualname=qualname,
        signature=f"def {name}():",
        params="()",
        return_type="",
        doc="",
        start_line=start,
        end_line=end,
        body_start_line=start + 1,
        parent=parent,
    )


def summary(path: str, *defs: Definition) -> FileSummary:
    return FileSummary(path=path, language="python", num_lines=20, num_bytes=0, definitions=defs)


# line numbers of CSV_V1 (0-based): parse_row 3-5, write_row 8-9, Reader 12-17, open 13-14,
# close 16-17
CSV_SUMMARY = summary(
    "io/csv.py",
    definition("parse_row", 3, 5),
    definition("write_row", 8, 9),
    Definition("Reader", DefKind.CLASS, "Reader", "class Reader:", "", "", "", 12, 17, 13),
    definition("open", 13, 14, parent="Reader"),
    definition("close", 16, 17, parent="Reader"),
)


def replace_line(text: str, index: int, new: str | list[str]) -> str:
    lines = text.split("\n")
    lines[index : index + 1] = [new] if isinstance(new, str) else new
    return "\n".join(lines)


def test_summary_line_names_the_enclosing_definition() -> None:
    history = EditHistory()
    v2 = replace_line(
        CSV_V1,
        4,
        ['    fields = row.split(";")', "    fields = [f.strip() for f in fields]", "    # done"],
    )
    record = history.record_edit(
        "io/csv.py", CSV_V1, v2, source="disk", summary=CSV_SUMMARY, when=10.0
    )
    assert record is not None
    assert record.kind is EditKind.MODIFIED
    assert record.names == ("parse_row",)
    assert history.summary_lines(limit=5) == ["edited `parse_row` in io/csv.py: +3 -1"]
    [hunk] = history.latest_hunks(5)
    assert hunk.startswith("--- a/io/csv.py\n+++ b/io/csv.py\n@@ ")
    assert '-    fields = row.split(",")\n' in hunk
    assert '+    fields = row.split(";")\n' in hunk


def test_several_definitions_and_methods_use_qualnames() -> None:
    history = EditHistory()
    v2 = CSV_V1.replace(
        "    def open(self):\n        pass", "    def open(self):\n        return 1"
    )
    v2 = v2.replace("    def close(self):\n        pass", "    def close(self):\n        return 2")
    history.record_edit("io/csv.py", CSV_V1, v2, source="disk", summary=CSV_SUMMARY, when=1.0)
    assert history.summary_lines(limit=5) == [
        "edited `Reader.open`, `Reader.close` in io/csv.py: +2 -2"
    ]


def test_many_names_are_capped() -> None:
    defs = [definition(f"f{i}", i * 3, i * 3 + 1) for i in range(6)]
    old = "".join(f"def f{i}():\n    return {i}\n\n" for i in range(6))
    new = old.replace("return", "return -")
    history = EditHistory(HistoryLimits(max_names=3))
    history.record_edit("m.py", old, new, source="disk", summary=summary("m.py", *defs), when=1.0)
    assert history.summary_lines(limit=1) == ["edited `f0`, `f1`, `f2` and 3 more in m.py: +6 -6"]


def test_no_definition_created_deleted_renamed() -> None:
    history = EditHistory()
    history.record_edit(
        "io/csv.py", CSV_V1, "# header\n" + CSV_V1, source="disk", summary=CSV_SUMMARY, when=1.0
    )
    history.record_edit("io/json.py", None, "a\nb\nc\n", source="disk", summary=None, when=2.0)
    history.record_edit("io/old.py", "x\ny\n", None, source="disk", summary=None, when=3.0)
    history.record_file_event(
        EditKind.RENAMED, "io/new.py", old_path="io/old2.py", source="disk", when=4.0
    )
    history.record_file_event(EditKind.DELETED, "gone.py", source="disk", when=5.0)
    assert history.summary_lines(limit=10) == [
        "deleted gone.py",
        "renamed io/old2.py to io/new.py",
        "deleted io/old.py: -2",
        "created io/json.py: +3",
        "edited io/csv.py: +1 -0",
    ]
    assert history.summary_lines(limit=2) == ["deleted gone.py", "renamed io/old2.py to io/new.py"]
    hunks = history.latest_hunks(10)
    assert len(hunks) == 2  # deletions and renames have none
    assert hunks[0].startswith("--- /dev/null\n+++ b/io/json.py\n")


def test_typing_merges_into_one_record() -> None:
    history = EditHistory()
    text = CSV_V1
    typed = "    fields = [f.strip() for f in fields]"
    base_line = 5  # insert a new line inside parse_row, before "return fields"
    text = replace_line(text, base_line, ["", "    return fields"])
    history.record_edit("io/csv.py", CSV_V1, text, source="editor", summary=CSV_SUMMARY, when=1.0)
    for i in range(1, len(typed) + 1):
        new = replace_line(text, base_line, typed[:i])
        history.record_edit(
            "io/csv.py", text, new, source="editor", summary=CSV_SUMMARY, when=1.0 + i / 10
        )
        text = new
    assert len(history) == 1
    [record] = history.entries()
    assert record.summary == "edited `parse_row` in io/csv.py: +1 -0"
    assert (record.first_when, record.when) == (1.0, 1.0 + len(typed) / 10)
    assert f"+{typed}\n" in record.hunk


def test_typing_elsewhere_starts_a_new_record_and_old_lines_never_change() -> None:
    history = EditHistory()
    v2 = replace_line(CSV_V1, 4, '    fields = row.split(";")')
    history.record_edit("io/csv.py", CSV_V1, v2, source="editor", summary=CSV_SUMMARY, when=1.0)
    first = history.summary_lines(limit=5)
    text = v2
    for i in range(len("return 1")):
        new = replace_line(text, 14, "        " + "return 1"[: i + 1])
        history.record_edit(
            "io/csv.py", text, new, source="editor", summary=CSV_SUMMARY, when=5.0 + i
        )
        text = new
        lines = history.summary_lines(limit=5)
        assert lines[1:] == first  # the older record's line is stable while typing elsewhere
        # with the cursor window excluded, the prompt's history text does not change at all
        assert history.summary_lines(limit=5, exclude=("io/csv.py", 10, 20)) == first
    assert history.summary_lines(limit=5) == ["edited `Reader.open` in io/csv.py: +1 -1", *first]


def test_undoing_the_newest_edit_removes_it() -> None:
    history = EditHistory()
    v2 = replace_line(CSV_V1, 9, "    return ';'.join(row)")
    history.record_edit("io/csv.py", CSV_V1, v2, source="editor", summary=CSV_SUMMARY, when=1.0)
    assert len(history) == 1
    assert (
        history.record_edit("io/csv.py", v2, CSV_V1, source="editor", summary=CSV_SUMMARY, when=2.0)
        is None
    )
    assert len(history) == 0


def test_a_saved_editor_state_is_not_recorded_twice() -> None:
    history = EditHistory()
    v2 = replace_line(CSV_V1, 9, "    return ';'.join(row)")
    history.record_edit("io/csv.py", CSV_V1, v2, source="editor", summary=CSV_SUMMARY, when=1.0)
    other = history.record_edit("b.py", "a\n", "b\n", source="editor", summary=None, when=2.0)
    assert other is not None
    # the user saves io/csv.py: the watcher reports the same change from the disk
    assert (
        history.record_edit("io/csv.py", CSV_V1, v2, source="disk", summary=CSV_SUMMARY, when=3.0)
        is None
    )
    assert history.summary_lines(limit=5) == [
        "edited b.py: +1 -1",
        "edited `write_row` in io/csv.py: +1 -1",
    ]
    assert (
        history.record_edit("x.py", "same", "same", source="disk", summary=None, when=4.0) is None
    )


def test_exclude_leaves_out_edits_inside_the_cursor_window() -> None:
    history = EditHistory()
    v2 = replace_line(CSV_V1, 4, '    fields = row.split(";")')
    history.record_edit("io/csv.py", CSV_V1, v2, source="editor", summary=CSV_SUMMARY, when=1.0)
    history.record_edit("b.py", "a\n", "b\n", source="editor", summary=None, when=400.0)
    assert history.summary_lines(limit=5, exclude=("io/csv.py", 0, 10)) == ["edited b.py: +1 -1"]
    assert history.summary_lines(limit=5, exclude=("io/csv.py", 10, 20)) == [
        "edited b.py: +1 -1",
        "edited `parse_row` in io/csv.py: +1 -1",
    ]
    assert history.latest_hunks(5, exclude=("b.py", 0, 0)) == [history.entries()[1].hunk]


def test_edits_far_apart_in_time_do_not_merge() -> None:
    history = EditHistory(HistoryLimits(merge_window_s=60))
    v2 = replace_line(CSV_V1, 4, "    a = 1")
    v3 = replace_line(v2, 4, "    a = 2")
    history.record_edit("io/csv.py", CSV_V1, v2, source="editor", summary=CSV_SUMMARY, when=0.0)
    history.record_edit("io/csv.py", v2, v3, source="editor", summary=CSV_SUMMARY, when=61.0)
    assert len(history) == 2


def test_hunks_are_trimmed_at_line_boundaries() -> None:
    history = EditHistory(HistoryLimits(max_hunk_bytes=200))
    new = "".join(f"line {i} of a long new file\n" for i in range(100))
    record = history.record_edit("big.py", None, new, source="disk", summary=None, when=1.0)
    assert record is not None
    assert len(record.hunk.encode()) <= 200
    assert record.hunk.endswith("more lines)\n")
    assert record.summary == "created big.py: +100"


def test_a_block_rewritten_whole_keeps_its_new_lines_when_trimmed() -> None:
    history = EditHistory(HistoryLimits(max_hunk_bytes=400))
    old = "".join(f"    old_value_{i} = compute_the_old_way({i})\n" for i in range(12))
    new = "".join(f"    new_value_{i} = fetch({i})\n" for i in range(6))
    record = history.record_edit(
        "m.py", "def f():\n" + old, "def f():\n" + new, source="editor", summary=None, when=1.0
    )
    assert record is not None and len(record.hunk.encode()) <= 400
    assert "+    new_value_5 = fetch(5)" in record.hunk  # all the new text is kept
    assert "... (12 removed lines)" in record.hunk
    assert "old_value" not in record.hunk
    # a diff that fits is shown whole, its removed lines too
    small = history.record_edit("s.py", "a = 1\n", "a = 2\n", source="editor", summary=None,
                                when=2.0)
    assert small is not None and "-a = 1" in small.hunk and "+a = 2" in small.hunk


def test_unified_diff_matches_difflib() -> None:
    old = [f"line {i}" for i in range(40)]
    new = list(old)
    new[3] = "changed"
    new.insert(20, "inserted")
    del new[30]
    ops = list(difflib.SequenceMatcher(None, old, new).get_opcodes())
    mine = _unified_diff("p.py", old, new, ops, created=False, context=2, max_bytes=10**6)
    expected = (
        "\n".join(difflib.unified_diff(old, new, "a/p.py", "b/p.py", n=2, lineterm="")) + "\n"
    )
    assert mine == expected


def test_diff_opcodes_rebuild_the_new_text() -> None:
    old = ["a", "b", "c", "d", "e", "b"]
    new = ["a", "x", "c", "e", "b", "y"]
    rebuilt: list[str] = []
    for tag, i1, i2, j1, j2 in _diff_opcodes(old, new):
        if tag == "equal":
            assert old[i1:i2] == new[j1:j2]
        rebuilt.extend(new[j1:j2])
    assert rebuilt == new


def test_concurrent_writers_and_readers() -> None:
    history = EditHistory(HistoryLimits(max_entries=8))
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for i in range(200):
                history.record_edit(
                    f"f{n}.py",
                    f"{i}\n",
                    f"{i + 1}\n",
                    source="disk",
                    summary=None,
                    when=float(i * 1000),
                )
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    def reader() -> None:
        try:
            for _ in range(200):
                assert len(history.summary_lines(limit=8)) <= 8
                history.latest_hunks(3)
        except BaseException as exc:  # pragma: no cover
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(3)]
    threads += [threading.Thread(target=reader) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(history) <= 8


# -- properties ----------------------------------------------------------------------------

_texts = st.lists(
    st.sampled_from(["a", "b", "c", "def f():", "    return 1", ""]), max_size=12
).map(lambda lines: "\n".join(lines))
_edits = st.lists(
    st.tuples(
        st.sampled_from(["a.py", "b.py", "c/d.py"]),
        st.one_of(st.none(), _texts),
        st.one_of(st.none(), _texts),
        st.sampled_from(["disk", "editor"]),
        st.floats(min_value=0, max_value=1000, allow_nan=False),
    ),
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(
    edits=_edits,
    max_entries=st.integers(min_value=1, max_value=10),
    max_hunk_bytes=st.integers(min_value=0, max_value=300),
    limit=st.integers(min_value=0, max_value=12),
)
def test_history_stays_bounded_and_deterministic(
    edits: list[tuple[str, str | None, str | None, str, float]],
    max_entries: int,
    max_hunk_bytes: int,
    limit: int,
) -> None:
    limits = HistoryLimits(max_entries=max_entries, max_hunk_bytes=max_hunk_bytes)

    def replay() -> EditHistory:
        history = EditHistory(limits)
        for path, old, new, source, when in edits:
            history.record_edit(path, old, new, source=source, summary=None, when=when)
            assert len(history) <= max_entries
        return history

    history = replay()
    lines = history.summary_lines(limit=limit)
    hunks = history.latest_hunks(limit)
    assert len(lines) <= limit and len(hunks) <= limit
    assert all(len(h.encode()) <= max_hunk_bytes for h in hunks)
    assert all(len(r.hunk.encode()) <= max_hunk_bytes for r in history.entries())
    assert all("\n" not in line for line in lines)
    again = replay()
    assert again.summary_lines(limit=limit) == lines
    assert again.latest_hunks(limit) == hunks


def test_a_deleted_file_takes_its_earlier_records_and_hunks_with_it() -> None:
    """After a file was deleted, the prompt's hunk slots showed the code that created it and
    pushed out the hunk of a live edit elsewhere."""
    history = EditHistory()
    history.record_edit("pkg/new.py", None, "def f():\n    pass\n", source="disk",
                        summary=None, when=1.0)
    history.record_edit("io/csv.py", CSV_V1, "# header\n" + CSV_V1, source="disk",
                        summary=CSV_SUMMARY, when=2.0)
    history.record_edit("pkg/new.py", "def f():\n    pass\n", "def f():\n    return 1\n",
                        source="disk", summary=None, when=3.0)
    history.record_file_event(EditKind.DELETED, "pkg/new.py", source="disk", when=4.0)
    assert history.summary_lines(limit=10) == ["deleted pkg/new.py", "edited io/csv.py: +1 -0"]
    hunks = history.latest_hunks(2)
    assert len(hunks) == 1 and "io/csv.py" in hunks[0]


def test_forget_drops_what_one_source_reported_for_a_path() -> None:
    """A buffer closed unsaved: the editor's edits to it never reached the disk."""
    history = EditHistory()
    history.record_edit("io/csv.py", CSV_V1, "# saved\n" + CSV_V1, source="disk",
                        summary=CSV_SUMMARY, when=1.0)
    history.record_edit("io/json.py", "a\n", "a\nb\n", source="editor", summary=None, when=2.0)
    history.record_edit("io/csv.py", "# saved\n" + CSV_V1, "# saved\n" + CSV_V1 + "x = 1\n",
                        source="editor", summary=CSV_SUMMARY, when=30.0)
    assert history.forget("io/csv.py", source="editor") == 1
    assert history.summary_lines(limit=10) == ["edited io/json.py: +1 -0",
                                               "edited io/csv.py: +1 -0"]
    assert [r.source for r in history.entries()] == ["editor", "disk"]
    assert history.forget("io/csv.py") == 1 and len(history) == 1


def _names_touched_pairwise(
    changed: list[tuple[str, int, int, int, int]], summary: FileSummary
) -> tuple[str, ...]:
    """The definition of the innermost touched definitions, compared pair by pair."""
    spans = [(j1, j2 - 1) if j2 > j1 else (max(j1 - 1, 0),) * 2 for _, _, _, j1, j2 in changed]
    hit = [
        d for d in summary.definitions
        if any(d.start_line <= hi and d.end_line >= lo for lo, hi in spans)
    ]
    leaves = [
        d for d in hit
        if not any(
            o is not d and d.start_line <= o.start_line and o.end_line <= d.end_line
            and (o.start_line, o.end_line) != (d.start_line, d.end_line)
            for o in hit
        )
    ]
    leaves.sort(key=lambda d: (d.start_line, d.end_line, d.qualname))
    return tuple(dict.fromkeys(d.qualname for d in leaves))


_SPAN = st.tuples(st.integers(0, 40), st.integers(0, 12))


@given(
    st.lists(_SPAN, max_size=14),  # definitions: start line, length (nested, overlapping)
    st.lists(st.tuples(st.integers(0, 50), st.integers(0, 6)), max_size=6),  # changes
)
@settings(max_examples=300, deadline=None)
def test_names_touched_equal_the_pairwise_definition(
    defs: list[tuple[int, int]], changes: list[tuple[int, int]]
) -> None:
    """The touched definitions are found in n log n now (a 12,000-function file reformatted
    took 56 s, pair by pair, in the history's lock): the same names as pair by pair."""
    definitions = tuple(
        Definition(
            name=f"d{i}", kind=DefKind.FUNCTION, qualname=f"d{i}", signature="", params="",
            return_type="", doc="", start_line=start, end_line=start + length,
            body_start_line=start,
        )
        for i, (start, length) in enumerate(defs)
    )
    summary = FileSummary(path="m.py", language="python", num_lines=60, num_bytes=0,
                          definitions=definitions)
    changed = [("replace", 0, 0, j1, j1 + n) for j1, n in sorted(changes)]
    assert _names_touched(changed, summary) == _names_touched_pairwise(changed, summary)
