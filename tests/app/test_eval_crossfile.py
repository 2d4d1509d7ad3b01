"""Cross-file points (``app/evaluation/crossfile.py``): a name counts only when the current file
takes it from another file, never when it binds the same name itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.config import Config
from app.evaluation.corpus import build_index
from app.evaluation.crossfile import CrossFileResolver, param_names, python_bindings

GEOMETRY = '''"""Helpers."""


def helper(x):
    return x * 2


class Widget:
    def draw(self):
        return "drawn"


end = 10
'''

USER = """import geometry
from geometry import helper


def run(items, end):
    total = 0
    for item in items:
        total += helper(item) + end
    label = "helper widget"
    return geometry.Widget(), total, label.startswith("h")
"""


@pytest.fixture(scope="module")
def resolver(tmp_path_factory: pytest.TempPathFactory) -> CrossFileResolver:
    root = tmp_path_factory.mktemp("corpus")
    (root / "geometry.py").write_text(GEOMETRY)
    (root / "user.py").write_text(USER)
    index, _ = build_index(root, Config())
    return CrossFileResolver(index.snapshot())


def names(resolver: CrossFileResolver, text: str, hidden: str, path: str = "user.py") -> list[str]:
    """Cross-file names of ``hidden``, its first occurrence in ``text`` (the file)."""
    start = text.index(hidden)
    return resolver.names(path, "python", text[:start], hidden, text[start + len(hidden) :])


def test_an_imported_name_and_a_module_attribute_count(resolver: CrossFileResolver) -> None:
    assert names(resolver, USER, "helper(item)") == ["helper"]
    assert names(resolver, USER, "geometry.Widget()") == ["geometry.Widget"]


def test_a_local_sharing_a_name_with_another_files_definition_does_not(
    resolver: CrossFileResolver,
) -> None:
    # ``end`` is a parameter here and a module variable of geometry.py
    assert names(resolver, USER, " + end\n") == []


def test_a_return_annotation_is_a_name_not_a_member(resolver: CrossFileResolver) -> None:
    """``->`` is member access in C, C++ and PHP only: Python's begins a return type."""
    text = "from geometry import Widget\n\n\ndef build() -> Widget:\n    return Widget()\n"
    start = text.index("-> Widget")
    got = resolver.names("maker.py", "python", text[:start], "-> Widget:",
                         text[start + len("-> Widget:"):])
    assert got == ["Widget"]


def test_strings_and_attributes_of_locals_do_not(resolver: CrossFileResolver) -> None:
    assert names(resolver, USER, '"helper widget"') == []
    assert names(resolver, USER, 'label.startswith("h")') == []


def test_a_word_split_by_the_cursor_counts_by_its_whole_name(resolver: CrossFileResolver) -> None:
    start = USER.index("helper(item)") + 3  # cursor in "hel|per"
    got = resolver.names(
        "user.py", "python", USER[:start], "per(item)", USER[start + len("per(item)") :]
    )
    assert got == ["helper"]


def test_a_file_that_does_not_parse_falls_back_to_the_lexical_rule(
    resolver: CrossFileResolver,
) -> None:
    broken = "def f(:\n    end = Widget().draw(\n    self.helper()\n    print(end)\n"
    # any name defined elsewhere and not in the file's outline, attribute or not, unless the
    # file binds it itself (``end =``)
    assert names(resolver, broken, "end = Widget().draw(", "broken.py") == ["Widget", "draw"]
    assert names(resolver, broken, "print(end)", "broken.py") == []
    assert names(resolver, broken, "self.helper()", "broken.py") == []


def test_the_lexical_rule_leaves_out_the_files_own_parameters_and_variables(
    tmp_path: Path,
) -> None:
    """hiredis's ``reply`` (a field elsewhere, a local here) and guzzle's ``$options`` (a
    parameter here): the file's own names, not another file's."""
    files = {
        "read.h": "typedef struct redisReply { int elements; } redisReply;\n"
        "struct ctx { int flags; void *reply; };\nint redisCommand(void *c);\n",
        "example.c": '#include "read.h"\nint run(void *c, int flags) {\n'
        "    redisReply *reply = redisCommand(c);\n    return reply->elements + flags;\n}\n"
        "int get(void *c, int flags) { return ((struct ctx *)c)->flags + flags; }\n",
        "src/Jar.php": "<?php\nclass Jar { private $options; public function options() {} }\n",
        "src/Client.php": "<?php\nclass Client {\n    public function send(array $options) {\n"
        "        return $options['x'] + options() + $this->options;\n    }\n}\n",
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    index, _ = build_index(tmp_path, Config())
    resolver = CrossFileResolver(index.snapshot())

    def of(path: str, language: str, hidden: str) -> list[str]:
        text = files[path]
        start = text.index(hidden)
        return resolver.names(path, language, text[:start], hidden, text[start + len(hidden):])

    assert of("example.c", "c", "redisReply *reply = redisCommand(c);") == [
        "redisCommand", "redisReply"
    ]
    assert of("example.c", "c", "reply->elements + flags;") == ["elements"]  # a member counts
    # a member named as a parameter of this file's: ``->flags`` is the struct's, ``flags`` not
    assert of("example.c", "c", "((struct ctx *)c)->flags + flags;") == ["ctx", "flags"]
    assert of("example.c", "c", " + flags; }") == []
    # PHP's variable ``$options`` is the file's; a function ``options()`` is another name
    assert of("src/Client.php", "php", "$options['x']") == []
    assert of("src/Client.php", "php", "options()") == ["options"]
    assert of("src/Client.php", "php", "$this->options") == []  # the class's own member


def test_parameter_names_as_each_language_writes_them() -> None:
    assert param_names("(redisContext *c, int flags, const char *fmt, ...)", "c") == {
        "c", "flags", "fmt"
    }
    assert param_names("(const std::string& fname, std::string* data)", "cpp") == {
        "fname", "data"
    }
    assert param_names("(final Map<String, Integer> m, int... xs)", "java") == {"m", "xs"}
    assert param_names("(array $options, ?Foo $x = null)", "php") == {"options", "x"}
    assert param_names("(a, b int, s Store)", "go") == {"a", "b", "s"}  # not the type Store
    assert param_names("(&mut self, mut x: u32, y: &str)", "rust") == {"x", "y"}
    assert param_names("(a: number, {b, c}: Opts, ...rest: string[])", "typescript") == {
        "a", "b", "c", "rest"
    }
    assert param_names("(for key: String, _ value: Int)", "swift") >= {"key", "value"}


def test_bindings_by_kind() -> None:
    b = python_bindings(
        "import os.path as p, sys\nfrom a import b as c, d\n"
        "def f(x, *ys):\n    for i in ys:\n        pass\n"
        "    with open(x) as fh:\n        pass\n"
        "    try:\n        pass\n    except E as err:\n        pass\n"
    )
    assert b is not None
    assert b.modules == {"p", "sys"}
    assert b.imported == {"c", "d"}
    assert {"f", "x", "ys", "i", "fh", "err"} <= b.local
    assert python_bindings("def (:") is None
