"""What the index knows about a file: definitions, imports (pure data)."""

from __future__ import annotations

import bisect
import enum
from dataclasses import dataclass


class DefKind(enum.Enum):
    FUNCTION = "function"
    METHOD = "method"
    CLASS = "class"  # also struct / interface / trait / enum / type alias
    VARIABLE = "variable"  # module-level constants and assignments


@dataclass(frozen=True, slots=True)
class Definition:
    """One definition with its signature; lines are 0-based, end inclusive."""

    name: str
    kind: DefKind
    qualname: str  # "Class.method" for methods, else name
    signature: str  # the signature line(s) as written, bodies elided, e.g. "def f(a: int) -> str:"
    params: str  # the parameter list as written, "(a: int)"
    return_type: str  # "" when none is written
    doc: str  # first line of the docstring / doc comment, "" when none
    start_line: int
    end_line: int
    body_start_line: int  # first line of the body (== start_line for one-liners)
    parent: str = ""  # qualname of the enclosing class, "" at top level
    attributes: tuple[str, ...] = ()  # classes: instance attributes assigned in methods
    body_digest: str = ""  # hash of the whole definition text: equal digests = duplicates
    # C++ members: the access specifier written before this one ("public", "protected",
    # "private"; a class skeleton shows it as a label), "" when another member comes between
    access: str = ""
    # the signature is the whole definition, no body to elide (Go ``type ID int64``)
    whole: bool = False


@dataclass(frozen=True, slots=True)
class Import:
    """An import statement; ``names`` are the names it binds in the importing file."""

    module: str  # "os.path", "./utils", "crate::io" as written (relative dots kept)
    names: tuple[str, ...]  # imported names ("*" for a star import); empty for "import x"
    alias: str  # "np" for "import numpy as np"; the bound name for plain imports
    line: int
    text: str  # the statement as written


@dataclass(frozen=True, slots=True)
class ModuleRoot:
    """A name a manifest (``go.mod``, ``package.json``, ``tsconfig.json``) says project code
    is imported by (``daemon.manifests``)."""

    name: str  # "github.com/go-chi/chi/v5", "@acme/ui", "@app" (a tsconfig alias), "" (baseUrl)
    # the files the bare name imports, relative to the manifest's folder ("src/index.ts"), as
    # the manifest names them (build outputs included: the index keeps those it has)
    entries: tuple[str, ...] = ()
    # a folder, relative to the manifest's ("" for its own), whose files (Go: packages) are
    # imported as name/<their path below it>; None: the name has no subpaths
    under: str | None = None


@dataclass(frozen=True, slots=True)
class FileSummary:
    """The index entry of one file."""

    path: str  # project-relative, forward slashes
    language: str  # language id or "text"
    num_lines: int
    num_bytes: int
    definitions: tuple[Definition, ...] = ()
    imports: tuple[Import, ...] = ()
    has_syntax_errors: bool = False  # partial results kept
    digest: str = ""  # content hash (blake2b) of the text that was parsed
    # string literals and comments spanning lines, as (first line, last line), 0-based and
    # inclusive, outermost only, in file order: a cut inside one leaves prose without its quote.
    # Only summarize(prose=True) (the context assembler's) fills it; index entries leave it empty
    prose_spans: tuple[tuple[int, int], ...] = ()
    # bracketed expressions spanning lines (literals, argument and parameter lists), nested
    # ones too, in file order; filled with prose_spans
    literal_spans: tuple[tuple[int, int], ...] = ()
    # a manifest's (go.mod, package.json, tsconfig.json): the names its code is imported by
    module_roots: tuple[ModuleRoot, ...] = ()

    def definitions_at(self, line: int) -> list[Definition]:
        """Definitions enclosing ``line``, outermost first."""
        found = [d for d in self.definitions if d.start_line <= line <= d.end_line]
        return sorted(found, key=lambda d: (d.start_line, -d.end_line))

    def prose_span_at(self, line: int) -> tuple[int, int] | None:
        """The multi-line string or comment that ``line`` continues (its first line excluded)."""
        i = bisect.bisect_left(self.prose_spans, (line, -1)) - 1
        if i >= 0 and self.prose_spans[i][1] >= line:
            return self.prose_spans[i]
        return None

    def spans_continued_at(self, line: int) -> list[tuple[int, int]]:
        """The multi-line bracketed expressions and the string or comment that ``line``
        continues (their first line above it), outermost first: what a prompt part starting at
        ``line`` would show the inside of without its opening line."""
        end = bisect.bisect_left(self.literal_spans, (line, -1))
        found = [s for s in self.literal_spans[:end] if s[1] >= line]
        prose = self.prose_span_at(line)
        if prose is not None:
            found.append(prose)
        return sorted(found, key=lambda s: (s[0], -s[1]))


@dataclass(frozen=True, slots=True)
class SkipRecord:
    """A file the index left out, and why (shown by ``nospin status`` and logs)."""

    path: str
    reason: str  # "binary", "too large (1.2 MB > 1 MB)", "not UTF-8", "ignored", "vanished", ...
