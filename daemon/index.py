"""The project index: file summaries and a symbol table, swapped atomically per batch.

Writers (the indexer thread) call ``apply`` with a whole batch; readers take ``snapshot()`` once
per request and read an immutable ``IndexSnapshot``: a request never sees half a batch, and
indexing never holds a lock that serving waits on for more than a pointer swap.
"""

from __future__ import annotations

import bisect
import functools
import threading
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from daemon.languages import LANGUAGES, detect_language
from daemon.manifests import manifest_kind
from daemon.symbols import Definition, DefKind, FileSummary, ModuleRoot, SkipRecord

MAX_INCLUDED = 48  # headers a C/C++ file sees through its includes' includes


@dataclass(frozen=True, slots=True)
class SymbolRef:
    path: str
    definition: Definition


@dataclass(frozen=True, slots=True)
class IndexSnapshot:
    """An immutable view of the index at one moment."""

    files: Mapping[str, FileSummary] = field(default_factory=dict)
    symbols: Mapping[str, tuple[SymbolRef, ...]] = field(default_factory=dict)  # name -> defs
    modules: Mapping[str, str] = field(default_factory=dict)  # dotted module / import key -> path
    # dotted package (``a.b``, and its suffixes) -> every folder holding it (Java:
    # src/main/java/a/b, src/test/java/a/b)
    packages: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # a folder that is a package of its own (Go: every file of the folder) -> its files
    package_files: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # a namespace or package files declare (C# ``namespace A.B``, Kotlin ``package a.b``),
    # wherever they are -> those files, sorted
    namespace_files: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # a SwiftPM target's folder from its manifest's ``path:`` -> its module name
    swift_targets: Mapping[str, str] = field(default_factory=dict)
    duplicates: Mapping[str, tuple[SymbolRef, ...]] = field(default_factory=dict)  # digest -> refs
    version: int = 0
    # (module, importing path) -> what resolve_module found: the snapshot does not change, and
    # a request asks again for every import and name (reqwest: 36 a request, half the time of
    # related_definitions)
    _resolved: dict[tuple[str, str], str | None] = field(
        default_factory=dict, repr=False, compare=False
    )
    # a file's includes -> what they include in turn; a header -> what it includes itself
    _included: dict[tuple[str, ...], tuple[str, ...]] = field(
        default_factory=dict, repr=False, compare=False
    )
    _includes: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)

    def lookup(self, name: str) -> tuple[SymbolRef, ...]:
        return self.symbols.get(name, ())

    def resolve_module(self, module: str, from_path: str) -> str | None:
        """Path of the file an import refers to, or None when it is outside the project. A Go
        or Swift import names a package or module, a folder (``files_of_package``), never one
        file: Go's ``import goflag "flag"`` is the standard library's, not the project's
        flag.go."""
        if _key_style(from_path) == "folder":
            return None
        asked = (module, from_path)
        if asked in self._resolved:
            return self._resolved[asked]
        found = None
        namespaced = _key_style(from_path) == "namespace"
        exact = _bare_angle_include(module)  # a key names that file, not a deeper one
        for key in _module_keys_for_import(module, from_path):
            path = self.modules.get(key)
            if exact and path != key:
                continue
            if path is not None and (not namespaced or _key_style(path) == "namespace"):
                found = path  # C# ``using System;`` is no System.py
                break
        self._resolved[asked] = found
        return found

    def included_through(self, headers: Iterable[str]) -> tuple[str, ...]:
        """The project headers that ``headers`` (what a C/C++ file includes) include in turn,
        breadth first, at most ``MAX_INCLUDED``: what the compiler sees beside them
        (leveldb's table/iterator.cc includes leveldb/iterator.h, which includes
        leveldb/slice.h: ``Slice`` is declared there). Not ``headers`` themselves."""
        direct = tuple(dict.fromkeys(headers))
        if direct in self._included:
            return self._included[direct]
        seen = set(direct)
        queue = deque(direct)
        found: list[str] = []
        while queue and len(found) < MAX_INCLUDED:
            for target in self._includes_of(queue.popleft()):
                if target not in seen:
                    seen.add(target)
                    found.append(target)
                    queue.append(target)
        self._included[direct] = result = tuple(found[:MAX_INCLUDED])
        return result

    def _includes_of(self, header: str) -> tuple[str, ...]:
        """The project files ``header`` includes itself, cached."""
        if header not in self._includes:
            summary = self.files.get(header)
            targets = (self.resolve_module(i.module, header) for i in summary.imports) if (
                summary is not None) else ()
            self._includes[header] = tuple(dict.fromkeys(t for t in targets if t is not None))
        return self._includes[header]

    def resolve_package(self, module: str, from_path: str) -> tuple[str, ...]:
        """Folders of the package a wildcard import names (Java ``import a.b.*;`` ->
        ``src/main/java/a/b`` and ``src/test/java/a/b``: a package may span source roots and
        modules), or a Go import names (``example.com/shop/internal/store`` ->
        ``internal/store``: the longest folder path the import ends with); () when no project
        file is in it, and for a namespace (C#, Kotlin: ``files_of_package``)."""
        if _key_style(from_path) == "namespace":
            return ()
        for key in _module_keys_for_import(module, from_path):
            folders = self.packages.get(key)
            if folders:
                return folders
        return ()

    def package_of(self, path: str) -> tuple[str, ...]:
        """The files of the Go package ``path`` is in (its folder's, itself included), or of
        its Swift module (``LanguageSpec.module_folders``, a Package.swift target's ``path:``);
        () for other languages' files."""
        return self.package_files.get(_package_folder(path, self.swift_targets), ())

    def files_of_package(self, module: str, from_path: str) -> tuple[str, ...]:
        """The files of the package a Go import names (all files of its folder, sorted), or of
        the namespace a C# ``using`` or the package a Kotlin import names (every file declaring
        it, wherever it is); () for other languages' imports and packages outside the
        project."""
        style = _key_style(from_path)
        if style == "namespace":
            return self.namespace_files.get(module, ())
        if style != "folder":
            return ()
        folders = self.resolve_package(module, from_path)
        return tuple(f for folder in folders for f in self.package_files.get(folder, ()))

    def files_of_enclosing_namespaces(self, summary: FileSummary) -> tuple[str, ...]:
        """The files of the namespaces enclosing those ``summary``'s file declares (C#: code in
        ``A.B.C`` sees ``A.B``'s and ``A``'s types without a ``using``), nearest first; ()
        for other languages (a Kotlin package is no part of another)."""
        found: list[str] = []
        for namespace in declared_namespaces(summary, keyword="namespace "):
            parts = namespace.split(".")
            for i in range(len(parts) - 1, 0, -1):
                found.extend(self.namespace_files.get(".".join(parts[:i]), ()))
        return tuple(dict.fromkeys(found))

    def duplicates_of(self, definition: Definition) -> tuple[SymbolRef, ...]:
        if not definition.body_digest:
            return ()
        return self.duplicates.get(definition.body_digest, ())


