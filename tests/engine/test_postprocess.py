"""Post-processing tables: source with a cursor marker (█), the model's raw output, the result."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.base import FinishReason
from engine.blocks import BlockScope, block_end, block_scope, decide_multiline
from engine.code_scan import open_state
from engine.healing import heal_start, split_trailing_blanks
from engine.postprocess import cut_repetition, postprocess
from engine.stream_filter import StreamFilter, filter_stream

CURSOR = "█"
FIXTURES = Path(__file__).parent / "fixtures" / "bad_outputs.json"


def split(source: str) -> tuple[str, str]:
    prefix, suffix = source.split(CURSOR)
    return prefix, suffix


MULTILINE_CASES = [
    # (source, language, multiline)
    ("def f(x):█\n", "python", True),
    ("def f(x):\n    █\n", "python", True),
    ("if ready:  # go█\n", "python", True),
    ('def f():\n    """█\n', "python", True),
    ("x = foo(█)\n", "python", False),  # only closers after the cursor: decided by the line
    ("x = compute(█, y)\n", "python", False),
    ("total = █\n", "python", False),
    ("for item in items█\n", "python", False),
    ("function f(a) {█\n}\n", "javascript", True),
    # Java, C, C++: a line ending with "{" opens a block, as in JS, Go and Rust
    ("public int size() {█\n}\n", "java", True),
    ("    for (String s : names) {  // each█\n", "java", True),
    ('    String url = "http://x";█\n', "java", False),
    ("int main(void) {█\n", "c", True),
    ("int main(void)\n{\n    █\n}\n", "c", True),
    ("    total += values[█];\n", "c", False),
    ("template <typename T> struct Box {█\n};\n", "cpp", True),
    ("    if (c == '{') return█\n", "c", False),
    # a block comment ending the line (C, C++, Java): the "{" before it opens the block
    ("int count(const int *xs, size_t n) { /* counts > 0 */█\n}\n", "c", True),
    ("    } else { /* fallback */ /** twice */█\n", "java", True),
    # a comment marker inside a string is text; PHP ``#`` comments, Lua ``--`` comments
    ('    if x == "#":█\n', "python", True),
    ('    $c = "a{"; # note {█\n', "php", False),
    ("    if ($x) { # start█\n", "php", True),
    ("    local t = {} -- a table {█\n", "lua", False),
    # a closure's parameters after its brace end the line: its body comes below
    ("    let total = items.reduce(0) { acc, item in█\n", "swift", True),
    ("    items.forEach { item ->█\n", "kotlin", True),
    ("    for item in█\n", "swift", False),
    ('    let s = "{ in"█\n', "swift", False),
    ("    when (x) {\n        1 ->█\n", "kotlin", False),
    # a switch's case label: its statements come below
    ("    switch (kind) {\n    case KIND_A:█\n", "c", True),
    ("    switch shell {\n    case .bash, .zsh:█\n", "swift", True),
    ("\tswitch r.Method {\n\tdefault:█\n", "go", True),
    ("    case 'a': return 1;█\n", "javascript", False),
    ('    label = cond ? "a" : "b"█\n', "typescript", False),
    ("Box::Box() {  /* a */█\n}\n", "cpp", True),
    ("    x = 1; /* { */█\n", "c", False),
    ("    x = 1; /* } */ /* { */█\n", "c", False),
    ("const x = █;\n", "javascript", False),
    ("█", "python", True),
    ("import os\n█\n", "python", True),
    ("    return sel█f.value\n", "python", False),
]


@pytest.mark.parametrize(("source", "language", "expected"), MULTILINE_CASES)
def test_decide_multiline(source: str, language: str, expected: bool) -> None:
    prefix, suffix = split(source)
    assert decide_multiline(prefix, suffix, language) is expected


