"""The ``tabby`` eval mode: the prompt Tabby's server builds from what tabby-agent sends
(docs/quality.md, "Peer modes", cites each rule's source).

- Segments (tabby-agent): the last ``maxPrefixLines`` (20) lines up to the cursor, the first
  ``maxSuffixLines`` (20) from it; declarations of the names in the prefix range, nearest the
  cursor first, at most 5, each cropped to 500 characters; with a session, snippets of the
  recently changed files (3) and of recently opened files (5, 500 characters each).
- Snippets (server, ``PromptBuilder::collect``): at most 768 characters in all, declarations
  first, then changed-file and opened-file snippets (each group stops at the first that does not
  fit); when more than 256 characters are left, code search over the repository's index (other
  files of the same language, chunks of at most 512 characters, BM25 over ``\\w+`` tokens with
  the prefix as query, scores above 8.0, at most two chunks a file), best first while they fit.
- Rendered (``build_prefix``): every snippet as ``Path: file`` and its lines, each line
  commented with the language's line comment (an empty line is the bare comment mark, one
  between snippets), then a line break and the prefix; the FIM template around that.

Tabby's declarations come from the editor's language server (semantic tokens, go to
declaration); here nospin's tree-sitter index resolves the names (``peer_common.resolve_name``:
functions, methods and classes only, as Tabby's allowed symbol types). Tabby's code search is
hybrid: it also embeds the query and keeps only hits whose embedding score passes 0.75 and whose
rank fusion passes 0.028; no offline embedding model installs from the package registries here,
so the mode runs the BM25 half alone, ordered by BM25 with its 8.0 threshold. Over the budget,
snippets go first (last first), then prefix lines from the top and suffix lines from the bottom,
one of each in turn.
"""

from __future__ import annotations

import itertools
import math
import re
from array import array
from collections import Counter
from dataclasses import dataclass

from app.evaluation.peer_common import TYPE_KINDS, PeerInput, Resolved, read_text, resolve_name
from daemon.index import ProjectIndex
from daemon.languages import detect_language
from daemon.parse import mask_prose
from engine.base import PromptParts, TokenCounter
from engine.profiles import line_comment

MAX_PREFIX_LINES = 20  # completion.prompt.maxPrefixLines
MAX_SUFFIX_LINES = 20  # maxSuffixLines
DECLARATIONS_MAX = 5  # fillDeclarations.maxSnippets
DECLARATION_MAX_CHARS = 500  # fillDeclarations.maxCharsPerSnippet
CHANGED_MAX = 3  # collectSnippetsFromRecentChangedFiles.maxSnippets
CHANGED_LINES = 20  # its indexing.prefixLines / suffixLines around a change
CHANGED_CHUNK_CHARS = 500  # its indexing.chunkSize
OPENED_MAX = 5  # collectSnippetsFromRecentOpenedFiles.maxOpenedFiles
OPENED_MAX_CHARS = 500  # maxCharsPerOpenedFiles
SNIPPETS_MAX_CHARS = 768  # max_snippets_chars_in_prompt
SEARCH_MIN_CHARS = 256  # quota_threshold_for_snippets_from_code_search
CHUNK_SIZE = 512  # tabby-index CHUNK_SIZE (characters)
MIN_BM25 = 8.0  # CodeSearchParams.min_bm25_score
NUM_TO_SCORE = 40  # CodeSearchParams.num_to_score
HITS_PER_FILE = 2  # retain_at_most_two_hits_per_file
BM25_K1, BM25_B = 1.2, 0.75  # Tantivy's BM25
_TOKEN = re.compile(r"\w+")  # tokenize_code: RegexTokenizer (?:\w+), tokens over 64 dropped
_IDENT = re.compile(r"(?<![\w.])([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?")


def tokenize_code(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(text) if len(t) < 64]


@dataclass(frozen=True, slots=True)
class Snippet:
    filepath: str
    body: str


def split_code(text: str) -> list[tuple[int, str]]:
    """Chunks of at most ``CHUNK_SIZE`` characters as (0-based first line, text), cut at the
    least indented lines first (an approximation of text-splitter's CodeSplitter, which cuts at
    the shallowest syntax-tree level that fits); a line longer than a chunk is cut by
    characters."""
    return _split(text.split("\n"), 0)