class ProjectIndex:
    """File summaries of one project root. Thread-safe: apply() from one writer at a time."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lock = threading.Lock()
        self._snapshot = IndexSnapshot()
        self.skipped: dict[str, SkipRecord] = {}

    def snapshot(self) -> IndexSnapshot:
        return self._snapshot

    def get(self, path: str) -> FileSummary | None:
        return self._snapshot.files.get(path)

    def paths(self) -> list[str]:
        return sorted(self._snapshot.files)

    def __len__(self) -> int:
        return len(self._snapshot.files)

    def set_skipped(self, records: Mapping[str, SkipRecord | None]) -> None:
        with self._lock:
            for path, record in records.items():
                if record is None:
                    self.skipped.pop(path, None)
                else:
                    self.skipped[path] = record

    def apply(self, updates: Mapping[str, FileSummary | None]) -> None:
        """Apply one batch atomically: a summary replaces the path's entry, None removes it."""
        if not updates:
            return
        with self._lock:
            old = self._snapshot
            self._snapshot = overlaid(old, updates, version=old.version + 1)


def overlaid(
    old: IndexSnapshot, updates: Mapping[str, FileSummary | None], *, version: int | None = None
) -> IndexSnapshot:
    """``old`` with ``updates`` applied (a summary replaces the path's entry, None removes it),
    as a new snapshot; ``old`` is left as it was. Only the names and digests the updates touch
    are re-listed, unless the updates are a large part of the index. ``version``: the new
    snapshot's (default: ``old``'s)."""
    files = dict(old.files)
    # the module keys are listed again when a path is added or removed, a C#/Kotlin
    # file's namespaces or top-level names change (``A.B.C`` keys), or what a manifest
    # declares (go.mod's module path, package.json's name and entries)
    keys_changed = any(
        (path in files) != (new is not None)
        or _namespace_facts(files.get(path)) != _namespace_facts(new)
        or _module_roots_of(files.get(path)) != _module_roots_of(new)
        for path, new in updates.items()
    )
    changed_names: set[str] = set()
    changed_digests: set[str] = set()
    for path, summary in updates.items():
        previous = files.pop(path, None)
        if previous is not None:
            changed_names.update(d.name for d in previous.definitions)
            changed_digests.update(d.body_digest for d in previous.definitions)
        if summary is not None:
            files[path] = summary
            changed_names.update(d.name for d in summary.definitions)
            changed_digests.update(d.body_digest for d in summary.definitions)
    symbols = dict(old.symbols)
    duplicates = dict(old.duplicates)
    if len(updates) > len(old.files) // 4:
        symbols, duplicates = _build_symbols(files)
    else:
        touched = set(updates)
        new_by_name: dict[str, list[SymbolRef]] = {}
        new_by_digest: dict[str, list[SymbolRef]] = {}
        for path in touched:
            summary = files.get(path)
            if summary is None:
                continue
            for d in summary.definitions:
                ref = SymbolRef(path, d)
                new_by_name.setdefault(d.name, []).append(ref)
                if d.body_digest and d.kind is not DefKind.VARIABLE:
                    new_by_digest.setdefault(d.body_digest, []).append(ref)
        for name in changed_names:
            kept = [r for r in symbols.get(name, ()) if r.path not in touched]
            kept.extend(new_by_name.get(name, ()))
            if kept:
                symbols[name] = tuple(sorted(kept, key=_ref_key))
            else:
                symbols.pop(name, None)
        for digest in changed_digests - {""}:
            refs = [r for r in duplicates.get(digest, ()) if r.path not in touched]
            refs.extend(new_by_digest.get(digest, ()))
            if len(refs) > 1:
                duplicates[digest] = tuple(sorted(refs, key=_ref_key))
            else:
                duplicates.pop(digest, None)
    modules: Mapping[str, str]
    packages: Mapping[str, tuple[str, ...]]
    package_files: Mapping[str, tuple[str, ...]]
    namespace_files: Mapping[str, tuple[str, ...]]
    swift_targets: Mapping[str, str]
    if keys_changed:
        built, packages, package_files, swift_targets = _build_modules(files)
        namespace_files = _build_namespaces(files, built)
        modules = built
    else:
        modules, packages, package_files = old.modules, old.packages, old.package_files
        namespace_files, swift_targets = old.namespace_files, old.swift_targets
    return IndexSnapshot(
        files=files,
        symbols=symbols,
        modules=modules,
        packages=packages,
        package_files=package_files,
        namespace_files=namespace_files,
        swift_targets=swift_targets,
        duplicates=duplicates,
        version=old.version if version is None else version,
    )