POSTPROCESS_CASES = [
    # (source, raw completion, multiline, expected)
    ("total = █\n", "a + b\nprint(total)", False, "a + b"),
    ("total = █\n", "\n\n", False, ""),
    ("x = foo(█)\n", "a, b))", False, "a, b"),  # the suffix closes foo( already
    ("x = foo(█)\n", "bar(1), 2)", False, "bar(1), 2"),  # own bracket kept, outer one dropped
    ("x = foo(bar(█))\n", "1)) + 2", False, "1"),
    ("print(█\n", "a, b)", False, "a, b)"),  # nothing after the cursor: closing is the model's
    # a later line closes the call: the completion must not (the class header's bases)
    ("class A(Base,\n        Mix█\n        Other):\n", "in, Other):", False, "in, Other"),
    ("x = foo(\n    a,\n    █\n)\n", "b)", False, "b"),
    ("x = [\n    foo(█\n]\n", "a, b)", False, "a, b)"),  # the ] below closes the list only
    ("    (1, █\n]\n", "2)", False, "2)"),  # a prompt starting inside the list: ] is not ours
    ("foo(bar(█\n)\n", "x)", False, "x)"),  # one ) below: one of the two is the completion's
    ("x = f(\n    '█\n)\n", "a)'", False, "a)'"),  # inside a string: its ) is text
    ("if x█:\n", " > 0:", False, " > 0"),  # repeats the rest of the line
    # mid-line, the model ended the line: the text after the cursor goes on, nothing to add
    ("x = compute(a█, b)\n", "\n    y = 2", False, ""),
    ("x = compute(█)\n", "\n    a, b", False, "\n    a, b"),  # only closers after it: kept
    (
        "def f():\n    █\n    return 1\n",
        "x = 1\n    return 1\n",
        True,
        "x = 1",
    ),  # repeats the line below
    (
        "def f():\n    █\n}\n",
        "g(x)\n    }",
        True,
        "g(x)",
    ),  # lone closer repeating the line below, completion opened nothing
    ("s = █\n", "'))))))))))))", False, "')"),  # repetition cut; the ) is in the string
    # a body the editor indented: the model's extra level goes, from every line that has it
    ("if x:\n    █\n", "    y = 1\n        z = 2", True, "y = 1\n    z = 2"),
    ("if x:\n    █\n", "    y = 1", False, "y = 1"),
    ("if x:\n█\n", "    y = 1", False, "    y = 1"),  # column 0: the model indents
    ("x = 1\n    █\n", "    y = 1", False, "    y = 1"),  # not a block's body: left as is
    ("if x:\n    y█\n", "    = 1", False, "    = 1"),  # typed text: left as is
]


@pytest.mark.parametrize(("source", "raw", "multiline", "expected"), POSTPROCESS_CASES)
def test_postprocess(source: str, raw: str, multiline: bool, expected: str) -> None:
    prefix, suffix = split(source)
    assert postprocess(raw, prefix, suffix, "python", multiline) == expected


BRACE_CASES = [
    # (language, source, raw completion, expected): multi-line decided from the source
    # after a "{" line: the body, up to the line the editor's closer below repeats
    (
        "java",
        "class A {\n    public int size() {█\n    }\n}\n",
        "\n        return items.size();\n    }\n\n    public void clear() {\n",
        "\n        return items.size();",
    ),
    (
        "c",
        "int main(void) {█\n}\n",
        "\n    int n = count(argv);\n    return n;\n}\n\nstatic int count(char **v) {\n",
        "\n    int n = count(argv);\n    return n;",
    ),
    # no closer below: the body and its closer, the next member left out
    (
        "cpp",
        "struct Box {\n    int size() const {█\n};\n",
        "\n        return n_;\n    }\n    int n_;\n",
        "\n        return n_;\n    }",
    ),
    (
        "java",
        "class A {\n    void run() {\n        if (ready) {█\n",
        "\n            go();\n        }\n        stop();\n    }\n",
        "\n            go();\n        }",
    ),
    # the closers the suffix has are dropped; a bracket in a char literal or a string of the
    # prefix opens nothing
    ("java", "    if (c == '(') list.add(foo(█));\n", "x));", "x"),
    ("c", '    printf("%d)\\n", f(█));\n', "x));", "x"),
    ("java", '    String s = "(" + f(█);\n', "a, b));", "a, b"),
    ("cpp", '    auto s = R"(a ")" + f(█);\n', "x));", "x"),
    ("cpp", "    if (c == ')') g(█);\n", "x));", "x"),
    # a completion that is the rest of the line (the ";" after the cursor): nothing to insert
    ("c", "    int count = 0█;\n}\n", ";", ""),
    ("java", "        return total█;\n", " ;", ""),
    ("c", "    int count = █;\n", "0;", "0"),
]


@pytest.mark.parametrize(("language", "source", "raw", "expected"), BRACE_CASES)
def test_postprocess_brace_languages(language: str, source: str, raw: str, expected: str) -> None:
    """Java, C and C++ completions are cleaned as JavaScript's are (the same result for the
    same text), strings and char literals of each language skipped."""
    prefix, suffix = split(source)
    multiline = decide_multiline(prefix, suffix, language)
    assert postprocess(raw, prefix, suffix, language, multiline) == expected
    if "'" not in source and 'R"' not in source:  # no char literal in JS: the same text
        assert multiline is decide_multiline(prefix, suffix, "javascript")
        assert postprocess(raw, prefix, suffix, "javascript", multiline) == expected


