"""The context assembler: budget rules, tiers, stability while typing, cross-file context."""

from __future__ import annotations

import itertools
import os
import time
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.config import ContextConfig
from app.errors import CursorError
from daemon.context import ContextRequest, Kind, Role, Tier, assemble_context
from daemon.context.assemble import file_block_share
from daemon.context.candidates import added_lines, without_removed
from daemon.context.retrieve import bound_names, related_definitions
from daemon.context.window import head_end, split_at_cursor, suffix_cap, suffix_lines
from daemon.history import EditHistory
from daemon.languages import LANGUAGES
from daemon.parse import summarize
from daemon.tokens import CharEstimator
from tests.daemon.summaries import cursor, index_of, related_in, related_segments

CSV = '''"""CSV helpers."""


class Row:
    """One parsed row."""

    def __init__(self, fields: list[str]) -> None:
        self.fields = fields


def parse_row(line: str, sep: str = ",") -> Row:
    """Split one line into a Row."""
    return Row(line.split(sep))
'''


def _long_module(n_funcs: int = 60) -> str:
    head = "import os\nimport sys\nfrom io.csv import parse_row, Row\n\nCONSTANT = 3\n\n"
    body = "".join(
        f"def func_{i}(arg_{i}: int, other: str = 'x') -> int:\n"
        f'    """Function number {i}."""\n'
        f"    value = arg_{i} * {i}\n"
        f"    if value > CONSTANT:\n"
        f"        value -= 1\n"
        f"    return value\n\n\n"
        for i in range(n_funcs)
    )
    return head + body


def test_cursor_outside_the_document_is_a_clear_error() -> None:
    with pytest.raises(CursorError, match="line 9"):
        assemble_context(ContextRequest(path="a.py", text="x = 1\n", line=8, column=0))
    with pytest.raises(CursorError, match="column"):
        assemble_context(ContextRequest(path="a.py", text="x = 1\n", line=0, column=40))


def test_long_file_is_head_plus_summary_plus_cursor_never_tail_only() -> None:
    text = _long_module()
    line = text.splitlines().index("def func_40(arg_40: int, other: str = 'x') -> int:") + 3
    ctx = assemble_context(
        ContextRequest(path="m.py", text=text, line=line, column=4, budget_tokens=1024),
        config=ContextConfig(layout="cursor"),
    )
    kinds = [s.kind for s in ctx.segments]
    assert ctx.num_tokens <= 1024
    assert Kind.FILE_HEAD in kinds  # imports survive: a cut header is the classic failure
    assert "from io.csv import parse_row, Row" in ctx.to_prompt_parts().prefix
    assert Kind.FILE_TAIL in kinds  # definitions below the cursor, summarised
    prefix = ctx.to_prompt_parts().prefix
    assert prefix.index("import os") < prefix.index("def func_40(") < prefix.index("value = arg_40")
    assert ctx.dropped and ctx.num_tokens_saved > 0
    assert {d.tier for d in ctx.dropped} <= {Tier.P1, Tier.P2}


def test_stable_layout_long_file_is_head_and_outline_then_enclosing_and_window() -> None:
    text = _long_module()
    line = text.splitlines().index("def func_40(arg_40: int, other: str = 'x') -> int:") + 3
    ctx = assemble_context(
        ContextRequest(path="m.py", text=text, line=line, column=4, budget_tokens=1024)
    )
    assert ctx.num_tokens <= 1024
    prefix_segments = [s for s in ctx.segments if s.role is Role.PREFIX]
    block = prefix_segments[0]
    assert block.kind is Kind.FILE_SUMMARY and block.source == "m.py:outline"
    assert block.num_tokens <= int(1024 * ContextConfig().file_block_share)
    assert block.text.startswith("import os\nimport sys\nfrom io.csv import parse_row, Row\n")
    assert "def func_0(arg_0: int" in block.text and block.text.endswith("# …\n")
    assert "value = arg_0" not in block.text  # bodies elided
    prefix = ctx.to_prompt_parts().prefix
    assert prefix.index("import os") < prefix.index("value = arg_40")
    assert prefix_segments[-1].kind is Kind.CURSOR_WINDOW


def test_stable_layout_block_is_the_same_for_every_cursor_position() -> None:
    index = index_of({"io/csv.py": CSV})
    text = _long_module()
    prompts = []
    for line in (20, 100, 150, 233, 300):
        ctx = assemble_context(
            ContextRequest(path="m.py", text=text, line=line, column=0, budget_tokens=512),
            index=index,
        )
        assert ctx.num_tokens <= 512
        prompts.append(ctx.to_prompt_parts())
    block = next(s.text for s in ctx.segments if s.kind is Kind.FILE_SUMMARY)
    top, *far = prompts  # line 20: the window shows the file from line 1, nothing to repeat
    assert top.prefix.startswith("# io/csv.py\n") and "import os" in top.prefix
    assert top.prefix.count("def func_0(") == 1
    for parts in far:  # the prompt starts with the same block wherever the cursor is
        assert parts.prefix.startswith(block) and parts.snippets == ()
    cursor = assemble_context(
        ContextRequest(path="m.py", text=text, line=150, column=0, budget_tokens=512),
        index=index,
        config=ContextConfig(layout="cursor"),
    )
    cursor_block = cursor.to_prompt_parts().prefix
    other = (
        assemble_context(
            ContextRequest(path="m.py", text=text, line=233, column=0, budget_tokens=512),
            index=index,
            config=ContextConfig(layout="cursor"),
        )
        .to_prompt_parts()
        .prefix
    )
    shared = len(os.path.commonprefix([cursor_block, other]))  # noqa: RUF071 (text)
    assert shared < len(block)  # what the stable layout is for: "cursor" diverges earlier


def test_enclosing_signature_is_kept_when_the_function_starts_above_the_window() -> None:
    body = "".join(f"    step_{i} = compute({i})\n" for i in range(120))
    text = "def long_function(alpha: int, beta: str) -> dict:\n" + body + "    return {}\n"
    ctx = assemble_context(
        ContextRequest(path="f.py", text=text, line=110, column=4, budget_tokens=600)
    )
    enclosing = [s for s in ctx.segments if s.kind is Kind.ENCLOSING and s.tier is Tier.P0]
    assert enclosing and "def long_function(alpha: int, beta: str) -> dict:" in enclosing[0].text
    assert ctx.num_tokens <= 600


@pytest.mark.parametrize("typed", ["", "return sta"])
def test_the_next_statement_at_the_end_of_a_body_keeps_its_function_signature(typed: str) -> None:
    """The stable parse leaves the cursor line out, so at the end of a Python body the function
    ends above the cursor: it still encloses a cursor indented deeper than its ``def``."""
    body = "".join(f"        step_{i} = compute({i})\n" for i in range(60))
    text, line, col = cursor(
        "class Runner:\n    def long_method(self, alpha: int) -> dict:\n" + body
        + f"        {typed}<|>\n\n    def other(self):\n        pass\n"
    )
    ctx = assemble_context(
        ContextRequest(path="f.py", text=text, line=line, column=col, budget_tokens=256)
    )
    headers = "".join(s.text for s in ctx.segments if s.kind is Kind.ENCLOSING)
    assert "class Runner:" in headers
    assert "def long_method(self, alpha: int) -> dict:" in headers
    assert ctx.num_tokens <= 256
    # a line at the class's indentation after the body (a new method) is not inside it
    after, line2, col2 = cursor(text.split("\n\n    def other")[0] + "\n\n    <|>\n")
    other = assemble_context(
        ContextRequest(path="f.py", text=after, line=line2, column=col2, budget_tokens=256)
    )
    headers = "".join(s.text for s in other.segments if s.kind is Kind.ENCLOSING)
    assert "class Runner:" in headers and "long_method" not in headers


def test_a_widened_window_that_covers_the_function_gets_the_tokens_its_parts_took() -> None:
    """At the end of a short method the first pass shows its ``def`` and body apart (above a
    small window); the widened window covers them, and gets what they took, not a window
    cut short by tokens no longer spent."""
    methods = "".join(
        f"    def handler_{i}(self, event):\n        if not self.menu_{i}:\n"
        f"            self.make_menu_{i}()\n        menu = self.menu_{i}\n"
        '        self.listbox.activate("@%d,%d" % (event.x, event.y))\n'
        '        index = self.listbox.index("active")\n        self.select(index)\n'
        '        menu.tk_popup(event.x_root, event.y_root)\n        return "break"\n\n'
        for i in range(6)
    )
    text = "from tkinter import *\n\n\nclass Scrolled:\n\n    default = None\n\n" + methods
    line = 45  # handler_3's `return "break"`, typed up to `return`
    lines = text.split("\n")
    assert lines[line] == '        return "break"'
    assert lines[37] == "    def handler_3(self, event):"
    lines[line] = "        return"
    ctx = assemble_context(
        ContextRequest(path="m.py", text="\n".join(lines), line=line, column=14, budget_tokens=256),
        config=ContextConfig(fast_file_block_share=0.2),  # the block these figures were taken with
    )
    window = next(s for s in ctx.segments if s.kind is Kind.CURSOR_WINDOW)
    assert "def handler_3(self, event):" in window.text  # covered by the window...
    assert not any("handler_3" in s.text for s in ctx.segments if s.kind is Kind.ENCLOSING)
    assert ctx.num_tokens >= 248  # ... which took their tokens: 236 of 256 without the third pass


@pytest.mark.parametrize("layout", ["stable", "cursor"])
def test_definitions_used_at_the_cursor_come_from_other_files_through_imports(
    layout: str,
) -> None:
    index = index_of({"io/csv.py": CSV, "other/thing.py": "def unrelated():\n    pass\n"})
    text, line, col = cursor(
        "from io.csv import parse_row\n\n\ndef load(lines):\n"
        "    rows = [parse_row(x) for x in lines]\n    first = rows[0]\n    <|>\n"
    )
    ctx = assemble_context(
        ContextRequest(path="main.py", text=text, line=line, column=col, budget_tokens=1024),
        index=index,
        config=ContextConfig(layout=layout),
    )
    related = [s for s in ctx.segments if s.kind is Kind.RELATED]
    assert related, ctx.segments
    assert related[0].source.startswith("io/csv.py:")
    parts = ctx.to_prompt_parts()
    if layout == "cursor":
        assert 'def parse_row(line: str, sep: str = ",") -> Row:' in related[0].text
        assert all(s.role is Role.SNIPPET for s in related)
        assert parts.snippets[0].path == "io/csv.py"
    else:  # comments in the prefix, after the file block and before the enclosing function
        assert related[0].text.startswith("# io/csv.py\n")
        assert '# def parse_row(line: str, sep: str = ",") -> Row:' in related[0].text
        assert all(s.role is Role.PREFIX for s in related) and parts.snippets == ()
        assert parts.prefix.index("# io/csv.py") < parts.prefix.rindex("def load(lines):")
    assert "unrelated" not in "".join(s.text for s in ctx.segments)


