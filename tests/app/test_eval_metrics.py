"""The eval's metrics on hand-made cases (no model): each case can fail."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.evaluation.metrics import (
    CompileChecker,
    copied_below,
    edit_similarity,
    exact_match,
    extract_identifiers,
    identifier_f1,
    lcs_length,
    python_compiles,
    rate,
    syntax_error_nodes,
)
from app.evaluation.report import compare


@pytest.mark.parametrize(
    ("prediction", "target", "expected"),
    [
        ("x + 1)", "x + 1)", True),
        ("  x + 1)  ", "x + 1)", True),  # surrounding blanks do not count
        ("x + 1)\n    return y", "x + 1)\n    return x", True),  # first line only
        ("\n\nx + 1)", "x + 1)", True),  # the first NON-BLANK line
        ("x+1)", "x + 1)", False),  # inner blanks do count
        ("x + 1", "x + 1)", False),
        ("", "x + 1)", False),
        ("", "", False),  # an empty ground truth never matches
    ],
)
def test_exact_match_of_the_first_line(prediction: str, target: str, expected: bool) -> None:
    assert exact_match(prediction, target) is expected


@pytest.mark.parametrize(
    ("prediction", "target", "expected"),
    [
        ("abc", "abc", 1.0),
        ("", "", 1.0),
        ("abc", "", 0.0),
        ("abc", "xyz", 0.0),
        ("kitten", "sitting", 2 * 4 / 13),  # LCS "ittn" = 4
        ("return a + b", "return a - b", 2 * 11 / 24),
        ("  self.x  ", "self.x", 1.0),  # stripped first
    ],
)
def test_edit_similarity_is_normalised_indel_similarity(
    prediction: str, target: str, expected: float
) -> None:
    assert edit_similarity(prediction, target) == pytest.approx(expected)


@given(st.text(alphabet="abcde\n ", max_size=40), st.text(alphabet="abcde\n ", max_size=40))
def test_bit_parallel_lcs_agrees_with_dynamic_programming(a: str, b: str) -> None:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = table[i][j] + 1 if x == y else max(table[i][j + 1],
                                                                     table[i + 1][j])
    assert lcs_length(a, b) == table[len(a)][len(b)]


def test_lcs_is_at_least_difflib_matching_blocks() -> None:
    a, b = "def area(self): return self.w * self.h", "def area(self): return self.h * self.w"
    blocks = sum(m.size for m in difflib.SequenceMatcher(None, a, b).get_matching_blocks())
    assert lcs_length(a, b) >= blocks


def test_identifiers_skip_keywords_strings_and_comments() -> None:
    code = 'if value is not None:  # check it\n    return f(value, True, "word_in_str")'
    # None is a keyword, True is not (as CrossCodeEval); strings go; comments are extracted
    # here (extract_identifiers alone) and removed by identifier_f1
    assert extract_identifiers(code, "python") == ["value", "check", "it", "f", "value", "True"]
    score = identifier_f1(code, "if value:\n    return g(value)", "python")
    # {value, f, True} vs {value, g}: tp 1, fp 2, fn 1
    assert score.precision == pytest.approx(1 / 3)
    assert score.recall == pytest.approx(1 / 2)
    assert score.f1 == pytest.approx(2 * 1 / (2 * 1 + 2 + 1))
    assert extract_identifiers("const x = this.y // note", "javascript") == ["x", "y", "note"]
    assert identifier_f1("const x = this.y // note", "x = y", "javascript").f1 == 1.0


@pytest.mark.parametrize(
    ("prediction", "target", "f1", "exact"),
    [
        ("foo(bar)", "foo(bar)", 1.0, True),
        ("foo(baz)", "foo(bar)", 0.5, False),  # tp 1, fp 1, fn 1
        ("bar(foo)", "foo(bar)", 1.0, False),  # same set, other order: F1 1, identifier EM no
        ("1 + 2", "3 + 4", 0.0, True),  # no identifiers at all: F1 0 (as CrossCodeEval)
        ("", "self.run()", 0.0, False),
    ],
)
def test_identifier_f1_as_crosscodeeval(prediction: str, target: str, f1: float,
                                        exact: bool) -> None:
    score = identifier_f1(prediction, target, "python")
    assert score.f1 == pytest.approx(f1)
    assert score.exact is exact


def test_python_compile_pass() -> None:
    assert python_compiles("def f(x):\n    return x + 1\n")
    assert not python_compiles("def f(x):\n    return x +\n")
    assert not python_compiles("return 1\n")  # a compile-time error, not a parse error
    assert python_compiles("x = '\\d'\n")  # SyntaxWarning only: still compiles


def test_compile_checker_skips_points_whose_original_does_not_compile() -> None:
    checker = CompileChecker()
    good = "def f(x):\n    return x\n"
    assert checker.check("a.py", "python", good, "def f(x):\n    return x + 1\n") is True
    assert checker.check("a.py", "python", good, "def f(x):\n    return x +\n") is False
    broken = "def f(x)\n    return x\n"
    assert checker.check("b.py", "python", broken, good) is None  # skipped
    assert checker.check("c.txt", "text", "hello", "hello world") is None  # no checker
    # the same path with another original (a history point at another commit) is its own
    assert checker.check("a.py", "python", broken, good) is None
    assert checker.check("b.py", "python", good, good) is True


def test_tree_sitter_compile_pass_for_javascript() -> None:
    original = "function add(a, b) {\n  return a + b;\n}\n"
    assert syntax_error_nodes(original, "javascript") == 0
    assert syntax_error_nodes("function add(a, b) {\n  return a + ;\n}\n", "javascript")
    assert syntax_error_nodes("hello", "text") is None
    checker = CompileChecker()
    completed_ok = "function add(a, b) {\n  const s = a + b;\n  return s;\n}\n"
    completed_bad = "function add(a, b) {\n  const s = a + (b;\n  return s;\n}\n"
    assert checker.check("m.js", "javascript", original, completed_ok) is True
    assert checker.check("m.js", "javascript", original, completed_bad) is False
    assert checker.check("n.js", "javascript", "function (", completed_ok) is None


def test_typescript_overloads_without_semicolons_compile() -> None:
    """tree-sitter-typescript#335: the metric parses as the daemon does (grammar_fixes), so
    a completion in such a file is not failed for the grammar's bug."""
    source = "interface Get {\n  <K extends Key>(key: K): V\n  <K extends Other>(key: K): W\n}\n"
    assert syntax_error_nodes(source, "typescript") == 0
    assert syntax_error_nodes(source.replace("(key: K): W", "(key: K: W"), "typescript")


