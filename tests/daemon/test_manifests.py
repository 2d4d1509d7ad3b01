"""Manifests name a project's own packages: go.mod's module path, a workspace package.json's
name. Projects import their own code by those names (``github.com/go-chi/chi/v5``,
``@acme/ui``), which match no folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from daemon.context.retrieve import related_definitions
from daemon.imports import go_package_name
from daemon.index import ProjectIndex
from daemon.manifests import read_module_roots
from daemon.parse import summarize
from daemon.symbols import ModuleRoot
from tests.daemon.summaries import index_of, related_segments


def _go(name: str) -> tuple[ModuleRoot, ...]:
    return (ModuleRoot(name, under=""),)


def _package(name: str, *entries: str) -> tuple[ModuleRoot, ...]:
    return (ModuleRoot(name, entries, under=""), ModuleRoot(name, under="src"))


@pytest.mark.parametrize(
    ("path", "text", "expected"),
    [
        ("go.mod", "// the shop\nmodule example.com/shop/v2 // current\n\ngo 1.22\n",
         _go("example.com/shop/v2")),
        ("svc/go.mod", 'module "example.com/svc"\n', _go("example.com/svc")),
        ("go.mod", "go 1.22\n", ()),
        ("package.json", '{"name": "@acme/ui", "main": "./dist/index.js", '
         '"types": "./dist/index.d.ts", "source": "src/index.ts"}',
         _package("@acme/ui", "dist/index.d.ts", "src/index.ts", "dist/index.js")),
        ("package.json", '{"name": "kit", "exports": {".": {"types": "./src/main.ts", '
         '"import": "./dist/main.mjs"}, "./button": "./src/button.ts"}}',
         (ModuleRoot("kit/button", ("src/button.ts",)),
          *_package("kit", "src/main.ts", "dist/main.mjs"))),
        # subpath patterns: a folder and ``*`` with an extension or nothing after it
        ("package.json", '{"name": "kit", "exports": {"./utils/*": {"types": '
         '"./src/utils/*.ts", "default": "./dist/utils/*.js"}, "./internal/*": null, '
         '"./a/*": "./b/*/index.js", "./*": "./lib/*"}}',
         (ModuleRoot("kit/utils", under="src/utils"), ModuleRoot("kit/utils", under="dist/utils"),
          ModuleRoot("kit", under="lib"), *_package("kit"))),
        ("package.json", '{"name": "kit", "exports": "./lib/kit.js", "main": "../x.js"}',
         _package("kit", "lib/kit.js")),
        ("package.json", '{"private": true, "workspaces": ["packages/*"]}', ()),
        ("package.json", '{"name": "kit",', ()),  # being typed
        ("package.json", "[1, 2]", ()),
        ("src/go.mod.txt", "module x\n", ()),
        ("tsconfig.json", '{\n  // aliases\n  "compilerOptions": {\n    "baseUrl": ".",\n'
         '    "paths": {\n      "@app/*": ["src/app/*"],\n      "config": ["src/config.ts"],\n'
         '      "*": ["types/*"], "@bad/*": ["../outside/*"], "@mixed/*": ["src/x.ts"],\n'
         '    },\n  },\n}\n',
         (ModuleRoot("@app", under="src/app"), ModuleRoot("config", ("src/config.ts",)),
          ModuleRoot("", under="."))),
        ("apps/web/tsconfig.app.json", '{"compilerOptions": {"baseUrl": "src", '
         '"paths": {"~/*": ["./*"]}}}',
         (ModuleRoot("~", under="src"), ModuleRoot("", under="src"))),
        ("jsconfig.json", '{"compilerOptions": {"paths": {"@/*": ["./lib/*"]}}}',
         (ModuleRoot("@", under="lib"),)),
        ("tsconfig.json", '{"compilerOptions": {"paths": ', ()),
        ("tsconfig.json", '{"extends": "./tsconfig.base.json"}', ()),
        ("my-tsconfig.json", '{"compilerOptions": {"baseUrl": "."}}', ()),
    ],
)
def test_a_manifest_declares_the_names_its_code_is_imported_by(
    path: str, text: str, expected: tuple[ModuleRoot, ...]
) -> None:
    assert read_module_roots(path, text) == expected
    assert summarize(path, text).module_roots == expected


@pytest.mark.parametrize(
    ("import_path", "name"),
    [
        ("github.com/go-chi/chi/v5", "chi"),
        ("github.com/go-chi/chi/v5/middleware", "middleware"),
        ("gopkg.in/yaml.v3", "yaml"),
        ("github.com/mattn/go-isatty", "isatty"),
        ("net/http", "http"),
        ("v8", "v8"),
    ],
)
def test_an_unaliased_go_import_binds_the_name_goimports_assumes(
    import_path: str, name: str
) -> None:
    assert go_package_name(import_path) == name
    text = f'package main\n\nimport "{import_path}"\n'
    assert [i.alias for i in summarize("main.go", text).imports] == [name]


CHI = {
    "go.mod": "module github.com/go-chi/chi/v5\n\ngo 1.23\n",
    "chi.go": "package chi\n\n// NewRouter returns a new Mux.\n"
    "func NewRouter() *Mux { return NewMux() }\n",
    "mux.go": "package chi\n\n// Mux is a router.\n"
    "type Mux struct {\n\tn int\n\tPrefix string\n}\n\n"
    "// Use appends a middleware.\nfunc (mx *Mux) Use(m ...Middleware) {}\n\n"
    "func (mx *Mux) handle() {}\n",
    "middleware/logger.go": "package middleware\n\n// Logger logs requests.\n"
    "func Logger(next Handler) Handler { return next }\n",
    "_examples/rest/go.mod": "module rest-example\n",
    "_examples/rest/store/store.go": "package store\n\n// Open opens the store.\n"
    "func Open() error { return nil }\n",
}
MAIN = (
    'package main\n\nimport (\n\t"net/http"\n\n\t"github.com/go-chi/chi/v5"\n'
    '\t"github.com/go-chi/chi/v5/middleware"\n\t"rest-example/store"\n)\n\n'
    "func main() {\n\tr := chi.NewRouter()\n\tr.Use(middleware.Logger)\n\tstore.Open()\n"
    '\thttp.ListenAndServe(":3333", r)\n}\n'
)


def test_a_go_import_by_the_module_path_finds_the_module_root_package() -> None:
    """chi's examples import ``github.com/go-chi/chi/v5``: the package at the root of the
    module, whose path ends with no folder (``v5`` is a major version, and the package is
    called ``chi``). Nothing resolved, so ``chi.NewRouter()`` had no definition; and the
    type it returns, declared in another file of the root package, was not seen either."""
    index = index_of({**CHI, "_examples/rest/main.go": MAIN})
    summary = summarize("_examples/rest/main.go", MAIN)
    related = related_definitions(index.snapshot(), summary, MAIN, MAIN)
    assert {(r.path, r.definition.name) for r in related} == {
        ("chi.go", "NewRouter"),
        ("middleware/logger.go", "Logger"),
        ("_examples/rest/store/store.go", "Open"),  # the nested module's own package
        ("mux.go", "Mux"),  # what NewRouter returns: another file of the root package
    }
    mux = next(r for r in related if r.definition.name == "Mux")
    assert "func (mx *Mux) Use(m ...Middleware)" in mux.text
    # another package sees what Mux exports only: no unexported field or method
    assert "fields: Prefix\n" in mux.text and "handle" not in mux.text
    inside = 'package chi\n\nfunc route() {\n\tr := NewRouter()\n\tr.handle()\n}\n'
    summary = summarize("route.go", inside)
    related = related_definitions(index.snapshot(), summary, inside, inside)
    mux = next(r for r in related if r.definition.name == "Mux")
    assert "fields: n, Prefix" in mux.text and "func (mx *Mux) handle()" in mux.text


def test_a_renamed_go_module_is_looked_up_by_its_new_path() -> None:
    index = index_of({**CHI, "_examples/rest/main.go": MAIN})
    index.apply({"go.mod": summarize("go.mod", "module github.com/acme/router\n")})
    snapshot = index.snapshot()
    assert snapshot.files_of_package("github.com/acme/router", "main.go") == ("chi.go", "mux.go")
    assert snapshot.files_of_package("github.com/go-chi/chi/v5", "main.go") == ()
    assert snapshot.files_of_package("github.com/acme/router/middleware", "main.go") == (
        "middleware/logger.go",
    )


WORKSPACE = {
    "package.json": '{"private": true, "workspaces": ["packages/*", "apps/*"]}',
    "packages/ui/package.json": '{"name": "@acme/ui", "main": "dist/index.js", '
    '"types": "src/index.ts"}',
    "packages/ui/src/index.ts": 'export * from "./button";\n',
    "packages/ui/src/button.tsx": "/** A button. */\n"
    "export function Button(props: ButtonProps) { return null; }\n\n"
    "export interface ButtonProps {\n  label: string;\n}\n",
    "packages/money/package.json": '{"name": "money"}',
    "packages/money/index.js": "/** Adds amounts. */\n"
    "export function add(a, b) { return a + b; }\n",
}


def test_a_workspace_package_is_imported_by_its_name(tmp_path: Path) -> None:
    """In a monorepo the apps import the workspace's packages by their package.json names;
    those resolved to nothing (no folder is called ``@acme/ui``)."""
    page = (
        'import { Button } from "@acme/ui";\nimport { ButtonProps } from "@acme/ui/button";\n'
        'import { add } from "money";\n\nconst total = add(1, 2);\n'
        "export const Page = (p: ButtonProps) => Button(p);\n<|>"
    )
    segments = related_segments(tmp_path, {**WORKSPACE, "apps/web/src/page.tsx": page},
                                "apps/web/src/page.tsx")
    sources = [s.splitlines()[0] for s in segments]
    assert any(s.startswith("packages/ui/src/button.tsx") for s in sources), segments
    assert any(s.startswith("packages/money/index.js") for s in sources), segments
    text = "\n".join(segments)
    assert "function Button(props: ButtonProps)" in text
    assert "interface ButtonProps" in text
    assert "function add(a, b)" in text


def test_workspace_keys_follow_the_manifest_and_never_shadow_a_project_path() -> None:
    index = ProjectIndex(Path("/project"))
    index.apply({p: summarize(p, t) for p, t in WORKSPACE.items()})
    index.apply({"money/index.js": summarize("money/index.js", "export const x = 1;\n")})
    snapshot = index.snapshot()
    assert snapshot.resolve_module("@acme/ui", "apps/web/a.ts") == "packages/ui/src/index.ts"
    assert snapshot.resolve_module("@acme/ui/button", "apps/web/a.ts") == (
        "packages/ui/src/button.tsx"
    )
    assert snapshot.resolve_module("money", "apps/web/a.ts") == "money/index.js"  # the root's
    index.apply({"packages/ui/package.json": summarize(
        "packages/ui/package.json", '{"name": "@acme/widgets"}'
    )})
    snapshot = index.snapshot()
    assert snapshot.resolve_module("@acme/ui", "apps/web/a.ts") is None
    assert snapshot.resolve_module("@acme/widgets", "apps/web/a.ts") == (
        "packages/ui/src/index.ts"
    )


def test_export_subpaths_name_the_files_they_map_to() -> None:
    """``"exports": {"./button": "./src/components/button.tsx"}``: ``@acme/ui/button`` was
    looked for as button.ts beside package.json or in src/, and resolved to nothing."""
    index = ProjectIndex(Path("/project"))
    files = {
        "packages/ui/package.json": '{"name": "@acme/ui", "exports": {".": "./src/index.ts", '
        '"./button": {"types": "./dist/button.d.ts", "import": "./src/components/button.tsx"}, '
        '"./hooks/*": {"import": "./src/lib/hooks/*.ts"}, "./secret": null}}',
        "packages/ui/src/index.ts": 'export * from "./components/button";\n',
        "packages/ui/src/components/button.tsx": "export function Button() {}\n",
        "packages/ui/src/lib/hooks/use-toggle.ts": "export function useToggle() {}\n",
        "packages/ui/src/lib/hooks/forms/index.ts": "export function useForm() {}\n",
        "packages/ui/src/secret.ts": "export const key = 1;\n",
    }
    index.apply({p: summarize(p, t) for p, t in files.items()})
    snapshot = index.snapshot()
    assert snapshot.resolve_module("@acme/ui", "apps/a.ts") == "packages/ui/src/index.ts"
    assert snapshot.resolve_module("@acme/ui/button", "apps/a.ts") == (
        "packages/ui/src/components/button.tsx"
    )
    assert snapshot.resolve_module("@acme/ui/hooks/use-toggle", "apps/a.ts") == (
        "packages/ui/src/lib/hooks/use-toggle.ts"
    )
    assert snapshot.resolve_module("@acme/ui/hooks/forms", "apps/a.ts") == (
        "packages/ui/src/lib/hooks/forms/index.ts"
    )


def test_tsconfig_path_aliases_and_base_url_name_project_files() -> None:
    """``import { Cart } from "@app/cart"`` with ``"paths": {"@app/*": ["src/app/*"]}`` (the
    Angular/NestJS convention) resolved to nothing: only ``@/`` and ``~/`` were guessed."""
    index = ProjectIndex(Path("/project"))
    files = {
        "tsconfig.json": '{\n  "compilerOptions": {\n    "baseUrl": "src",  // paths from here\n'
        '    "paths": {"@app/*": ["app/*"], "@env": ["environments/env.ts"]},\n  },\n}\n',
        "src/app/cart.ts": "export class Cart {}\n",
        "src/app/widgets/index.ts": 'export * from "./button";\n',
        "src/environments/env.ts": "export const env = {};\n",
    }
    index.apply({p: summarize(p, t) for p, t in files.items()})
    snapshot = index.snapshot()
    assert snapshot.resolve_module("@app/cart", "src/main.ts") == "src/app/cart.ts"
    assert snapshot.resolve_module("@app/widgets", "src/main.ts") == "src/app/widgets/index.ts"
    assert snapshot.resolve_module("@env", "src/main.ts") == "src/environments/env.ts"
    assert snapshot.resolve_module("environments/env", "src/app/cart.ts") == (
        "src/environments/env.ts"  # below baseUrl
    )
    assert snapshot.resolve_module("@app/nothing", "src/main.ts") is None
    index.apply({"tsconfig.json": None})  # the aliases go with their file
    assert index.snapshot().resolve_module("@app/cart", "src/main.ts") is None


def test_a_tsconfig_alias_brings_the_definition_into_the_prompt(tmp_path: Path) -> None:
    files = {
        "tsconfig.json": '{"compilerOptions": {"paths": {"@shared/*": ["libs/shared/src/*"]}}}',
        "libs/shared/src/money.ts": "/** Adds two amounts in cents. */\n"
        "export function addCents(a: number, b: number): number { return a + b; }\n",
        "apps/shop/src/cart.ts": 'import { addCents } from "@shared/money";\n\n'
        "export const total = (xs: number[]) => xs.reduce(addCents, 0);\n<|>",
    }
    segments = related_segments(tmp_path, files, "apps/shop/src/cart.ts")
    assert any(s.startswith("libs/shared/src/money.ts") for s in segments), segments
    assert "function addCents(a: number, b: number): number" in "\n".join(segments)