def _fixtures() -> list[dict[str, str]]:
    data: list[dict[str, str]] = json.loads(FIXTURES.read_text("utf-8"))
    return data


@pytest.mark.parametrize("case", _fixtures(), ids=lambda c: c["note"][:40])
def test_saved_bad_outputs(case: dict[str, str]) -> None:
    prefix, suffix = split(case["source"])
    multiline = decide_multiline(prefix, suffix, case["language"])
    out = postprocess(case["raw"], prefix, suffix, case["language"], multiline)
    assert out == case["expected"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # chi's router-walk example: ``r.Route("/road", func(r chi.Ro`` completed in a loop
        ("ute) func(r chi.Route) func(r chi.Route) func(r chi.Route) func(r chi.Route) func(r",
         "ute) func(r chi.Route)"),
        ("foo()\n    bar()\n    foo()\n    bar()\n    foo()\n    bar()\n    foo()",
         "foo()\n    bar()"),
        # stdlib eval (test_sundry.py): no comma left dangling where the loop is cut
        ("rt import_helper, skip_if_missing, skip_if_not_exists, skip_if_not_exists, "
         "skip_if_not_exists, skip_if_not_exi", "rt import_helper, skip_if_missing, "
         "skip_if_not_exists"),
        ("x = [a, b, b, b, b, b, b, b", "x = [a, b"),
        # two copies, or similar calls: code, not a loop
        ("x = pick(a_long_name_here, a_long_name_here, b)", None),
        ("assert_equal(x, 1); assert_equal(y, 2); assert_equal(z, 3)", None),
    ],
)
def test_a_longer_chunk_repeated_three_times_at_the_end_is_cut(
    text: str, expected: str | None
) -> None:
    """Chunks of up to 12 characters needed 6 copies, and a longer one was never cut: the
    0.5B's ``func(r chi.Route)`` loop ran to the token limit."""
    assert cut_repetition(text) == (text if expected is None else expected)


def test_cut_repetition_keeps_normal_text() -> None:
    text = "a = 1\nb = 2\nc = 3"
    assert cut_repetition(text) == text
    assert cut_repetition("x\nx\nx\nx") == "x"


CUT_SHORT_CASES = [
    # (source, language, raw output stopped by the token cap, what is shown)
    # the last line is cut off: the next token might have gone on with it
    ("def f(xs):\n    █\n", "python", "total = 0\n    for x in xs:\n        total += x\n    retu",
     "total = 0\n    for x in xs:\n        total += x"),
    # a block opened without its body, a bracket left open: back to the last whole statement
    ("def f(xs):\n    █\n", "python", "total = 0\n    for x in xs:\n        total +",
     "total = 0"),
    ("def f(xs):\n    █\n", "python", "log(\n        'start',\n        len(xs),\n",
     "log(\n        'start',\n        len(xs),"),
    ("def f(xs):\n    █\n", "python", "a = 1\n    s = \"\"\"\n    text\n    more",
     "a = 1"),
    ("function f(xs) {\n  █\n}\n", "javascript",
     "let t = 0;\n  if (xs) {\n    t = xs.length;\n    t",
     "let t = 0;"),
    ("function f(xs) {\n  █\n}\n", "javascript", "if (xs) {\n    t = xs.length;\n    t",
     "if (xs) {\n    t = xs.length;"),
    # Ruby: a block is open until its ``end``
    ("def f(xs)\n  █\nend\n", "ruby", "total = 0\n  xs.each do |x|\n    total += x\n    lo",
     "total = 0"),
    ("def f(xs)\n  █\n  log(xs)\nend\n", "ruby",
     "total = 0\n  if xs.empty?\n    return 0\n  else\n    1\n  end\n  tot",
     "total = 0\n  if xs.empty?\n    return 0\n  else\n    1\n  end"),
    # a line that ends inside a string it opened is no whole line either
    ("function f(xs) {\n  █\n}\n", "javascript", "let t = 0;\n  log('a\n  t",
     "let t = 0;"),
    # a comment is no block's body: ``if x:\n    # note`` does not compile (stdlib eval)
    ("def f(xs):\n    █\n", "python", "n = 0\n    if xs:\n        # count them\n        n",
     "n = 0"),
    ("def f(xs):\n    █\n", "python", "# start\n    n = len(xs)\n    retu",
     "# start\n    n = len(xs)"),
    # a Ruby block in braces ends at its ``}`` (a bracket), not at an ``end``
    ("def f(xs)\n  █\nend\n", "ruby", "ys = xs.map { |x|\n    x * 2\n  }\n  log(ys,\n      xs",
     "ys = xs.map { |x|\n    x * 2\n  }"),
    # a heredoc's body is a string: its apostrophe opens nothing (Ruby, PHP)
    ("def f(db)\n  █\nend\n", "ruby",
     "sql = <<~SQL\n    SELECT name FROM users -- don't (yet\n  SQL\n  rows = db.query(sql)\n  ro",
     "sql = <<~SQL\n    SELECT name FROM users -- don't (yet\n  SQL\n  rows = db.query(sql)"),
    ("function f($db) {\n    █\n}\n", "php",
     "$sql = <<<EOT\n        It's (here\n        EOT;\n    $rows = $db->query($sql);\n    $",
     "$sql = <<<EOT\n        It's (here\n        EOT;\n    $rows = $db->query($sql);"),
    # one line: kept as it came (the user can take it word by word)
    ("def f(xs):\n    █\n", "python", "return sum(x for x in x", "return sum(x for x in x"),
]


