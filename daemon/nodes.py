"""Small text helpers shared by the parsers (``daemon.parse_*``, ``daemon.imports``)."""

from __future__ import annotations

import hashlib
import re

import tree_sitter

#: An identifier: a letter (any script) or ``_``, then letters, digits, ``_``. The one
#: definition the summaries and the context assembler's lookups share.
IDENTIFIER = r"[^\W\d]\w*"
IDENT = re.compile(IDENTIFIER)
_WS = re.compile(r"\s*\n\s*")


def node_text(data: bytes, node: tree_sitter.Node) -> str:
    """The source text of ``node`` (``data``: the parsed bytes)."""
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def one_line(text: str) -> str:
    """``text`` on one line: each line break with the blanks around it becomes one space,
    no space after an opening or before a closing parenthesis."""
    text = _WS.sub(" ", text.strip())
    return text.replace("( ", "(").replace(", )", ")").replace(",)", ")")


def digest_text(text: str) -> str:
    """A short digest of ``text`` (a file's or a definition body's content)."""
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=12).hexdigest()
