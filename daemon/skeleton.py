"""AST summaries: definitions rendered with bodies elided (pure, deterministic).

A skeleton always keeps name, parameter list and return type (they are in the signature), the
first doc line, and for classes the instance attributes. Definitions whose whole text is repeated
in other files are rendered once and referenced ("same as path:qualname").
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace

from daemon.index import IndexSnapshot
from daemon.languages import LANGUAGES, comment_leader
from daemon.parse import first_doc_line, top_level_spans
from daemon.symbols import Definition, DefKind, FileSummary
from engine.base import TokenCounter
from engine.code_scan import code_positions

_CONSTANT_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
# a Rust trait implementation: ``impl Service<Name> for DynResolver``, ``unsafe impl<T> Send
# for Pool<T>``
_TRAIT_IMPL = re.compile(r"(?:unsafe\s+)?impl\b.*\sfor\s")
_DOC_OPEN = re.compile(r"""^\s*([rRuUbB]{0,2})(\"\"\"|\'\'\')""")


def render_definition(
    definition: Definition,
    language: str,
    *,
    indent: str = "",
    duplicate_of: str = "",
    members: Sequence[str] = (),
) -> str:
    """One definition as skeleton lines (signature, doc line, elided body), newline-terminated.
    ``members``: names of a class's members shown by name only (a ``members:`` comment line
    beside its ``fields:``)."""
    spec = LANGUAGES.get(language)
    comment = comment_leader(language)
    elided = spec.elided_body if spec else "..."
    sig = definition.signature
    # a member's access label (C++ ``private:``) at its class's indentation, Ruby's
    # (``private``) at its own; none for a member shown without its class
    label = ""
    if definition.access and indent:
        a_word = spec is not None and bool(spec.access_words)
        label = (f"{indent}{definition.access}\n" if a_word
                 else f"{indent[:-4]}{definition.access}:\n")
    if definition.kind is DefKind.VARIABLE:  # one line, under its doc comment if it has one
        doc = f"{indent}{comment} {definition.doc}\n" if definition.doc else ""
        return f"{label}{doc}{indent}{sig}\n"
    lines: list[str] = []
    if spec is not None and spec.doc_in_body:  # Python: "def f(a) -> int:" + indented body
        lines.extend(f"{indent}{part}" for part in decorator_lines(sig))
        inner = indent + "    "
        if duplicate_of:
            lines.append(f"{inner}{comment} same as {duplicate_of}")
        if definition.doc:
            lines.append(f'{inner}"""{definition.doc}"""')
        if definition.kind is DefKind.CLASS and definition.attributes:
            lines.append(f"{inner}{comment} attributes: {', '.join(definition.attributes)}")
        if members:
            lines.append(f"{inner}{comment} members: {', '.join(members)}")
        if definition.kind is not DefKind.CLASS or not (
            definition.doc or definition.attributes or members
        ):
            lines.append(f"{inner}{elided}")
        return "\n".join(lines) + "\n"
    if definition.doc:
        lines.append(f"{indent}{comment} {definition.doc}")
    if duplicate_of:
        lines.append(f"{indent}{comment} same as {duplicate_of}")
    if definition.kind is DefKind.CLASS and definition.attributes:
        lines.append(f"{indent}{comment} fields: {', '.join(definition.attributes)}")
    if members:
        lines.append(f"{indent}{comment} members: {', '.join(members)}")
    # a declaration without a body (a C prototype, a Java interface method, a Rust trait
    # method, ``typedef struct {…} name;``) ends with ";" and is shown as written, so is a
    # definition that is its signature (Go ``type ID int64``)
    whole = sig.endswith(";") or definition.whole
    lines.append(f"{indent}{sig}" if whole else f"{indent}{sig} {elided}")
    return label + "\n".join(lines) + "\n"


_DEF_KEYWORDS = ("def ", "async def ", "class ")


def decorator_lines(signature: str) -> list[str]:
    """A Python signature joined on one line, ``@property def name(self):``, as it is written:
    each decorator on its own line, then the ``def`` (the model copies what it sees, and a
    decorator on the line of its ``def`` is a syntax error). Splits only at top level, outside
    brackets and strings; a signature without decorators is one line."""
    if not signature.startswith("@"):
        return [signature]
    parts: list[str] = []
    depth = 0
    start = 0
    for i, ch in code_positions(signature, "python"):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif ch == " " and depth == 0 and i > start:
            rest = signature[i + 1 :]
            if rest.startswith(_DEF_KEYWORDS) or (rest.startswith("@") and rest[1:2].strip()):
                parts.append(signature[start:i])  # a decorator ends here
                start = i + 1
                if rest[0] != "@":
                    break  # the def: the rest is one line
    parts.append(signature[start:])
    return parts


