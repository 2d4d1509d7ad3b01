"""Project index: atomic batches, symbol table, module resolution, duplicates."""

from __future__ import annotations

from daemon.parse import summarize
from daemon.skeleton import render_skeleton
from tests.daemon.summaries import index_of

UTIL = "def shared(x):\n    return x * 2\n\n\ndef only_a():\n    pass\n"


def test_apply_is_one_snapshot_and_removal_cleans_symbols() -> None:
    index = index_of({"a.py": "def f():\n    pass\n", "b.py": "def g():\n    pass\n"})
    before = index.snapshot()
    index.apply({"a.py": None, "c.py": summarize("c.py", "def f(y):\n    pass\n")})
    after = index.snapshot()
    assert before.version + 1 == after.version
    assert [r.path for r in before.lookup("f")] == ["a.py"]  # old snapshot unchanged
    assert [r.path for r in after.lookup("f")] == ["c.py"]
    assert index.paths() == ["b.py", "c.py"]


def test_incremental_apply_matches_full_rebuild() -> None:
    files = {f"m{i}.py": f"def f{i % 3}():\n    pass\n\ndef g{i}():\n    pass\n" for i in range(12)}
    index = index_of(files)
    index.apply({"m1.py": summarize("m1.py", "def f0():\n    return 1\n"), "m2.py": None})
    fresh = index_of(
        {**{k: v for k, v in files.items() if k != "m2.py"}, "m1.py": "def f0():\n    return 1\n"}
    )
    assert dict(index.snapshot().symbols) == dict(fresh.snapshot().symbols)
    assert dict(index.snapshot().modules) == dict(fresh.snapshot().modules)
    index.apply({"gone.py": None, "m3.py": summarize("m3.py", "x = 1\n")})  # paths as they were
    assert dict(index.snapshot().modules) == dict(fresh.snapshot().modules)
    index.apply({"pkg/n.py": summarize("pkg/n.py", "def n():\n    pass\n")})  # a path added
    assert index.snapshot().resolve_module("pkg.n", "m1.py") == "pkg/n.py"


def test_resolve_python_and_js_modules() -> None:
    snap = index_of(
        {
            "pkg/__init__.py": "",
            "pkg/io/csv.py": "def parse_row(r):\n    pass\n",
            "web/src/utils.ts": "export function fmt() {}\n",
            "web/src/app.ts": "import { fmt } from './utils'\n",
        }
    ).snapshot()
    assert snap.resolve_module("pkg.io.csv", "main.py") == "pkg/io/csv.py"
    assert snap.resolve_module(".csv", "pkg/io/reader.py") == "pkg/io/csv.py"
    assert snap.resolve_module("..io.csv", "pkg/sub/x.py") == "pkg/io/csv.py"
    assert snap.resolve_module("./utils", "web/src/app.ts") == "web/src/utils.ts"
    assert snap.resolve_module("numpy", "main.py") is None


def test_rust_paths_name_modules_from_the_crate_root_and_beside_the_file() -> None:
    """``use store::Store;`` in src/main.rs (the module ``mod store;`` declares) resolved to
    nothing: only paths with ``::`` in the module part were tried under src/."""
    snap = index_of(
        {
            "src/main.rs": "mod store;\nfn main() {}\n",
            "src/store/mod.rs": "pub mod orders;\npub struct Store;\n",
            "src/store/orders.rs": "pub struct Order;\n",
        }
    ).snapshot()
    assert snap.resolve_module("store", "src/main.rs") == "src/store/mod.rs"
    assert snap.resolve_module("crate::store::orders", "src/main.rs") == "src/store/orders.rs"
    assert snap.resolve_module("self::orders", "src/store/mod.rs") == "src/store/orders.rs"
    assert snap.resolve_module("std::collections", "src/main.rs") is None


