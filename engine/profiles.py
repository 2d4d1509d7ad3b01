"""Model profiles: prompt formats (FIM templates), stop markers and model-specific clean-up.

Every model quirk lives here, never in generic code. A profile renders ``PromptParts`` into a
sequence of ``Piece``s; a backend tokenizes piece by piece: special pieces through the vocabulary's
special-token ids, text pieces with special-token parsing OFF, so a marker string that occurs in a
user's file (``<|fim_prefix|>``) stays plain text. Backends that can only send text (the remote
engine) use ``render_text`` and strip the marker strings out of the source first (``escape``).

The profile is chosen once, by ``select_profile`` (called from the engine factory): the configured
name wins; otherwise it is guessed from the GGUF metadata and the file name.

Piece order is cache-aware: stable text (cross-file snippets, the file's head) first, the suffix
(recomputed on each keystroke) as short and as late as the model's format allows. Qwen2.5-Coder
knows PSM order only (design.md §7), so every FIM profile here renders prefix-suffix-middle, the
typed text at the end of the prefix: the cursor line's head after ``fim_middle`` (so typing
would only append tokens) made the embedded model's completions worse (docs/latency.md, "Tried,
not kept").
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from app.errors import ConfigError
from engine.base import ContextSnippet, PromptParts


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of a rendered prompt."""

    text: str  # a special marker (is_special) or source/plain text
    is_special: bool = False  # True: one special token of the vocabulary, looked up by its text


Pieces = tuple[Piece, ...]

# Line-comment syntax per language id, for profiles that put cross-file snippets into the prompt
# as comments. Unknown languages fall back to "#".
_LINE_COMMENT: dict[str, str] = {
    "python": "#",
    "ruby": "#",
    "shell": "#",
    "bash": "#",
    "toml": "#",
    "yaml": "#",
    "r": "#",
    "javascript": "//",
    "typescript": "//",
    "tsx": "//",
    "go": "//",
    "rust": "//",
    "c": "//",
    "cpp": "//",
    "java": "//",
    "kotlin": "//",
    "swift": "//",
    "csharp": "//",
    "php": "//",
    "scala": "//",
    "lua": "--",
    "sql": "--",
    "haskell": "--",
}


# what skeletons and the context assembler put for code they leave out (``{ … }``, ``= …``,
# ``# …``): never code of the user's
ELISION = "…"


def line_comment(language: str) -> str:
    """The line-comment marker of ``language`` ("#" when unknown)."""
    return _LINE_COMMENT.get(language, "#")


# languages with a second line-comment marker besides the one snippets are written with
_MORE_LEADERS: dict[str, tuple[str, ...]] = {"php": ("#",)}


def comment_leaders(language: str) -> tuple[str, ...]:
    """The line-comment markers a scan of ``language`` code skips: its own when known (``//`` is
    floor division in Python, ``#`` a private field in JavaScript; PHP has both ``//`` and
    ``#``), else both ``#`` and ``//``. Where both lead comments, ``#[`` opens a PHP 8
    attribute, not a comment (the scans' rule)."""
    leader = _LINE_COMMENT.get(language)
    return (leader, *_MORE_LEADERS.get(language, ())) if leader else ("#", "//")


@dataclass(frozen=True, slots=True)
class StringSyntax:
    """How string literals of a language open and close, for the rough scans of code that
    skip them (open brackets at a cursor, a line's comment): not a tokenizer."""

    delimiters: tuple[tuple[str, str], ...]  # (opening, closing), longest opening first
    multiline: frozenset[str] = frozenset()  # openings whose literals may span lines
    raw: frozenset[str] = frozenset()  # openings whose literals have no backslash escapes
    # an opening that starts a literal only as a one-character literal ('x', '\n'): elsewhere
    # it is code (Rust lifetimes ``&'a str``, Haskell primes ``foldl'``)
    char_only: str = ""
    # a heredoc opener (group "id": its terminator): the literal is the lines below the
    # opener's line up to the line holding the terminator alone (indented, and in PHP
    # followed by ``;``, ``,`` or ``)``); the rest of the opener's line is code
    heredoc: re.Pattern[str] | None = None