def _ref_key(ref: SymbolRef) -> tuple[str, int]:
    return (ref.path, ref.definition.start_line)


def _build_symbols(
    files: Mapping[str, FileSummary],
) -> tuple[dict[str, tuple[SymbolRef, ...]], dict[str, tuple[SymbolRef, ...]]]:
    symbols: dict[str, list[SymbolRef]] = {}
    by_digest: dict[str, list[SymbolRef]] = {}
    for path in sorted(files):
        for d in files[path].definitions:
            ref = SymbolRef(path, d)
            symbols.setdefault(d.name, []).append(ref)
            if d.body_digest and d.kind is not DefKind.VARIABLE:
                by_digest.setdefault(d.body_digest, []).append(ref)
    return (
        {k: tuple(v) for k, v in symbols.items()},
        {k: tuple(v) for k, v in by_digest.items() if len(v) > 1},
    )


# JavaScript's and TypeScript's: an ESM import names the emitted file (``./money.js`` for
# money.ts, ``./dates.mjs`` for dates.mts), so any of them names a file of any other
_SCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_STRIP_SUFFIXES = (".py", ".pyi", *_SCRIPT_SUFFIXES, ".go", ".rs", ".java", ".php", ".rb")


@functools.lru_cache(maxsize=8192)
def _key_style(path: str) -> str:
    """How imports name ``path`` (``LanguageSpec.module_keys``)."""
    spec = LANGUAGES.get(detect_language(path))
    return spec.module_keys if spec is not None else "path"