def _split(lines: list[str], offset: int) -> list[tuple[int, str]]:
    body = "\n".join(lines)
    if len(body.strip("\n")) <= CHUNK_SIZE:
        return [(offset, body.strip("\n"))] if body.strip() else []
    indents = [len(ln) - len(ln.lstrip()) for ln in lines if ln.strip()]
    level = min(indents)
    starts = [i for i, ln in enumerate(lines) if ln.strip() and len(ln) - len(ln.lstrip()) == level]
    if starts and starts[0] != 0:
        starts.insert(0, 0)
    if len(starts) <= 1:
        if len(lines) == 1:
            text = lines[0]
            return [(offset, text[i : i + CHUNK_SIZE]) for i in range(0, len(text), CHUNK_SIZE)]
        return _split(lines[:1], offset) + _split(lines[1:], offset + 1)
    out: list[tuple[int, str]] = []
    cur: list[str] = []
    cur_start = 0
    bounds = [*starts, len(lines)]
    for a, b in itertools.pairwise(bounds):
        unit = lines[a:b]
        if len("\n".join(unit).strip("\n")) > CHUNK_SIZE:
            if cur:
                out += _split(cur, offset + cur_start)
                cur = []
            out += _split(unit, offset + a)
        elif cur and len("\n".join(cur + unit).strip("\n")) > CHUNK_SIZE:
            out += _split(cur, offset + cur_start)
            cur, cur_start = list(unit), a
        else:
            if not cur:
                cur_start = a
            cur += unit
    if cur:
        out += _split(cur, offset + cur_start)
    return out


class CodeIndex:
    """The repository's code index: every indexed file's chunks, BM25 over their tokens."""

    def __init__(self, index: ProjectIndex) -> None:
        self.paths: list[str] = []
        self.bodies: list[str] = []
        self.languages: list[str] = []
        self.lengths = array("I")
        self.postings: dict[str, tuple[array[int], array[int]]] = {}
        for path in index.paths():
            text = read_text(index.root / path)
            if text is None:
                continue
            language = detect_language(path) or "text"
            for _, chunk in split_code(text):
                self._add(path, language, chunk)
        self.avg_length = (sum(self.lengths) / len(self.lengths)) if self.lengths else 1.0

    def _add(self, path: str, language: str, body: str) -> None:
        doc = len(self.paths)
        self.paths.append(path)
        self.bodies.append(body)
        self.languages.append(language)
        tokens = tokenize_code(body)
        self.lengths.append(len(tokens))
        for token, tf in Counter(tokens).items():
            docs, tfs = self.postings.setdefault(token, (array("I"), array("I")))
            docs.append(doc)
            tfs.append(tf)

    def search(self, query: str, language: str, exclude: str) -> list[tuple[float, int]]:
        """(score, chunk) of the chunks of ``language`` not in ``exclude`` matching ``query``,
        best first, at most ``NUM_TO_SCORE``: Tantivy's BM25 of a union of one term query per
        query token (a repeated token counts again)."""
        n = len(self.paths)
        scores: dict[int, float] = {}
        for token, times in Counter(tokenize_code(query)).items():
            posting = self.postings.get(token)
            if posting is None:
                continue
            docs, tfs = posting
            idf = math.log(1.0 + (n - len(docs) + 0.5) / (len(docs) + 0.5))
            for doc, tf in zip(docs, tfs, strict=True):
                norm = BM25_K1 * (1 - BM25_B + BM25_B * self.lengths[doc] / self.avg_length)
                scores[doc] = scores.get(doc, 0.0) + times * idf * tf * (BM25_K1 + 1) / (tf + norm)
        found = [(s, d) for d, s in scores.items()
                 if self.languages[d] == language and self.paths[d] != exclude]
        found.sort(key=lambda x: (-x[0], x[1]))
        return found[:NUM_TO_SCORE]


_INDEXES: dict[int, CodeIndex] = {}


def code_index(index: ProjectIndex) -> CodeIndex:
    """The code index of ``index``'s corpus, built on first use (one eval: one corpus)."""
    key = id(index)
    if key not in _INDEXES:
        _INDEXES.clear()
        _INDEXES[key] = CodeIndex(index)
    return _INDEXES[key]


def code_search(peer: PeerInput, query: str, room: int) -> list[Snippet]:
    """collect_snippets: hits over the BM25 threshold, two a file, while they fit ``room``."""
    hits = code_index(peer.index).search(query, peer.point.language, peer.point.path)
    per_file: Counter[str] = Counter()
    out: list[Snippet] = []
    used = 0
    ci = code_index(peer.index)
    for score, doc in hits:
        path = ci.paths[doc]
        per_file[path] += 1
        if per_file[path] > HITS_PER_FILE or score <= MIN_BM25:
            continue
        body = ci.bodies[doc]
        if used + len(body) > room:
            break
        used += len(body)
        out.append(Snippet(path, body))
    return out


def segments(peer: PeerInput) -> tuple[str, str]:
    """buildRequest's prefix and suffix: the last 20 prefix lines (the cursor line's part
    being the last), the first 20 suffix lines (the cursor line's rest the first)."""
    before = peer.point.before.split("\n")
    after = peer.point.after.split("\n")
    return "\n".join(before[-MAX_PREFIX_LINES:]), "\n".join(after[:MAX_SUFFIX_LINES])