BELOW = (
    "\n\n    def connection_lost(self, exc):\n        \"\"\"Called when the connection is lost.\n\n"
    "        The argument is an exception object or None (the latter\n"
    "        meaning a regular EOF is received).\n        \"\"\"\n    }\n    }\n"
)


@pytest.mark.parametrize(
    ("completion", "target", "expected"),
    [
        # the next method's docstring, copied into this one's
        ('"""Called when made.\n\n        The argument is an exception object or None (the '
         'latter\n        meaning a regular EOF is received).\n        """',
         '"""Called when made."""', True),
        # one line alike is no copy; nor are lines the ground truth has in a row too
        ("x = 1\n        meaning a regular EOF is received).", "", False),
        ("def connection_lost(self, exc):\n        \"\"\"Called when the connection is lost.",
         "def connection_lost(self, exc):\n    \"\"\"Called when the connection is lost.",
         False),
        ("    }\n    }", "", False),  # closers are no code worth counting
        ("", "x", False),
    ],
)
def test_a_completion_that_repeats_the_code_below_is_a_copy(
    completion: str, target: str, expected: bool
) -> None:
    """stdlib eval, asyncio/protocols.py: ``connection_made``'s docstring written as the
    ``connection_lost`` docstring below it."""
    assert copied_below(completion, target, BELOW) is expected