def _pairs(*quotes: str) -> tuple[tuple[str, str], ...]:
    return tuple((q, q) for q in quotes)


_TRIPLE = frozenset({'"""', "'''"})
# Unknown languages: Python's and the C family's quotes, backticks, each on one line except
# triple quotes (what every scan did before languages had their own).
_ANY_STRINGS = StringSyntax(_pairs('"""', "'''", '"', "'", "`"), _TRIPLE)
_JVM_STRINGS = StringSyntax(_pairs('"""', '"', "'"), frozenset({'"""'}))
_MULTILINE_STRINGS = StringSyntax(_pairs('"', "'", "`"), frozenset({'"', "'", "`"}))
_SHELL_STRINGS = StringSyntax(
    _pairs('"', "'", "`"), frozenset({'"', "'", "`"}), raw=frozenset({"'"})
)
# C, C++, Java: a quote is a char literal ('x', '\n'), elsewhere code (C++14 digit separators
# ``1'000'000``); C++ raw strings ``R"(…)"`` span lines without escapes (a custom delimiter,
# ``R"x(…)x"``, is not known to the scans); Java text blocks are triple-quoted
_C_CHARS = StringSyntax(_pairs('"', "'"), char_only="'")
_CPP_STRINGS = StringSyntax(
    (('R"(', ')"'), ('"', '"'), ("'", "'")),
    frozenset({'R"('}),
    raw=frozenset({'R"('}),
    char_only="'",
)
_JAVA_STRINGS = StringSyntax(_pairs('"""', '"', "'"), frozenset({'"""'}), char_only="'")
# C#: verbatim ``@"…"`` (``""`` for a quote, no escapes) and raw ``"""…"""`` strings span
# lines; ``$"…{x}…"`` interpolates (what is in braces stays inside the literal for the scans)
_CSHARP_VERBATIM = frozenset({'"""', '@$"', '$@"', '@"'})
_CSHARP_STRINGS = StringSyntax(
    (('"""', '"""'), ('@$"', '"'), ('$@"', '"'), ('@"', '"'), ('"', '"'), ("'", "'")),
    _CSHARP_VERBATIM,
    raw=_CSHARP_VERBATIM,
    char_only="'",
)
# Kotlin: raw ``"""…"""`` strings span lines without escapes; ``${…}`` templates stay inside
_KOTLIN_STRINGS = StringSyntax(
    _pairs('"""', '"', "'"), frozenset({'"""'}), raw=frozenset({'"""'}), char_only="'"
)
# Ruby ``<<~SQL``, ``<<-EOS``, ``<<'EOS'`` (a bare ``<<ID`` only in capitals: ``a <<b`` shifts);
# PHP ``<<<EOT``, ``<<<'EOT'`` (nowdoc), ``<<<"EOT"``; shell ``<<EOF``, ``<<-'EOF'`` (not the
# here-string ``<<<``)
_RUBY_HEREDOC = re.compile(
    r"<<(?:[~-]|(?=(?P<peek>[\"'`]?)[A-Z_][A-Z0-9_]*(?P=peek)(?!\w)))"
    r"(?P<q>[\"'`]?)(?P<id>[A-Za-z_]\w*)(?P=q)"
)
_PHP_HEREDOC = re.compile(r"<<<[ \t]*(?P<q>[\"']?)(?P<id>[A-Za-z_]\w*)(?P=q)")
_SHELL_HEREDOC = re.compile(r"(?<!<)<<-?[ \t]*(?P<q>[\"']?)(?P<id>[A-Za-z_]\w*)(?P=q)")
_STRINGS: dict[str, StringSyntax] = {
    "python": StringSyntax(_pairs('"""', "'''", '"', "'"), _TRIPLE),
    "javascript": StringSyntax(_pairs('"', "'", "`"), frozenset({"`"})),
    "go": StringSyntax(_pairs('"', "'", "`"), frozenset({"`"}), raw=frozenset({"`"})),
    "rust": StringSyntax(_pairs('"', "'"), frozenset({'"'}), char_only="'"),
    "haskell": StringSyntax(_pairs('"', "'"), char_only="'"),
    "c": _C_CHARS,
    "cpp": _CPP_STRINGS,
    "csharp": _CSHARP_STRINGS,
    "java": _JAVA_STRINGS,
    "kotlin": _KOTLIN_STRINGS,
    "scala": _JVM_STRINGS,
    "swift": StringSyntax(_pairs('"""', '"'), frozenset({'"""'})),  # no quote for characters
    "ruby": dataclasses.replace(_MULTILINE_STRINGS, heredoc=_RUBY_HEREDOC),
    "php": dataclasses.replace(_MULTILINE_STRINGS, heredoc=_PHP_HEREDOC),
    "r": _MULTILINE_STRINGS,
    "shell": dataclasses.replace(_SHELL_STRINGS, heredoc=_SHELL_HEREDOC),
    "bash": dataclasses.replace(_SHELL_STRINGS, heredoc=_SHELL_HEREDOC),
    "lua": StringSyntax(
        (("[[", "]]"), ('"', '"'), ("'", "'")), frozenset({"[["}), raw=frozenset({"[["})
    ),
    "sql": StringSyntax(_pairs("'", '"'), frozenset({"'", '"'})),
    "toml": StringSyntax(
        _pairs('"""', "'''", '"', "'"), _TRIPLE, raw=frozenset({"'''", "'"})
    ),
    "yaml": StringSyntax(_pairs('"', "'"), frozenset({'"', "'"})),
}
_STRINGS["typescript"] = _STRINGS["tsx"] = _STRINGS["javascript"]


