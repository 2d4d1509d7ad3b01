"""Rust: ``use`` trees, module paths resolved as rustc resolves them, and the names of other
files seen only through ``use`` and paths (bench/corpora/reqwest showed the lookups beside
the file: ``mod error;`` found ``fn error`` of redirect.rs, a field ``inner`` another file's
method)."""

from __future__ import annotations

from pathlib import Path

import pytest

from daemon.context import ContextRequest, Kind, assemble_context
from daemon.parse import summarize
from daemon.skeleton import render_entry
from tests.daemon.summaries import cursor, index_of, related_segments

CRATE = {
    "Cargo.toml": '[package]\nname = "shop"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/lib.rs": (
        "mod error;\npub mod blocking;\n\npub use self::error::{Error, Result};\n\n"
        "/// Opens the default shop.\npub fn open() -> Result<blocking::Client> {\n"
        "    blocking::Client::new()\n}\n"
    ),
    "src/error.rs": (
        "/// What went wrong.\npub struct Error {\n    kind: Kind,\n}\n\n"
        "/// The kinds of errors.\npub enum Kind {\n    Io,\n    Closed,\n}\n\n"
        "pub type Result<T> = std::result::Result<T, Error>;\n\n"
        "/// An error of kind ``Closed``.\npub(crate) fn closed() -> Error {\n"
        "    Error { kind: Kind::Closed }\n}\n"
    ),
    "src/blocking/mod.rs": (
        "mod body;\nmod client;\nmod request;\n\n"
        "pub use self::client::Client;\npub use self::request::Request;\n"
    ),
    "src/blocking/body.rs": (
        "/// A request body.\npub struct Body {\n    bytes: Vec<u8>,\n}\n\n"
        "/// Sends the body from another thread.\npub(crate) struct Sender {\n"
        "    done: bool,\n}\n\nimpl Sender {\n"
        "    /// Sends what is left.\n    pub(crate) fn send(self) -> usize {\n"
        "        0\n    }\n}\n\n"
        "/// Reads the whole body.\npub fn read_all(body: &Body) -> Vec<u8> {\n"
        "    body.bytes.clone()\n}\n"
    ),
    "src/blocking/client.rs": (
        "use crate::Result;\n\n/// A blocking client.\npub struct Client {\n    inner: u32,\n}\n\n"
        "impl Client {\n    /// A client with the default settings.\n"
        "    pub fn new() -> Result<Client> {\n        Ok(Client { inner: 0 })\n    }\n\n"
        "    /// The inner handle.\n    pub fn inner(&self) -> u32 {\n"
        "        self.inner\n    }\n}\n"
    ),
    "src/blocking/request.rs": "",
}

REQUEST = (
    "use super::body::{self, Body};\nuse super::Client;\nuse crate::error::{self as err, Kind};\n\n"
    "pub struct Request {\n    inner: u32,\n    body: Option<Body>,\n}\n\n"
    "impl Request {\n    pub fn send(self, client: &Client) -> Option<body::Sender> {\n"
    "        let kind = Kind::Io;\n        let e = crate::error::closed();\n"
    "        let n = err::closed();\n        <|>\n    }\n}\n"
)


def test_use_trees_are_flattened_one_import_per_module() -> None:
    text = (
        "use crate::{a::B, c::{self, D as E}, f::*};\n"
        "pub(crate) use super::body::{self, Body};\n"
        "use std::fmt;\nuse x::y as z;\nuse ::std::io;\nuse serde;\nuse crate::async_impl;\n"
        "use super::*;\n"
    )
    imports = [(i.module, i.names, i.alias) for i in summarize("src/x.rs", text).imports]
    assert imports == [
        ("crate::c", (), "c"),
        ("crate::f", ("*",), ""),
        ("crate::a", ("B",), ""),
        ("crate::c", ("E",), ""),
        ("super::body", (), "body"),
        ("super::body", ("Body",), ""),
        ("std", ("fmt",), ""),
        ("x", ("z",), ""),
        ("::std", ("io",), ""),
        ("crate", ("async_impl",), ""),
        ("super", ("*",), ""),
    ]
    renamed = summarize("src/x.rs", text).imports[3]
    assert renamed.text == "use crate::c::D as E;"  # the original name, for a renamed import