def test_stable_layout_puts_the_class_header_before_the_snippets_of_a_move() -> None:
    # the related-definition comments are chosen from the window: a move to another method of
    # the same class changes them, and everything after them is prefilled again; the class
    # header before them stays in the KV cache
    index = index_of({"io/csv.py": CSV, "io/log.py": "def note(msg: str) -> None:\n    pass\n"})
    methods = "".join(
        f"    def step_{i}(self, line):\n" + "".join(
            f"        part_{j} = line[{j}]\n" for j in range(12)) + "\n"
        for i in range(6)
    )
    text = (
        "from io.csv import parse_row\nfrom io.log import note\n\n\n"
        "class Loader:\n    \"\"\"Loads rows.\"\"\"\n\n    limit = 10\n\n" + methods
    )
    lines = text.split("\n")
    prompts = []
    for method, call in ((1, "        row = parse_row(line)"), (4, "        note(line)")):
        line = lines.index(f"    def step_{method}(self, line):") + 6
        body = [*lines[:line], call, "        ", *lines[line:]]  # the cursor below the call
        ctx = assemble_context(
            ContextRequest(path="load.py", text="\n".join(body), line=line + 1, column=8,
                           budget_tokens=256),
            index=index, config=ContextConfig(layout="stable"),
        )
        kinds = [s.kind for s in ctx.segments if s.role is Role.PREFIX]
        outer = next(s for s in ctx.segments if s.kind is Kind.ENCLOSING)
        assert outer.text.startswith("class Loader:")
        assert kinds.index(Kind.ENCLOSING) < kinds.index(Kind.RELATED), kinds
        prompts.append((ctx.to_prompt_parts().prefix, outer.text))
    (first, class_text), (second, _) = prompts
    assert first != second and "# io/csv.py" in first and "# io/log.py" in second
    shared = len(os.path.commonprefix([first, second]))  # noqa: RUF071 (text)
    assert shared >= first.index(class_text) + len(class_text)  # the move keeps the header


@pytest.mark.parametrize("layout", ["stable", "cursor"])
def test_typing_on_the_cursor_line_keeps_everything_before_it_identical(layout: str) -> None:
    index = index_of({"io/csv.py": CSV})
    base = _long_module()
    lines = base.splitlines(keepends=True)
    line = 200
    typed = "result = parse_row("
    previous = None
    for n in range(len(typed) + 1):
        text = "".join(lines[:line]) + "    " + typed[:n] + "\n" + "".join(lines[line:])
        ctx = assemble_context(
            ContextRequest(path="m.py", text=text, line=line, column=4 + n, budget_tokens=1500),
            index=index,
            config=ContextConfig(layout=layout),
        )
        stable = [
            (s.kind, s.source, s.text)
            for s in ctx.segments
            if s.kind not in (Kind.CURSOR_WINDOW, Kind.SUFFIX)
        ]
        window = next(s for s in ctx.segments if s.kind is Kind.CURSOR_WINDOW)
        if previous is not None:
            assert stable == previous[0]  # same snippets, head, summary, enclosing code
            assert window.text.startswith(previous[1].rstrip(typed[: n - 1]))
        previous = (stable, window.text)


def _csv_edit_history() -> EditHistory:
    """An edit history of one editor change: io/csv.py's separator."""
    history = EditHistory()
    history.record_edit(
        "io/csv.py",
        CSV,
        CSV.replace('sep: str = ","', 'sep: str = ";"'),
        source="editor",
        summary=summarize("io/csv.py", CSV),
        when=time.time(),
    )
    return history


def test_edit_history_summary_is_included_and_edits_in_the_window_left_out() -> None:
    history = _csv_edit_history()
    text = _long_module(5)
    ctx = assemble_context(
        ContextRequest(path="m.py", text=text, line=10, column=4, budget_tokens=2048),
        history=history,
    )
    hist = [s for s in ctx.segments if s.kind is Kind.HISTORY]
    assert hist and "parse_row" in hist[0].text and "io/csv.py" in hist[0].text


def test_a_fast_tier_budget_gets_the_smaller_file_block() -> None:
    # under whole_file_min_budget (the CPU fast tier, 256) the file block takes at most
    # fast_file_block_share (0.1): the cursor window gets the room (docs/quality.md)
    text = _long_module(40)
    config = ContextConfig(layout="stable")
    blocks = {}
    for budget in (256, 896):
        ctx = assemble_context(
            ContextRequest(path="m.py", text=text, line=304, column=4, budget_tokens=budget),
            config=config,
        )
        blocks[budget] = sum(s.num_tokens for s in ctx.segments if s.source == "m.py:outline")
    assert 0 < blocks[256] <= int(256 * config.fast_file_block_share)
    assert int(256 * config.file_block_share) < blocks[896] <= int(896 * config.file_block_share)


def test_a_history_share_with_room_for_one_keeps_the_latest_hunk_over_the_summary() -> None:
    # the edit itself (its diff) predicts the next edit; the summary line only names it: at a
    # budget with room for one of them (166 here) the hunk is kept (history points at 256:
    # exact match 21.6% -> 22.5%, docs/quality.md)
    history = _csv_edit_history()
    ctx = assemble_context(
        ContextRequest(path="m.py", text=_long_module(5), line=10, column=4, budget_tokens=166),
        history=history,
    )
    kept = [s for s in ctx.segments if s.kind is Kind.HISTORY]
    assert [s.source for s in kept] == ["edit hunk 1"]
    assert 'sep: str = ";"' in kept[0].text
    assert [d.source for d in ctx.dropped if d.kind is Kind.HISTORY] == ["edit history"]


def test_a_hunk_too_long_for_the_room_left_keeps_its_added_lines() -> None:
    # a long hunk that does not fit what is left comes as its file line and its first added
    # lines (HUNK_FALLBACK_SHARES; history points at 256: exact 23.4% -> 24.4%, docs/quality.md)
    def table(renamed: bool) -> str:
        name = "OPTION" if renamed else "FIELD"  # every other line renamed: one hunk
        return "".join(
            f"{name if i % 2 == 0 else 'FIELD'}_{i} = {i}  # the setting number {i} of the table\n"
            for i in range(60)
        )

    old = table(False)
    history = EditHistory()
    history.record_edit(
        "conf.py", old, table(True), source="editor",
        summary=summarize("conf.py", old), when=time.time(),
    )
    request = ContextRequest(
        path="m.py", text=_long_module(5), line=10, column=4, budget_tokens=256
    )
    ctx = assemble_context(request, history=history)
    hunk = next(s for s in ctx.segments if s.source == "edit hunk 1")
    body = [ln.lstrip("# ") for ln in hunk.text.splitlines()]
    assert body[0] == "+++ b/conf.py"
    assert body[1].startswith("+OPTION_0 = 0") and len(body) > 2
    assert all(ln.startswith("+OPTION_") for ln in body[1:])
    assert not any(ln.startswith(("-", " ", "@@", "---")) for ln in body)
    assert ctx.num_tokens <= 256
    whole = assemble_context(replace(request, budget_tokens=2048), history=history)
    full = next(s for s in whole.segments if s.source == "edit hunk 1")
    # in full: its file lines, context and added lines, not the removed ones (without_removed)
    assert "+OPTION_0 = 0" in full.text and "@@" in full.text and "--- a/conf.py" in full.text
    assert "-FIELD_0 = 0" not in full.text and " FIELD_1 = 1" in full.text


def test_a_hunk_is_shown_without_its_removed_lines() -> None:
    # the model copied a reverted line back from the diff (docs/quality.md); a removed SQL
    # comment (``-- note`` reads ``--- note``) goes too: only the first line is the file line
    hunk = "--- a/q.sql\n+++ b/q.sql\n@@ -1,3 +1,3 @@\n select 1;\n--- note\n-drop x;\n+drop y;\n"
    shown = without_removed(hunk)
    assert shown == "--- a/q.sql\n+++ b/q.sql\n@@ -1,3 +1,3 @@\n select 1;\n+drop y;\n"
    assert without_removed("") == ""


def test_a_hunks_added_lines_take_its_file_lines_by_place() -> None:
    # an added C line ``++ i;`` reads ``+++ i;``: an added line, not a file line
    hunk = "--- a/l.c\n+++ b/l.c\n@@ -1,2 +1,3 @@\n i = 0;\n+++ i;\n+j = i;\n"
    assert added_lines(hunk, 100, CharEstimator("c")) == "+++ b/l.c\n+++ i;\n+j = i;\n"
    assert added_lines("--- a/l.c\n+++ b/l.c\n@@ -1 +0,0 @@\n", 100, CharEstimator("c")) == ""


def test_a_hunk_that_adds_a_name_the_cursor_line_uses_is_p1() -> None:
    # the edit added the field another file's cursor line now uses (pflag's ``addedGoFlagSets``
    # added to FlagSet, then set in golangflag.go): the hunk is P1, before retrieval and the
    # summary; a hunk naming nothing there stays P2, and so does one adding a name the file
    # defines itself (history points at 256: exact match 26.9% -> 27.5%, docs/quality.md)
    old = "class Limits:\n    count = 1\n"
    history = EditHistory()
    history.record_edit(
        "limits.py", old, old + "    retry_budget = 3\n", source="editor",
        summary=summarize("limits.py", old), when=time.time(),
    )
    text = _long_module(5)
    uses = text.replace("    value = arg_2 * 2\n", "    value = limits.retry_budget\n")
    line = uses.splitlines().index("    value = limits.retry_budget")
    request = ContextRequest(path="m.py", text=uses, line=line, column=4, budget_tokens=2048)

    def hunk_tier(req: ContextRequest) -> Tier:
        ctx = assemble_context(req, history=history)
        return next(s.tier for s in ctx.segments if s.source == "edit hunk 1")

    assert hunk_tier(request) is Tier.P1
    assert hunk_tier(replace(request, text=text)) is Tier.P2  # the line names no retry_budget
    defined = uses + "\n\ndef retry_budget() -> int:\n    return 3\n"
    assert hunk_tier(replace(request, text=defined)) is Tier.P2