def test_esm_specifiers_name_the_typescript_sources() -> None:
    """TypeScript under ``"module": "nodenext"`` imports ``./money.js`` for money.ts (the
    emitted file's name), and most web projects import ``@/ui/button`` for src/ui/button.tsx:
    such imports resolved to nothing, so nothing they import was a related definition."""
    snap = index_of(
        {
            "src/money.ts": "export function addMoney(a: number) { return a; }\n",
            "src/ui/button.tsx": "export function Button() { return null; }\n",
            "src/lib/dates.mts": "export function today() { return 0; }\n",
            "src/lib/legacy.cjs": "function old() {}\nmodule.exports = { old };\n",
            "web/plain.js": "export function plain() {}\n",
        }
    ).snapshot()
    assert snap.resolve_module("./money.js", "src/cart.ts") == "src/money.ts"
    assert snap.resolve_module("./ui/button.jsx", "src/app.tsx") == "src/ui/button.tsx"
    assert snap.resolve_module("../lib/dates.mjs", "src/ui/x.ts") == "src/lib/dates.mts"
    assert snap.resolve_module("./lib/legacy.cjs", "src/x.js") == "src/lib/legacy.cjs"
    assert snap.resolve_module("./plain.js", "web/main.js") == "web/plain.js"
    assert snap.resolve_module("./money.json", "src/cart.ts") is None
    # the usual alias of the source root (tsconfig paths "@/*": ["./src/*"], Vite, Next.js)
    assert snap.resolve_module("@/ui/button", "src/pages/home.tsx") == "src/ui/button.tsx"
    assert snap.resolve_module("~/lib/dates.mjs", "src/x.ts") == "src/lib/dates.mts"
    assert snap.resolve_module("@/web/plain", "src/x.ts") == "web/plain.js"  # "@/*": ["./*"]
    assert snap.resolve_module("@scope/money", "src/x.ts") is None  # a package
    types = index_of(
        {"src/types/api.d.ts": "export interface User { id: number }\n",
         "src/money.d.ts": "export declare function addMoney(a: number): number;\n",
         "src/money.ts": "export function addMoney(a: number) { return a; }\n"}
    ).snapshot()
    assert types.resolve_module("./types/api", "src/app.ts") == "src/types/api.d.ts"
    assert types.resolve_module("./types/api.js", "src/app.ts") == "src/types/api.d.ts"
    assert types.resolve_module("./money", "src/app.ts") == "src/money.ts"  # the source wins


def test_a_module_named_from_the_root_wins_over_a_suffix_of_a_deeper_one() -> None:
    """stdlib: ``test.support`` resolved to unittest/test/support.py (a suffix key of the same
    depth written later) instead of test/support/__init__.py."""
    snap = index_of(
        {
            "test/support/__init__.py": "def check_sizeof(t, o, size):\n    pass\n",
            "unittest/test/support.py": "class TestEquality:\n    pass\n",
            "lib/deep/pkg/tools.py": "",
            "pkg/tools.py": "",
        }
    ).snapshot()
    assert snap.resolve_module("test.support", "test/test_deque.py") == "test/support/__init__.py"
    assert snap.resolve_module("unittest.test.support", "x.py") == "unittest/test/support.py"
    assert snap.resolve_module("pkg.tools", "x.py") == "pkg/tools.py"
    assert snap.resolve_module("deep.pkg.tools", "x.py") == "lib/deep/pkg/tools.py"  # a suffix


def test_identical_definitions_are_kept_once_and_referenced() -> None:
    index = index_of({"a/util.py": UTIL, "b/util.py": UTIL.replace("only_a", "only_b")})
    snap = index.snapshot()
    shared_b = next(d for d in snap.files["b/util.py"].definitions if d.name == "shared")
    assert [r.path for r in snap.duplicates_of(shared_b)] == ["a/util.py", "b/util.py"]
    skeleton_b = render_skeleton(snap.files["b/util.py"], index=snap)
    assert "same as a/util.py:shared" in skeleton_b
    assert "same as" not in render_skeleton(snap.files["a/util.py"], index=snap)


