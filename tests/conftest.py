"""Shared by every test: whether this environment holds the versions CI installs
(installers/constraints.txt), in the report header and, when they differ, at the end of the run
(``-q`` hides the header), so that a local run on other versions is not taken for CI's."""

from __future__ import annotations

import functools

import pytest


@functools.cache
def _differences() -> tuple[list[str], str]:
    """(differences from the file, or [] ; why they could not be compared, or "")."""
    try:
        from installers import constraints

        diff = constraints.compare()
    except Exception as exc:  # a report never stops the run
        return [], repr(exc)
    if diff is None:  # run from the tree (the GPU check)
        return [], "nospin is not installed in this environment"
    return diff, ""


def _describe() -> str:
    diff, error = _differences()
    if error:
        return f"constraints: not compared ({error})"
    if not diff:
        return "constraints: this environment has the versions of installers/constraints.txt"
    shown = "; ".join(diff[:3]) + (f"; {len(diff) - 3} more" if len(diff) > 3 else "")
    return (f"constraints: this environment differs from installers/constraints.txt (what CI "
            f"installs): {shown}")


def pytest_report_header(config: pytest.Config) -> str:
    return _describe()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _differences()[0]:
        terminalreporter.write_line(_describe(), yellow=True)


def pytest_configure(config: pytest.Config) -> None:
    """The vendored corpora are tracked as archives: unpack them once before any test reads
    ``bench/corpora/NAME`` (a no-op where they are already unpacked)."""
    from pathlib import Path

    from app.evaluation.corpus_archive import unpack_all

    unpack_all(Path(__file__).resolve().parents[1] / "bench" / "corpora")
