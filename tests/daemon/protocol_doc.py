"""The field tables of docs/protocol.md, parsed, and messages checked against them.

A table is a message's when the line before it reads "Request `TYPE`..." or "Reply `TYPE`...".
Its first column names the fields (a row may name several: "`line`, `col`"; a dotted name is a
field of an object field: "`timings.queue_ms`"); the "type" column says what a reply's value is
in a small vocabulary (``string``, ``int``, ``number``, ``bool``, ``object``, ``list of ...``,
``null``, joined by " or "), and a request table's "required" and "default" columns say whether
the field may be left out and what it is then (a reply's field whose type says "or absent"
may be left out). Tests compare these with the structs of
``daemon.protocol`` and with every reply a real daemon sends, so the document cannot drift from
the daemon unseen."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
_MARKER = re.compile(r"^(Request|Reply) `([\w.]+)`")
_NAME = re.compile(r"`([^`]+)`")


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a message table."""

    name: str  # "text", or "timings.queue_ms" for a field of the object field "timings"
    type: str  # the type cell: "string or null", "list of string", "int ≥ 0"
    required: str  # request tables: "yes", "no", "one of", "tcp only"; replies: "yes"
    default: str  # request tables: the default cell ("" when required)
    meaning: str  # the meaning cell


@cache
def tables(path: Path = DOC) -> dict[tuple[str, str], tuple[Field, ...]]:
    """("request" | "reply", message type) -> its fields, for every table of the document."""
    found: dict[tuple[str, str], tuple[Field, ...]] = {}
    lines = path.read_text().splitlines()
    previous = ""  # the last non-blank line outside a table
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("| field |"):
            header = _cells(line)
            rows = []
            i += 2  # the header and the |---| line
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(dict(zip(header, _cells(lines[i]), strict=True)))
                i += 1
            marker = _MARKER.match(previous)
            if marker is None:
                raise ValueError(f"a field table not headed Request/Reply: after {previous!r}")
            key = (marker.group(1).lower(), marker.group(2))
            if key in found:
                raise ValueError(f"two tables for {key}")
            found[key] = tuple(
                Field(name, row["type"], row.get("required", "yes"), row.get("default", ""),
                      row["meaning"])
                for row in rows for name in _NAME.findall(row["field"]))
            continue
        if line.strip():
            previous = line
        i += 1
    return found


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def reply_fields(kind: str) -> tuple[Field, ...]:
    return tables()[("reply", kind)]


def documented_default(field: Field) -> tuple[bool, Any]:
    """(whether the default cell is a JSON value, that value): `null`, `""`, `0`, `"auto"`."""
    cell = field.default.strip().strip("`")
    try:
        return True, json.loads(cell)
    except ValueError:
        return False, None


_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,), "int": (int,), "number": (int, float), "bool": (bool,),
    "object": (dict,), "list": (list,), "null": (type(None),), "absent": (),
}


def optional(field: Field) -> bool:
    """Whether a reply may leave the field out ("... or absent")."""
    return "absent" in (alt.strip() for alt in field.type.split(" or "))


def type_matches(value: Any, phrase: str) -> bool:
    """Whether ``value`` (decoded JSON) is of the documented type ``phrase``."""
    for alternative in phrase.split(" or "):
        word = alternative.split()[0].strip(":,")
        if word not in _TYPES:
            raise ValueError(f"type {phrase!r} is not in the reply vocabulary")
        if isinstance(value, bool) and word in ("int", "number"):
            continue  # JSON true is not a number
        if isinstance(value, _TYPES[word]):
            return True
    return False