def test_similar_windows_from_recent_files() -> None:
    recent = [
        (
            "other.py",
            "def compute_total(items):\n    total = sum(i.price for i in items)\n"
            "    return total * tax_rate\n" + "\n" * 30 + "def unrelated():\n    pass\n",
        )
    ]
    text, line, col = cursor(
        "def f(items, tax_rate):\n    total = sum(i.price for i in items)\n    <|>\n"
    )
    ctx = assemble_context(
        ContextRequest(path="a.py", text=text, line=line, column=col, budget_tokens=1024),
        recent=recent,
    )
    retrieved = [s for s in ctx.segments if s.kind is Kind.RETRIEVED]
    assert retrieved and "tax_rate" in retrieved[0].text


def test_form_feed_and_crlf_do_not_shift_lines() -> None:
    text = "a = 1\r\n\x0cb = 2\r\nc = <|>3\r\n"
    text, line, col = cursor(text)
    ctx = assemble_context(ContextRequest(path="x.py", text=text, line=line, column=col))
    parts = ctx.to_prompt_parts()
    assert parts.prefix.endswith("c = ") and parts.suffix.startswith("3")


def test_per_request_record_adds_up() -> None:
    text = _long_module()
    ctx = assemble_context(
        ContextRequest(path="m.py", text=text, line=299, column=4, budget_tokens=700)
    )
    assert ctx.num_tokens == sum(s.num_tokens for s in ctx.segments)
    assert ctx.num_tokens_before_trim == ctx.num_tokens + sum(d.num_tokens for d in ctx.dropped)
    assert all(d.reason for d in ctx.dropped)


_lines = st.lists(
    st.one_of(
        st.text(alphabet="abcdefghij ()=:,.+-'\"\t#xyz_0123456789", max_size=120),
        st.sampled_from(
            [
                "def f(a, b):",
                "    return a",
                "class C:",
                "    def m(self):",
                "        pass",
                "import os",
                "",
                "x = [",
                "]",
                "\u00e9\u4e2d\U0001f600",
            ]
        ),
    ),
    min_size=1,
    max_size=300,
)


@settings(max_examples=150, deadline=None)
@given(
    lines=_lines,
    data=st.data(),
    budget=st.integers(min_value=64, max_value=3000),
    layout=st.sampled_from(["auto", "stable", "cursor"]),
)
def test_budget_is_never_exceeded_and_p0_is_never_dropped_while_it_fits(
    lines: list[str], data: st.DataObject, budget: int, layout: str
) -> None:
    text = "\n".join(lines)
    all_lines = text.split("\n")
    line = data.draw(st.integers(min_value=0, max_value=len(all_lines) - 1))
    column = data.draw(st.integers(min_value=0, max_value=len(all_lines[line])))
    index = index_of({"io/csv.py": CSV})
    ctx = assemble_context(
        ContextRequest(path="p.py", text=text, line=line, column=column, budget_tokens=budget),
        index=index,
        config=ContextConfig(budget_tokens=budget, layout=layout),
    )
    assert ctx.num_tokens <= budget
    assert ctx.num_tokens == sum(s.num_tokens for s in ctx.segments)
    counter = CharEstimator("python")
    for s in ctx.segments:  # charged at least what the text costs
        assert s.num_tokens >= counter.count(s.text)
    kept_p0 = sum(s.num_tokens for s in ctx.segments if s.tier <= Tier.P0)
    # the stable layout reserves its file block (up to file_block_share) ahead of the rest
    block = sum(s.num_tokens for s in ctx.segments if s.source == "p.py:outline")
    assert block <= budget * file_block_share(ContextConfig(), budget)
    for d in ctx.dropped:
        if d.tier is Tier.P0:  # dropped only because it could not fit
            assert kept_p0 + block + d.num_tokens > budget
    kinds = {s.kind for s in ctx.segments}
    if budget >= 256:
        assert Kind.CURSOR_WINDOW in kinds or all(not x.strip() for x in all_lines[:line])


@pytest.mark.slow
def test_real_tokenizer_prompt_stays_within_budget() -> None:
    from app.config import Config
    from engine.factory import load_tokenizer, profile_for
    from engine.models import resolve_model_path

    config = Config()
    tokenizer = load_tokenizer(config)
    assert tokenizer is not None
    profile = profile_for(config.engine, resolve_model_path(""))
    index = index_of({"io/csv.py": CSV})
    text = _long_module()
    for layout, budget, line in itertools.product(
        ("stable", "cursor"), (256, 700, 2048), (3, 150, 400)
    ):
        ctx = assemble_context(
            ContextRequest(path="m.py", text=text, line=line, column=0, budget_tokens=budget),
            index=index,
            counter=tokenizer,
            config=ContextConfig(layout=layout),
        )
        pieces = profile.render(ctx.to_prompt_parts())
        real = sum(1 if p.is_special else tokenizer.count(p.text) for p in pieces)
        assert real <= budget, (layout, budget, line, real)


def test_related_definitions_that_render_the_same_appear_once() -> None:
    """Two helpers of one name whose skeletons are equal (bodies differ) are one snippet."""
    helpers = (
        "def setup():\n    def by(s):\n        return s.encode()\n    return by\n\n\n"
        "def teardown():\n    def by(s):\n        return s.encode('latin-1')\n    return by\n"
    )
    index = index_of({"helpers.py": helpers})
    text = "from helpers import setup\n\n\ndef main(s):\n    value = by(s)\n    return value\n"
    summary = index.snapshot().files["helpers.py"]
    assert [d.name for d in summary.definitions].count("by") == 2
    related = related_definitions(index.snapshot(), summarize("main.py", text), text, text)
    assert [r.definition.name for r in related].count("by") == 1


def test_related_definitions_skip_names_bound_here_and_far_name_matches() -> None:
    index = index_of({
        "pkg/shapes.py": "def area(r):\n    return 3.14 * r * r\n",
        "pkg/util.py": "def scale(v, k):\n    return v * k\n",
        "other/ftp.py": "def size(name):\n    return 0\n\n\ndef total(xs):\n    return 0\n",
    })
    text = (
        "from pkg.shapes import area\n\n\n"
        "def peek(size=0):\n    total = scale(size, 2)\n    return area(total)\n"
    )
    related = related_definitions(
        index.snapshot(), summarize("pkg/main.py", text), text, text
    )
    names = {(r.path, r.definition.name) for r in related}
    assert ("pkg/shapes.py", "area") in names  # imported
    assert ("pkg/util.py", "scale") in names  # same folder: a likely helper
    assert not {n for p, n in names if p == "other/ftp.py"}  # a parameter, a local, far files


def test_related_definitions_skip_names_a_typed_declaration_binds() -> None:
    """``int total = …`` (Java, C, C++) binds ``total`` as ``total = …`` does: a function
    ``total`` of the same folder is not what the window means."""
    index = index_of({
        "src/stats.c": "/* Total. */\nint total(const int *v, int n) { return 0; }\n"
        "int scale(int v) { return v; }\n",
    })
    text = (
        "int main(void) {\n    int values[] = {1, 2};\n"
        "    const char *name = \"x\";\n    int total = scale(values[0]);\n"
        "    for (int count = 0; count < total; count++) {}\n}\n"
    )
    related = related_definitions(index.snapshot(), summarize("src/main.c", text), text, text)
    assert {r.definition.name for r in related} == {"scale"}


def test_export_and_annotation_macros_bring_no_definition() -> None:
    """``class LEVELDB_EXPORT Status``: leveldb's export.h ``#define LEVELDB_EXPORT
    __declspec(dllexport)`` came at the cursor (P0) into every prompt of a public header;
    an annotation macro's too. The class a name in the window names still comes."""
    index = index_of({
        "include/export.h": "#define LEVELDB_EXPORT __declspec(dllexport)\n",
        "include/annotations.h": "#define GUARDED_BY(x) __attribute__((guarded_by(x)))\n",
        "include/slice.h": "class LEVELDB_EXPORT Slice {\n public:\n  int size() const;\n};\n",
    })
    text = (
        '#include "export.h"\n#include "annotations.h"\n#include "slice.h"\n\n'
        "class LEVELDB_EXPORT Status {\n private:\n  Slice msg_ GUARDED_BY(mu_);\n"
    )
    related = related_definitions(
        index.snapshot(), summarize("include/status.h", text), text, text)
    assert {r.definition.name for r in related} == {"Slice"}


def test_another_files_private_members_are_not_related_definitions() -> None:
    """guzzle's Client: ``$config['cookies']`` brought CookieJar's ``private $cookies = [];``
    at the cursor (P0), a member no code outside CookieJar sees; its public method of the
    same name still comes. C++ keeps them: a .cc file's ``DBImpl::Get`` uses the header's
    private fields (the access is a label there, not in the signature)."""
    index = index_of({
        "src/Cookie/CookieJar.php": (
            "<?php\nnamespace GuzzleHttp\\Cookie;\n\nclass CookieJar\n{\n"
            "    private $cookies = [];\n    private function strict(): bool { return true; }\n"
            "    public function clear(): void {}\n}\n"),
        "src/Middleware.php": (
            "<?php\nnamespace GuzzleHttp;\n\nfinal class Middleware\n{\n"
            "    public static function cookies(): callable { return fn () => null; }\n}\n"),
    })
    text = (
        "<?php\nnamespace GuzzleHttp;\n\nuse GuzzleHttp\\Cookie\\CookieJar;\n\n"
        "class Client\n{\n    public function configure(array $config): void\n    {\n"
        "        $jar = new CookieJar();\n        $jar->strict();\n"
        "        if ($config['cookies'] === true) {\n            $jar->clear();\n"
    )
    related = related_definitions(index.snapshot(), summarize("src/Client.php", text), text, text)
    names = {r.definition.name for r in related}
    assert "cookies" in names and "CookieJar" in names and "clear" in names
    assert not [r for r in related if r.definition.name in ("cookies", "strict")
                and r.path == "src/Cookie/CookieJar.php" and r.definition.parent]


def test_a_partial_class_part_sees_the_private_members_of_its_other_parts() -> None:
    """C#: serilog's DepthLimiter.cs is a ``partial class PropertyValueConverter`` whose code
    may call the private methods PropertyValueConverter.cs declares; another class's stay
    out."""
    files = {
        "src/Converter.cs": (
            "namespace App;\n\npartial class Converter\n{\n"
            "    private int ClampDepth(int depth) { return depth; }\n}\n"),
        "src/Other.cs": (
            "namespace App;\n\nclass Other\n{\n"
            "    private int ClampLength(int length) { return length; }\n}\n"),
    }
    text = (
        "namespace App;\n\npartial class Converter\n{\n    class Limiter\n    {\n"
        "        int Limit(int depth)\n        {\n"
        "            var n = ClampDepth(depth) + ClampLength(depth);\n"
    )
    closing = "            return n;\n        }\n    }\n}\n"
    related = related_in(files, "src/Limiter.cs", text, closing)
    names = {r.definition.name for r in related}
    assert "ClampDepth" in names
    assert "ClampLength" not in names


