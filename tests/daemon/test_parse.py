"""Tree-sitter summaries: definitions, signatures, docs, imports, partial parses."""

from __future__ import annotations

import pytest

from daemon.languages import detect_language
from daemon.parse import mask_prose, summarize
from daemon.symbols import Definition, DefKind, FileSummary

PY = '''"""Module doc."""
import os.path as osp
from collections import deque, OrderedDict as OD

LIMIT = 10


class Queue(Base):
    """A queue."""

    maxsize: int = 0

    def __init__(self, maxsize: int = 0) -> None:
        self.items = deque()

    @property
    def size(self) -> int:
        """Number of items."""
        return len(self.items)


def helper(a, b=2, *args, **kw) -> str:
    return str(a)
'''


def _defs(summary: FileSummary) -> dict[str, Definition]:  # qualname -> definition
    return {d.qualname: d for d in summary.definitions}


def test_python_definitions_keep_name_params_return_type_and_doc() -> None:
    s = summarize("pkg/q.py", PY)
    defs = _defs(s)
    assert defs["Queue"].kind is DefKind.CLASS
    assert defs["Queue"].doc == "A queue."
    assert defs["Queue"].attributes == ("maxsize", "items")
    init = defs["Queue.__init__"]
    assert init.kind is DefKind.METHOD and init.parent == "Queue"
    assert init.params == "(self, maxsize: int = 0)"
    assert init.return_type == "None"
    assert init.signature == "def __init__(self, maxsize: int = 0) -> None:"
    size = defs["Queue.size"]
    assert size.signature.startswith("@property def size(self) -> int:")
    assert size.doc == "Number of items."
    assert defs["helper"].params == "(a, b=2, *args, **kw)"
    assert defs["LIMIT"].kind is DefKind.VARIABLE
    assert (init.start_line, init.end_line, init.body_start_line) == (12, 13, 13)


def test_a_signature_has_no_comments_of_its_lines_or_of_the_body_top() -> None:
    """Put on one line, a comment inside a signature commented out the rest of it
    (``class Context< // eslint-disable…  E extends Env = any, …> {``), and in Python the
    comment block opening a body was part of the signature (optparse's ``def
    format_option(self, option): # The help for each option consists of two parts: …``, up
    to 400 characters: a related class so rendered often found no room)."""
    python = summarize("opt.py", (
        "def format_option(self, option):\n    # The help for each option\n"
        "    # consists of two parts.\n    return option\n\n"
        "def f(a,  # first\n      b):  # second\n    return a\n"
    ))
    assert [d.signature for d in python.definitions] == [
        "def format_option(self, option):", "def f(a, b):"
    ]
    ts = summarize("context.ts", (
        "export class Context<\n  // eslint-disable-next-line\n  E extends Env = any,\n"
        "  P extends string = any, // the path\n> {\n  x = 1\n}\n"
    ))
    assert ts.definitions[0].signature == (
        "class Context< E extends Env = any, P extends string = any, >"
    )


def test_python_imports_bind_names() -> None:
    s = summarize("q.py", PY)
    assert [(i.module, i.names, i.alias) for i in s.imports] == [
        ("os.path", (), "osp"),
        ("collections", ("deque", "OD"), ""),
    ]


def test_go_imports_single_and_grouped() -> None:
    s = summarize("a.go", 'package a\nimport "os"\nimport (\n\t"fmt"\n\tx "a/b/c"\n)\n')
    assert [(i.module, i.alias, i.text) for i in s.imports] == [
        ("os", "os", 'import "os"'),
        ("fmt", "fmt", 'import "fmt"'),
        ("a/b/c", "x", 'import x "a/b/c"'),
    ]


@pytest.mark.parametrize(
    ("path", "source", "expected"),
    [
        (
            "a.ts",
            "/** Adds two. */\nexport function add(x: number, y: number): number { return x + y }\n"
            "interface Shape { area(): number }\nclass Box { size(): number { return 1 } }\n",
            {"add": ("function", "Adds two."), "Shape": ("class", ""), "Box.size": ("method", "")},
        ),
        (
            "a.js",
            "// Greets.\nfunction hi(name) { return name }\nclass A { m() { this.x = 1 } }\n",
            {"hi": ("function", "Greets."), "A": ("class", ""), "A.m": ("method", "")},
        ),
        (
            "a.go",
            "package m\n// Run runs.\nfunc (s *Srv) Run(ctx Ctx) error { return nil }\n"
            "type Srv struct { n int }\n",
            {"Srv.Run": ("method", "Run runs."), "Srv": ("class", "")},
        ),
        (
            "a.rs",
            "/// Makes one.\npub fn make(n: u32) -> Thing { Thing }\nstruct Thing;\n"
            "impl Thing { fn go(&self) -> bool { true } }\n",
            {"make": ("function", "Makes one."), "Thing.go": ("method", "")},
        ),
        (
            "a.tsx",
            "export function App(props: Props): JSX.Element { return <div/> }\n",
            {"App": ("function", "")},
        ),
    ],
)
def test_other_languages(path: str, source: str, expected: dict[str, tuple[str, str]]) -> None:
    s = summarize(path, source)
    defs = _defs(s)
    for qualname, (kind, doc) in expected.items():
        assert qualname in defs, (qualname, list(defs))
        assert defs[qualname].kind.value == kind
        assert defs[qualname].doc == doc