def string_syntax(language: str) -> StringSyntax:
    """The string literals of ``language`` for rough code scans; unknown: every common quote."""
    return _STRINGS.get(language, _ANY_STRINGS)


@dataclass(frozen=True, slots=True)
class ModelProfile:
    """Prompt format and stopping rules of one model family.

    Fields are data; ``render`` handles the layout. Subclassing is not needed for the families
    here: their differences are in the markers and in whether snippets use a repo-level format.
    """

    name: str  # profile id, the value of engine.model_profile
    fim: bool  # has a fill-in-the-middle format
    fim_prefix: str = ""  # special marker before the prefix
    fim_suffix: str = ""  # special marker before the suffix
    fim_middle: str = ""  # special marker after which the model writes the middle
    # Text around the markers (CodeLlama puts spaces around them); plain text, not special.
    prefix_lead: str = ""  # text right after fim_prefix
    middle_lead: str = ""  # text right before fim_middle
    repo_name: str = ""  # special marker opening a repo-level prompt ("" = no repo format)
    file_sep: str = ""  # special marker before each file of a repo-level prompt
    file_sep_after_path: str = "\n"  # text between a file's path and its content
    stop_tokens: tuple[str, ...] = ()  # special tokens that end generation (besides EOG)
    # Marker strings that must never reach the model as text in a text-only prompt, nor the user
    # as output: every special marker of the family.
    markers: tuple[str, ...] = field(default=())
    extra_stops: tuple[str, ...] = ()  # plain stop strings the family needs (not markers)
    add_bos: bool = True  # let the backend add BOS when the vocabulary asks for it

    @property
    def stop_strings(self) -> tuple[str, ...]:
        """Strings that end generation when they appear in decoded text."""
        return tuple(dict.fromkeys(self.stop_tokens + self.markers + self.extra_stops))

    def render(self, parts: PromptParts) -> Pieces:
        """Render a FIM (or plain, for non-FIM profiles) prompt as pieces, stable parts first."""
        if not self.fim:
            return self.render_prefix_only(parts)
        pieces: list[Piece] = []
        if self.repo_name and self.file_sep and any(s.path for s in parts.snippets):
            pieces += self._repo_pieces(parts)
            pieces.append(Piece(self.fim_prefix, True))
        else:
            pieces.append(Piece(self.fim_prefix, True))
            pieces.append(Piece(self.prefix_lead + _snippets_as_comments(parts)))
        pieces.append(Piece(parts.prefix))
        pieces.append(Piece(self.fim_suffix, True))
        pieces.append(Piece(parts.suffix + self.middle_lead))
        pieces.append(Piece(self.fim_middle, True))
        return _merge(pieces)

    def render_prefix_only(self, parts: PromptParts) -> Pieces:
        """A plain left-to-right prompt: snippets as comments, then the prefix; suffix dropped."""
        return _merge([Piece(_snippets_as_comments(parts) + parts.prefix)])

    def render_text(self, parts: PromptParts) -> str:
        """The prompt as one string, for text-only backends; marker strings in source removed."""
        clean = PromptParts(
            path=parts.path,
            language=parts.language,
            snippets=tuple(
                ContextSnippet(path=s.path, text=self.escape(s.text)) for s in parts.snippets
            ),
            prefix=self.escape(parts.prefix),
            suffix=self.escape(parts.suffix),
        )
        return "".join(p.text for p in self.render(clean))

    def escape(self, text: str) -> str:
        """Remove this family's marker strings from source text (text-only prompts only)."""
        for marker in self.markers:
            if marker in text:
                text = text.replace(marker, "")
        return text

    def clean_output(self, text: str) -> str:
        """Model-specific clean-up of generated text: cut at the first marker string."""
        cut = len(text)
        for marker in self.stop_strings:
            i = text.find(marker)
            if i != -1:
                cut = min(cut, i)
        return text[:cut]

    def _repo_pieces(self, parts: PromptParts) -> list[Piece]:
        pieces = [Piece(self.repo_name, True), Piece("project\n")]
        for snippet in parts.snippets:
            if not snippet.path:
                continue  # edit history and notes have no file: they go in as comments below
            pieces.append(Piece(self.file_sep, True))
            pieces.append(Piece(snippet.path + self.file_sep_after_path + snippet.text + "\n"))
        pieces.append(Piece(self.file_sep, True))
        notes = [s for s in parts.snippets if not s.path]
        note_text = _snippets_as_comments(
            PromptParts(parts.path, parts.language, tuple(notes), "", "")
        )
        pieces.append(Piece(parts.path + self.file_sep_after_path + note_text))
        return pieces


