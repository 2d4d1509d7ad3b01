"""bench/weights.py's fidelity figures (pure numpy; the benchmark itself runs outside CI)."""

from __future__ import annotations

import numpy as np
import pytest

from bench.weights import _fidelity


def test_identical_weights_agree_everywhere_and_a_shifted_top_token_is_counted() -> None:
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(6, 10))
    tokens = [int(t) for t in logits.argmax(1)]
    same = _fidelity([logits], [logits.copy()], [tokens])
    assert same["top1_agreement"] == 1.0 and same["kl"] == 0.0
    assert same["nll"] == same["nll_shipped"]
    other = logits.copy()
    other[0, tokens[0]] -= 100.0  # its top token is another one at position 0 only
    moved = _fidelity([logits], [other], [tokens])
    assert moved["top1_agreement"] == pytest.approx(5 / 6, abs=1e-4)
    assert moved["kl"] > 0.0