def test_a_default_import_of_an_object_of_names_finds_its_members() -> None:
    """axios: ``import utils from './../utils.js'`` where utils.js ends ``export default
    {isString, …}``: ``utils.isString(path)`` found nothing (no definition is named utils);
    it is utils.js's ``isString``. A default export that is a definition is found as before."""
    files = {
        "lib/utils.js": (
            "const typeOfTest = type => thing => typeof thing === type;\n"
            "const isString = typeOfTest('string');\n"
            "function forEach(obj, fn) {\n  return obj.map(fn);\n}\n"
            "export default {\n  isString,\n  forEach\n};\n"),
        "lib/core/settle.js": (
            "export default function settle(resolve, reject, response) {\n"
            "  resolve(response);\n}\n"),
    }
    text = (
        "import utils from './../utils.js';\nimport settle from '../core/settle.js';\n\n"
        "export function write(name, path) {\n"
        "  utils.isString(path) && settle(name, path);\n"
    )
    related = related_in(files, "lib/helpers/cookies.js", text, "}\n")
    assert {(r.path, r.definition.name) for r in related} == {
        ("lib/utils.js", "isString"), ("lib/core/settle.js", "settle")}


def test_a_default_export_spreading_other_modules_re_exports_them() -> None:
    """axios's platform/index.js is ``export default {...utils, ...platform}`` of two imported
    modules: ``platform.hasStandardBrowserEnv`` is common/utils.js's; a spread of a local
    object is no import."""
    files = {
        "lib/platform/common/utils.js": (
            "const hasBrowserEnv = typeof window !== 'undefined';\n"
            "const hasStandardBrowserEnv = hasBrowserEnv && typeof document !== 'undefined';\n"
            "export {\n  hasBrowserEnv,\n  hasStandardBrowserEnv\n};\n"),
        "lib/platform/node/index.js": (
            "import URLSearchParams from './classes/URLSearchParams.js';\n\n"
            "export default {\n  isNode: true,\n  protocols: ['http', 'https']\n};\n"),
        "lib/platform/index.js": (
            "import platform from './node/index.js';\n"
            "import * as utils from './common/utils.js';\n\n"
            "const local = {x: 1};\n\n"
            "export default {\n  ...utils,\n  ...platform,\n  ...local\n}\n"),
    }
    platform = files["lib/platform/index.js"]
    summary = summarize("lib/platform/index.js", platform)
    assert [(i.module, i.names) for i in summary.imports if "*" in i.names] == [
        ("./common/utils.js", ("*",)), ("./node/index.js", ("*",))]
    assert head_end(summary, platform.splitlines(keepends=True)) == 2  # the imports only
    text = (
        "import platform from '../platform/index.js';\n\n"
        "export function read(name) {\n"
        "  return platform.hasStandardBrowserEnv && name;\n"
    )
    related = related_in(files, "lib/helpers/cookies.js", text, "}\n")
    assert {(r.path, r.definition.name) for r in related} == {
        ("lib/platform/common/utils.js", "hasStandardBrowserEnv")}


def test_a_type_annotation_is_not_a_name_the_window_binds() -> None:
    """``const line: Money = …`` (TypeScript) and ``total: Money = …`` (Python) bind ``line``
    and ``total``; the typed-declaration rule read ``line:`` as a type and ``Money`` as the
    variable, so the interface the window uses most was never looked up."""
    assert bound_names("    const line: Money = { cents: 0 };\n") == {"line"}
    assert bound_names("    total: Money = zero()\n") == {"total"}
    assert bound_names("    std::vector<int> xs = {};\n    a.b.Type t = x;\n") == {"xs", "t"}


@pytest.mark.parametrize(
    ("line", "bound"),
    [
        # several targets, a chain (rack's head.rb: ``body`` found rack's MockResponse#body,
        # and the model wrote ``class MockResponse`` at the cursor)
        ("    _, _, body = response = @app.call(env)\n", {"_", "body", "response"}),
        ("    head, *rest = parts\n", {"head", "rest"}),
        ("    value, err := strconv.Atoi(s)\n", {"value", "err"}),
        ("    for key, value in pairs.items():\n", {"key", "value"}),
        ("    for (const [key, value] of entries) {\n", {"key", "value"}),
        ("    const [first, second] = pair;\n", {"first", "second"}),
        # Ruby block parameters, exception names
        ("    env.each do |key, value|\n", {"key", "value"}),
        ("    xs.map { |item| item * 2 }\n", {"item"}),
        ("    def call(*args, &block)\n", {"args", "block"}),
        ("    rescue ArgumentError => error\n", {"error"}),
        # no binding: a hash pair, a match, a comparison
        ("    Parser => 1,\n", set()),
        ("    line =~ /x/\n", set()),
        ("    if total == limit\n", set()),
    ],
)
def test_the_names_a_window_binds(line: str, bound: set[str]) -> None:
    assert bound_names(line) == bound


def test_names_in_comments_are_no_uses() -> None:
    """rack's Head: its doc comment (``returns an empty body for all HEAD requests``) brought
    MockResponse#body and the HEAD constant into the prompt, and the model wrote ``class
    MockResponse`` at the cursor. A name in code counts, and one in a string
    (``getattr(env, "status")``; blanking strings too cost 1.5 points of stdlib compile-pass)."""
    index = index_of({
        "lib/mock.py": "def body(x):\n    return x\n\n\ndef head(y):\n    return y\n\n\n"
        "def status(z):\n    return z\n",
    })
    text = (
        "# Returns an empty body for all head requests.\n"
        "def call(env):  # and the body\n    log(getattr(env, 'status'))\n    return head(env)\n"
    )
    related = related_definitions(index.snapshot(), summarize("lib/app.py", text), text, text)
    assert {r.definition.name for r in related} == {"head", "status"}


def test_names_imported_through_a_barrel_or_require_find_their_definitions() -> None:
    """``import { Button } from "@/components"`` names src/components/index.ts, which only
    re-exports (``export * from "./button"``): nothing was found there. CommonJS
    ``const { slugify } = require("./text")`` was no import at all. A package's
    ``__init__.py`` that imports the name is followed the same way."""
    index = index_of({
        "src/components/index.ts": 'export * from "./button";\nexport { Card } from "./card";\n',
        "src/components/button.tsx": "/** A button. */\nexport function Button(p: Props) {}\n",
        "src/components/card.tsx": "export const Card = (p: CardProps) => null;\n",
        "lib/text.js": "function slugify(s) { return s; }\nmodule.exports = { slugify };\n",
        "pkg/__init__.py": "from .core import *\n",
        "pkg/core.py": "class Thing:\n    \"\"\"A thing.\"\"\"\n",
    })
    snapshot = index.snapshot()

    def related(path: str, text: str) -> set[tuple[str, str]]:
        found = related_definitions(snapshot, summarize(path, text), text, text)
        return {(r.path, r.definition.name) for r in found}

    page = 'import { Button, Card } from "@/components";\n\nButton({}); Card({});\n'
    assert related("src/pages/home.tsx", page) == {
        ("src/components/button.tsx", "Button"),
        ("src/components/card.tsx", "Card"),
    }
    script = 'const { slugify } = require("./text");\nconsole.log(slugify("A b"));\n'
    assert related("lib/main.js", script) == {("lib/text.js", "slugify")}
    assert related("main.py", "from pkg import Thing\n\nt = Thing()\n") == {
        ("pkg/core.py", "Thing")
    }


def test_a_go_import_names_its_package_folder_and_every_file_of_it() -> None:
    """``import "example.com/shop/internal/store"`` then ``store.Open(...)``: the module path
    ends with the folder internal/store, whose files are one package; the import resolved to
    nothing (only its last segment was tried, as a file), so no Go project got a related
    definition from another package."""
    index = index_of({
        "go.mod": "module example.com/shop\n",
        "internal/store/store.go": "package store\n\n// Open opens.\n"
        "func Open(dsn string) (*Store, error) { return nil, nil }\n",
        "internal/store/orders.go": "package store\n\n// Order is an order.\n"
        "type Order struct{ ID int64 }\n\nfunc Recent(n int) []Order { return nil }\n",
        "pkg/store/store.go": "package store\n\nfunc Open(path string) error { return nil }\n",
    })
    text = (
        'package main\n\nimport (\n\t"fmt"\n\n\t"example.com/shop/internal/store"\n)\n\n'
        'func main() {\n\ts, _ := store.Open("x")\n\tfmt.Println(s, store.Recent(3))\n}\n'
    )
    related = related_definitions(index.snapshot(), summarize("cmd/app/main.go", text), text, text)
    assert {(r.path, r.definition.name) for r in related} == {
        ("internal/store/store.go", "Open"),
        ("internal/store/orders.go", "Recent"),
        ("internal/store/orders.go", "Order"),  # what Recent returns
    }


def test_a_go_import_of_the_standard_library_is_no_file_of_the_project() -> None:
    """pflag's ``import goflag "flag"`` resolved to its own flag.go (a Go file's key is its
    stem), so ``goflag.Flag`` brought pflag's Flag struct into the prompt: a Go import names a
    package, a folder, never one file."""
    index = index_of({
        "flag.go": "package pflag\n\n// A Flag is one flag.\ntype Flag struct{ Name string }\n",
    })
    text = (
        'package pflag\n\nimport goflag "flag"\n\n'
        "func wrap(f *goflag.Flag) {\n\t_ = f\n}\n"
    )
    snapshot = index.snapshot()
    assert snapshot.resolve_module("flag", "golangflag.go") is None
    related = related_definitions(snapshot, summarize("golangflag.go", text), text, text)
    assert [r.definition.name for r in related] == []
    # nor is a Go file the module another language's import names (a Python ``import flag``)
    assert snapshot.resolve_module("flag", "tools/gen.py") is None