def _package_folder(path: str, swift_targets: Mapping[str, str] | None = None) -> str:
    """The folder of the package or module ``path`` is in: its own folder, or for a language
    with ``LanguageSpec.module_folders`` (Swift) the nearest target folder a Package.swift
    names with ``path:`` above it (``swift_targets``), else the folder right below the
    nearest module folder above it (Sources/Kit for Sources/Kit/Models/Item.swift), else its
    top folder (an Xcode app's target: MyApp for MyApp/Views/Home.swift, MyAppTests for its
    tests; files at the root: the root)."""
    parent = PurePosixPath(path).parent
    spec = LANGUAGES.get(detect_language(path))
    if spec is not None and spec.module_folders:
        if swift_targets:
            found = _nearest_root(str(parent), swift_targets)
            if found is not None:
                return found[0]
        parts = parent.parts
        for i in range(len(parts) - 2, -1, -1):
            if parts[i] in spec.module_folders:
                return "/".join(parts[: i + 2])
        return parts[0] if parts else "."
    return str(parent)


def _load_paths(path: str) -> tuple[str, ...]:
    """The folders below which imports name ``path`` (``LanguageSpec.load_paths``)."""
    spec = LANGUAGES.get(detect_language(path))
    return spec.load_paths if spec is not None else ()


def declared_namespaces(
    summary: FileSummary, *, keyword: str | tuple[str, ...] = ("namespace ", "package ")
) -> tuple[str, ...]:
    """The namespaces or package a C# or Kotlin file declares (``namespace A.B``, ``package
    a.b``: its readers list them among its imports, as ``import a.b.*``; ``keyword``: only
    those so written); () for other languages."""
    spec = LANGUAGES.get(summary.language)
    if spec is None or spec.module_keys != "namespace":
        return ()
    return tuple(imp.module for imp in summary.imports if imp.text.startswith(keyword))