def outline_entries(
    summary: FileSummary,
    *,
    index: IndexSnapshot | None = None,
    expand: Iterable[str] = (),
) -> list[tuple[Definition, str]]:
    """Skeleton text per top-level definition of a file, in file order.

    A class comes as one entry with its methods' signatures nested, unless its qualname is in
    ``expand``: then the class header and each member are separate entries (the context
    assembler expands the class that encloses the cursor). Functions nested in functions are
    left out (body detail). Each entry is (definition, rendered text).
    """
    outline = Outline(summary, index=index, expand=expand)
    return [(d, outline.text(i)) for i, d in enumerate(outline.definitions)]


class Outline:
    """``outline_entries`` with each entry's text rendered when it is first asked for.

    The context assembler walks the entries of a file and renders only those a prompt can use:
    a large file has tens of thousands of entries, a prompt room for a few hundred.
    """

    def __init__(
        self,
        summary: FileSummary,
        *,
        index: IndexSnapshot | None = None,
        expand: Iterable[str] = (),
    ) -> None:
        self._summary = summary
        self._index = index
        expanded = set(expand)
        by_qualname = {d.qualname: d for d in summary.definitions}
        spans = _class_spans(summary)
        holders: dict[str, list[Definition]] = {}  # a qualname's classes: Rust's struct, impls
        for d in summary.definitions:
            if d.kind is DefKind.CLASS:
                holders.setdefault(d.qualname, []).append(d)
        children: dict[tuple[str, int], list[Definition]] = {}
        roots: list[Definition] = []
        for d in summary.definitions:
            if _outside_its_class(d, spans):
                roots.append(d)  # C++ ``Shape::area`` below ``class Shape {…};``
            elif d.parent and d.parent in by_qualname:
                # nested in the class of that name that holds it (a Rust method in its
                # ``impl``, not also in the struct), else the last (a Go method)
                found = holders.get(d.parent) or [by_qualname[d.parent]]
                holder = next(
                    (c for c in found if c.start_line <= d.start_line <= c.end_line), found[-1]
                )
                children.setdefault(_key(holder), []).append(d)
            elif "." not in d.qualname or d.qualname.split(".")[0] not in by_qualname:
                # top level, or a method of a class defined in another file (C++
                # ``Shape::area``, a Go method whose receiver type is elsewhere)
                roots.append(d)
        self._children = children
        self.definitions: list[Definition] = []  # the entries' definitions, in file order
        self._depths: list[int] = []
        self._nested: list[bool] = []  # members rendered inside the entry's text
        self._texts: dict[int, str] = {}
        self._starts: list[int] | None = None
        self._named: dict[str, list[int]] | None = None

        def walk(d: Definition, depth: int) -> None:
            self.definitions.append(d)
            self._depths.append(depth)
            if d.qualname in expanded:
                self._nested.append(False)
                for m in children.get(_key(d), []):
                    walk(m, depth + 1)
            else:
                self._nested.append(True)

        for d in roots:
            if d.qualname in expanded:
                walk(d, 0)
            else:  # most entries: no call
                self.definitions.append(d)
                self._depths.append(0)
                self._nested.append(True)

    def __len__(self) -> int:
        return len(self.definitions)

    @property
    def starts(self) -> list[int]:
        """The entries' first lines, ascending."""
        if self._starts is None:
            self._starts = sorted(d.start_line for d in self.definitions)
        return self._starts

    def named(self, name: str) -> list[int]:
        """Positions of the entries named ``name``, by first line."""
        if self._named is None:
            named: dict[str, list[int]] = {}
            for i, d in enumerate(self.definitions):
                named.setdefault(d.name, []).append(i)
            for positions in named.values():
                positions.sort(key=lambda i: self.definitions[i].start_line)
            self._named = named
        return self._named.get(name, [])

    def text(self, i: int) -> str:
        """The rendered skeleton of entry ``i``."""
        text = self._texts.get(i)
        if text is None:
            d, depth = self.definitions[i], self._depths[i]
            text = self._nested_text(d, depth) if self._nested[i] else self._render(d, depth)
            self._texts[i] = text
        return text

    def _render(self, d: Definition, depth: int) -> str:
        return render_definition(
            d, self._summary.language, indent="    " * depth, duplicate_of=self._duplicate_of(d)
        )

    def _duplicate_of(self, d: Definition) -> str:
        if self._index is None or d.kind is DefKind.VARIABLE:
            return ""
        path = self._summary.path
        others = [r for r in self._index.duplicates_of(d) if r.path != path]
        if others and others[0].path < path:
            return f"{others[0].path}:{others[0].definition.qualname}"
        return ""

    def _nested_text(self, d: Definition, depth: int) -> str:
        text = self._render(d, depth)
        members = self._children.get(_key(d), [])
        if members and self._summary.language == "python" and text.rstrip().endswith("..."):
            text = text.rstrip()[: -len("...")].rstrip() + "\n"
        return text + "".join(self._nested_text(m, depth + 1) for m in members)