def test_the_classes_a_related_signature_names_come_after_the_window_names() -> None:
    """``s, err := store.Open(dsn)`` then ``s.``: what ``s`` offers is Store's methods, which
    the window never names; ``<PriceTag `` needs the props interface the component's
    parameter is typed with. The classes a related function's (or constant's) signature
    names come too, ranked after every name of the window, a Go type with the methods its
    package's other files declare."""
    index = index_of({
        "internal/store/store.go": "package store\n\n// Store keeps orders.\n"
        "type Store struct{ n int }\n\nfunc Open(dsn string) (*Store, error) { return nil, nil }\n",
        "internal/store/orders.go": "package store\n\n// Recent returns the last orders.\n"
        "func (s *Store) Recent(n int) []int { return nil }\n",
        "src/PriceTag.tsx": "export interface PriceTagProps {\n  price: number;\n}\n"
        "export const PriceTag = ({ price }: PriceTagProps) => null;\n",
    })
    go = 'package main\n\nimport "example.com/shop/internal/store"\n\nfunc main() {\n' \
        '\ts, _ := store.Open("x")\n'
    related = related_definitions(index.snapshot(), summarize("main.go", go), go, go)
    assert [r.definition.name for r in related] == ["Open", "Store"]
    assert "func (s *Store) Recent(n int) []int" in related[1].text
    tsx = 'import { PriceTag } from "./PriceTag";\n\nconst a = PriceTag;\n'
    related = related_definitions(index.snapshot(), summarize("src/App.tsx", tsx), tsx, tsx)
    assert [r.definition.name for r in related] == ["PriceTag", "PriceTagProps"]


def test_a_name_imported_under_another_name_finds_its_definition() -> None:
    """``from util import compute_total as total`` bound ``total``, and ``total`` was looked up
    in util.py: nothing (TS ``import { addMoney as plus }``, a renamed ``require`` too)."""
    index = index_of({
        "util.py": "def compute_total(prices):\n    return sum(prices)\n",
        "src/money.ts": "export function addMoney(a: number, b: number) { return a + b; }\n",
        "src/text.js": "function slugify(s) { return s; }\nmodule.exports = { slugify };\n",
    })
    snapshot = index.snapshot()

    def related(path: str, text: str) -> list[str]:
        found = related_definitions(snapshot, summarize(path, text), text, text)
        return [r.definition.name for r in found]

    assert related("main.py", "from util import compute_total as total\n\nx = total([1])\n") == [
        "compute_total"
    ]
    ts = 'import { addMoney as plus } from "./money";\n\nconst y = plus(1, 2);\n'
    assert related("src/cart.ts", ts) == ["addMoney"]
    js = 'const { slugify: slug } = require("./text");\n\nslug("A b");\n'
    assert related("src/main.js", js) == ["slugify"]


def test_related_definitions_skip_names_used_only_as_attributes_of_objects() -> None:
    """``self.tk.getint(...)`` found ``getint = int`` in the imported module (stdlib eval); a
    module's attribute (``shapes.area``) still resolves."""
    index = index_of({
        "pkg/shapes.py": "def area(r):\n    return 3.14 * r * r\n\n\ngetint = int\n",
    })
    text = (
        "from pkg import shapes\nfrom pkg.shapes import *\n\n\n"
        "def peek(w):\n    n = w.tk.getint(w.size)\n    return shapes.area(n)\n"
    )
    related = related_definitions(index.snapshot(), summarize("pkg/main.py", text), text, text)
    names = {r.definition.name for r in related}
    assert "getint" not in names
    assert "area" in names


def test_java_static_and_nested_class_imports_name_members_of_the_files_class() -> None:
    index = index_of({
        "src/main/java/a/util/Strings.java": "package a.util;\npublic class Strings {\n"
        "    /** Capitalizes. */\n    public static String cap(String s) { return s; }\n}\n",
        "src/main/java/a/util/Outer.java": "package a.util;\npublic class Outer {\n"
        "    /** The inner one. */\n    public static class Inner { int n; }\n}\n",
        "src/main/java/b/Other.java": "package b;\nclass Other { static String cap(String s) "
        "{ return s; } }\n",
    })
    text = (
        "package a.app;\nimport static a.util.Strings.cap;\nimport a.util.Outer.Inner;\n"
        "class Main {\n    void run(String x) {\n        Inner i = new Inner();\n"
        "        String total = cap(x);\n    }\n}\n"
    )
    summary = summarize("src/main/java/a/app/Main.java", text)
    related = related_definitions(index.snapshot(), summary, text, text)
    found = {(r.path.rsplit("/", 1)[-1], r.definition.qualname) for r in related}
    assert ("Strings.java", "Strings.cap") in found  # a static member, by its class's file
    assert ("Outer.java", "Outer.Inner") in found  # a nested class
    assert not any(path == "Other.java" for path, _ in found)  # same name, not imported


def test_cpp_declarations_of_an_included_header_and_the_class_of_a_constructor() -> None:
    header = (
        "#pragma once\n#include <vector>\nnamespace geo {\n/// A polygon.\n"
        "class Polygon {\n  public:\n    /// Builds one.\n    explicit Polygon(int sides);\n"
        "    double area() const;\n};\n/// The largest.\ntemplate <typename T>\n"
        "const T& largest(const std::vector<T>& v);\n}\n"
    )
    index = index_of({
        "geo/include/geo/polygon.hpp": header,
        "geo/src/polygon.cpp": '#include "geo/polygon.hpp"\n'
        "double geo::Polygon::area() const { return 1.0; }\n"
        "geo::Polygon::Polygon(int sides) {}\n",
    })
    text = (
        '#include "geo/polygon.hpp"\n\nint main() {\n    geo::Polygon p(5);\n'
        "    std::vector<int> v{1, 2};\n    auto m = largest(v);\n}\n"
    )
    related = related_definitions(index.snapshot(), summarize("app/main.cpp", text), text, text)
    by_name = {r.definition.qualname: r for r in related}
    assert by_name["largest"].text == (
        "// The largest.\ntemplate <typename T> const T& largest(const std::vector<T>& v);\n"
    )
    assert by_name["Polygon"].text.startswith("// A polygon.\nclass Polygon { … }\n")
    assert "    explicit Polygon(int sides);\n" in by_name["Polygon"].text
    assert "Polygon.Polygon" not in by_name  # the class shows its constructors


def test_a_c_file_sees_what_its_headers_include() -> None:
    """leveldb's table/iterator.cc includes leveldb/iterator.h, which includes leveldb/slice.h:
    ``Slice`` is declared there, as hiredis.h's read.h declares ``REDIS_OK``."""
    index = index_of({
        "include/lib/slice.h": "/// A view of bytes.\nclass Slice {\n  public:\n"
        "    size_t size() const;\n};\n",
        "include/lib/iterator.h": '#include "lib/slice.h"\n'
        "class Iterator {\n  public:\n    bool Valid() const;\n};\n",
        "read.h": "#define REDIS_OK 0\n#define REDIS_ERR -1\n",
        "hiredis.h": '#include "read.h"\nint redisCommand(void *c, const char *fmt);\n',
        "other/slice.h": "class Slice { int n; };\n",
    })
    text = (
        '#include "lib/iterator.h"\n#include "hiredis.h"\n\n'
        "int f(Iterator* it) {\n  Slice k;\n"
        "  return redisCommand(0, \"x\") == REDIS_OK;\n}\n"
    )
    related = related_definitions(index.snapshot(), summarize("table/iter.cc", text), text, text)
    found = {(r.path, r.definition.qualname) for r in related}
    assert ("include/lib/slice.h", "Slice") in found  # through lib/iterator.h
    assert ("read.h", "REDIS_OK") in found  # a macro constant, through hiredis.h
    assert ("other/slice.h", "Slice") not in found  # the same name, included by nothing


def test_the_suffix_grows_with_the_budget_and_ignores_what_is_typed_before_it() -> None:
    """``suffix_share`` of the budget, at most ``suffix_max_lines`` lines after the cursor line."""
    text = "def f(x):\n    y = x + 1\n" + "".join(f"    y = y * {i} + x\n" for i in range(12))
    counter = CharEstimator("python")
    small = split_at_cursor(text, 1, 4)
    lines_at = {b: suffix_lines(small, 8, suffix_cap(b, 0.08), counter) for b in (256, 896, 4096)}
    assert lines_at[256] < lines_at[896] <= lines_at[4096] == 8
    typed = split_at_cursor(text.replace("    y = x", "    y = xx", 1), 1, 6)
    assert suffix_lines(typed, 8, suffix_cap(896, 0.08), counter) == lines_at[896]
    config = ContextConfig(suffix_max_lines=8, suffix_share=0.08, whole_file_share=0)
    for budget in (256, 896):
        ctx = assemble_context(
            ContextRequest("f.py", text, 1, 4, budget_tokens=budget), counter=counter, config=config
        )
        suffix = next(s for s in ctx.segments if s.kind is Kind.SUFFIX)
        assert suffix.text.count("\n") == lines_at[budget] + 1, budget


def _docstring_module() -> str:
    """A module whose doc has blank lines and runs past the head's 40 lines, and functions
    with long docstrings: cuts made by line counts land inside strings."""
    doc = '"""Module doc.\n\n' + "".join(f"Paragraph line {i}.\n\n" for i in range(24)) + '"""\n'
    body = "".join(
        f"def func_{i}(arg):\n"
        f'    """Function {i}.\n\n'
        + "".join(f"    Detail {j} of func_{i}, with a ( and a ' in prose.\n" for j in range(14))
        + '    """\n'
        f"    value = arg * {i}\n"
        f"    if value > {i}:\n"
        f"        value -= 1\n"
        f"    return value\n\n\n"
        for i in range(30)
    )
    return doc + "\nimport os\nimport sys\n\n\n" + body


@pytest.mark.parametrize("layout", ["stable", "cursor"])
@pytest.mark.parametrize("budget", [256, 512])
def test_no_prompt_part_starts_or_ends_inside_a_string(layout: str, budget: int) -> None:
    from engine.code_scan import open_state

    text = _docstring_module()
    lines = text.split("\n")
    cursors = [i for i, t in enumerate(lines) if t.startswith(("    value =", "    return"))]
    assert len(cursors) == 60
    for line in cursors:
        ctx = assemble_context(
            ContextRequest(path="m.py", text=text, line=line, column=4, budget_tokens=budget),
            config=ContextConfig(layout=layout),
        )
        assert ctx.num_tokens <= budget
        parts = ctx.to_prompt_parts()
        # at the cursor the model must see code, as in the file: no string left open
        assert open_state(parts.prefix) == ([], ""), (line, parts.prefix)
        for segment in ctx.segments:  # and no part is cut through a docstring
            if segment.role is Role.PREFIX:
                assert open_state(segment.text)[1] == "", (line, segment.kind, segment.text)