def _module_keys(path: str) -> tuple[list[str], list[str]]:
    """Keys under which a file can be imported (dotted Python modules and Java classes,
    extensionless paths, C/C++ header paths; none for a Go or Swift file): those that name it
    from the project root, then suffixes of its dotted path (``b.c``, ``c``) for projects
    rooted above the package (a Java source root, ``src/main/java``, is such a root), or of
    its path (``mylib/api.h``, ``api.h`` for ``include/mylib/api.h``)."""
    p = PurePosixPath(path)
    style = _key_style(path)
    if style == "folder":  # Go, Swift: imported by its package or module, never as a file
        return [], []
    if style == "file":
        return [path], ["/".join(p.parts[i:]) for i in range(1, len(p.parts))]
    exact: list[str] = []
    suffixes: list[str] = []
    stem_path = str(p.with_suffix("")) if p.suffix in _STRIP_SUFFIXES else str(p)
    exact.append(stem_path)  # "pkg/mod" (JS/TS relative resolution, Rust/Go paths)
    parts = list(PurePosixPath(stem_path).parts)
    if parts and parts[-1] in ("__init__", "index", "mod"):
        exact.append("/".join(parts[:-1]))
        parts = parts[:-1]
    if style in ("dotted", "psr4") and parts:
        exact.append(".".join(parts))
        suffixes.extend(".".join(parts[i:]) for i in range(1, len(parts)))
    for root in _load_paths(path):  # Ruby: lib/shop/cart.rb is "shop/cart" (gems/x/lib too)
        below = [i for i, part in enumerate(parts[:-1]) if part == root]
        if below:
            suffixes.append("/".join(parts[below[-1] + 1 :]))
    if p.name.endswith((".d.ts", ".d.mts", ".d.cts")):  # declarations: ``./api`` for api.d.ts,
        suffixes.append(stem_path.removesuffix(".d"))  # unless an api.ts is there
    return [k for k in exact if k], [k for k in suffixes if k]


def _build_modules(
    files: Mapping[str, FileSummary],
) -> tuple[dict[str, str], dict[str, tuple[str, ...]], dict[str, tuple[str, ...]],
           dict[str, str]]:
    """The module keys (key -> the file it names), the packages (the dotted path of a folder
    holding a file that imports name by dotted path, and its suffixes -> every such folder,
    sorted: a wildcard import's package may have folders under several source roots; for Go,
    the folder's path and its suffixes, joined with "/"; a Swift target's name), the files of
    each Go package and Swift module, and the Swift targets Package.swift files place."""
    modules: dict[str, str] = {}
    packages: dict[str, set[str]] = {}
    package_files: dict[str, list[str]] = {}
    # a suffix key names the shallowest file that has it (deepest first, overwritten by
    # shallower); a key that names a file from the root wins over any suffix key
    # (``test.support`` is test/support/__init__.py, not unittest/test/support.py)
    ordered = sorted(files, key=lambda p: (-p.count("/"), p))
    keys = {path: _module_keys(path) for path in ordered}
    for path in ordered:
        for key in keys[path][1]:
            modules[key] = path
    for path in ordered:
        for key in keys[path][0]:
            modules[key] = path
    manifests = _manifest_roots(files)
    swift_targets = _swift_targets(manifests.get("Package.swift", {}))
    folders: dict[str, str] = {}  # folder -> how its files are imported
    for p in files:
        style = _key_style(p)
        folder = (_package_folder(p, swift_targets) if style == "folder"
                  else str(PurePosixPath(p).parent))
        if style in ("dotted", "folder", "psr4"):
            folders[folder] = style
        if style == "folder":
            package_files.setdefault(folder, []).append(p)
    for folder, style in folders.items():
        parts = PurePosixPath(folder).parts
        joiner = "/" if style == "folder" else "."
        for i in range(len(parts)):
            packages.setdefault(joiner.join(parts[i:]), set()).add(folder)
    package_folders = {key: tuple(sorted(folders)) for key, folders in packages.items()}
    for folder, name in swift_targets.items():  # ``import Core``: its target's folder
        package_folders[name] = (folder,)
    # a go.mod's module path names its folder, and that path plus a folder's below it
    go_roots = manifests.get("go.mod", {})
    for folder in package_files:
        found = _nearest_root(folder, go_roots)
        if found is not None:
            root, rel = found
            name = go_roots[root][0].name
            package_folders[f"{name}/{rel}" if rel else name] = (folder,)
    _add_script_keys(files, modules, manifests)
    return (
        modules,
        package_folders,
        {folder: tuple(sorted(paths)) for folder, paths in package_files.items()},
        swift_targets,
    )


