"""daemon/grammar_fixes.py: TypeScript generic call signatures without semicolons
(tree-sitter-typescript#335) no longer turn the rest of a file into one ERROR node, and C/C++
export and thread-safety annotation macros no longer hide a class's members."""

from __future__ import annotations

from pathlib import Path

from daemon.grammar_fixes import (
    apply_edits,
    c_macro_edits,
    call_signature_edits,
    error_bytes,
    parse,
)
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
    fixed = apply_edits(data, call_signature_edits(data))
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
    assert call_signature_edits(source) == []


def test_hono_types_ts_is_summarised() -> None:
    """hono's src/types.ts (2,778 lines: Env, Handler, MiddlewareHandler, Input) parsed as
    one ERROR node, so none of its types reached a prompt."""
    path = REPO / "bench/corpora/hono/src/types.ts"
    summary = summarize(str(path), path.read_text())
    names = {d.name for d in summary.definitions}
    assert {"Env", "Handler", "MiddlewareHandler", "Input", "HandlerInterface"} <= names
    assert not summary.has_syntax_errors and len(summary.definitions) >= 50


# --- C and C++: export and annotation macros ---------------------------------------------------

ANNOTATED = """\
class Q_CORE_EXPORT QString
{
public:
    int size() const;
};

class LEVELDB_EXPORT Cache : public Base {
 public:
  void Lock() EXCLUSIVE_LOCK_FUNCTION() { mu_.lock(); }
  bool FinishErase(Handle* e)
      EXCLUSIVE_LOCKS_REQUIRED(mutex_);
  size_t Usage() const LOCKS_EXCLUDED(mutex_);

 private:
  size_t usage_ GUARDED_BY(mutex_);
};

LEVELDB_EXPORT Cache* NewLRUCache(size_t capacity);

int Helper(int x) {
  if (x) return CHECK_VALUE(x);
  return 0;
}

extern "C" {
LEVELDB_EXPORT const char* leveldb_version(void);
}
"""


def test_cpp_export_and_annotation_macros_leave_the_classes_whole() -> None:
    """tree-sitter-cpp took ``class LEVELDB_EXPORT Cache`` for a function (its members lost)
    and made ERROR nodes of annotated fields and methods; blanked, they parse, and the
    signatures are still the file's own text."""
    import tree_sitter

    from daemon.languages import ts_language

    parser = tree_sitter.Parser(ts_language("cpp"))
    data = ANNOTATED.encode()
    assert error_bytes(parser.parse(data).root_node) > 0  # as the grammar parses it
    fixed = apply_edits(data, c_macro_edits(data))
    assert len(fixed) == len(data) and fixed.count(b"\n") == data.count(b"\n")
    assert error_bytes(parser.parse(fixed).root_node) == 0
    assert b"CHECK_VALUE(x)" in fixed  # a statement's own macro call stays
    # parsed from the first tree, told of the edits: the same tree as a whole parse
    assert str(parse(parser, "cpp", data).root_node) == str(parser.parse(fixed).root_node)
    summary = summarize("cache.h", ANNOTATED)
    assert not summary.has_syntax_errors
    found = {(d.kind.name, d.name, d.parent) for d in summary.definitions}
    assert {("CLASS", "QString", ""), ("METHOD", "size", "QString"), ("CLASS", "Cache", ""),
            ("METHOD", "Lock", "Cache"), ("METHOD", "FinishErase", "Cache"),
            ("METHOD", "Usage", "Cache"), ("VARIABLE", "usage_", "Cache"),
            ("FUNCTION", "NewLRUCache", ""), ("FUNCTION", "Helper", ""),
            ("FUNCTION", "leveldb_version", "")} <= found
    by_name = {d.name: d for d in summary.definitions}
    assert by_name["Cache"].signature == "class LEVELDB_EXPORT Cache : public Base"
    assert by_name["FinishErase"].signature == (
        "bool FinishErase(Handle* e) EXCLUSIVE_LOCKS_REQUIRED(mutex_);")


def test_the_parameter_rules_run_on_the_lines_of_the_errors_only() -> None:
    """The parameter-annotation and ``va_arg`` patterns cost about 40 us a KB: ``parse`` runs
    them on the lines of the first tree's errors (and the line before each), not the file."""
    import tree_sitter

    from daemon.grammar_fixes import error_lines
    from daemon.languages import ts_language

    clean = "".join(f"int f{i}(int a, int b) {{\n  return a + b;\n}}\n" for i in range(50))
    source = clean + "void cb(gchar *argv[] G_GNUC_UNUSED)\n{\n}\n" + clean
    data = source.encode()
    tree = tree_sitter.Parser(ts_language("c")).parse(data)
    regions = error_lines(tree.root_node, data)
    assert regions and all(end - start < 200 for start, end in regions)
    at = data.index(b"G_GNUC_UNUSED")
    assert any(start <= at < end for start, end in regions)
    assert c_macro_edits(data, regions) == c_macro_edits(data)
    assert not summarize("cb.c", source).has_syntax_errors