def _key(d: Definition) -> tuple[str, int]:
    """A definition among those of one qualname (a Rust struct and its impls)."""
    return (d.qualname, d.start_line)


def _class_spans(summary: FileSummary) -> dict[str, list[tuple[int, int]]] | None:
    """The lines of each class of ``summary`` by qualname (several: ``#if`` branches defining
    one struct each), in a language with access labels (C++); None in the others."""
    spec = LANGUAGES.get(summary.language)
    if spec is None or not spec.access_nodes:
        return None
    spans: dict[str, list[tuple[int, int]]] = {}
    for d in summary.definitions:
        if d.kind is DefKind.CLASS:
            spans.setdefault(d.qualname, []).append((d.start_line, d.end_line))
    return spans


def _outside_its_class(d: Definition, spans: dict[str, list[tuple[int, int]]] | None) -> bool:
    """Whether member ``d`` is defined outside its class in the file, in a language with access
    labels (C++ ``double Shape::area() const {…}`` below ``class Shape {…};``): listed where it
    is, as when its class is in another file; nested in the class it would read as under the
    class's last label."""
    if spans is None or not d.parent or d.parent not in spans:
        return False
    return not any(first <= d.start_line <= last for first, last in spans[d.parent])


def render_entry(
    summary: FileSummary,
    definition: Definition,
    *,
    index: IndexSnapshot | None = None,
    only: Collection[str] | None = None,
    exported_only: bool = False,
) -> str:
    """One definition of ``summary`` as a skeleton, a class with its members' signatures (those
    defined below the class, C++ ``Shape::area``, left out: the class declares them; in a Go
    package, also its methods declared in the package's other files, from ``index``).
    ``only``: the class's direct members so named are shown whole, the others by name in one
    ``members:`` line (a class too long to show whole, with what the code at hand uses).
    ``exported_only``: a Go type as another package sees it: its unexported (lower-case)
    fields and methods left out."""
    spans = _class_spans(summary)
    members: dict[str, list[Definition]] = {}
    for d in summary.definitions:
        if d.parent and not _outside_its_class(d, spans):
            members.setdefault(d.parent, []).append(d)
    if index is not None and definition.kind is DefKind.CLASS:
        for path in index.package_of(summary.path):
            other = index.files.get(path) if path != summary.path else None
            for d in other.definitions if other is not None else ():
                if d.parent == definition.qualname:
                    members.setdefault(d.parent, []).append(d)

    # a Rust type's trait implementations: one line each after its own methods
    # (``impl Service<Name> for DynResolver { … }``), their members (``type Response``,
    # ``poll_ready``: the trait's, written for it) left out
    impls = _trait_impls(summary, definition)
    if impls:
        members[definition.qualname] = [
            m for m in members.get(definition.qualname, [])
            if not any(i.start_line <= m.start_line <= i.end_line for i in impls)
        ]
    if exported_only:
        members = {k: [m for m in v if _exported(m.name)] for k, v in members.items()}
        if definition.attributes:
            definition = replace(
                definition, attributes=tuple(a for a in definition.attributes if _exported(a))
            )

    def nested(d: Definition, depth: int) -> str:
        children = members.get(d.qualname, [])
        named: list[str] = []
        if only is not None and depth == 0:
            # a constant the code at hand does not use is left out, not named (rack's Lint:
            # a dozen REQUEST_PATH_… names crowded out the classes the code used)
            named = list(dict.fromkeys(c.name for c in children
                                       if c.name not in only and not _constant(c)))
            children = [c for c in children if c.name in only]
        text = render_definition(d, summary.language, indent="    " * depth, members=named)
        if children and summary.language == "python" and text.rstrip().endswith("..."):
            text = text.rstrip()[: -len("...")].rstrip() + "\n"
        return text + "".join(nested(m, depth + 1) for m in children[:24])

    return nested(definition, 0) + "".join(
        render_definition(i, summary.language) for i in impls
    )