def test_rate_counts_skipped_points_apart() -> None:
    share, counted, skipped = rate([True, False, None, True])
    assert share == pytest.approx(2 / 3)
    assert (counted, skipped) == (3, 1)
    assert rate([None]) == (0.0, 0, 1)


def _result(exact: float, compiled: float) -> dict[str, object]:
    return {
        "points": [{"id": "a.py:1:1"}],
        "summary": {"nospin": {"all": {"exact_match": exact, "compile_pass": compiled}}},
    }


def test_compare_flags_drops_of_more_than_two_points() -> None:
    assert compare(_result(0.30, 0.90), _result(0.29, 0.885)).ok  # 1 and 1.5 points: fine
    drop = compare(_result(0.30, 0.90), _result(0.30, 0.87))
    assert [(r.mode, r.metric) for r in drop.regressions] == [("nospin", "compile_pass")]
    assert "3.0 points" in drop.regressions[0].describe()
    both = compare(_result(0.30, 0.90), _result(0.25, 0.80))
    assert {r.metric for r in both.regressions} == {"exact_match", "compile_pass"}
    assert compare(_result(0.30, 0.90), _result(0.40, 0.95)).ok  # gains are fine
    # compile-pass as shown (--as-shown) is guarded where both results have it
    shown_old, shown_new = _result(0.30, 0.90), _result(0.30, 0.90)
    shown_old["summary"]["nospin"]["all"]["compile_pass_shown"] = 0.95  # type: ignore[index]
    assert compare(shown_old, shown_new).ok  # the new run has none: not compared
    shown_new["summary"]["nospin"]["all"]["compile_pass_shown"] = 0.92  # type: ignore[index]
    drop = compare(shown_old, shown_new)
    assert [(r.mode, r.metric) for r in drop.regressions] == [("nospin", "compile_pass_shown")]


def test_compare_counts_the_points_a_step_changed() -> None:
    def run(preds: list[tuple[str, bool, bool, int]]) -> dict[str, object]:
        result = _result(0.5, 0.5)
        result["points"] = [{"id": f"p{i}"} for i in range(len(preds))]
        result["results"] = [
            {"mode": "nospin", "point": f"p{i}", "prediction": text, "exact_match": exact,
             "compile_pass": compiled, "num_prompt_tokens": tokens}
            for i, (text, exact, compiled, tokens) in enumerate(preds)
        ]
        return result

    old = run([("a", False, False, 10), ("b", True, True, 10), ("c", False, True, 10)])
    new = run([("a2", True, True, 12), ("b2", False, True, 10), ("c", False, True, 11)])
    assert compare(old, new).notes == (
        "nospin: 2 of 3 predictions changed (2 prompt sizes); "
        "compile_pass gained on 1, lost on 0; exact_match gained on 1, lost on 1",
    )


def test_chart_is_skipped_with_a_note_without_matplotlib(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import sys

    from app.evaluation.report import render_chart

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    note = render_chart({"summary": {}}, tmp_path / "chart.png")
    assert "matplotlib is not installed" in note
    assert not (tmp_path / "chart.png").exists()


@given(st.lists(st.floats(0, 1e4), max_size=40), st.sampled_from([0.0, 0.5, 0.9, 0.95, 1.0]))
def test_benchmarks_and_eval_take_percentiles_as_the_daemon_does(
    values: list[float], q: float
) -> None:
    """One definition for the figures of `nospin bench`, `nospin eval`, status and the tray."""
    from app.evaluation.corpus import percentile
    from daemon.metrics import percentile as daemon_percentile

    assert percentile(values, q) == (daemon_percentile(values, q * 100) if values else 0.0)
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5  # interpolated, not the nearest rank