def test_cutting_a_completion_short_takes_one_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    """whole_lines scanned the text again from its start for each line end: 102 ms for 6 KB
    whose first line opened a bracket (12 ms at 2 KB), on the request path."""
    import engine.blocks as pp

    scans: list[str] = []
    scan = pp.code_positions

    def counted(text: str, language: str, open_quote: list[str] | None = None) -> Any:
        scans.append(language)
        return scan(text, language, open_quote)

    monkeypatch.setattr(pp, "code_positions", counted)
    text = "log(\n" + "        compute(items),\n" * 4000 + "        x"
    assert pp.whole_lines(text, "python") == text[: text.rindex("\n") + 1]
    assert scans == ["python"]


@pytest.mark.parametrize("source,language,raw,expected", CUT_SHORT_CASES)
def test_a_multiline_completion_cut_short_ends_at_its_last_whole_line(
    source: str, language: str, raw: str, expected: str
) -> None:
    prefix, suffix = split(source)
    assert postprocess(raw, prefix, suffix, language, True, cut_short=True) == expected


def test_a_completion_that_ended_by_itself_is_not_cut_back() -> None:
    prefix, suffix = split("def f(xs):\n    █\n")
    raw = "total = 0\n    for x in xs:\n        total += x\n    return total"
    assert postprocess(raw, prefix, suffix, "python", True) == raw
    # single-line: the line as it came, cut short or not
    assert postprocess("retu", prefix, suffix, "python", False, cut_short=True) == "retu"


@pytest.mark.parametrize(
    ("source", "raw", "expected"),
    [
        # the completion's own ``if`` ends with an ``end`` like the line below: kept
        ("def f(xs)\n  █\nend\n", "n = 0\n  if xs.any?\n    n = 1\n  end\n  n",
         "n = 0\n  if xs.any?\n    n = 1\n  end\n  n"),
        ("def f(xs)\n  █\nend\n", "n = 0\n  if xs.any?\n    n = 1\n  end\nend\n\ndef g",
         "n = 0\n  if xs.any?\n    n = 1\n  end"),
        # a block in braces is no keyword block: the ``end`` repeating the line below goes
        ("def f(xs)\n  █\nend\n", "ys = xs.map { |x| x }\n  ys\nend\n",
         "ys = xs.map { |x| x }\n  ys"),
    ],
)
def test_a_ruby_completion_keeps_the_end_of_its_own_block(
    source: str, raw: str, expected: str
) -> None:
    """The line below the cursor is the enclosing ``end``: the completion was cut at the first
    ``end``, its own ``if``'s, and shown without it (a syntax error in place)."""
    prefix, suffix = split(source)
    assert postprocess(raw, prefix, suffix, "ruby", True) == expected


