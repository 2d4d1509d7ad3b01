"""Skeleton pieces that must stay valid code when cut: multi-line variables, the file head."""

from __future__ import annotations

import ast

import pytest

from daemon.parse import close_open_line, summarize
from daemon.skeleton import fit_head, render_skeleton
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


def test_a_declaration_without_a_body_is_shown_as_written() -> None:
    """A Rust trait method, a TypeScript overload, a C prototype end with ";": no ``{ … }``
    behind them (it read ``fn go(&self) -> bool; { … }``)."""
    rust = summarize("t.rs", "trait T {\n    /// Goes.\n    fn go(&self) -> bool;\n}\n")
    assert render_skeleton(rust) == "trait T { … }\n    // Goes.\n    fn go(&self) -> bool;\n"
    ts = summarize("f.ts", "function f(a: string): void;\nfunction f(a: any): void {}\n")
    assert render_skeleton(ts) == "function f(a: string): void;\nfunction f(a: any): void { … }\n"
    c = summarize("q.h", "int queue_len(const struct queue *q);\n")
    assert render_skeleton(c) == "int queue_len(const struct queue *q);\n"


def test_typescript_interfaces_show_their_members_and_exports_their_constants() -> None:
    """A TypeScript module's API: an interface read ``interface Money { … }`` (its
    properties, what ``price.`` completes to, were gone), its methods ``format(): string {
    … }`` (a body an interface has not), and ``export const formatMoney = (m) => …`` was no
    definition at all (only unexported constants were), with its JSDoc."""
    source = (
        "/** An amount in cents. */\n"
        "export interface Money {\n  readonly cents: number;\n  currency?: string;\n"
        "  format(): string;\n}\n"
        "export abstract class Shape {\n  private sides: number = 0;\n"
        "  abstract area(): number;\n}\n"
        "/** Formats an amount. */\n"
        "export const formatMoney = (m: Money): string => {\n  return `${m.cents}`;\n};\n"
        "export { formatMoney as fmt };\nexport default formatMoney;\n"
    )
    assert render_skeleton(summarize("money.ts", source)) == (
        "// An amount in cents.\n// fields: cents, currency\ninterface Money { … }\n"
        "    format(): string;\n"
        "// fields: sides\nabstract class Shape { … }\n    abstract area(): number;\n"
        "// Formats an amount.\nconst formatMoney = (m: Money): string => {…}\n"
    )
    js = summarize("util.js", "export const twice = (x) => 2 * x;\nexport let count = 0;\n")
    assert [d.name for d in js.definitions] == ["twice", "count"]
    # plain JavaScript class fields, beside the ``this.x =`` assignments
    js = summarize("k.js", "class K {\n  count = 0;\n  static defaults = {};\n  #secret = 1;\n}\n")
    assert render_skeleton(js) == "// fields: count, defaults, #secret\nclass K { … }\n"


def test_typescript_type_aliases_are_whole_and_arrow_constants_show_their_elided_body() -> None:
    """In hono's modules, ``type Handler = (c: Context) => Response`` read ``… => Response {
    … }`` (a body a type alias has not), and ``const isSite = (v: string): v is Site =>``
    (its body on the next line) ended at ``=>`` with nothing after it."""
    source = (
        "type Site = (typeof sites)[number]\n"
        "export type Handler<E extends Env = any> = (c: Context<E>) => Response\n"
        "const isSite = (value: string): value is Site =>\n"
        "  (sites as readonly string[]).includes(value)\n"
    )
    assert render_skeleton(summarize("csrf.ts", source)) == (
        "type Site = (typeof sites)[number]\n"
        "type Handler<E extends Env = any> = (c: Context<E>) => Response\n"
        "const isSite = (value: string): value is Site => …\n"
    )
    # an object type is an interface written as a type: its properties listed, body elided
    options = summarize("cors.ts", (
        "/** CORS options. */\ntype CORSOptions = {\n  origin?: string | ((o: string) => string)\n"
        "  maxAge?: number\n}\n"
    ))
    assert render_skeleton(options) == (
        "// CORS options.\n// fields: origin, maxAge\ntype CORSOptions = { … }\n"
    )
    # Python keeps its first lines as they were (a continued line closes nothing)
    assert render_skeleton(summarize("a.py", "X = 1 + \\\n    2\n")) == "X = 1 + \\\n"


def test_go_and_rust_types_list_their_fields_and_variants() -> None:
    """``type Order struct { … }`` hid ID and Total, what ``o.`` completes to (C structs, Java
    enums and TS interfaces listed theirs); a Go interface its methods, a Rust enum its
    variants."""
    go = summarize(
        "order.go",
        "package shop\n\ntype Order struct {\n\tID, Ref int64\n\tTotal float64 `json:\"t\"`\n"
        "\t*Base\n}\n\ntype Saver interface {\n\tSave(o Order) error\n\tio.Closer\n}\n",
    )
    assert render_skeleton(go) == (
        "// fields: ID, Ref, Total\ntype Order struct { … }\n"
        "// fields: Save\ntype Saver interface { … }\n"
    )
    rust = summarize(
        "shape.rs", "pub struct Order { pub id: i64, total: f64 }\n"
        "pub enum Shape { Circle(f64), Square { side: f64 } }\n",
    )
    assert render_skeleton(rust) == (
        "// fields: id, total\npub struct Order { … }\n"
        "// fields: Circle, Square\npub enum Shape { … }\n"
    )
    # a type with no body is shown whole: it read "type H func(w { … }", "pub struct P { … }"
    go = summarize("h.go", "package h\n\ntype ID int64\ntype H func(w io.Writer, n int) error\n")
    assert render_skeleton(go) == "type ID int64\ntype H func(w io.Writer, n int) error\n"
    rust = summarize("p.rs", "pub struct P(i32, i32);\n")
    assert render_skeleton(rust) == "pub struct P(i32, i32);\n"


def test_members_are_listed_once_under_the_class_that_holds_them() -> None:
    """Members went under every definition of their class's name: a Rust method under the
    struct and again under its ``impl`` (every Rust file's skeleton paid for its methods
    twice), a Python class defined in two branches got both bodies' methods twice."""
    rust = summarize(
        "order.rs",
        "pub struct Order { id: u64 }\nimpl Order {\n    pub fn id(&self) -> u64 { self.id }\n}\n",
    )
    assert render_skeleton(rust) == (
        "// fields: id\npub struct Order { … }\nimpl Order { … }\n"
        "    pub fn id(&self) -> u64 { … }\n"
    )
    twice = "class A:\n    def f(self): pass\n\nclass A:\n    def g(self): pass\n"
    python = summarize("a.py", twice)
    assert render_skeleton(python) == (
        "class A:\n    def f(self):\n        ...\nclass A:\n    def g(self):\n        ...\n"
    )


def test_a_method_of_a_type_defined_in_another_file_is_in_the_skeleton() -> None:
    """A Go method whose receiver type is in another file of the package was left out (its
    qualname names a class the file does not have); so would a C++ ``Shape::area``."""
    go = summarize("run.go", "package m\n// Run runs.\nfunc (s *Srv) Run() error { return nil }\n")
    assert render_skeleton(go) == "// Run runs.\nfunc (s *Srv) Run() error { … }\n"
    cpp = summarize("shape.cpp", "double Shape::area() const { return 0; }\n")
    assert render_skeleton(cpp) == "double Shape::area() const { … }\n"


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
