"""Scores of one completion against its hidden ground truth (pure functions).

Definitions follow CrossCodeEval (``scripts/eval_metric.py`` of amazon-science/cceval) where it
defines them:

- **exact match** (``exact_match``): the first non-blank line of the prediction equals the first
  non-blank line of the ground truth, both stripped of surrounding whitespace.
- **edit similarity** (``edit_similarity``): ``fuzz.ratio`` of the stripped texts, as a share
  (0..1): ``2 * LCS / (len(a) + len(b))``, the normalised indel similarity; two empty texts: 1.
- **identifier F1** (``identifier_f1``): comments removed, string literals removed, ``\\w+``
  tokens that look like identifiers and are not keywords; sets of identifiers of prediction and
  ground truth; ``2 tp / (2 tp + fp + fn)``, and 0 when both sets are empty (as CrossCodeEval).
- **compile-pass** (``CompileChecker``): Python: the file with the completion inserted compiles
  with ``compile()``; other tree-sitter languages: it parses with no error nodes. Points whose
  original file does not compile/parse are skipped (``None``) and counted by the caller.
- **accepted characters** (``accepted_chars``): the length of the longest prefix of the
  prediction that the ground truth starts with, compared as they are (whitespace counts): what
  a user keeps by accepting the completion up to its first wrong character. A mode's
  **accepted share** (``accepted_share``) is its points' accepted characters over their ground
  truths' characters, pooled (long ground truths weigh more, as they do for the user).
"""

from __future__ import annotations

import hashlib
import keyword
import re
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

_IDENTIFIER = re.compile(r"[_a-zA-Z][_a-zA-Z0-9]*")
_WORD = re.compile(r"\w+")
_STRING = re.compile(r"\"([^\"\\]*(\\.[^\"\\]*)*)\"|'([^'\\]*(\\.[^'\\]*)*)'")



def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Keywords per language (identifiers that are not names). Python follows CrossCodeEval:
# keyword.kwlist without True and False.
_KEYWORDS: dict[str, frozenset[str]] = {
    "python": frozenset(k for k in keyword.kwlist if k not in ("True", "False")),
    "javascript": _words(
        "break case catch class const continue debugger default delete do else export extends "
        "finally for function if import in instanceof let new return super switch this throw "
        "try typeof var void while with yield async await of static get set null true false "
        "undefined"
    ),
    "go": _words(
        "break case chan const continue default defer else fallthrough for func go goto if "
        "import interface map package range return select struct switch type var nil true "
        "false"
    ),
    "rust": _words(
        "as async await break const continue crate dyn else enum extern false fn for if impl in "
        "let loop match mod move mut pub ref return self Self static struct super trait true "
        "type unsafe use where while"
    ),
    "java": _words(
        "abstract assert boolean break byte case catch char class const continue default do "
        "double else enum extends final finally float for goto if implements import instanceof "
        "int interface long native new package private protected public return short static "
        "strictfp super switch synchronized this throw throws transient try void volatile while "
        "var record yield sealed permits non-sealed true false null"
    ),
    "c": _words(
        "auto break case char const continue default do double else enum extern float for goto "
        "if inline int long register restrict return short signed sizeof static struct switch "
        "typedef union unsigned void volatile while _Bool _Complex _Atomic _Static_assert "
        "_Thread_local bool true false NULL"
    ),
}
_KEYWORDS["cpp"] = _KEYWORDS["c"] | _words(
    "alignas alignof and asm catch class concept consteval constexpr constinit const_cast "
    "co_await co_return co_yield decltype delete dynamic_cast explicit export friend mutable "
    "namespace new noexcept not nullptr operator or override final private protected public "
    "reinterpret_cast requires static_assert static_cast template this thread_local throw try "
    "typeid typename using virtual wchar_t xor"
)
_KEYWORDS["typescript"] = _KEYWORDS["javascript"] | _words(
    "interface type enum implements private protected public readonly declare namespace "
    "abstract any number string boolean keyof never unknown as is"
)
_KEYWORDS["tsx"] = _KEYWORDS["typescript"]
# C#: the reserved keywords and the contextual ones that are rarely names (not ``value``)
_KEYWORDS["csharp"] = _words(
    "abstract as base bool break byte case catch char checked class const continue decimal "
    "default delegate do double else enum event explicit extern false finally fixed float for "
    "foreach goto if implicit in int interface internal is lock long namespace new null object "
    "operator out override params private protected public readonly ref return sbyte sealed "
    "short sizeof stackalloc static string struct switch this throw true try typeof uint ulong "
    "unchecked unsafe ushort using virtual void volatile while var async await record get set "
    "init partial where nameof dynamic when with yield global required"
)
# Kotlin: the hard keywords, and the soft and modifier ones that are rarely names
_KEYWORDS["kotlin"] = _words(
    "as break class continue do else false for fun if in interface is null object package "
    "return super this throw true try typealias typeof val var when while by catch constructor "
    "finally import init where abstract annotation companion const crossinline data enum expect "
    "actual external final infix inline inner internal lateinit noinline open operator out "
    "override private protected public reified sealed suspend tailrec vararg"
)
_KEYWORDS["swift"] = _words(
    "associatedtype class deinit enum extension fileprivate func import init inout internal let "
    "open operator private precedencegroup protocol public rethrows static struct subscript "
    "typealias var break case catch continue default defer do else fallthrough for guard if in "
    "repeat return throw switch where while as false is nil self Self super throws true try "
    "await async actor some any convenience dynamic final lazy mutating nonmutating optional "
    "override required unowned weak willSet didSet get set"
)
_HASH_COMMENT = frozenset({"python", "ruby", "shell", "bash", "toml", "yaml", "r"})