def test_skeleton_elides_bodies_and_keeps_signatures() -> None:
    source = (
        'class Store:\n    """Keeps things."""\n    def get(self, key: str) -> bytes:\n'
        "        secret_body = 1\n        return b''\n"
    )
    snap = index_of({"s.py": source}).snapshot()
    skeleton = render_skeleton(snap.files["s.py"], index=snap)
    assert "def get(self, key: str) -> bytes:" in skeleton
    assert "Keeps things." in skeleton
    assert "secret_body" not in skeleton


def test_java_imports_resolve_by_package_path_under_any_source_root() -> None:
    """``import a.b.C;`` names src/main/java/a/b/C.java (a source root is a folder above the
    package, as a Python project rooted above its package); a wildcard names the folder."""
    snap = index_of(
        {
            "core/src/main/java/com/acme/util/Strings.java": "package com.acme.util;\n"
            "public final class Strings { public static String cap(String s) { return s; } }\n",
            "core/src/main/java/com/acme/util/Outer.java": "package com.acme.util;\n"
            "public class Outer { public static class Inner {} }\n",
            "app/src/main/java/com/acme/app/Main.java": "package com.acme.app;\n"
            "import com.acme.util.Strings;\nclass Main {}\n",
            "scripts/strings.py": "",
        }
    ).snapshot()
    main = "app/src/main/java/com/acme/app/Main.java"
    strings = "core/src/main/java/com/acme/util/Strings.java"
    assert snap.resolve_module("com.acme.util.Strings", main) == strings
    assert snap.resolve_module("com.acme.util.Outer", main) == strings.replace("Strings", "Outer")
    assert snap.resolve_module("com.acme.util", main) is None  # a package is no file...
    assert snap.resolve_package("com.acme.util", main) == ("core/src/main/java/com/acme/util",)
    assert snap.resolve_package("com.acme", main) == ()  # ...and holds no file here
    assert snap.resolve_module("java.util.List", main) is None  # outside the project


def test_a_java_package_in_several_source_roots_is_all_of_their_folders() -> None:
    """Maven's src/main/java and src/test/java (or several modules) hold one package: a
    wildcard import names every folder of it, not the last one indexed (``import
    com.acme.model.*;`` in main code lost Order.java once a test of that package existed)."""
    snap = index_of(
        {
            "src/main/java/com/acme/model/Order.java": "package com.acme.model;\nclass Order {}\n",
            "src/test/java/com/acme/model/OrderTest.java": "package com.acme.model;\n"
            "class OrderTest {}\n",
            "api/src/main/java/com/acme/model/Item.java": "package com.acme.model;\n"
            "class Item {}\n",
        }
    ).snapshot()
    main = "src/main/java/com/acme/model/Order.java"
    assert snap.resolve_package("com.acme.model", main) == (
        "api/src/main/java/com/acme/model",
        "src/main/java/com/acme/model",
        "src/test/java/com/acme/model",
    )
    # a key from the root names that folder only
    assert snap.resolve_package("src.test.java.com.acme.model", main) == (
        "src/test/java/com/acme/model",
    )