def test_a_closer_inside_a_heredoc_is_text() -> None:
    """rack's show_exceptions.rb: a cursor inside a heredoc of CSS; the ``}`` closing a rule
    was taken for a closer of the code's brackets and cut (nothing shown)."""
    prefix = "def page\n  <<~HTML\n    <style>\n      table { border: 0; }\n      "
    suffix = "\n    </style>\n  HTML\nend\n"
    assert postprocess("}", prefix, suffix, "ruby", False) == "}"
    assert postprocess("td { margin: 0; }", prefix, suffix, "ruby", False) == "td { margin: 0; }"


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("ruby", "sql = <<~SQL\n  SELECT (a, 'b\nSQL\nfoo(", (["("], "")),
        ("ruby", "sql = <<-'EOS'\n  don't\n  EOS\n", ([], "")),
        ("ruby", "sql = <<~SQL\n  SELECT (a\n", ([], "<<~SQL")),  # the text ends inside it
        ("ruby", "BANNER = <<~EOS", ([], "")),  # no body yet: the opener's line is code
        ("ruby", "x = a << b\nfoo(", (["("], "")),  # a shift, no heredoc
        ("ruby", "f(<<~A, <<~B)\n  a(\nA\n  b'\nB\ng(", (["("], "")),  # two, one after another
        ("php", "$s = <<<'EOT'\n  It's (\n  EOT;\nfoo(", (["("], "")),
        ("php", "$s = <<<EOT\n  It's\nEOTX\n", ([], "<<<EOT")),  # EOTX does not end it
        ("bash", "cat <<-EOF\n\tit's (\n\tEOF\nx <<< 'y'\n(", (["("], "")),
        ("python", "x = a <<b\n'", ([], "'")),  # no heredocs in Python
        # shell arithmetic: ``<<`` inside ``((`` shifts
        ("bash", "echo $((x << n))\nfoo(", (["("], "")),
        ("bash", "(( m = x<<n ))\nit's", ([], "'")),
    ],
)
def test_heredocs_are_strings_to_the_scans(
    language: str, text: str, expected: tuple[list[str], str]
) -> None:
    assert open_state(text, language) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# don't (\nfoo(", (["("], "")),  # a ``#`` comment: its apostrophe opens nothing
        ("$x = 1; # it's (\n", ([], "")),
        ("#[Route('/a', methods: ['GET'\n", (["[", "(", "["], "")),  # an attribute is code
        ("// it's (\nfoo(", (["("], "")),
        ("$c = '#fff'; foo(", (["("], "")),  # inside a string: no comment
    ],
)
def test_php_hash_comments_are_comments(text: str, expected: tuple[list[str], str]) -> None:
    """PHP has ``#`` line comments besides ``//``; only ``#[`` (a PHP 8 attribute) is code."""
    assert open_state(text, "php") == expected


@pytest.mark.parametrize(
    ("prefix", "raw", "multiline", "expected"),
    [
        # clikt eval, PropertiesValueSource.kt: ``{ … }`` copied from a skeleton
        ("    fun f() = source", "ce { … }", False, "ce {"),
        ("class A {\n    ", "val x = 1\n    fun f() = …\n    fun g()", True, "val x = 1"),
        ('s = "Loading…" + ', '"a…b"', False, '"a…b"'),  # the cursor line has one: text
        # a skeleton above the window has the marker (the prompt's prefix): still cut
        ("// class B { … }\nfun f() = source", "ce { … }", False, "ce {"),
    ],
)
def test_an_elision_marker_copied_from_a_skeleton_is_cut(
    prefix: str, raw: str, multiline: bool, expected: str
) -> None:
    assert postprocess(raw, prefix, "\n}\n", "kotlin", multiline) == expected


def test_a_line_break_asked_for_as_a_stop_ends_the_line() -> None:
    """The daemon asks for a stop at "\n" mid-line: a leading line break ends the stream too
    (single-line mode alone goes on to the end of the next line), as the end of a line."""
    f = StreamFilter(stop=("\n",), single_line=True)
    assert f.push("\n    total") == ("", FinishReason.NEWLINE)
    assert StreamFilter(single_line=True).push("\n    total") == ("\n    total", None)


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        ("python", "x = 1  # body\ny = 'a # b'\n", "x = 1" + " " * 8 + "\ny =  a # b \n"),
        ("javascript", "f(); /* a\nb */ g('u//v') // c\n", "f();     \n     g( u//v )     \n"),
        ("ruby", "s = <<~T\n  x # y\nT\nz # w\n", "s =     \n       \n \nz    \n"),
    ],
)
def test_without_comments(language: str, text: str, expected: str) -> None:
    """Comments blanked, string literals kept (their quotes blanked), heredoc bodies blanked."""
    from engine.code_scan import without_comments

    assert without_comments(text, language) == expected


