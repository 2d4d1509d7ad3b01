"""Skeleton pieces that must stay valid code when cut: multi-line variables, the file head."""

from __future__ import annotations

import ast

import pytest

from daemon.parse import close_open_line, summarize
from daemon.skeleton import fit_head
from daemon.tokens import CharEstimator


@pytest.mark.parametrize(
    ("line", "closed"),
    [
        ("X = namedtuple('X',", "X = namedtuple('X', ...)"),
        ('__all__ = ["a", "b",', '__all__ = ["a", "b", ...]'),
        ("d = {'a': f(1,", "d = {'a': f(1, ...)}"),
        ('s = """text', 's = """text..."""'),
        ('v = f("""ab', 'v = f("""ab...""")'),
        ("z = g('(',", "z = g('(', ...)"),  # brackets inside strings do not count
        ("x = (1)  # (", "x = (1)  # ("),  # nor inside a comment
        ("x = 1", "x = 1"),
        # a trailing comment goes: the closers would land inside it (test_structmembers.py)
        ("ts = T(False,  # T_BOOL", "ts = T(False, ...)"),
        ("y = g('#x', # c", "y = g('#x', ...)"),  # a leader inside a string is no comment
    ],
)
def test_an_open_first_line_is_closed_behind_an_elision(line: str, closed: str) -> None:
    assert close_open_line(line) == closed


def test_the_comment_leader_is_the_languages() -> None:
    assert close_open_line("const x = f(a, // note", "…", "javascript") == "const x = f(a, …)"


def test_a_rust_lifetime_opens_no_string() -> None:
    line = "static GREETING: &'static str = concat!("
    assert close_open_line(line, "…", "rust") == line + "…)"


def test_a_multi_line_variable_skeleton_is_valid_python() -> None:
    text = "Point = namedtuple('Point',\n    'x y')\nNAMES = [\n    'a',\n]\nLIMIT = 3\n"
    sigs = {d.name: d.signature for d in summarize("m.py", text).definitions}
    assert sigs == {"Point": "Point = namedtuple('Point', ...)", "NAMES": "NAMES = [...]",
                    "LIMIT": "LIMIT = 3"}
    for sig in sigs.values():
        ast.parse(sig)


HEAD = '''"""A module with a long docstring.

It goes on for a while, explaining what the module does
in more words than a small budget can hold.
"""
# a comment about the imports
import os
import sys
from collections import (
    OrderedDict,
    defaultdict,
    namedtuple,
)

__all__ = ["one", "two"]
'''


def test_a_head_that_fits_is_kept_whole() -> None:
    lines = HEAD.splitlines(keepends=True)
    assert fit_head(lines, "python", CharEstimator("python"), 10_000) == HEAD


@pytest.mark.parametrize("limit", [8, 20, 30, 45, 60, 80])
def test_a_cut_head_is_whole_statements_and_valid_python(limit: int) -> None:
    counter = CharEstimator("python")
    head = fit_head(HEAD.splitlines(keepends=True), "python", counter, limit)
    assert counter.count(head) <= limit
    ast.parse(head)  # never a string or an import list left open
    assert "# a comment" not in head  # comments go first when cutting


def test_a_cut_head_keeps_the_docstring_line_and_the_imports_that_fit() -> None:
    counter = CharEstimator("python")
    head = fit_head(HEAD.splitlines(keepends=True), "python", counter, 40)
    assert head.startswith('"""A module with a long docstring."""\n')  # its first line
    assert "import os\nimport sys\n" in head
    assert "OrderedDict" not in head  # the multi-line import did not fit: left out whole


def test_a_language_without_a_grammar_is_cut_at_a_line() -> None:
    lines = [f"line {i}\n" for i in range(50)]
    out = fit_head(lines, "text", CharEstimator("text"), 20)
    assert out and "".join(lines).startswith(out) and out.endswith("\n")
