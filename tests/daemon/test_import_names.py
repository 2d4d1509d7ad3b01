"""The import-list cut (daemon.import_names): a ``from M import`` completion stops before a name
the project module M lacks; what M holds comes from the index."""

from __future__ import annotations

from pathlib import Path

from daemon.context import ContextRequest, assemble_context
from daemon.import_names import (
    cut_unknown_names,
    import_module_at,
    line_before_cursor,
    module_names,
)
from daemon.index import ProjectIndex
from daemon.parse import summarize

KNOWN = frozenset({"BaseRetrying", "Retrying", "NO_RESULT"})

INIT = """import sys
from .wait import wait_fixed as fixed
NO_RESULT = object()


class BaseRetrying:
    def call(self):
        pass


class Retrying(BaseRetrying):
    pass


def retry(fn):
    return fn
"""


def _index(tmp_path: Path, files: dict[str, str]) -> ProjectIndex:
    index = ProjectIndex(tmp_path)
    index.apply({path: summarize(path, text) for path, text in files.items()})
    return index


def test_the_list_stops_after_the_last_name_the_module_has() -> None:
    shown = cut_unknown_names("from tenacity imp", "ort BaseRetrying, Retry, StopAfterDelay", KNOWN)
    assert shown == "ort BaseRetrying"


def test_known_names_and_their_aliases_stay() -> None:
    text = "BaseRetrying as Base, Retrying, NO_RESULT"
    assert cut_unknown_names("from tenacity import ", text, KNOWN) == text
    assert cut_unknown_names("from t import ", "Retrying as R, Made", KNOWN) == "Retrying as R"
    assert cut_unknown_names("from t import (", "Retrying, Made)", KNOWN) == "Retrying"


def test_nothing_is_cut_that_leaves_nothing_or_was_typed() -> None:
    # the first name the completion writes is unknown: shown as it is (nothing would be left)
    assert cut_unknown_names("from tenacity import ", "Made, Retrying", KNOWN) == "Made, Retrying"
    # the user typed the unknown name: not the completion's to judge
    assert cut_unknown_names("from t import Made, ", "Retrying", KNOWN) == "Retrying"
    # a name the completion finishes is judged whole
    assert cut_unknown_names("from t import Base", "Retrying, Made", KNOWN) == "Retrying"
    # not an import, or nothing known
    assert cut_unknown_names("x = ", "Retrying, Made", KNOWN) == "Retrying, Made"
    assert cut_unknown_names("from t import ", "Retrying, Made", None) == "Retrying, Made"


def test_the_module_is_read_once_written_whole() -> None:
    assert import_module_at("from tenacity imp", "python") == "tenacity"
    assert import_module_at("from .wait import ", "python") == ".wait"
    assert import_module_at("from . import ", "python") == "."
    assert import_module_at("from tenac", "python") is None
    assert import_module_at("import tenacity", "python") is None
    assert import_module_at("from tenacity imp", "javascript") is None
    assert line_before_cursor("a = 1\nfrom x imp") == "from x imp"


def test_a_package_has_its_definitions_imports_and_modules(tmp_path: Path) -> None:
    index = _index(tmp_path, {
        "tenacity/__init__.py": INIT, "tenacity/wait.py": "def wait_fixed():\n    pass\n",
        "tenacity/sub/__init__.py": "", "tenacity/async_.py": "import asyncio\n",
    })
    names = module_names(index.snapshot(), "tenacity", "tenacity/async_.py")
    assert names is not None
    assert {"BaseRetrying", "Retrying", "retry", "NO_RESULT", "sys", "fixed"} <= names
    assert {"wait", "sub", "async_"} <= names  # its modules and packages
    assert "call" not in names and "__init__" not in names  # no method, not the package file
    assert module_names(index.snapshot(), "os", "tenacity/async_.py") is None  # no project file


def test_open_ended_modules_give_no_names(tmp_path: Path) -> None:
    index = _index(tmp_path, {
        "star.py": "from os.path import *\n",
        "lazy.py": "def __getattr__(name):\n    return name\n",
    })
    assert module_names(index.snapshot(), "star", "a.py") is None
    assert module_names(index.snapshot(), "lazy", "a.py") is None


def test_the_assembled_context_carries_the_cursor_lines_module_names(tmp_path: Path) -> None:
    index = _index(tmp_path, {"tenacity/__init__.py": INIT})
    text = "import asyncio\n\nfrom tenacity imp\n"
    ctx = assemble_context(ContextRequest(path="tenacity/async_.py", text=text, line=2,
                                          column=len("from tenacity imp"), budget_tokens=256),
                           index=index)
    assert ctx.import_names is not None and "BaseRetrying" in ctx.import_names
    elsewhere = assemble_context(ContextRequest(path="tenacity/async_.py", text=text, line=0,
                                                column=6, budget_tokens=256), index=index)
    assert elsewhere.import_names is None