def test_typescript_return_type_is_kept() -> None:
    d = _defs(summarize("a.ts", "function f(a: string): Promise<void> { }\n"))["f"]
    assert d.params == "(a: string)" and "Promise<void>" in d.return_type


def test_syntax_errors_keep_partial_results() -> None:
    broken = "def good(a):\n    return a\n\ndef bad(:\n    pass\n\nclass Still:\n    pass\n"
    s = summarize("b.py", broken)
    assert s.has_syntax_errors
    assert "good" in _defs(s)
    assert "Still" in _defs(s)


def test_plain_text_gets_its_size_and_digest_only() -> None:
    s = summarize("notes.md", "alpha beta\ngamma")
    assert s.language == "text" and not s.definitions and not s.imports
    assert (s.num_lines, s.num_bytes) == (2, 16) and s.digest


def test_detect_language() -> None:
    assert detect_language("x/y.py") == "python"
    assert detect_language("a.TSX") == "tsx"
    assert detect_language("Makefile") == "text"


def test_mask_prose_blanks_strings_and_comments_only() -> None:
    text = 'x = "hello world"  # note\ny = f(z)\n'
    masked = mask_prose(text, "python").decode()
    assert len(masked.encode()) == len(text.encode())
    assert "hello" not in masked and "note" not in masked
    assert "y = f(z)" in masked


def test_summaries_are_deterministic() -> None:
    assert summarize("q.py", PY) == summarize("q.py", PY)


def test_prose_spans_are_the_multi_line_strings_and_comments_outermost_first() -> None:
    text = (
        '"""Module doc.\n'  # 0
        "\n"
        'Second paragraph."""\n'  # 2
        "x = 'one line'  # a comment\n"  # 3
        'y = f"""a {\n'  # 4
        '    """nested\n'
        '    inner""" } b\n'
        '"""\n'  # 7
        "/* not a comment in python */\n"
        "def f():\n"  # 9
        "    '''Doc.\n"
        "    '''\n"  # 11
        "    return 1\n"
    )
    summary = summarize("m.py", text, prose=True)
    assert summary.prose_spans == ((0, 2), (4, 7), (10, 11))
    assert summary.prose_span_at(1) == (0, 2) and summary.prose_span_at(2) == (0, 2)
    assert summary.prose_span_at(0) is None  # its first line opens it: a cut there is fine
    assert summary.prose_span_at(3) is None and summary.prose_span_at(12) is None
    assert summarize("m.py", text).prose_spans == ()  # the index does not need them
    js = "/* one\n * two\n */\nlet x = 1; // c\nconst t = `a\nb`;\n"
    assert summarize("m.js", js, prose=True).prose_spans == ((0, 2), (4, 5))


def test_literal_spans_are_the_bracketed_expressions_spanning_lines_nested_too() -> None:
    text = (
        "x = {\n"  # 0
        "    'a': 1,\n"
        "    'b': f(\n"  # 2
        "        2,\n"
        "        3),\n"  # 4
        "}\n"
        "def g(a,\n"  # 6
        "      b):\n"
        '    s = """doc\n'  # 8
        '    more"""\n'
        "    return [a, b]\n"  # one line: no span
    )
    summary = summarize("m.py", text, prose=True)
    assert summary.literal_spans == ((0, 5), (2, 4), (6, 7))
    assert summary.prose_spans == ((8, 9),)
    assert summary.spans_continued_at(3) == [(0, 5), (2, 4)]  # outermost first
    assert summary.spans_continued_at(5) == [(0, 5)]  # its closing line
    assert summary.spans_continued_at(0) == [] and summary.spans_continued_at(2) == [(0, 5)]
    assert summary.spans_continued_at(9) == [(8, 9)]  # a string's continuation counts too
    assert summary.spans_continued_at(10) == []
    assert summarize("m.py", text).literal_spans == ()  # the index does not need them
    js = "const o = {\n  a: [\n    1,\n  ],\n};\nf(1,\n  2);\n"
    assert summarize("m.js", js, prose=True).literal_spans == ((0, 4), (1, 3), (5, 6))


def test_typescript_object_types_keep_their_members_apart_without_doc_comments() -> None:
    """hono: ``opts: { ctx: Context error: string }`` on one line is no type (members end with
    a line break), and ``/** Transport protocol type */`` blocks filled a type alias."""
    source = """\
export type NetAddrInfo = {
  /**
   * Transport protocol type
   */
  transport?: 'tcp' | 'udp'
  port?: number

  address?: string
} & ({ kind: 'a' } | { kind: 'b', extra: number })

function unauthorizedResponse(opts: {
  ctx: Context
  error: string // shown to the user
  realm?: string
}) {
  return opts
}
"""
    defs = {d.name: d.signature for d in summarize("conninfo.ts", source).definitions}
    assert defs["NetAddrInfo"] == ("type NetAddrInfo = { transport?: 'tcp' | 'udp'; port?: number;"
                                   " address?: string } & ({ kind: 'a' } | { kind: 'b', extra:"
                                   " number })")
    assert defs["unauthorizedResponse"] == (
        "function unauthorizedResponse(opts: { ctx: Context; error: string; realm?: string })")


def test_go_struct_fields_in_a_signature_are_kept_apart() -> None:
    source = "package p\n\nfunc Run(opts struct {\n\tName string\n\tSize int\n}) error {\n" \
             "\treturn nil\n}\n"
    (run,) = [d for d in summarize("run.go", source).definitions if d.name == "Run"]
    assert run.signature == "func Run(opts struct { Name string; Size int }) error"

