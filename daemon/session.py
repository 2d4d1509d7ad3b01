"""Conversation sessions for ``generate`` (design.md §2). Pure: the caller passes ``now``.

A session is a series of rounds ("write a CSV reader", then "make it read JSON"). The prompt of a
new round keeps the final code of the last two rounds and folds earlier rounds into one-line
summaries (-28% tokens in the source, no more errors). Idle longer than ``idle_current_file_s``
(30 s): the history is left out and only the current file goes in. Idle longer than ``reset_s``
(10 minutes): the session starts afresh.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

KEEP_CODE_ROUNDS = 2
SUMMARY_CHARS = 100


@dataclass(frozen=True, slots=True)
class Round:
    instruction: str  # what the user asked
    code: str  # the final code of that round (the generated answer)


@dataclass(slots=True)
class Session:
    name: str
    rounds: list[Round] = field(default_factory=list)
    last_used: float = 0.0


@dataclass(frozen=True, slots=True)
class SessionPrompt:
    """What a round's prompt is made of (the caller renders it)."""

    summaries: tuple[str, ...]  # one line per folded (older) round
    recent: tuple[Round, ...]  # the last rounds with their code, oldest first
    current_code: str  # the current file or code sent with the request
    instruction: str
    mode: str  # "full", "current_file" (idle > 30 s) or "new" (reset or first round)

    def render(self, language: str = "") -> str:
        """A plain instruction prompt; the model continues after the last code fence."""
        lines: list[str] = []
        if self.summaries:
            lines.append("Earlier requests:")
            lines.extend(f"- {s}" for s in self.summaries)
            lines.append("")
        for r in self.recent:
            lines.append(f"Request: {_one_line(r.instruction)}")
            lines.append(f"```{language}\n{r.code.rstrip()}\n```")
            lines.append("")
        if self.current_code:
            lines.append("Current code:")
            lines.append(f"```{language}\n{self.current_code.rstrip()}\n```")
            lines.append("")
        lines.append(f"Request: {_one_line(self.instruction)}")
        lines.append("Updated code:")
        lines.append(f"```{language}")
        return "\n".join(lines) + "\n"


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= SUMMARY_CHARS else line[: SUMMARY_CHARS - 1] + "…"


class SessionStore:
    """Sessions by name, least recently used evicted past ``max_sessions``."""

    def __init__(self, *, idle_current_file_s: float = 30.0, reset_s: float = 600.0,
                 max_sessions: int = 64) -> None:
        self.idle_current_file_s = idle_current_file_s
        self.reset_s = reset_s
        self._max = max_sessions
        self._sessions: OrderedDict[str, Session] = OrderedDict()

    def __len__(self) -> int:
        return len(self._sessions)

    def prompt(self, name: str, instruction: str, current_code: str, now: float) -> SessionPrompt:
        """The parts of the next round's prompt; resets an idle session first."""
        session = self._sessions.get(name)
        if session is not None and now - session.last_used > self.reset_s:
            del self._sessions[name]
            session = None
        if session is None or not session.rounds:
            return SessionPrompt((), (), current_code, instruction, "new")
        if now - session.last_used > self.idle_current_file_s:
            return SessionPrompt((), (), current_code, instruction, "current_file")
        older = session.rounds[:-KEEP_CODE_ROUNDS]
        recent = session.rounds[-KEEP_CODE_ROUNDS:]
        summaries = tuple(_one_line(r.instruction) for r in older)
        # the newest round's code is the current code when none was sent
        code = current_code if current_code else ""
        return SessionPrompt(summaries, tuple(recent), code, instruction, "full")

    def record(self, name: str, instruction: str, code: str, now: float) -> Session:
        """Store a finished round's final code."""
        session = self._sessions.pop(name, None)
        if session is None or now - session.last_used > self.reset_s:
            session = Session(name)
        session.rounds.append(Round(instruction, code))
        session.last_used = now
        self._sessions[name] = session
        while len(self._sessions) > self._max:
            self._sessions.popitem(last=False)
        return session