def _snippets_as_comments(parts: PromptParts) -> str:
    """Cross-file snippets rendered as a commented block (for formats without a repo layout)."""
    if not parts.snippets:
        return ""
    mark = line_comment(parts.language)
    out: list[str] = []
    for snippet in parts.snippets:
        out.append(f"{mark} {snippet.path}\n" if snippet.path else f"{mark} notes\n")
        out.extend(f"{mark} {line}\n" for line in snippet.text.splitlines())
    return "".join(out)


def _merge(pieces: list[Piece]) -> Pieces:
    """Join adjacent text pieces (tokenized apart they would merge differently); drop empties."""
    out: list[Piece] = []
    for piece in pieces:
        if not piece.text:
            continue
        if out and not piece.is_special and not out[-1].is_special:
            out[-1] = Piece(out[-1].text + piece.text)
        else:
            out.append(piece)
    return tuple(out)


_QWEN_MARKERS = (
    "<|fim_prefix|>",
    "<|fim_suffix|>",
    "<|fim_middle|>",
    "<|fim_pad|>",
    "<|repo_name|>",
    "<|file_sep|>",
    "<|endoftext|>",
    "<|im_start|>",
    "<|im_end|>",
)

QWEN25_CODER = ModelProfile(
    name="qwen2.5-coder",
    fim=True,
    fim_prefix="<|fim_prefix|>",
    fim_suffix="<|fim_suffix|>",
    fim_middle="<|fim_middle|>",
    repo_name="<|repo_name|>",
    file_sep="<|file_sep|>",
    stop_tokens=(
        "<|endoftext|>",
        "<|fim_pad|>",
        "<|file_sep|>",
        "<|repo_name|>",
        "<|fim_prefix|>",
        "<|fim_suffix|>",
        "<|fim_middle|>",
        "<|im_end|>",
    ),
    # The embedded model is the Instruct build: after the middle it tends to close a markdown
    # fence and chat on ("```\n\nThis code defines..."). Source rarely holds a fence.
    extra_stops=("```",),
    markers=_QWEN_MARKERS,
)