def test_healing() -> None:
    assert split_trailing_blanks("    return ") == ("    return", " ")
    assert split_trailing_blanks("x\n    ") == ("x\n", "    ")
    assert heal_start(" a", " ") == ("a", "")
    assert heal_start("  ", "    ") == ("", "  ")
    assert heal_start("if", "    ") == ("if", "")


STREAM_CASES = [
    # (pieces, stop, single_line, expected emitted text)
    (["a + ", "b\n", "print()"], (), True, "a + b"),
    (["\n", "    x = 1\n", "y"], (), True, "\n    x = 1"),
    (["foo", "<|fi", "m_pad|>bar"], ("<|fim_pad|>",), False, "foo"),
    (["foo<", "bar"], ("<|fim_pad|>",), False, "foo<bar"),
    (["x\n", "x\n", "x\n", "x\n"], (), False, "x\nx\n"),  # already sent: kept
]


@pytest.mark.parametrize(("pieces", "stop", "single_line", "expected"), STREAM_CASES)
def test_filter_stream(
    pieces: list[str], stop: tuple[str, ...], single_line: bool, expected: str
) -> None:
    assert "".join(filter_stream(pieces, stop=stop, single_line=single_line)) == expected


def test_stream_filter_reasons_and_holdback() -> None:
    f = StreamFilter(stop=("STOP",))
    assert f.push("abc ST") == ("abc ", None)  # "ST" held back: could become STOP
    assert f.push("OP more") == ("", FinishReason.STOP)
    assert f.text == "abc "
    g = StreamFilter(single_line=True)
    assert g.push("x = 1\ny") == ("x = 1", FinishReason.NEWLINE)


# --- the end of the cursor's block (multi-line) ------------------------------------------------

METHOD_BODY = "class A:\n    def f(self):\n        "  # cursor on the first body line


def test_a_multiline_completion_ends_where_it_leaves_the_cursors_block() -> None:
    text = "x = 1\n        return x\n\n    def g(self):\n        pass\n"
    scope = block_scope(METHOD_BODY, "python")
    assert scope == BlockScope(8, False, "python")
    assert text[: block_end(text, scope)] == "x = 1\n        return x\n\n"
    assert postprocess(text, METHOD_BODY, "\n", "python", True) == "x = 1\n        return x"


def test_after_a_block_opener_a_line_no_deeper_than_it_ends_the_completion() -> None:
    prefix = "def f(x):"
    assert block_scope(prefix, "python") == BlockScope(0, True, "python")
    text = "\n    return x * 2\n\ndef g():\n    pass\n"
    assert postprocess(text, prefix, "\n", "python", True) == "\n    return x * 2"


def test_closers_strings_and_brackets_of_the_completion_do_not_end_it() -> None:
    scope = BlockScope(4, False)
    call = "a,\n    b,\n)\nbar()\n"  # ")" closes a bracket opened above the cursor
    assert call[: block_end(call, scope)] == "a,\n    b,\n)\n"
    doc = 'x = """first\nsecond at column 0\n"""\n    y = 1\nz = 2\n'
    assert doc[: block_end(doc, scope)] == 'x = """first\nsecond at column 0\n"""\n    y = 1\n'
    args = "foo(1,\n2)\nz = 3\n"
    assert args[: block_end(args, scope)] == "foo(1,\n2)\n"
    assert block_end("x = 1\n    y = 2\n    ", scope) is None  # no later line leaves the block


def test_the_stream_stops_at_the_block_end_and_never_shows_the_next_definition() -> None:
    pieces = ["x", " = 1\n", "        return", " x\n\n", "    ", "def", " g(self):\n", "  pass"]
    f = StreamFilter(block=block_scope(METHOD_BODY, "python"))
    shown, reason = "", None
    for piece in pieces:
        out, reason = f.push(piece)
        shown += out
        if reason is not None:
            break
    assert reason is FinishReason.STOP
    assert "def" not in shown and shown.rstrip() == "x = 1\n        return x"


def test_a_prompt_starting_inside_a_string_does_not_hide_the_open_brackets_at_the_cursor() -> None:
    """stdlib eval (test_lltrace.py): the window began inside a multi-line string, so the scan
    read its closing quotes as an opening one, saw no open bracket and cut ``ffset].arg, oparg)``
    to ``ffset``."""
    prefix = (
        "        first line of a string that began above the window\n"
        '        """)\n'
        "        for instr in instrs:\n"
        "            self.assertEqual(instr_map[o"
    )
    assert postprocess("ffset].arg, oparg)", prefix, "\n", "python", False) == "ffset].arg, oparg)"