def _table_module() -> str:
    """An encoding table of 300 entries inside a dict, then a call spanning lines: cursors
    inside them are inside brackets opened far above (encodings/cp861.py)."""
    entries = "".join(f"    0x{i:04x}: 0x{i + 1:04x},  # ENTRY {i}\n" for i in range(300))
    call = "".join(f"    arg_{i}=value_{i},\n" for i in range(120))
    return (
        "import codecs\n\n"
        "decoding_map = codecs.make_identity_dict(range(256))\n"
        "decoding_map.update({\n" + entries + "})\n\n"
        "result = build(\n" + call + ")\n"
    )


@pytest.mark.parametrize("layout", ["stable", "cursor"])
@pytest.mark.parametrize("budget", [256, 512])
def test_a_window_inside_a_long_literal_starts_with_the_line_that_opens_it(
    layout: str, budget: int
) -> None:
    from engine.code_scan import open_state

    text = _table_module()
    lines = text.split("\n")
    cursors = [i for i, t in enumerate(lines) if t.startswith(("    0x01", "    arg_1"))]
    assert len(cursors) > 40
    for line in cursors:
        ctx = assemble_context(
            ContextRequest(path="m.py", text=text, line=line, column=4, budget_tokens=budget),
            config=ContextConfig(layout=layout),
        )
        assert ctx.num_tokens <= budget
        prefix = ctx.to_prompt_parts().prefix
        # the brackets open at the cursor are those of the file, opening lines included
        before = "\n".join(lines[:line]) + "\n" + lines[line][:4]
        assert open_state(prefix) == open_state(before), (line, prefix[-300:])
        window = next(s for s in ctx.segments if s.kind is Kind.CURSOR_WINDOW)
        opener = "decoding_map.update({" if lines[line].startswith("    0x") else "result = build("
        assert (opener + "\n") in window.text, (line, window.text[:80])


def test_a_file_that_fits_the_whole_file_share_is_shown_whole() -> None:
    text = _long_module(6)  # about 60 lines
    line = text.splitlines().index("def func_2(arg_2: int, other: str = 'x') -> int:") + 3
    request = ContextRequest(path="m.py", text=text, line=line, column=4, budget_tokens=1024)
    parts = assemble_context(request, config=ContextConfig(whole_file_share=0.9))
    prompt = parts.to_prompt_parts()
    offset = len("".join(text.splitlines(keepends=True)[:line])) + 4
    assert prompt.prefix == text[:offset]  # from the first line
    assert prompt.suffix == text[offset:]  # to the last line
    assert parts.num_tokens <= 1024
    assert assemble_context(request).to_prompt_parts() == prompt  # 0.75 by default: fits too
    off = assemble_context(request, config=ContextConfig(whole_file_share=0))
    assert off.to_prompt_parts().suffix.count("\n") <= ContextConfig().suffix_max_lines + 1
    for budget in (256, 400):  # a fast tier's budget, a budget the file does not fit
        small = ContextRequest(path="m.py", text=text, line=line, column=4, budget_tokens=budget)
        tight = assemble_context(
            small, config=ContextConfig(whole_file_share=0.9, whole_file_min_budget=256)
        )
        assert tight.num_tokens <= budget
        assert tight.to_prompt_parts().suffix.count("\n") <= ContextConfig().suffix_max_lines + 1
    # at the threshold, typing on the cursor line does not flip the layout
    counter = CharEstimator("python")
    edge = ContextConfig(whole_file_share=counter.count(text) / 1024)
    typed = text.splitlines(keepends=True)
    prompts = []
    for word in ("", "v", "value_2 = arg_2 * 2 + other.count('x') + 17"):
        cur = "".join(typed[:line]) + "    " + word + "\n" + "".join(typed[line + 1 :])
        req = ContextRequest(path="m.py", text=cur, line=line, column=4 + len(word),
                             budget_tokens=1024)
        prompts.append(assemble_context(req, config=edge).to_prompt_parts())
    assert all(p.suffix.count("\n") > 20 for p in prompts)  # whole each time
    assert all(p.prefix.startswith(prompts[0].prefix[:-4]) for p in prompts)
    tiny = "x = 1\n\n\ndef f():\n    return x\n\n\ny = f()\n"
    short = ContextConfig(suffix_max_lines=1)
    for budget, suffix in ((256, "return x\n\n"), (512, "return x\n\n\ny = f()\n")):
        # below whole_file_min_budget (512): the fast tier's short suffix; from it, the rest
        req = ContextRequest(path="t.py", text=tiny, line=4, column=4, budget_tokens=budget)
        assert assemble_context(req, config=short).to_prompt_parts().suffix == suffix