@pytest.mark.parametrize(
    ("module", "from_path", "expected"),
    [
        ("super::body", "src/blocking/request.rs", "src/blocking/body.rs"),
        ("super", "src/blocking/request.rs", "src/blocking/mod.rs"),
        ("super::error", "src/blocking/mod.rs", "src/error.rs"),
        ("crate", "src/blocking/request.rs", "src/lib.rs"),
        ("crate::blocking", "src/error.rs", "src/blocking/mod.rs"),
        ("self::client", "src/blocking/mod.rs", "src/blocking/client.rs"),
        ("blocking", "src/lib.rs", "src/blocking/mod.rs"),  # a module lib.rs declares
        ("error", "src/blocking/request.rs", None),  # no child of blocking::request
        ("super::super::error", "src/blocking/request.rs", "src/error.rs"),
        ("super::super", "src/blocking/mod.rs", None),  # above the crate
        ("::error", "src/lib.rs", None),  # an extern crate
        ("http::header", "src/lib.rs", None),
    ],
)
def test_module_paths_resolve_from_the_files_module(
    module: str, from_path: str, expected: str | None
) -> None:
    files = {k: v for k, v in CRATE.items() if k.endswith(".rs")}
    snap = index_of(files).snapshot()
    assert snap.resolve_module(module, from_path) == expected


def test_a_file_outside_src_is_a_crate_root_of_its_own() -> None:
    snap = index_of({"tests/common/mod.rs": "pub fn setup() {}\n", "tests/it.rs": ""}).snapshot()
    assert snap.resolve_module("common", "tests/it.rs") == "tests/common/mod.rs"


def test_imported_items_paths_and_module_aliases_come_nothing_beside_the_file(
    tmp_path: Path,
) -> None:
    """Body (``use super::body::{self, Body}``), Sender (``body::Sender``: a path through the
    module alias), Client (``use super::Client``: re-exported by blocking/mod.rs), Kind (a
    renamed module's import), ``crate::error::closed`` (a path from the crate root). Not:
    ``read_all`` of body.rs (a name the file does not import), pool.rs's ``inner`` for the
    field ``inner`` (a function of a file beside this one, not imported)."""
    files = dict(CRATE)
    files["src/blocking/pool.rs"] = "/// The pool's handle.\npub fn inner() -> u32 {\n    0\n}\n"
    files["src/blocking/request.rs"] = REQUEST.replace(
        "<|>", "let all = read_all(&self.body.unwrap());\n        inner<|>"
    )
    text = "\n".join(related_segments(tmp_path, files, "src/blocking/request.rs"))
    assert "// A request body.\n// fields: bytes\npub struct Body { … }" in text
    assert "pub(crate) struct Sender { … }" in text
    assert "// A blocking client.\n// fields: inner\npub struct Client { … }" in text
    assert "pub enum Kind { … }" in text
    assert "pub(crate) fn closed() -> Error { … }" in text
    assert "read_all" not in text
    assert "src/blocking/pool.rs" not in text and "pool's handle" not in text


def test_a_glob_import_sees_its_modules_names(tmp_path: Path) -> None:
    files = dict(CRATE)
    files["src/blocking/request.rs"] = (
        "use super::body::*;\n\n"
        "fn all(b: &Body) -> Vec<u8> {\n    let v = read_all(b);\n    <|>\n}\n"
    )
    text = "\n".join(related_segments(tmp_path, files, "src/blocking/request.rs"))
    assert "// Reads the whole body.\npub fn read_all(body: &Body) -> Vec<u8> { … }" in text


def test_names_in_attributes_and_mod_declarations_find_nothing_beside_the_file(
    tmp_path: Path,
) -> None:
    """lib.rs: ``mod error;``, ``#[cfg(not(any(…)))]`` and a string found a same-named
    function of any file in src/ before (reqwest: ``fn error`` of redirect.rs, ``fn none``)."""
    files = dict(CRATE)
    files["src/redirect.rs"] = "pub fn error() {}\npub fn none() {}\npub fn any() {}\n"
    files["src/lib.rs"] = (
        '#[cfg(not(any(target_os = "none")))]\nmod error;\nmod redirect;\n'
        "pub mod blocking;\n<|>\n"
    )
    assert related_segments(tmp_path, files, "src/lib.rs") == []


def test_a_types_trait_impls_are_one_line_each_their_members_left_out() -> None:
    """A type from another file: its own methods, then ``impl Trait for Type { … }`` lines;
    the trait's ``type Response`` and ``poll_ready`` written for it are not the type's API."""
    text = (
        "/// Resolves names.\npub struct Resolver {\n    inner: u32,\n}\n\n"
        "impl Resolver {\n    pub fn new() -> Self {\n        Resolver { inner: 0 }\n    }\n}\n\n"
        "impl Service<Name> for Resolver {\n    type Response = Addrs;\n\n"
        "    fn call(&mut self, name: Name) -> Addrs {\n        todo!()\n    }\n}\n\n"
        "impl fmt::Debug for Resolver {\n"
        "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n        Ok(())\n    }\n}\n"
    )
    summary = summarize("src/dns.rs", text)
    struct = next(d for d in summary.definitions if d.signature == "pub struct Resolver")
    assert render_entry(summary, struct) == (
        "// Resolves names.\n// fields: inner\npub struct Resolver { … }\n"
        "    pub fn new() -> Self { … }\n"
        "impl Service<Name> for Resolver { … }\nimpl fmt::Debug for Resolver { … }\n"
    )
    trait_impl = next(d for d in summary.definitions if d.signature.startswith("impl Service"))
    assert "fn call(&mut self, name: Name) -> Addrs { … }" in render_entry(summary, trait_impl)


