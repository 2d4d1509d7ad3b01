"""``nospin bench speculation``: points, summary and comparison (no model)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench import speculation


def _write_source(root: Path, name: str, lines: int) -> None:
    body = [f"value_{i} = compute_{i}(argument_{i})" for i in range(lines)]
    (root / name).write_text("\n".join(body) + "\n", "utf-8")


def test_points_are_seeded_and_alternate_single_and_multi_line(tmp_path: Path) -> None:
    for i in range(5):
        _write_source(tmp_path, f"m{i}.py", 200)
    a = speculation.sample_spec_points(tmp_path, points=4, seed=3, prefix_lines=10, suffix_lines=2)
    b = speculation.sample_spec_points(tmp_path, points=4, seed=3, prefix_lines=10, suffix_lines=2)
    assert a == b and len(a) == 4
    assert [p.multiline for p in a] == [False, True, False, True]
    for p in a:
        text = (tmp_path / p.path).read_text("utf-8").split("\n")
        assert p.prefix == "".join(line + "\n" for line in text[p.line - 10 : p.line])
        first = text[p.line]
        skip = 4 if p.multiline else 1
        assert p.truth.split("\n")[0] == first
        assert p.truth.count("\n") == skip - 1
        assert p.suffix == "\n" + "\n".join(text[p.line + skip : p.line + skip + 2]) + "\n"


def _row(point: int, text: str, total: float, **kw: Any) -> dict[str, Any]:
    row = {
        "point": point,
        "reason": "newline",
        "text": text,
        "error": "",
        "generated": 11,
        "prefill_ms": 100.0,
        "decode_ms": 1000.0,
        "first_token_ms": 120.0,
        "total_ms": total,
        "proposed": 0,
        "accepted": 0,
        "speculated": False,
    }
    row.update(kw)
    return row


def test_summary_and_comparison() -> None:
    plain_rows = [_row(0, "a", 1100.0), _row(1, "b", 1300.0)]
    spec_rows = [
        _row(0, "a", 600.0, decode_ms=500.0, proposed=10, accepted=8, speculated=True),
        _row(1, "c", 800.0, decode_ms=500.0, proposed=10, accepted=2, speculated=True),
    ]
    plain = speculation._summary(plain_rows) | {"requests": plain_rows}
    spec = speculation._summary(spec_rows) | {"requests": spec_rows}
    assert plain["decode_tok_s"] == 10.0  # 20 tokens after the first ones in 2 s
    assert spec["acceptance"] == 0.5 and spec["draft_proposed"] == 20
    assert spec["speculated_requests"] == 2
    cmp = speculation.compare(plain, spec)
    assert cmp["outputs_identical"] is False
    assert cmp["mismatched_points"] == [1]
    assert cmp["decode_tok_s_vs_plain"] == 2.0
    assert cmp["total_ms_sum_vs_plain"] == round(1400 / 2400, 2)


def test_parse_configs() -> None:
    assert speculation.parse_configs("plain,draft-model,prompt-lookup", [5]) == [
        ("draft-model", 5),
        ("prompt-lookup", 5),
    ]
    assert speculation.parse_configs("draft-model-3,prompt-lookup,prompt-lookup-5", [3, 5]) == [
        ("draft-model", 3),
        ("prompt-lookup", 3),
        ("prompt-lookup", 5),
    ]
    with pytest.raises(SystemExit):
        speculation.parse_configs("medusa", [5])