@pytest.mark.parametrize("budget", [256, 512, 1024, 2048])
@pytest.mark.parametrize("n_funcs", [3, 6, 40])
def test_expected_suffix_tokens_match_the_assembled_suffix(budget: int, n_funcs: int) -> None:
    # the scheduler's warm-document hint counts the suffix as prefilled again per keystroke:
    # its estimate before assembly is what the assembler then puts after the cursor
    from daemon.context import expected_suffix_tokens

    text = _long_module(n_funcs)
    counter = CharEstimator("python")
    lines = text.split("\n")
    cursors = [i for i, t in enumerate(lines) if t.startswith("    return")]
    config = ContextConfig(layout="cursor")
    sizes = []
    for line in cursors[:: max(1, len(cursors) // 5)]:
        request = ContextRequest(path="m.py", text=text, line=line, column=4, budget_tokens=budget)
        ctx = assemble_context(request, counter=counter, config=config)
        suffix = counter.count(ctx.to_prompt_parts().suffix)
        assert expected_suffix_tokens(request, config, counter) == suffix, line
        offset = len("".join(text.splitlines(keepends=True)[:line])) + 4
        assert expected_suffix_tokens(request, config, counter, offset=offset) == suffix
        sizes.append(suffix)
    whole = budget >= 512 and counter.count(text) <= budget * 0.75
    # a small file shown whole: the rest of the file, hundreds of tokens near its top
    assert (max(sizes) > 100) == whole, (sizes, whole)


def test_a_small_window_takes_the_lines_that_fit_when_no_anchor_block_does() -> None:
    """At the CPU fast tier's budget a 16-line anchor block often does not fit the cursor
    share: the window then holds as many whole lines above the cursor as fit (it held none,
    for 72 of 200 stdlib points), and they do not move while the cursor line is typed."""
    from daemon.context.window import split_at_cursor, window_start

    counter = CharEstimator("python")
    lines = [f"    value_{i} = compute(value_{i - 1}, extra_argument_{i})\n" for i in range(40)]
    text = "def f():\n" + "".join(lines) + "    \n"
    line = 41
    starts = set()
    for typed in ("", "r", "res", "result = "):
        typed_text = text[: -1] + typed + "\n"
        parts = split_at_cursor(typed_text, line, 4 + len(typed))
        start = window_start(
            parts, lines_before=50, anchor=16, allowance=90, counter=counter, reserve=20
        )
        starts.add(start)
        assert line - 16 < start < line  # some lines, fewer than an anchor block
        assert counter.count("".join(parts.lines[start:line])) <= 90 - 20
    assert len(starts) == 1  # typing on the cursor line does not move it


@pytest.mark.parametrize(
    ("language", "closer"), [("java", "  }\n"), ("javascript", "  });\n"), ("ruby", "  end\n")]
)
def test_a_window_does_not_start_on_lines_that_close_what_opened_above_it(
    language: str, closer: str
) -> None:
    """gson: 11 of 100 windows began with the ``  }`` of the method before the anchor line, a
    closer without its opener; the window begins after such lines (and stays put while the
    cursor line is typed)."""
    from daemon.context.window import split_at_cursor, window_start

    counter = CharEstimator(language)
    body = "".join(f"    call_{i}(argument_{i});\n" for i in range(31))
    text = "  void first() {\n" + body + closer + "\n  void second() {\n    \n"
    line = text.count("\n") - 1
    for typed in ("", "ret"):
        parts = split_at_cursor(text[:-1] + typed + "\n", line, 4 + len(typed))
        start = window_start(
            parts, lines_before=3, anchor=16, allowance=400, counter=counter, reserve=20,
            block_end=LANGUAGES[language].block_end,
        )
        assert parts.lines[32] == closer  # the anchor line: the blank line after it
        assert start == 33
    # ``end`` closes nothing in Python (a name): the window starts on it
    parts = split_at_cursor(text.replace(closer, "    end\n"), line, 4)
    start = window_start(
        parts, lines_before=3, anchor=16, allowance=400, counter=counter, reserve=20,
        block_end=LANGUAGES["python"].block_end,
    )
    assert start == 32


class _RecordingCounter:
    """A CharEstimator that records the longest text it was asked to count."""

    def __init__(self) -> None:
        self.inner = CharEstimator("python")
        self.longest = 0

    def count(self, text: str) -> int:
        self.longest = max(self.longest, len(text))
        return self.inner.count(text)


@pytest.mark.parametrize("budget", [256, 2048])
def test_a_huge_buffer_renders_only_what_the_budget_can_reach(
    budget: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A generated module of 30,000 assignments: the outline entries a prompt cannot reach
    (each costs a token at least) are never rendered, no text over the budget's reach is
    tokenized, and a definition far away that the window uses is still offered."""
    import daemon.skeleton

    rendered: list[str] = []
    render = daemon.skeleton.render_definition

    def counting(*args: object, **kwargs: object) -> str:
        text = render(*args, **kwargs)  # type: ignore[arg-type]
        rendered.append(text)
        return text

    monkeypatch.setattr(daemon.skeleton, "render_definition", counting)
    body = "".join(f"value_{i} = {i}\n" for i in range(30_000))
    text = f"far_away = 41\n\n{body}\ndef use() -> int:\n    return far_away + \n"
    line = text.count("\n") - 1
    counter = _RecordingCounter()
    ctx = assemble_context(
        ContextRequest(path="gen.py", text=text, line=line, column=20, budget_tokens=budget),
        counter=counter,
    )
    assert ctx.num_tokens <= budget
    assert len(rendered) <= 2 * budget + 8  # not one per entry (30,001)
    assert counter.longest <= budget * 12  # MAX_CHARS_PER_TOKEN
    if budget == 2048:  # cursor layout: a used name's definition is offered wherever it is
        prefix = ctx.to_prompt_parts().prefix
        assert "far_away = 41\n" in prefix and "value_29999 = 29999\n" in prefix


def test_a_huge_line_is_never_tokenized_whole() -> None:
    """A minified line of 600 KB: the window shows its end, nothing counts the whole line."""
    text = "x = [" + "1, " * 200_000 + "]\n"
    for column in (0, 300_000, len(text) - 1):
        for budget in (256, 2048):
            counter = _RecordingCounter()
            ctx = assemble_context(
                ContextRequest("min.py", text, 0, column, budget_tokens=budget), counter=counter
            )
            assert ctx.num_tokens <= budget
            assert counter.longest <= budget * 12, (column, budget)


def test_outline_window_of_a_huge_file_keeps_the_prompt_when_near_entries_fill_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a file of more outline entries than twice the budget, only those around the cursor
    (and the used ones anywhere) become candidates: the prompt is the one all entries give."""
    import daemon.context.candidates as candidates

    text = _long_module(700)
    line = text.splitlines().index("def func_350(arg_350: int, other: str = 'x') -> int:") + 3
    request = ContextRequest(path="m.py", text=text, line=line, column=4, budget_tokens=256)
    config = ContextConfig(layout="cursor")
    windowed = assemble_context(request, config=config)
    monkeypatch.setattr(
        candidates,
        "_around",
        lambda outline, line, n, words, num_lines: (0, num_lines, list(range(len(outline)))),
    )
    whole = assemble_context(request, config=config)
    assert windowed.segments == whole.segments
    assert any(s.kind is Kind.FILE_SUMMARY for s in windowed.segments)


# --- Java and C projects, indexed by the real indexer --------------------------------------------

JAVA_PROJECT = {
    "pom.xml": "<project/>\n",
    "src/main/java/com/acme/util/Strings.java": """package com.acme.util;

/**
 * String helpers.
 */
public final class Strings {
    private Strings() {}

    /** Capitalizes the first letter of {@code s}. */
    public static String capitalize(String s) {
        if (s.isEmpty()) {
            return s;
        }
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** Joins parts with a separator. */
    public static String join(String sep, String... parts) {
        return String.join(sep, parts);
    }
}
""",
    "src/main/java/com/acme/model/Order.java": """package com.acme.model;

import java.util.List;

/** An order of items. */
public record Order(String id, List<String> items) {
    /** Number of items. */
    public int size() {
        return items.size();
    }
}
""",
    "src/main/java/com/acme/app/Main.java": """package com.acme.app;

import java.util.List;
import com.acme.util.Strings;
import com.acme.model.*;

public class Main {
    public static void main(String[] args) {
        Order order = new Order("a1", List.of("x"));
        String name = Strings.capitalize(args[0]);
        <|>
    }
}
""",
}

C_PROJECT = {
    "Makefile": "all:\n\tcc -Iinclude src/*.c\n",
    "include/util.h": """#ifndef UTIL_H
#define UTIL_H

#include <stddef.h>

/** Sum of the first n values. */
int util_sum(const int *values, size_t n);

/* A growable buffer. */
typedef struct {
    char *data;
    size_t len;
} buffer_t;

#endif
""",
    "src/util.c": """#include "util.h"

int util_sum(const int *values, size_t n) {
    int secret_total = 0;
    for (size_t i = 0; i < n; i++) {
        secret_total += values[i];
    }
    return secret_total;
}
""",
    "src/strings.c": """#include <string.h>

/* Length of s, 0 for NULL. */
size_t str_len(const char *s) {
    return s ? strlen(s) : 0;
}
""",
    "src/main.c": """#include <stdio.h>
#include "util.h"

int main(void) {
    int values[] = {1, 2, 3};
    int total = util_sum(values, 3) + (int)str_len("abc");
    buffer_t buf = {0};
    <|>
    return 0;
}
""",
}


@pytest.mark.parametrize("layout", ["stable", "cursor"])
def test_a_java_method_called_from_another_file_comes_with_its_javadoc(
    tmp_path: Path, layout: str
) -> None:
    related = related_segments(
        tmp_path, JAVA_PROJECT, "src/main/java/com/acme/app/Main.java", layout
    )
    text = "\n".join(related)
    strings = "src/main/java/com/acme/util/Strings.java"
    lead = "// " if layout == "stable" else ""  # stable: snippets as comments in the prefix
    # Strings.capitalize with its javadoc, once: in the skeleton of Strings (which shows it,
    # so the method's own snippet is a dropped duplicate since 2026-12-02)
    assert related[0].startswith(f"{strings}:"), related
    assert text.count(f"{lead}    // Capitalizes the first letter of {{@code s}}.\n") == 1
    assert text.count("public static String capitalize(String s) { … }") == 1
    assert "toUpperCase" not in text  # bodies elided
    # the class through its import, a record through the package's wildcard import
    assert f"{lead}public final class Strings {{ … }}" in text
    assert f"{lead}public record Order(String id, List<String> items) {{ … }}" in text
    assert f"{lead}    // Number of items." in text
    assert "private Strings() { … }\n" not in [r.split("\n", 1)[1] for r in related]


@pytest.mark.parametrize("layout", ["stable", "cursor"])
def test_a_java_wildcard_import_finds_the_package_in_main_code_beside_its_tests(
    tmp_path: Path, layout: str
) -> None:
    """A test of the package under src/test/java made ``import com.acme.model.*;`` name that
    folder only: Order, in src/main/java, was no longer found."""
    files = {
        **JAVA_PROJECT,
        "src/test/java/com/acme/model/OrderTest.java": "package com.acme.model;\n\n"
        "class OrderTest {\n    void size() {}\n}\n",
    }
    related = related_segments(tmp_path, files, "src/main/java/com/acme/app/Main.java", layout)
    lead = "// " if layout == "stable" else ""
    text = "\n".join(related)
    assert f"{lead}public record Order(String id, List<String> items) {{ … }}" in text, related


@pytest.mark.parametrize("layout", ["stable", "cursor"])
def test_a_java_test_sees_its_package_in_main_code_without_an_import(
    tmp_path: Path, layout: str
) -> None:
    """Java needs no import for a class of the file's own package: a test under
    src/test/java/com/acme/util calling Strings.join of src/main/java/com/acme/util got no
    related definition (not imported, not the same folder)."""
    files = {
        **JAVA_PROJECT,
        "src/test/java/com/acme/util/StringsTest.java": """package com.acme.util;

class StringsTest {
    void joins() {
        String joined = Strings.join(",", "a", "b");
        <|>
    }
}
""",
    }
    current = "src/test/java/com/acme/util/StringsTest.java"
    related = related_segments(tmp_path, files, current, layout)
    lead = "// " if layout == "stable" else ""
    text = "\n".join(related)
    assert f"{lead}public final class Strings {{ … }}" in text, related
    assert "public record Order" not in text  # another package, not imported


@pytest.mark.parametrize("layout", ["stable", "cursor"])
def test_a_c_function_declared_in_an_included_header_comes_with_its_doc(
    tmp_path: Path, layout: str
) -> None:
    related = related_segments(tmp_path, C_PROJECT, "src/main.c", layout)
    text = "\n".join(related)
    lead = "// " if layout == "stable" else ""
    header = next(r for r in related if r.startswith("include/util.h:7-"))
    prototype = "int util_sum(const int *values, size_t n);"
    assert f"{lead}// Sum of the first n values.\n{lead}{prototype}" in header
    # its definition in util.c adds nothing to the header's prototype: left out
    assert not any(r.startswith("src/util.c") for r in related), related
    assert "secret_total" not in text
    # a typedef of the header, and a function of a file of the same folder (not included)
    assert f"{lead}typedef struct {{ … }} buffer_t;" in text
    assert f"{lead}// Length of s, 0 for NULL.\n{lead}size_t str_len(const char *s) {{ … }}" in text


def test_non_ascii_identifiers_find_their_definitions_in_other_files(tmp_path: Path) -> None:
    """Python 3 and Java take letters beyond ASCII in names (German, Chinese code bases do):
    ``fläche`` was looked up as ``fl`` and ``he``, ``计算总价`` not at all."""
    files = {
        "geometrie.py": 'def fläche(breite: float, höhe: float) -> float:\n'
                        '    """Breite mal Höhe."""\n    return breite * höhe\n',
        "订单.py": 'def 计算总价(商品: list[float]) -> float:\n'
                   '    """所有商品的总价。"""\n    return sum(商品)\n',
        "main.py": "from geometrie import fläche\nfrom 订单 import 计算总价\n\n\n"
                   "def bericht(b, h, waren):\n    a = fläche(b, h)\n"
                   "    总价 = 计算总价(waren)\n    <|>\n",
    }
    related = "\n".join(related_segments(tmp_path, files, "main.py", "cursor"))
    assert "def fläche(breite: float, höhe: float) -> float:" in related
    assert "def 计算总价(商品: list[float]) -> float:" in related
    assert "所有商品的总价。" in related


def _big_class(n: int) -> str:
    methods = "".join(
        f"    def method_{i}(self, value: int, label: str = 'x') -> int:\n"
        f'        """Method {i} does the {i}th thing with value and label."""\n'
        "        return value\n\n"
        for i in range(n)
    )
    return f'class Router:\n    """Routes requests."""\n\n{methods}'


@pytest.mark.parametrize("layout", ["cursor", "stable"])
def test_a_class_too_long_for_the_budget_comes_compact_with_the_members_in_use(
    layout: str,
) -> None:
    """A related class whose skeleton found no room was dropped whole (chi's Mux, 36 methods:
    ~1,000 tokens, in no prompt of 896): now, where its whole skeleton does not fit, it comes
    with the members the window uses shown whole and the others by name."""
    index = index_of({"web/router.py": _big_class(40)})
    text, line, col = cursor(
        "from web.router import Router\n\n\ndef main():\n    r = Router()\n"
        "    r.method_7(1)\n    <|>\n"
    )

    def related(budget: int) -> list[str]:
        ctx = assemble_context(
            ContextRequest(path="main.py", text=text, line=line, column=col,
                           budget_tokens=budget),
            index=index, config=ContextConfig(layout=layout), counter=CharEstimator("python"),
        )
        assert ctx.num_tokens <= budget
        return [s.text for s in ctx.segments if s.kind is Kind.RELATED]

    small = "\n".join(related(512))
    assert "class Router:" in small
    assert "def method_7(self, value: int, label: str = 'x') -> int:" in small
    assert "members: method_0, method_1, method_2," in small
    assert "def method_8(" not in small
    large = "\n".join(related(4096))  # room for the whole class: as before
    assert "def method_8(self, value: int, label: str = 'x') -> int:" in large
    assert "members:" not in large


@pytest.mark.parametrize("budget", [384, 4096])
def test_a_method_its_class_skeleton_shows_is_not_shown_twice(budget: int) -> None:
    """clikt: an extension function calls ``registerOption(o)`` of BaseCliktCommand bare; the
    class came (compact: the member in use whole) and the method again as a snippet of its
    own, 50 tokens of 896 twice. Whichever is kept first, the method goes when the class
    shows it, as a dropped ``duplicate``."""
    methods = "".join(
        f"    /** Step {i} of the command. */\n    fun step{i}(value: Int): Int = value + {i}\n\n"
        for i in range(30)
    )
    base = (
        "package app.core\n\n/** A command of the tool. */\nopen class Base {\n"
        "    /** Registers an option with this command. */\n"
        "    fun registerOption(name: String) {\n        println(name)\n    }\n\n"
        f"{methods}}}\n"
    )
    index = index_of({"src/app/core/Base.kt": base})
    text, line, col = cursor(
        "package app.core\n\nclass Child : Base() {\n    fun setup(): Base {\n"
        '        registerOption("--verbose")\n        <|>\n    }\n}\n'
    )
    ctx = assemble_context(
        ContextRequest(path="src/app/core/Child.kt", text=text, line=line, column=col,
                       budget_tokens=budget),
        index=index, config=ContextConfig(), counter=CharEstimator("kotlin"),
    )
    assert ctx.num_tokens <= budget
    related = "\n".join(s.text for s in ctx.segments if s.kind is Kind.RELATED)
    assert "open class Base" in related
    assert related.count("fun registerOption(name: String)") == 1
    assert any(d.reason == "duplicate" for d in ctx.dropped)


HONO = Path(__file__).resolve().parents[2] / "bench" / "corpora" / "hono"


def test_a_widened_window_adds_the_definitions_its_wider_part_names() -> None:
    """hono's cookie helper, cursor at line 60, budget 896: the window widens to the file's
    top (imports, interfaces); the related definitions were chosen from the first, narrower
    window only and kept, so what only the top names had no definition while 300 tokens were
    left (counted by the model's tokenizer: ``Context``, compact; here, by the character
    estimate, ``SignedCookie`` and ``CookieOptions``)."""
    from app.config import Config
    from app.evaluation.corpus import build_index
    from daemon.context import summarize_stable

    index, _ = build_index(HONO, Config())
    path = "src/helper/cookie/index.ts"
    text = (HONO / path).read_text(encoding="utf-8")
    ctx = assemble_context(
        ContextRequest(path=path, text=text, line=59, column=4, budget_tokens=896),
        index=index,
        config=ContextConfig(budget_tokens=896, file_block_share=0.2),
        summary=summarize_stable(path, text, 59, "typescript"),
    )
    window = next(s for s in ctx.segments if s.kind is Kind.CURSOR_WINDOW)
    assert window.source == f"{path}:1-60" and "(c: Context" in window.text
    related = [s.source for s in ctx.segments if s.kind is Kind.RELATED]
    assert "src/utils/cookie.ts:9-9" in related  # type SignedCookie: named at the top only
    assert "src/utils/cookie.ts:17-28" in related  # type CookieOptions
    assert related[:3] == [  # the first pass's choice first, as it was
        "src/utils/cookie.ts:8-8", "src/utils/cookie.ts:29-29", "src/utils/cookie.ts:109-144",
    ]
    assert ctx.num_tokens <= 896


def test_snippets_of_one_file_in_a_row_share_one_path_line() -> None:
    """rack: each constant of constants.rb a related definition of its own, each with the
    file's path line above it (about 8 tokens each); in a row, the path is written once."""
    from daemon.context.types import AssembledContext, Segment

    def seg(kind: Kind, role: Role, source: str, text: str) -> Segment:
        return Segment(kind, Tier.P1, role, source, text, 10)

    def parts(*segments: Segment) -> tuple[str, tuple[tuple[str, str], ...]]:
        ctx = AssembledContext(path="lib/a.rb", language="ruby", segments=segments,
                               budget_tokens=100, num_tokens=10 * len(segments),
                               num_tokens_before_trim=10 * len(segments), dropped=(),
                               assemble_ms=0.0)
        p = ctx.to_prompt_parts()
        return p.prefix, tuple((s.path, s.text) for s in p.snippets)

    c = "lib/rack/constants.rb"
    inline = [
        seg(Kind.RELATED, Role.PREFIX, f"{c}:3-3", f"# {c}\n# HEAD = 'HEAD'\n"),
        seg(Kind.RELATED, Role.PREFIX, f"{c}:9-9", f"# {c}\n# GET = 'GET'\n"),
        seg(Kind.RELATED, Role.PREFIX, "lib/x.rb:1-2", "# lib/x.rb\n# def x … end\n"),
        seg(Kind.RELATED, Role.PREFIX, f"{c}:12-12", f"# {c}\n# PUT = 'PUT'\n"),
        seg(Kind.CURSOR_WINDOW, Role.PREFIX, "lib/a.rb:1-2", "# lib/a.rb\nx = 1\n"),
    ]
    prefix, _ = parts(*inline)
    assert prefix == (f"# {c}\n# HEAD = 'HEAD'\n# GET = 'GET'\n# lib/x.rb\n# def x … end\n"
                      f"# {c}\n# PUT = 'PUT'\n# lib/a.rb\nx = 1\n")
    _, snippets = parts(
        seg(Kind.RELATED, Role.SNIPPET, f"{c}:3-3", "HEAD = 'HEAD'"),
        seg(Kind.RELATED, Role.SNIPPET, f"{c}:9-9", "GET = 'GET'\n"),
        seg(Kind.RELATED, Role.SNIPPET, "lib/x.rb:1-2", "def x … end\n"),
    )
    assert snippets == ((c, "HEAD = 'HEAD'\nGET = 'GET'\n"), ("lib/x.rb", "def x … end\n"))


HIREDIS = Path(__file__).resolve().parents[2] / "bench" / "corpora" / "hiredis"


@pytest.mark.parametrize(("path", "line"), [("alloc.c", 55), ("adapters/libevent.h", 86)])
def test_a_window_from_the_file_head_takes_no_file_block(path: str, line: int) -> None:
    """hiredis's alloc.c (cursor in the licence's file, line 56) and libevent.h (after its
    include guard): the window began inside the licence comment or at the includes, and the
    stable layout's file block showed the head and every definition above the cursor a second
    time (the model wrote hi_malloc's body from the block's skeleton). A window from the head
    on takes no file block, as one from the first line."""
    from app.config import Config
    from app.evaluation.corpus import build_index
    from daemon.context import summarize_stable

    index, _ = build_index(HIREDIS, Config())
    text = (HIREDIS / path).read_text(encoding="utf-8")
    ctx = assemble_context(
        ContextRequest(path=path, text=text, line=line, column=8, budget_tokens=896),
        index=index,
        config=ContextConfig(budget_tokens=896, file_block_share=0.2),
        summary=summarize_stable(path, text, line, "c"),
    )
    assert not any(s.kind is Kind.FILE_SUMMARY for s in ctx.segments)
    assert any(d.reason == "the window shows the file's top" for d in ctx.dropped)


def test_a_cursor_in_a_long_head_keeps_the_file_block() -> None:
    """Typing an import in a long head at a small budget: the window starts inside the head
    and the block (then without the head: the window shows it) is the only view of the
    definitions below; it stays."""
    from daemon.context import summarize_stable

    imports = "".join(f"import module_number_{i}\n" for i in range(38))
    body = "".join(
        f"def handler_{i}(request, response):\n    return respond(request, {i})\n\n\n"
        for i in range(40)
    )
    text = imports + body
    line = 36
    ctx = assemble_context(
        ContextRequest(path="app.py", text=text, line=line, column=0, budget_tokens=256),
        index=index_of({"app.py": text}),
        config=ContextConfig(budget_tokens=256, layout="stable"),
        summary=summarize_stable("app.py", text, line, "python"),
    )
    window = next(s for s in ctx.segments if s.kind is Kind.CURSOR_WINDOW)
    assert not window.source.startswith("app.py:1-")  # the window starts inside the head
    block = [s for s in ctx.segments if s.kind is Kind.FILE_SUMMARY]
    assert block and "def handler_0(request, response)" in block[0].text


@pytest.mark.parametrize(("indent", "language", "path"), [
    ("  ", "javascript", "lib/core/Axios.js"),
    ("\t", "javascript", "a.js"),
    ("    ", "python", "a.py"),
    ("  ", "csharp", "Axios.cs"),
])
def test_an_enclosing_class_notes_take_the_indentation_of_its_members(
    indent: str, language: str, path: str
) -> None:
    """The doc line an enclosing class's header gets in the stable layout was indented four
    spaces below it in every language (axios writes two spaces; a tab in some files)."""
    from daemon.context import summarize_stable

    if language == "javascript":
        text = ("/**\n * Create a new instance of Axios\n */\nclass Axios {\n"
                + "".join(f"{indent}m{i}(x) {{\n{indent}{indent}return x + {i};\n{indent}}}\n\n"
                          for i in range(120))
                + f"{indent}last(x) {{\n{indent}{indent}return x;\n{indent}}}\n}}\n")
        line = text.count("\n") - 3
        doc = f"{indent}// Create a new instance of Axios"
    elif language == "csharp":  # the brace on a line of its own
        text = ("/// <summary>Create a new instance of Axios</summary>\nclass Axios\n{\n"
                + "".join(f"{indent}int M{i}(int x)\n{indent}{{\n{indent}{indent}return x + {i};\n"
                          f"{indent}}}\n\n" for i in range(120))
                + f"{indent}int Last(int x)\n{indent}{{\n{indent}{indent}return x;\n"
                + f"{indent}}}\n}}\n")
        line = text.count("\n") - 3
        doc = f"{indent}// Create a new instance of Axios"
    else:
        text = ("class Axios:\n" + f'{indent}"""Create a new instance of Axios."""\n\n'
                + "".join(f"{indent}def m{i}(self, x):\n{indent}{indent}return x + {i}\n\n"
                          for i in range(120))
                + f"{indent}def last(self, x):\n{indent}{indent}return x\n")
        line = text.count("\n") - 1
        doc = f'{indent}"""Create a new instance of Axios."""'
    ctx = assemble_context(
        ContextRequest(path=path, text=text, line=line, column=len(indent) * 2,
                       budget_tokens=896),
        config=ContextConfig(budget_tokens=896, file_block_share=0.2, layout="stable"),
        summary=summarize_stable(path, text, line, language),
    )
    header = next(s for s in ctx.segments if s.kind is Kind.ENCLOSING)
    assert header.text.splitlines()[1] == doc