def _swift_targets(roots: Mapping[str, tuple[ModuleRoot, ...]]) -> dict[str, str]:
    """Each SwiftPM target folder (from the project root) that a Package.swift names with
    ``path:`` -> the target's name."""
    targets: dict[str, str] = {}
    for manifest_folder, declared in roots.items():
        for root in declared:
            if root.under is not None:
                folder = _normalise(PurePosixPath(manifest_folder) / root.under)
                targets[folder or "."] = root.name
    return targets


def _manifest_roots(
    files: Mapping[str, FileSummary],
) -> dict[str, dict[str, tuple[ModuleRoot, ...]]]:
    """By manifest kind (``manifest_kind``): the folders (``"."`` for the root) holding such a
    manifest that declares module roots, and those roots (several tsconfig files in one
    folder: all). One pass over the files for every kind."""
    found: dict[str, dict[str, tuple[ModuleRoot, ...]]] = {}
    for path in sorted(p for p, summary in files.items() if summary.module_roots):
        by_folder = found.setdefault(manifest_kind(path), {})
        folder = str(PurePosixPath(path).parent)
        by_folder[folder] = by_folder.get(folder, ()) + files[path].module_roots
    return found


def _nearest_root(folder: str, roots: Mapping[str, object]) -> tuple[str, str] | None:
    """The nearest of ``roots`` at or above ``folder``, and ``folder`` relative to it."""
    parts = PurePosixPath(folder).parts
    for i in range(len(parts), -1, -1):
        root = "/".join(parts[:i]) or "."
        if root in roots:
            return root, "/".join(parts[i:])
    return None


def _add_script_keys(
    files: Mapping[str, FileSummary],
    modules: dict[str, str],
    manifests: Mapping[str, Mapping[str, tuple[ModuleRoot, ...]]],
) -> None:
    """Into ``modules``: the keys by which JS/TS code imports project files by name rather
    than by relative path: a workspace package's name (``@acme/ui`` its entry, else its
    index; ``@acme/ui/button``, ``@acme/ui/src/button``: a file of the package, not of a
    package nested in it) and tsconfig aliases (``@app/x`` -> src/app/x, ``config`` ->
    src/config.ts, ``utils/x`` below ``baseUrl``). Keys that name a project file from the root
    stay theirs; the first manifest (by path) to claim a key keeps it."""
    packages = manifests.get("package.json", {})
    aliases = manifests.get("tsconfig", {})
    if not packages and not aliases:
        return
    scripts = [p for p in sorted(files) if p.endswith(_SCRIPT_SUFFIXES)]
    scripts = [p for p in scripts if _key_style(p) == "path"]
    for kind, roots in (("package.json", packages), ("tsconfig", aliases)):
        for folder, declared in roots.items():
            for root in declared:
                for entry in root.entries:
                    target = _script_file(modules, _normalise(PurePosixPath(folder, entry)))
                    if target is not None and root.name:
                        modules.setdefault(root.name, target)
                        break
                if root.under is None:
                    continue
                top = _normalise(PurePosixPath(folder, root.under))
                for path in _below(scripts, top):
                    owner = _nearest_root(str(PurePosixPath(path).parent), packages)
                    if kind == "package.json" and (owner is None or owner[0] != folder):
                        continue  # a file of a package nested in this one
                    rel = path[len(top) + 1 :] if top else path
                    _add_keys_below(modules, root.name, rel, path)


def _below(paths: list[str], folder: str) -> list[str]:
    """The paths of sorted ``paths`` inside ``folder`` ("" for all): a contiguous run."""
    if not folder:
        return paths
    return paths[bisect.bisect_left(paths, folder + "/") : bisect.bisect_left(paths, folder + "0")]


def _add_keys_below(modules: dict[str, str], name: str, rel: str, path: str) -> None:
    """``name/<rel without its extension>`` (``name/<folder>`` for an index file, ``name``
    for the folder's own) -> ``path``, where not taken."""
    stem = str(PurePosixPath(rel).with_suffix(""))
    keys = [stem]
    if PurePosixPath(stem).name == "index":
        keys.append(str(PurePosixPath(stem).parent).removeprefix("."))
    for key in keys:
        full = f"{name}/{key}" if name and key else name or key
        if full:
            modules.setdefault(full, path)