# --- exact match and edit similarity ----------------------------------------------------------


def first_line(text: str) -> str:
    """The first non-blank line of ``text``, stripped; "" when there is none."""
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def exact_match(prediction: str, target: str) -> bool:
    """First non-blank lines equal (stripped). An empty target never matches."""
    want = first_line(target)
    return bool(want) and first_line(prediction) == want


def lcs_length(a: str, b: str) -> int:
    """Length of the longest common subsequence of characters (bit-parallel, Hyyrö 2004)."""
    if not a or not b:
        return 0
    if len(a) < len(b):
        a, b = b, a
    masks: dict[str, int] = {}
    for i, ch in enumerate(b):
        masks[ch] = masks.get(ch, 0) | (1 << i)
    full = (1 << len(b)) - 1
    v = full
    for ch in a:
        u = v & masks.get(ch, 0)
        v = ((v + u) | (v - u)) & full
    return len(b) - bin(v).count("1")


def edit_similarity(prediction: str, target: str) -> float:
    """CrossCodeEval's edit similarity (``fuzz.ratio``) of the stripped texts, as 0..1."""
    a, b = prediction.strip(), target.strip()
    if not a and not b:
        return 1.0
    return 2.0 * lcs_length(a, b) / (len(a) + len(b))


def accepted_chars(prediction: str, target: str) -> int:
    """Length of the longest prefix of ``prediction`` that ``target`` starts with."""
    n = min(len(prediction), len(target))
    for i in range(n):
        if prediction[i] != target[i]:
            return i
    return n


def accepted_share(accepted: Sequence[int], target_chars: Sequence[int]) -> float:
    """Pooled share of the ground truths' characters accepted: ``sum(accepted) /
    sum(target_chars)``; 0 when the ground truths hold no character."""
    total = sum(target_chars)
    return sum(accepted) / total if total else 0.0


# --- identifiers --------------------------------------------------------------------------------


def remove_comments(code: str, language: str) -> str:
    """Line comments removed (``#`` or ``//`` by language), as CrossCodeEval does it."""
    if language in _HASH_COMMENT:
        return re.sub(r"#.*", "", code)
    return re.sub(r"//.*", "", code)


def extract_identifiers(code: str, language: str) -> list[str]:
    """Identifiers of ``code`` in order: strings removed, keywords of ``language`` left out."""
    keywords = _KEYWORDS.get(language, _KEYWORDS["python"])
    without_strings = _STRING.sub("", code)
    return [
        t for t in _WORD.findall(without_strings)
        if _IDENTIFIER.match(t) and t not in keywords
    ]


@dataclass(frozen=True, slots=True)
class IdentifierScore:
    precision: float
    recall: float
    f1: float
    exact: bool  # identifier lists equal, in order (CrossCodeEval's identifier EM)


def identifier_f1(prediction: str, target: str, language: str) -> IdentifierScore:
    """CrossCodeEval's identifier match of a prediction against its ground truth."""
    pred = extract_identifiers(remove_comments(prediction, language), language)
    want = extract_identifiers(remove_comments(target, language), language)
    pred_set, want_set = set(pred), set(want)
    tp = len(pred_set & want_set)
    fp = len(pred_set - want_set)
    fn = len(want_set - pred_set)
    return IdentifierScore(
        precision=tp / (tp + fp) if tp + fp else 0.0,
        recall=tp / (tp + fn) if tp + fn else 0.0,
        f1=2 * tp / (2 * tp + fp + fn) if 2 * tp + fp + fn else 0.0,
        exact=pred == want,
    )