def test_an_inline_module_encloses_its_functions() -> None:
    """``mod tests { … }`` (in most Rust files): a definition whose header encloses a cursor in
    its tests, holding them (``tests.sends``); ``mod error;`` declares a file, no definition."""
    text = (
        "mod error;\n\npub fn send() -> u32 {\n    1\n}\n\n#[cfg(test)]\nmod tests {\n"
        "    use super::*;\n\n    #[test]\n    fn sends() {\n        assert_eq!(send(), 1);\n"
        "    }\n}\n"
    )
    summary = summarize("src/lib.rs", text)
    assert [(d.qualname, d.signature) for d in summary.definitions] == [
        ("send", "pub fn send() -> u32"),
        ("tests", "mod tests"),
        ("tests.sends", "fn sends()"),
    ]
    many = "".join(
        f"    #[test]\n    fn sends_{i}() {{\n        assert_eq!(send(), {i});\n    }}\n\n"
        for i in range(40)
    )
    long = text.replace("    #[test]\n    fn sends()", many + "    #[test]\n    fn sends()")
    head, _, tail = long.rpartition("assert_eq!(send(), 1);")
    body, line, column = cursor(head + "assert_eq!(<|>" + tail)
    ctx = assemble_context(
        ContextRequest(path="src/lib.rs", text=body, line=line, column=column, budget_tokens=256),
        index=index_of({"src/lib.rs": body}),
    )
    window = next(s for s in ctx.segments if s.kind is Kind.CURSOR_WINDOW)
    headers = [s.text for s in ctx.segments if s.kind is Kind.ENCLOSING]
    assert "mod tests {" not in window.text
    assert headers == ["mod tests {\n"]


def test_items_inside_item_macros_at_the_top_level_are_read() -> None:
    """reqwest's lib.rs re-exports its clients inside ``if_hyper! { … }``; ``cfg_if!`` holds
    ``use`` and ``fn`` items in its branches: both are the file's, with their own lines."""
    text = (
        "mod error;\n\nif_hyper! {\n    mod client;\n    pub use self::client::{Client, Builder};\n"
        "    /// Sends a GET.\n    pub fn get(url: &str) -> Client {\n        todo!()\n    }\n}\n\n"
        "cfg_if::cfg_if! {\n    if #[cfg(unix)] {\n        use crate::sys::Fd;\n"
        "    } else {\n        use crate::win::Handle;\n    }\n}\n\nfn main() {\n"
        "    println!(\"{}\", 1);\n}\n"
    )
    summary = summarize("src/lib.rs", text)
    assert [(i.module, i.names, i.line) for i in summary.imports] == [
        ("self::client", ("Client", "Builder"), 4),
        ("crate::sys", ("Fd",), 13),
        ("crate::win", ("Handle",), 15),
    ]
    assert [(d.qualname, d.start_line, d.doc) for d in summary.definitions] == [
        ("get", 6, "Sends a GET."),
        ("main", 19, ""),
    ]


def test_a_use_inside_an_inline_module_counts_super_from_it() -> None:
    """``mod tests { use super::*; }`` imports the file's own items (its ``self``), not the
    parent module's: reqwest's tests named blocking/mod.rs's items visible."""
    text = (
        "use super::Client;\n\nfn send() {}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n"
        "    use super::super::error::Kind;\n    use self::helpers::X;\n    use http::Method;\n\n"
        "    mod helpers {\n        use super::super::send;\n    }\n}\n"
    )
    imports = [(i.module, i.names) for i in summarize("src/blocking/request.rs", text).imports]
    assert imports == [
        ("super", ("Client",)),  # the file's own: blocking/mod.rs
        ("self", ("*",)),
        ("super::error", ("Kind",)),
        ("self", ("X",)),
        ("http", ("Method",)),
        ("self", ("send",)),
    ]
    snap = index_of({"src/blocking/request.rs": text, "src/blocking/mod.rs": ""}).snapshot()
    assert snap.resolve_module("self", "src/blocking/request.rs") == "src/blocking/request.rs"
