"""What an editing session holds at a completion point besides the buffer (pure data).

Points cut from finished files (``sampling.py``) have no session: nothing open, nothing edited.
Points replayed from a repository's history (``history.py``) carry the session the replay built
(``replay.EditorReplay.session``): the buffers the editor opened, the files it edited and the
ranges it changed, so that a prompt mode can draw on them as the tool it reproduces does
(recently edited ranges, open files, recently visited files).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EditedRange:
    """Lines an editor change left in a buffer (its new text), as they are after that change."""

    path: str  # project-relative, forward slashes
    start_line: int  # 0-based first line of the change's new text
    end_line: int  # 0-based line after its last (== start_line: a deletion)
    text: str  # those lines as the change left them (later changes may have moved them)


@dataclass(frozen=True, slots=True)
class SessionContext:
    """The editor's state at a point: open buffers, recently edited files and ranges."""

    # (path, text) of the open buffers other than the point's, in the order they were opened
    open_files: tuple[tuple[str, str], ...] = ()
    # paths of the files edited, least recently edited first (the point's file left out)
    recent_files: tuple[str, ...] = ()
    # every change of the session, oldest first (the point's file included)
    recent_edits: tuple[EditedRange, ...] = ()

    def __repr__(self) -> str:  # never print source text
        return (f"SessionContext(open={len(self.open_files)}, recent={len(self.recent_files)}, "
                f"edits={len(self.recent_edits)})")