@given(
    st.text(alphabet="ab) ,", max_size=60),
    st.text(alphabet="ab) ,", min_size=1, max_size=12),
    st.integers(min_value=0, max_value=9),
)
def test_repetition_is_found_from_the_tail_as_from_the_whole_text(
    head: str, chunk: str, times: int
) -> None:
    text = head + chunk * times
    whole = re.search(r"(.{1,12}?)\1{5,}$", text, flags=re.DOTALL)  # the definition
    expected = (  # where it is cut, no separator is left dangling
        text[: whole.start() + len(whole.group(1))].rstrip().rstrip(",").rstrip()
        if whole and whole.group(1).strip()
        else text
    )
    assert cut_repetition(text) == expected


@pytest.mark.parametrize(
    ("language", "text", "state"),
    [
        # Rust: a lifetime is code, a char literal (even of a bracket or a quote) a literal
        ("rust", "fn f<'a>(x: &'a str) -> &'a str {", (["{"], "")),
        ("rust", "match c { '(' => g('\\'', ", (["{", "("], "")),
        ("rust", "let s = \"multi (\nline", ([], '"')),  # Rust strings span lines
        ("haskell", "foldl' (f x", (["("], "")),  # a prime
        # Go: a raw string spans lines and has no escapes
        ("go", "s := `C:\\dir\\` + f(", (["("], "")),
        ("go", "q := `select (\n", ([], "`")),
        # JavaScript: a template literal spans lines; "'" and '"' end with the line
        ("javascript", "const t = `a (\n b", ([], "`")),
        ("typescript", "const t = `a ${x}` + g(", (["("], "")),
        # Python: a backtick is no quote; a single-quoted string ends with its line
        ("python", "x = f(`", (["("], "")),
        ("python", "s = 'it\nx = [", (["["], "")),
        # shell: no escapes in single quotes; Lua: long strings
        ("shell", "echo 'a\\' && f(", (["("], "")),
        ("lua", "local s = [[ ( ]] .. f(", (["("], "")),
        ("lua", "t[1] = g(", (["("], "")),  # one bracket opens no long string
        # Java, C, C++: a char literal holds one character (a quote or a bracket too), C++14
        # digit separators are code; Java text blocks and C++ raw strings span lines
        ("java", "char c = '('; f(", (["("], "")),
        ("java", "char q = '\\''; f(", (["("], "")),
        ("java", 'String t = """\n  a ( "quoted"\n', ([], '"""')),
        ("c", "if (c == '\"') g(", (["("], "")),
        ("c", 'puts("a (\nb', (["("], "")),  # a C string ends with its line
        ("cpp", "long n = 1'000; f(", (["("], "")),
        ("cpp", 'auto s = R"(C:\\dir\\ ( "x"\n', ([], 'R"(')),
        ("cpp", 'auto s = R"(a ( b)" + g(', (["("], "")),
        # unknown language: every common quote, each on one line
        ("", "x = `a` + f('(', ", (["("], "")),
    ],
)
def test_the_bracket_scan_knows_each_languages_strings(
    language: str, text: str, state: tuple[list[str], str]
) -> None:
    assert open_state(text, language) == state


def test_the_bracket_scan_skips_the_languages_comments_only() -> None:
    # `//` is floor division in Python: the brackets after it on the line count
    assert open_state("total = (n // 2)\nresult = compute(", "python") == (["("], "")
    assert open_state("total = (n // 2)\nresult = compute(", "") == (["(", "("], "")  # unknown
    assert open_state("x = f(  # (\n", "python") == (["("], "")  # a comment's bracket does not
    assert open_state("this.#count = g(", "javascript") == (["("], "")  # a private field
    assert open_state("call(a, // )\n", "javascript") == (["("], "")
    assert open_state("f(a /* ) */, b", "go") == (["("], "")  # a block comment's closer
    assert open_state("x = a /* b", "python") == ([], "")  # not a comment in Python
    # so a completion does not keep a closer the code before it never opened
    prefix = "total = (n // 2)\nresult = compute("
    assert postprocess("x))", prefix, "\n", "python", False) == "x)"