def reply_problems(reply: dict[str, Any]) -> list[str]:
    """What in ``reply`` differs from its documented table: a field missing, one not
    documented, a value of another type (nested objects' fields included)."""
    kind = reply.get("type")
    if not isinstance(kind, str) or ("reply", kind) not in tables():
        return [f"no documented reply type {kind!r}"]
    fields = reply_fields(kind)
    problems = _compare(reply, {f.name: f for f in fields if "." not in f.name}, kind, {"type"})
    for obj in {f.name.split(".")[0] for f in fields if "." in f.name}:
        inner = {f.name.split(".", 1)[1]: f for f in fields if f.name.startswith(obj + ".")}
        if isinstance(reply.get(obj), dict):
            problems += _compare(reply[obj], inner, f"{kind}.{obj}", set())
    if kind == "event" and isinstance(reply.get("data"), dict):
        topic, data = reply.get("topic", ""), reply["data"]
        if topic == "metrics":  # "as `status.metrics`"
            metrics = {f.name[len("metrics."):]: f for f in reply_fields("status")
                       if f.name.startswith("metrics.")}
            problems += _compare(data, metrics, "event metrics", set())
        elif topic in event_data():
            problems += _unnamed(data, event_data()[topic], f"event {topic}")
            problems += [f"event {topic}: {k} missing" for k in event_data()[topic]
                         if k not in data]
        else:
            problems.append(f"event: topic {topic!r} not documented")
    return problems


def _names(cell: str) -> set[str]:
    """The backticked names of a cell, leaving out those in parentheses (values, details)."""
    return set(_NAME.findall(re.sub(r"\([^()]*\)", "", cell)))


def _unnamed(data: dict[str, Any], named: set[str], where: str) -> list[str]:
    return [f"{where}: {key} not documented" for key in data if key not in named]


@cache
def event_data() -> dict[str, set[str]]:
    """topic -> the keys of its events' ``data``, from the topic table of ``subscribe`` (but
    ``metrics``, whose data is as ``status.metrics``)."""
    text = DOC.read_text()
    rows = text[text.index("| topic | when | `data` |"):].split("\n")[2:]
    out: dict[str, set[str]] = {}
    for row in rows:
        if not row.startswith("|"):
            break
        topic, _, data = _cells(row)
        if "`status.metrics`" not in data:
            out[topic.strip("`")] = _names(data)
    return out


def _compare(data: dict[str, Any], fields: dict[str, Field], where: str, extra: set[str]
             ) -> list[str]:
    problems = [f"{where}: {name} missing" for name, f in fields.items()
                if name not in data and not optional(f)]
    problems += [f"{where}: {name} not documented" for name in data
                 if name not in fields and name not in extra]
    problems += [f"{where}: {name} = {data[name]!r} is not {f.type}" for name, f in fields.items()
                 if name in data and not type_matches(data[name], f.type)]
    return problems


def error_codes() -> set[str]:
    """The codes of the document's error code table."""
    text = DOC.read_text()
    table = text[text.index("## Error codes"):]
    return set(re.findall(r"^\| `(\w+)` \|", table, re.MULTILINE))


_ID_STRING = re.compile(rb'"id"\s*:\s*("(?:[^"\\]|\\.)+")')


def expected_id(data: bytes) -> str | None:
    """The id an error reply to ``data`` must carry, by the document's rule (invariant 2):
    a JSON object's ``id`` when a string of 1 to 128 characters (else null); for anything else
    the first ``"id": "<string>"`` in the bytes. Written from the document, not the daemon."""
    try:
        message = json.loads(data)
    except (ValueError, RecursionError):
        message = None
    else:
        if isinstance(message, dict):
            return _valid_id(message.get("id"))
    match = _ID_STRING.search(data)
    if match is None:
        return None
    try:
        return _valid_id(json.loads(match.group(1)))
    except ValueError:
        return None


def _valid_id(value: Any) -> str | None:
    return value if isinstance(value, str) and 0 < len(value) <= 128 else None


@cache
def final_replies() -> dict[str, tuple[str, frozenset[str]]]:
    """request type -> (its final reply type, the types that may come before it), from the
    document's table of requests ("any of them": ``error``, final for every request)."""
    text = DOC.read_text()
    rows = text[text.index("| request | final reply | sent before it |"):].split("\n")[2:]
    out: dict[str, tuple[str, frozenset[str]]] = {}
    for row in rows:
        if not row.startswith("|"):
            break
        requests, final, before = _cells(row)
        if requests != "any of them":
            for name in _NAME.findall(requests):
                out[name] = (final.strip("`"), frozenset(_names(before)))
    return out