def _trait_impls(summary: FileSummary, definition: Definition) -> list[Definition]:
    """The Rust trait implementations for ``definition``'s type in its file, when it is the
    type or its own ``impl`` (not one of them)."""
    if definition.kind is not DefKind.CLASS or _TRAIT_IMPL.match(definition.signature):
        return []
    return [
        d for d in summary.definitions
        if d.kind is DefKind.CLASS and d.qualname == definition.qualname
        and _TRAIT_IMPL.match(d.signature)
    ]


def _constant(d: Definition) -> bool:
    """A member constant named in capitals (``MAX_ITEMS``, ``ALLOWED_SCHEMES``)."""
    return d.kind is DefKind.VARIABLE and _CONSTANT_NAME.fullmatch(d.name) is not None


def _exported(name: str) -> bool:
    """Go: a name other packages see starts with an upper-case letter."""
    return name[:1].isupper()


def render_skeleton(summary: FileSummary, *, index: IndexSnapshot | None = None) -> str:
    """The whole file as a skeleton: imports, then every definition with its body elided."""
    parts = [imp.text + "\n" for imp in summary.imports]
    if parts:
        parts.append("\n")
    parts.extend(text for _, text in outline_entries(summary, index=index))
    return "".join(parts)


def fit_head(lines: Sequence[str], language: str, counter: TokenCounter, limit: int) -> str:
    """The file head ``lines`` (module doc, imports, what lies between) in ``limit`` tokens.

    Whole when it fits. Otherwise cut at top-level statement boundaries, never inside one (a
    cut docstring or import list would leave a string or bracket open for the model to
    continue): statements in file order, each kept if it still fits (first fit), comments left
    out; a Python module docstring that does not fit whole is shortened to its first line. A
    language without a grammar is cut at the last line that fits.
    """
    text = "".join(lines)
    if counter.count(text) <= limit:
        return text
    spans = top_level_spans(text, language)
    if not spans:
        return _fit_lines(lines, counter, limit)
    chosen: dict[int, str] = {}  # span number -> its text as kept
    used = 0
    order = sorted(range(len(spans)), key=lambda k: _system_include(spans[k], lines))
    reordered = order != sorted(order)  # C/C++: the project's includes chosen first
    for number in order:
        first, last, node_type = spans[number]
        if node_type == "comment":
            continue
        whole = "".join(lines[first : last + 1])
        options = [whole]
        if number == 0 and language == "python" and node_type == "expression_statement":
            opened = _DOC_OPEN.match(lines[first])
            if opened and last > first:  # a multi-line module docstring
                quote = opened.group(2)
                options.append(f"{opened.group(1)}{quote}{first_doc_line(whole)}{quote}\n")
        # the blank line before it, written unless it comes out first; chosen in another order
        # than written, which one does is not known yet: counted then (one token at most over)
        blank_above = first > 0 and not lines[first - 1].strip()
        gap = "\n" if blank_above and (chosen or reordered) else ""
        for option in options:
            n = counter.count(gap + option)
            if used + n <= limit:
                chosen[number] = option
                used += n
                break
    out: list[str] = []
    for number in sorted(chosen):
        first = spans[number][0]
        gap = "\n" if out and first > 0 and not lines[first - 1].strip() else ""
        out.append(gap + chosen[number])
    return "".join(out)


def _system_include(span: tuple[int, int, str], lines: Sequence[str]) -> bool:
    """Whether ``span`` is a C/C++ ``#include <…>``: a head cut for room keeps the project's
    ``#include "…"`` first (hiredis's async.c kept six system headers and lost ``async.h``)."""
    first, _, node_type = span
    return node_type == "preproc_include" and "<" in lines[first]


def _fit_lines(lines: Sequence[str], counter: TokenCounter, limit: int) -> str:
    """The longest run of ``lines`` from the first that fits ``limit`` tokens."""
    keep = len(lines)
    while keep > 0 and counter.count("".join(lines[:keep])) > limit:
        keep = keep * 3 // 4 if keep > 4 else keep - 1
    return "".join(lines[:keep])
