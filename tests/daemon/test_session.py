"""Conversation sessions (design.md §2): two rounds of code kept, older folded, idle rules."""

from __future__ import annotations

from daemon.session import SessionStore


def test_rounds_fold_and_idle_rules() -> None:
    store = SessionStore(idle_current_file_s=30, reset_s=600)
    first = store.prompt("s", "write a CSV reader", "", now=0)
    assert first.mode == "new" and not first.recent
    store.record("s", "write a CSV reader", "def read_csv(): ...", now=1)
    store.record("s", "make it read JSON", "def read_json(): ...", now=2)
    store.record("s", "add a TOML reader", "def read_toml(): ...", now=3)
    third = store.prompt("s", "now YAML", "current()", now=4)
    assert third.mode == "full"
    assert third.summaries == ("write a CSV reader",)  # folded to one line
    assert [r.code for r in third.recent] == ["def read_json(): ...", "def read_toml(): ..."]
    text = third.render("python")
    assert "- write a CSV reader" in text and "def read_csv" not in text
    assert text.endswith("Updated code:\n```python\n")
    idle = store.prompt("s", "now YAML", "current()", now=3 + 31)
    assert idle.mode == "current_file" and not idle.recent and idle.current_code == "current()"
    reset = store.prompt("s", "again", "", now=3 + 601)
    assert reset.mode == "new" and len(store) == 0


def test_long_instructions_become_one_short_line() -> None:
    store = SessionStore()
    for i in range(3):
        store.record("s", "do this\nand that " * 20 + str(i), "code", now=i)
    summary = store.prompt("s", "next", "", now=4).summaries[0]
    assert "\n" not in summary and len(summary) <= 100