STARCODER2 = ModelProfile(
    name="starcoder2",
    fim=True,
    fim_prefix="<fim_prefix>",
    fim_suffix="<fim_suffix>",
    fim_middle="<fim_middle>",
    repo_name="<repo_name>",
    file_sep="<file_sep>",
    stop_tokens=("<|endoftext|>", "<file_sep>", "<fim_prefix>", "<fim_suffix>", "<fim_middle>"),
    markers=(
        "<fim_prefix>",
        "<fim_suffix>",
        "<fim_middle>",
        "<fim_pad>",
        "<repo_name>",
        "<file_sep>",
        "<|endoftext|>",
    ),
)

DEEPSEEK_CODER = ModelProfile(
    name="deepseek-coder",
    fim=True,
    fim_prefix="<｜fim▁begin｜>",
    fim_suffix="<｜fim▁hole｜>",
    fim_middle="<｜fim▁end｜>",
    stop_tokens=("<|EOT|>", "<｜end▁of▁sentence｜>"),
    markers=(
        "<｜fim▁begin｜>",
        "<｜fim▁hole｜>",
        "<｜fim▁end｜>",
        "<|EOT|>",
        "<｜end▁of▁sentence｜>",
        "<｜begin▁of▁sentence｜>",
    ),
)

# CodeLlama: "<PRE> {prefix} <SUF>{suffix} <MID>". Its SentencePiece tokenizer adds a space
# prefix to each separately tokenized text piece; backends that tokenize piece by piece get an
# extra space after <SUF> (known approximation, untested with a real CodeLlama here).
CODELLAMA = ModelProfile(
    name="codellama",
    fim=True,
    fim_prefix="<PRE>",
    fim_suffix="<SUF>",
    fim_middle="<MID>",
    prefix_lead=" ",
    middle_lead=" ",
    stop_tokens=("<EOT>",),
    markers=("<PRE>", "<SUF>", "<MID>", "<EOT>"),
)

PLAIN = ModelProfile(name="plain", fim=False)

PROFILES: dict[str, ModelProfile] = {
    p.name: p for p in (QWEN25_CODER, STARCODER2, DEEPSEEK_CODER, CODELLAMA, PLAIN)
}

# (substring of a lower-cased model name or metadata value, profile); first match wins.
_GUESSES: tuple[tuple[str, ModelProfile], ...] = (
    ("qwen2.5-coder", QWEN25_CODER),
    ("qwen2.5 coder", QWEN25_CODER),
    ("qwen2.5_coder", QWEN25_CODER),
    ("qwen-coder", QWEN25_CODER),
    ("starcoder2", STARCODER2),
    ("starcoder", STARCODER2),
    ("deepseek-coder", DEEPSEEK_CODER),
    ("deepseek coder", DEEPSEEK_CODER),
    ("codellama", CODELLAMA),
    ("code-llama", CODELLAMA),
    ("code llama", CODELLAMA),
)


def select_profile(
    configured: str, model_name: str = "", metadata: Mapping[str, str] | None = None
) -> ModelProfile:
    """Choose the profile: ``configured`` (engine.model_profile) when set, else a guess.

    The guess looks at GGUF metadata (``general.name``, ``general.basename``) and the model's file
    or folder name; nothing recognised means ``plain`` (prefix-only prompts). Raises ConfigError
    for an unknown configured name.
    """
    if configured:
        try:
            return PROFILES[configured]
        except KeyError:
            known = ", ".join(sorted(PROFILES))
            raise ConfigError(
                f"engine.model_profile {configured!r} is unknown; known: {known}"
            ) from None
    meta = metadata or {}
    candidates = [
        meta.get("general.basename", "") + " " + meta.get("general.name", ""),
        model_name,
    ]
    for candidate in candidates:
        low = candidate.lower()
        for needle, profile in _GUESSES:
            if needle in low:
                return profile
    return PLAIN