@pytest.mark.parametrize(
    ("completion", "prefix", "suffix", "language"),
    [
        ('print(")")', "    ", "\n", "python"),  # a closer inside the completion's string
        ("s = ')' + g(1)", "    ", "\n", "python"),
        ("x = f(a)  # ) closes", "    ", "\n", "python"),  # in its comment
        ('printf(")\\n");', "  ", "\n", "c"),
        ('}")', '    log(f"{x', "\n", "python"),  # the cursor in an f-string's braces
        ("a) more", '"""Doc."""\n    s = "(', '"\n', "python"),  # the cursor in a string
        ("bar) baz", "    # see foo(", "\n", "python"),  # the cursor in a comment
    ],
)
def test_brackets_in_strings_and_comments_are_text_not_closers(
    completion: str, prefix: str, suffix: str, language: str
) -> None:
    """``print(")")`` was cut to ``print(")"``: the ``)`` inside the string closed the call
    for the scan, so the real ``)`` counted as closing a bracket of the prefix."""
    assert postprocess(completion, prefix, suffix, language, False) == completion


def test_a_closer_the_suffix_has_is_still_dropped_after_a_string() -> None:
    assert postprocess('x, ")")', "    f(", ")\n", "python", False) == 'x, ")"'


# Ruby ends blocks with ``end``, PHP with braces (its methods' ``{`` often on a line of its own)
KEYWORD_BLOCK_CASES = [
    # (language, source, expected multi-line)
    ("ruby", "  def total█\n", True),
    ("ruby", "  def add(name, price)█\n  end\n", True),
    ("ruby", "  class Cart < Base█\n", True),
    ("ruby", "    items.each do |item|█\n", True),
    ("ruby", "    items.each_with_index do█\n", True),
    ("ruby", "    items.map { |item|█\n", True),
    ("ruby", "    if ready? # check first█\n", True),
    ("ruby", "    result = case kind█\n", True),
    ("ruby", "  def total = items.sum█\n", False),  # an endless method: one line
    ("ruby", "  def reset; end█\n", False),
    ("ruby", "    total = items.sum█\n", False),
    ("ruby", '    puts "#{x} do"█\n', False),
    ("php", "    public function store(Request $request): Response\n    {█\n", True),
    ("php", "    $total = $order->total();█\n", False),
]


@pytest.mark.parametrize(("language", "source", "expected"), KEYWORD_BLOCK_CASES)
def test_decide_multiline_in_ruby_and_php(language: str, source: str, expected: bool) -> None:
    prefix, suffix = split(source)
    assert decide_multiline(prefix, suffix, language) is expected


RUBY_CASES = [
    # (source, raw completion, expected): the block's ``end`` is kept, what follows it cut
    (
        "class Cart\n  def total█\n",
        "\n    items.sum\n  end\n\n  def other\n  end",
        "\n    items.sum\n  end",
    ),
    (
        "    items.each do |item|█\n",
        "\n      puts item\n    end\n    done",
        "\n      puts item\n    end",
    ),
    # an ``else`` at the ``if``'s column goes on with it
    (
        "    if ready?█\n",
        "\n      go\n    else\n      wait\n    end\n    log",
        "\n      go\n    else\n      wait\n    end",
    ),
    # in a body: the ``end`` of the enclosing method is the file's, the completion stops before
    ("  def total\n    █\n  end\n", "sum = 0\n    sum\n  end\n", "sum = 0\n    sum"),
]


@pytest.mark.parametrize(("source", "raw", "expected"), RUBY_CASES)
def test_ruby_completions_end_with_their_blocks_end(source: str, raw: str, expected: str) -> None:
    prefix, suffix = split(source)
    multiline = decide_multiline(prefix, suffix, "ruby")
    assert postprocess(raw, prefix, suffix, "ruby", multiline) == expected


@pytest.mark.parametrize("completion, prefix, kept, language", [
    # chi eval: the second ")" would have closed the function's "{"
    ('serID"))', 'func h(w http.ResponseWriter, r *http.Request) {\n\tuserID := r.PathValue("u',
     'serID")', "go"),
    # stdlib eval (test_dbm_gnu.py): ")" where the "[" of the subscript is open
    ("code key'.encode())", "    def t(self):\n        db['Uni", "code key'.encode()", "python"),
    # hono eval (utils/html.ts): one ")" for "(str", the next would close the "{" of the if
    ("as Promise<string>).callbacks || [])", "  if (x) {\n    str = (str as unknown ",
     "as Promise<string>).callbacks || []", "typescript"),
    ("x]) + 1", "    y = f(a[", "x]) + 1", "python"),  # innermost first, each of its kind
])
def test_a_closer_of_the_wrong_kind_for_the_open_prefix_bracket_ends_the_completion(
    completion: str, prefix: str, kept: str, language: str
) -> None:
    assert postprocess(completion, prefix, "\n", language, False) == kept
