"""daemon/grammar_fixes.py: TypeScript generic call signatures without semicolons
(tree-sitter-typescript#335) no longer turn the rest of a file into one ERROR node."""

from __future__ import annotations

from pathlib import Path

from daemon.grammar_fixes import error_bytes, semicolons_before_call_signatures
from daemon.parse import summarize

REPO = Path(__file__).parents[2]

OVERLOADS = """\
interface Get<E> {
  <Key extends keyof Map>(key: Key): Map[Key]
  // the variables of this request
  <Key extends keyof E['Variables']>(key: Key): E['Variables'][Key]
}

interface Body {
  <T extends BodyData>(
    options?: Partial<ParseBodyOptions>
  ): Promise<T>
  <
    T extends BodyData,
  >(options: ParseBodyOptions): Promise<T>
}

export function after(a: number): number {
  return a
}
"""


def test_the_overloads_parse_and_what_follows_them_is_found() -> None:
    import tree_sitter

    from daemon.languages import ts_language

    parser = tree_sitter.Parser(ts_language("typescript"))
    data = OVERLOADS.encode()
    assert error_bytes(parser.parse(data).root_node) > 0  # the grammar's bug, as shipped
    fixed = semicolons_before_call_signatures(data)
    assert len(fixed) == len(data) and fixed.count(b";") == 2  # before the 2nd of each pair
    assert error_bytes(parser.parse(fixed).root_node) == 0
    summary = summarize("get.ts", OVERLOADS)
    assert not summary.has_syntax_errors
    assert [d.name for d in summary.definitions] == ["Get", "Body", "after"]
    after = summary.definitions[-1]
    assert after.signature == "function after(a: number): number"  # the original text
    assert after.start_line == 15  # 0-based: rows kept


def test_expressions_opening_a_line_with_a_type_argument_are_left_alone() -> None:
    source = (b"const f =\n  <T>(x: T) => x\nfoo(\n  <T>(x: T) => x,\n)\n"
              b"const g = (a) =>\n  <T>(x: T) => x\n")
    assert semicolons_before_call_signatures(source) == source


def test_hono_types_ts_is_summarised() -> None:
    """hono's src/types.ts (2,778 lines: Env, Handler, MiddlewareHandler, Input) parsed as
    one ERROR node, so none of its types reached a prompt."""
    path = REPO / "bench/corpora/hono/src/types.ts"
    summary = summarize(str(path), path.read_text())
    names = {d.name for d in summary.definitions}
    assert {"Env", "Handler", "MiddlewareHandler", "Input", "HandlerInterface"} <= names
    assert not summary.has_syntax_errors and len(summary.definitions) >= 50