def declarations(peer: PeerInput, prefix: str) -> list[Snippet]:
    """DeclarationSnippetsProvider.collect: names in the prefix range (code only), the one
    nearest the cursor first, resolved to a function, method or class; one outside the range
    when it is in the point's file, one per location, at most 5, cropped to 500 characters."""
    code = mask_prose(prefix, peer.point.language).decode("utf-8", "replace")
    first_line = peer.point.line - (prefix.count("\n"))
    found: list[Resolved] = []
    for m in reversed(list(_IDENT.finditer(code))):
        if len(found) >= DECLARATIONS_MAX:
            break
        owner, attr = m.group(1), m.group(2)
        r = (resolve_name(peer, attr, module_alias=owner) if attr else None) or (
            resolve_name(peer, owner) if not attr else None)
        if r is None or r.definition.kind not in TYPE_KINDS:
            continue
        d = r.definition
        if r.path == peer.point.path and first_line <= d.start_line <= peer.point.line:
            continue
        if any(f.path == r.path and f.definition.start_line <= d.end_line
               and d.start_line <= f.definition.end_line for f in found):
            continue
        found.append(r)
    return [Snippet(r.path, r.text[:DECLARATION_MAX_CHARS]) for r in found]


def session_snippets(peer: PeerInput, query: str) -> tuple[list[Snippet], list[Snippet]]:
    """(changed-file snippets, opened-file snippets) from the session: chunks of 500
    characters of the 20 lines around each change, the 3 best by BM25 against the prefix; the
    5 most recently opened other files' first 500 characters (their view from the top)."""
    session = peer.session
    if session is None:
        return [], []
    texts = dict(session.open_files)
    chunks: list[Snippet] = []
    for e in reversed(session.recent_edits):
        text = peer.file_text(e.path) if e.path == peer.point.path else (
            texts.get(e.path) or peer.file_text(e.path))
        if not text:
            continue
        lines = text.split("\n")
        window = "\n".join(lines[max(0, e.start_line - CHANGED_LINES) : e.end_line + CHANGED_LINES])
        chunks += [Snippet(e.path, window[i : i + CHANGED_CHUNK_CHARS])
                   for i in range(0, len(window), CHANGED_CHUNK_CHARS)]
    q = Counter(tokenize_code(query))
    ranked = sorted(chunks, key=lambda s: -sum(q[t] for t in set(tokenize_code(s.body))))
    changed = [s for s in ranked if s.body.strip()][:CHANGED_MAX]
    opened = [Snippet(p, t[:OPENED_MAX_CHARS]) for p, t in reversed(session.open_files)
              if p != peer.point.path and t.strip()][:OPENED_MAX]
    return changed, opened


def collect(peer: PeerInput, prefix: str) -> list[Snippet]:
    """PromptBuilder::collect: the snippets within 768 characters."""
    room = SNIPPETS_MAX_CHARS
    out: list[Snippet] = []
    changed, opened = session_snippets(peer, prefix)
    for group in (declarations(peer, prefix), changed, opened):
        for s in group:
            if len(s.body) > room:
                break
            room -= len(s.body)
            out.append(s)
    if room <= SEARCH_MIN_CHARS:
        return out
    return out + code_search(peer, prefix, room)


def render_prefix(language: str, prefix: str, snippets: list[Snippet]) -> str:
    """build_prefix: the snippets as comments above the prefix."""
    if not snippets:
        return prefix
    mark = line_comment(language)
    lines: list[str] = []
    for i, s in enumerate(snippets):
        lines.append(f"Path: {s.filepath}")
        lines += s.body.splitlines()
        if i < len(snippets) - 1:
            lines.append("")
    return "\n".join(mark if not x else f"{mark} {x}" for x in lines) + "\n" + prefix


def build_tabby(peer: PeerInput) -> tuple[PromptParts, int]:
    """The tabby prompt of ``peer.point`` and its tokens (prefix with snippets, suffix, the
    FIM markers)."""
    prefix, suffix = segments(peer)
    snippets = collect(peer, prefix)
    counter, language = peer.counter, peer.point.language
    full, suffix, n = _fit(language, prefix, suffix, snippets, peer.budget, counter)
    parts = PromptParts(path=peer.point.path, language=language, snippets=(),
                        prefix=full, suffix=suffix or "\n")
    return parts, n


def _fit(
    language: str, prefix: str, suffix: str, snippets: list[Snippet], budget: int,
    counter: TokenCounter,
) -> tuple[str, str, int]:
    """The rendered prefix and the suffix within ``budget``, and their tokens."""
    def size(p: str, s: str, sn: list[Snippet]) -> int:
        return counter.count(render_prefix(language, p, sn)) + counter.count(s or "\n") + 3

    snippets = list(snippets)
    while snippets and size(prefix, suffix, snippets) > budget:
        snippets.pop()
    pre, suf = prefix.split("\n"), suffix.split("\n")
    turn = 0
    while (size("\n".join(pre), "\n".join(suf), snippets) > budget
           and (len(pre) > 1 or len(suf) > 1)):
        if (turn % 2 == 0 and len(pre) > 1) or len(suf) <= 1:
            pre.pop(0)
        else:
            suf.pop()
        turn += 1
    prefix, suffix = "\n".join(pre), "\n".join(suf)
    return render_prefix(language, prefix, snippets), suffix, size(prefix, suffix, snippets)