def test_c_includes_resolve_next_to_the_includer_first_then_in_the_project() -> None:
    snap = index_of(
        {
            "src/util.h": "int here(void);\n",
            "src/main.c": '#include "util.h"\n',
            "vendor/zlib/util.h": "int elsewhere(void);\n",
            "vendor/zlib/zlib.c": '#include "util.h"\n',
            "include/mylib/api.h": "int api(void);\n",
            "tools/gen.c": '#include "util.h"\n',
            "tools/sub/x.cpp": '#include "../../src/util.h"\n',
        }
    ).snapshot()
    assert snap.resolve_module("util.h", "src/main.c") == "src/util.h"  # the includer's folder
    assert snap.resolve_module("util.h", "vendor/zlib/zlib.c") == "vendor/zlib/util.h"
    assert snap.resolve_module("util.h", "tools/gen.c") == "src/util.h"  # the shallowest
    assert snap.resolve_module("mylib/api.h", "src/main.c") == "include/mylib/api.h"
    assert snap.resolve_module("../../src/util.h", "tools/sub/x.cpp") == "src/util.h"
    assert snap.resolve_module("<stdio.h>", "src/main.c") is None  # a system header
    # a project header included as the build's -Iinclude makes it visible; a bare name in
    # angle brackets is the system's even where the project has one (<util.h> is BSD's)
    assert snap.resolve_module("<mylib/api.h>", "src/main.c") == "include/mylib/api.h"
    assert snap.resolve_module("<util.h>", "tools/gen.c") is None
    assert snap.resolve_module("<stdlib.h>", "tools/gen.c") is None
    assert snap.resolve_module("<sys/types.h>", "src/main.c") is None
    assert snap.resolve_module("stdio.h", "src/main.c") is None


def test_a_bare_angle_include_is_the_projects_header_at_its_root_or_in_include() -> None:
    """hiredis's examples include ``<hiredis.h>`` (built with ``-I..``): the project's root or
    include/ folder holds it. Deeper files of that name, and standard names, are not taken."""
    snap = index_of(
        {
            "hiredis.h": "int redisCommand(void);\n",
            "include/ext.h": "int ext(void);\n",
            "src/deep.h": "int deep(void);\n",
            "stdlib.h": "int shadow(void);\n",
            "examples/example.c": "#include <hiredis.h>\n",
        }
    ).snapshot()
    assert snap.resolve_module("<hiredis.h>", "examples/example.c") == "hiredis.h"
    assert snap.resolve_module("<ext.h>", "examples/example.c") == "include/ext.h"
    assert snap.resolve_module("<deep.h>", "examples/example.c") is None
    assert snap.resolve_module("<stdlib.h>", "examples/example.c") is None
    assert snap.resolve_module("deep.h", "examples/example.c") == "src/deep.h"  # quoted: any


def test_the_headers_an_include_includes_are_seen_through_it_cycles_and_all() -> None:
    """What a C/C++ file's includes include in turn (transitively, breadth first), each once:
    a header including one that includes it back ends the walk."""
    snap = index_of(
        {
            "include/lib/db.h": '#include "lib/iterator.h"\n#include <vector>\n',
            "include/lib/iterator.h": '#include "lib/slice.h"\n#include "lib/db.h"\n',
            "include/lib/slice.h": "class Slice {};\n",
            "db/impl.h": '#include "lib/db.h"\n',
            "db/impl.cc": '#include "db/impl.h"\n',
            "db/other.h": "int other;\n",
        }
    ).snapshot()
    assert snap.included_through(["db/impl.h"]) == (
        "include/lib/db.h", "include/lib/iterator.h", "include/lib/slice.h"
    )
    # the headers asked about are not repeated; one seen through another is
    assert snap.included_through(["include/lib/iterator.h", "include/lib/slice.h"]) == (
        "include/lib/db.h",
    )
    assert snap.included_through(["db/other.h"]) == ()
    assert snap.included_through([]) == ()


def test_a_resolved_module_is_remembered_by_its_snapshot_only() -> None:
    """resolve_module answers again from the snapshot's memo (a request asks for every import
    and name again); a file removed makes a new snapshot that answers afresh."""
    index = index_of({"src/lib.rs": "mod store;\n", "src/store.rs": "pub struct Store;\n"})
    before = index.snapshot()
    assert before.resolve_module("crate::store", "src/lib.rs") == "src/store.rs"
    assert before._resolved[("crate::store", "src/lib.rs")] == "src/store.rs"
    index.apply({"src/store.rs": None})
    after = index.snapshot()
    assert after.resolve_module("crate::store", "src/lib.rs") is None
    assert before.resolve_module("crate::store", "src/lib.rs") == "src/store.rs"