# --- compile-pass -----------------------------------------------------------------------------


def python_compiles(source: str, path: str = "<eval>") -> bool:
    """True when ``source`` compiles as a Python module (warnings ignored, nothing executed)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(source, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
            return False
    return True


def syntax_error_nodes(source: str, language: str) -> int | None:
    """Number of ERROR and MISSING nodes tree-sitter finds; None when no grammar is known."""
    from daemon.languages import LANGUAGES

    if language not in LANGUAGES:
        return None
    import tree_sitter

    from daemon.grammar_fixes import parse
    from daemon.languages import ts_language

    # with the daemon's grammar work-arounds: a TypeScript file of generic call signatures
    # without semicolons is valid, not an ERROR node (daemon/grammar_fixes.py)
    parser = tree_sitter.Parser(ts_language(language))
    tree = parse(parser, language, source.encode("utf-8", "surrogatepass"))
    if not tree.root_node.has_error:
        return 0
    count = 0
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_error or node.is_missing:
            count += 1
        if node.has_error:
            stack.extend(node.children)
    return count


@dataclass(slots=True)
class CompileChecker:
    """Compile-pass of completions; remembers whether each original file checks (by key).

    ``check(key, language, original, completed)`` returns True/False, or None when the point is
    skipped: the original does not compile (Python) or has syntax errors (other languages), or
    the language has no checker.
    """

    # by key, language and the original's digest: history points of one path at different
    # commits have different originals
    _originals: dict[tuple[str, str, bytes], bool | None] = field(default_factory=dict)

    def original_ok(self, key: str, language: str, original: str) -> bool | None:
        """Whether the original file checks (None: no checker for the language); cached."""
        digest = hashlib.blake2b(original.encode("utf-8", "surrogatepass"), digest_size=16)
        cache_key = (key, language, digest.digest())
        if cache_key not in self._originals:
            self._originals[cache_key] = self._ok(language, original, key)
        return self._originals[cache_key]

    def check(self, key: str, language: str, original: str, completed: str) -> bool | None:
        ok = self.original_ok(key, language, original)
        if not ok:  # None (no checker) or False (original broken): skipped
            return None
        return self._ok(language, completed, key)

    @staticmethod
    def _ok(language: str, source: str, path: str) -> bool | None:
        if language == "python":
            return python_compiles(source, path)
        errors = syntax_error_nodes(source, language)
        return None if errors is None else errors == 0


# --- copies of the code below -----------------------------------------------------------------

COPY_WINDOW = 60  # lines of the buffer below the cursor a copy is looked for in
COPY_RUN = 2  # consecutive lines that make a copy


def _substantial(line: str) -> bool:
    """A stripped line that says something: 6 characters or more, a letter or digit among
    them (not ``}``, ``end``, ``break``)."""
    return len(line) >= 6 and any(c.isalnum() for c in line)


def copied_below(completion: str, target: str, below: str) -> bool:
    """Whether ``completion`` repeats ``COPY_RUN`` consecutive non-blank lines of the first
    ``COPY_WINDOW`` lines of ``below`` (the buffer after the cursor line), compared stripped,
    each substantial, that ``target`` (the ground truth) does not have in a row: the model
    copied code that is already there (a neighbour's body, the next method's docstring).
    Not scored against: copying a neighbour can be the start the user wanted; counted."""
    def rows(text: str) -> list[str]:
        return [line.strip() for line in text.split("\n") if line.strip()]

    def runs(lines: list[str]) -> set[tuple[str, ...]]:
        return {tuple(lines[i : i + COPY_RUN]) for i in range(len(lines) - COPY_RUN + 1)}

    shown = rows(completion)
    if len(shown) < COPY_RUN:
        return False
    there = {run for run in runs(rows("\n".join(below.split("\n")[1 : COPY_WINDOW + 1])))
             if all(_substantial(line) for line in run)}
    return bool((runs(shown) & there) - runs(rows(target)))


# --- aggregation --------------------------------------------------------------------------------


def mean(values: Iterable[float]) -> float:
    items = list(values)
    return sum(items) / len(items) if items else 0.0


def rate(flags: Sequence[bool | None]) -> tuple[float, int, int]:
    """Share of True among the non-None flags: (rate, num counted, num skipped)."""
    counted = [f for f in flags if f is not None]
    skipped = len(flags) - len(counted)
    return (sum(1 for f in counted if f) / len(counted) if counted else 0.0), len(counted), skipped


def rounded(data: dict[str, Any], digits: int = 4) -> dict[str, Any]:
    """Floats of a flat dict rounded for JSON."""
    return {k: round(v, digits) if isinstance(v, float) else v for k, v in data.items()}