def _script_file(modules: Mapping[str, str], path: str) -> str | None:
    """The project's JS/TS file ``path`` names (an entry of package.json or tsconfig: with or
    without its extension, a declaration file for the source beside it), or None."""
    for key in (*_script_keys(path), path.removesuffix(".d.ts").removesuffix(".d")):
        found = modules.get(key)
        if found is not None and _key_style(found) == "path":
            return found
    return None


def _namespace_facts(summary: FileSummary | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What the namespace keys of a file are made of: the namespaces or package it declares
    and its top-level names; empty for files of other languages."""
    declared = declared_namespaces(summary) if summary is not None else ()
    if not declared or summary is None:
        return (), ()
    return declared, tuple(d.name for d in summary.definitions if d.qualname == d.name)


def _module_roots_of(summary: FileSummary | None) -> tuple[ModuleRoot, ...]:
    return summary.module_roots if summary is not None else ()


def _build_namespaces(
    files: Mapping[str, FileSummary], modules: dict[str, str]
) -> dict[str, tuple[str, ...]]:
    """The files of each namespace or package C# and Kotlin files declare; and into
    ``modules``, ``A.B.C`` -> the file declaring top-level C in A.B (a class, a Kotlin
    function), where no other key is so named. A file in no namespace gets no keys: its names
    are no import's."""
    namespace_files: dict[str, list[str]] = {}
    for path in sorted(files):
        declared, names = _namespace_facts(files[path])
        for namespace in declared:
            namespace_files.setdefault(namespace, []).append(path)
            for name in names:
                modules.setdefault(f"{namespace}.{name}", path)
    return {namespace: tuple(paths) for namespace, paths in namespace_files.items()}


# headers of the C and C++ standard libraries, POSIX and the common platforms: ``<util.h>``
# is BSD's even where the project has a util.h of its own
_SYSTEM_HEADER_NAMES = (
    "assert complex ctype errno fenv float inttypes iso646 limits locale math setjmp signal "
    "stdalign stdarg stdatomic stdbool stddef stdint stdio stdlib stdnoreturn string tgmath "
    "threads time uchar wchar wctype aio arpa cpio dirent dlfcn fcntl fmtmsg fnmatch ftw glob "
    "grp iconv langinfo libgen monetary mqueue ndbm netdb nl_types poll pthread pwd regex sched "
    "search semaphore spawn strings stropts syslog tar termios trace ulimit unistd utime utmpx "
    "wordexp alloca endian err getopt libintl malloc memory paths util libutil execinfo "
    "features windows winsock winsock2 ws2tcpip io process direct conio intrin"
)
_SYSTEM_HEADERS = frozenset(f"{name}.h" for name in _SYSTEM_HEADER_NAMES.split())


def _bare_angle_include(module: str) -> bool:
    """``#include <x.h>`` without a folder: the project's x.h only at its root or in include/
    (``<hiredis.h>`` from examples/ built with ``-I..``), never a standard name (``<util.h>``
    is BSD's, whatever the project has)."""
    return module.startswith("<") and module.endswith(">") and "/" not in module


def _module_keys_for_import(module: str, from_path: str) -> Iterable[str]:
    style = _key_style(from_path)
    if style == "file" and module.startswith("<") and module.endswith(">"):
        # ``#include <mylib/api.h>`` (``-Iinclude``): a project header when a project file ends
        # with that path; a bare one by ``_bare_angle_include``'s rule
        inner = module[1:-1].strip()
        if not _bare_angle_include(module):
            yield inner
        elif inner not in _SYSTEM_HEADERS:
            yield inner
            yield f"include/{inner}"
        return
    base = PurePosixPath(from_path).parent
    if style == "file":  # ``#include "x.h"``: next to the includer first
        yield _normalise(base / module)
        yield module
        return
    if module.startswith("."):
        if module.startswith("./") or module.startswith("../"):  # JS/TS relative
            yield from _script_keys(_normalise(base / module))
            return
        level = len(module) - len(module.lstrip("."))
        anchor = base
        for _ in range(level - 1):
            anchor = anchor.parent
        rest = module.lstrip(".")
        target = anchor / rest.replace(".", "/") if rest else anchor
        yield _normalise(target)
        return
    if module.startswith(("@/", "~/")):  # JS/TS: the usual alias of the source root (tsconfig
        # ``"paths": {"@/*": ["./src/*"]}``, Vite, Next.js, Nuxt), or of the project root
        yield from _script_keys(_normalise(PurePosixPath("src", module[2:])))
        yield from _script_keys(_normalise(PurePosixPath(module[2:])))
        return
    yield module
    if style == "psr4":  # PHP: PSR-4 (``App\`` in app/, a prefix dropped: src/Http/…)
        first, dot, rest = module.partition(".")
        if dot and first.lower() != first:
            yield f"{first.lower()}.{rest}"
        parts = module.split(".")
        yield from (".".join(parts[i:]) for i in range(1, len(parts)))
        return
    if _load_paths(from_path):  # Ruby: from the root (above), else by the load path's keys
        return
    if from_path.endswith(".rs"):
        yield from _rust_module_keys(module, from_path)
        return
    if "/" in module:  # Go import paths end with the package's folder path
        parts = module.split("/")
        yield from ("/".join(parts[i:]) for i in range(1, len(parts)))


def _rust_module_keys(module: str, from_path: str) -> Iterable[str]:
    """The file of Rust module path ``module`` as written in ``from_path``: ``crate::a::b``
    from the crate root (the ``src`` folder: src/a/b.rs or src/a/b/mod.rs; ``crate`` alone:
    src/lib.rs or src/main.rs), ``super::x`` from the parent of the file's module,
    ``self::x`` and a plain ``x::y`` (Rust 2018: a module the current one declares, else an
    extern crate: none of the project's) from the file's own module. src/blocking/request.rs
    is module blocking::request; src/blocking/mod.rs is blocking; a file outside ``src``
    (tests/, examples/, build.rs) a crate root of its own."""
    parts = module.split("::")
    if not parts[0] and len(parts) > 1:
        return  # ``::std::io``: an extern crate
    root, current = _rust_module_of(from_path)
    if parts[0] == "crate":
        target, parts = [], parts[1:]
    else:
        target = list(current)
        while parts and parts[0] in ("self", "super"):
            if parts[0] == "super":
                if not target:
                    return
                target.pop()
            parts = parts[1:]
    target.extend(p for p in parts if p)
    if target:
        yield "/".join([root, *target]) if root else "/".join(target)
        return
    for stem in ("lib", "main"):  # the crate root
        yield f"{root}/{stem}" if root else stem


def _rust_module_of(path: str) -> tuple[str, list[str]]:
    """(the crate's source folder, the module path of the file below it) of a ``.rs`` file."""
    parts = list(PurePosixPath(path).with_suffix("").parts)
    below = [i for i, part in enumerate(parts[:-1]) if part == "src"]
    if not below:  # tests/it.rs, build.rs: a crate root; its modules beside it
        return "/".join(parts[:-1]), []
    root, rest = "/".join(parts[: below[-1] + 1]), parts[below[-1] + 1 :]
    if len(rest) == 2 and rest[0] == "bin":  # src/bin/tool.rs: a crate root
        return f"{root}/bin", []
    if rest in (["lib"], ["main"]):
        return root, []
    return root, rest[:-1] if rest[-1] == "mod" else rest


def _script_keys(path: str) -> Iterable[str]:
    """A JS/TS import's path, then without its extension (an ESM import names the emitted
    file: ``./money.js`` for money.ts)."""
    yield path
    stem, dot, suffix = path.rpartition(".")
    if dot and f".{suffix}" in _SCRIPT_SUFFIXES:
        yield stem


def _normalise(path: PurePosixPath) -> str:
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    return "/".join(parts)