def test_c_macro_look_alikes_are_left_alone() -> None:
    """Types in capitals and macro calls that are code are not blanked."""
    source = (b"MY_TYPE f(int);\nstruct MY_S var;\nDWORD size = 0;\nFILE* open_it(void);\n"
              b"int g(void) { return FOO_BAR(x); }\nenum class COLOR_T : int { RED };\n"
              b"BOOL WINAPI DllMain(void);\n"
              b"int h(DWORD n, MY_TYPE value);\nx = f(a, FOO_BAR);\nuse(x, BAR_BAZ)\n")
    assert c_macro_edits(source) == []


def test_c_parameter_annotations_and_va_arg_types_parse() -> None:
    """hiredis: GLib's ``gchar *argv[] G_GNUC_UNUSED``, macOS's ``CFSocketRef __unused s``,
    libev's ``(EV_P_ ev_io *watcher, int revents)`` (a macro for a leading parameter) and
    ``va_arg(ap,long long)`` (a type as an argument) made ERROR nodes; the edits keep every
    offset, and the names stay related-definition lookups."""
    import tree_sitter

    from daemon.grammar_fixes import annotation_macros
    from daemon.languages import ts_language

    source = (
        "static void\nconnect_cb (const redisAsyncContext *ac G_GNUC_UNUSED,\n"
        "            int status)\n{\n  (void) status;\n}\n\n"
        "gint\nmain (gint argc     G_GNUC_UNUSED,\n      gchar *argv[] G_GNUC_UNUSED)\n{\n"
        "  return 0;\n}\n\n"
        "static void readEvent(EV_P_ ev_io *watcher, int revents) {\n  (void) revents;\n}\n\n"
        "static void callback(CFSocketRef __unused s, CFDataRef __unused address, "
        "const void __unused *data, void *info) {\n}\n\n"
        "static long next(va_list ap) {\n  char *str = va_arg(ap,char*);\n"
        "  long long num = va_arg(ap, long long);\n  redisReply *r = va_arg(ap, redisReply*);\n"
        "  return num + (long) str + (long) r;\n}\n"
    )
    parser = tree_sitter.Parser(ts_language("c"))
    data = source.encode()
    assert error_bytes(parser.parse(data).root_node) > 0
    fixed = apply_edits(data, c_macro_edits(data))
    assert len(fixed) == len(data) and fixed.count(b"\n") == data.count(b"\n")
    assert error_bytes(parser.parse(fixed).root_node) == 0
    summary = summarize("glib.c", source)
    assert not summary.has_syntax_errors
    by_name = {d.name: d for d in summary.definitions}
    assert {"connect_cb", "main", "readEvent", "callback", "next"} <= set(by_name)
    assert by_name["readEvent"].signature == (
        "static void readEvent(EV_P_ ev_io *watcher, int revents)")  # the file's own text
    assert annotation_macros(source, "c") == set()  # still looked up (EV_P_'s #define)


def test_leveldb_db_h_keeps_the_members_of_db() -> None:
    path = REPO / "bench/corpora/leveldb/include/leveldb/db.h"
    summary = summarize(str(path), path.read_text())
    members = {d.name for d in summary.definitions if d.parent == "DB"}
    assert {"Open", "Put", "Delete", "Write", "Get", "NewIterator", "GetSnapshot"} <= members
    assert not summary.has_syntax_errors


def test_the_incremental_second_parse_is_the_whole_parse_of_the_fixed_text() -> None:
    """``parse`` tells a copy of the first tree of the edits and parses from it (1-2 ms for
    hiredis's test.c against 12 for a whole parse): on every corpus file a work-around edits,
    the tree it keeps is the one a whole parse of the edited text would give (or the first)."""
    import tree_sitter

    from daemon.grammar_fixes import _FIXES, work_around_edits
    from daemon.languages import detect_language, ts_language

    checked = 0
    for path in sorted((REPO / "bench" / "corpora").rglob("*")):
        language = detect_language(str(path))
        if language not in _FIXES or not path.is_file():
            continue
        data = path.read_bytes()
        parser = tree_sitter.Parser(ts_language(language))
        first = parser.parse(data)
        edits = work_around_edits(_FIXES[language], data, first)
        if not first.root_node.has_error or not edits:
            continue
        whole = parser.parse(apply_edits(data, edits))
        better = whole if error_bytes(whole.root_node) < error_bytes(first.root_node) else first
        assert str(parse(parser, language, data).root_node) == str(better.root_node), path
        checked += 1
    assert checked >= 20  # hono's TypeScript, leveldb's and hiredis's C/C++
