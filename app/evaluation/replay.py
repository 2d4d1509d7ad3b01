"""An editor session replayed into the daemon's own document and project state.

``EditorReplay`` opens and changes buffers the way the daemon's service handles the protocol's
``open`` and ``change`` messages
(``daemon.service_documents.ServiceDocuments._on_open`` / ``_on_change``): the
buffer goes into a ``DocumentStore`` (a change as a range edit, ``apply_edits``), then into
``Projects.note_buffer`` (open buffers, the recently edited list that retrieval reads), then
into ``Projects.record_edit`` (the root's edit history, with the old and new text of the
buffer). Its ``assemble`` is the daemon's ``Projects.assemble_for``: the same index with the
open buffers laid over it, the same recently edited windows and edit history. The index is the
caller's (the checkout indexed by ``corpus.build_index``), adopted as the root's
(``Projects.adopt``); the service does the history write on its history thread, here it is
done at once, in the same order.
"""

from __future__ import annotations

import os
from pathlib import Path

from app.config import ContextConfig
from app.evaluation.diffs import edit_between
from app.evaluation.session import EditedRange, SessionContext
from daemon.context import assemble_context
from daemon.context.types import AssembledContext, ContextRequest
from daemon.documents import Document, DocumentStore
from daemon.history import EditHistory
from daemon.index import ProjectIndex
from daemon.languages import editor_language
from daemon.projects import Projects
from engine.base import TokenCounter


class EditorReplay:
    """One editor session at ``root`` (a checkout indexed as ``index``); a fresh history."""

    def __init__(self, root: Path, index: ProjectIndex) -> None:
        self.root = os.path.normpath(str(root.resolve()))
        self.history = EditHistory()
        self.docs = DocumentStore()
        self.projects = Projects(enabled=False)
        self.projects.adopt(self.root, index, self.history)
        self._versions: dict[str, int] = {}
        self._opened: list[str] = []  # relative paths, in the order opened
        self._edited: list[str] = []  # relative paths, least recently edited first
        self._edits: list[EditedRange] = []

    def _abs(self, rel: str) -> str:
        return os.path.join(self.root, *rel.split("/"))

    def is_open(self, rel: str) -> bool:
        return self.docs.get(self._abs(rel)) is not None

    def text(self, rel: str) -> str:
        doc = self.docs.get(self._abs(rel))
        if doc is None:
            raise KeyError(rel)
        return doc.text

    def open(self, rel: str, text: str) -> None:
        """The editor opened ``rel`` holding ``text`` (the protocol's ``open``)."""
        path = self._abs(rel)
        version = self._versions.get(rel, 0) + 1
        self._versions[rel] = version
        old = self.docs.open(Document(path, text, editor_language(path, None), version,
                                      self.root))
        edited = old is not None and old.text != text
        self.projects.note_buffer(path, text, edited=edited)
        if old is not None and old.text != text:
            self.projects.record_edit(self.root, path, old.text, text)
        if rel not in self._opened:
            self._opened.append(rel)

    def change(self, rel: str, new_text: str) -> None:
        """The editor changed the open buffer ``rel`` to ``new_text``, reported as one range
        edit (the protocol's ``change`` with ``edits``)."""
        path = self._abs(rel)
        doc = self.docs.get(path)
        if doc is None:
            raise KeyError(f"{rel} is not open")
        edit = edit_between(doc.text, new_text)
        version = self._versions[rel] + 1
        self._versions[rel] = version
        old, new = self.docs.change(path, text=None, edits=[edit], version=version)
        edited = new.text != old.text
        self.projects.note_buffer(path, new.text, edited=edited)
        if edited:
            self.projects.record_edit(self.root, path, old.text, new.text)
            if rel in self._edited:
                self._edited.remove(rel)
            self._edited.append(rel)
            end = edit.start_line + edit.text.count("\n") + (0 if edit.text.endswith("\n")
                                                              or not edit.text else 1)
            lines = new.text.split("\n")
            self._edits.append(EditedRange(rel, edit.start_line, end,
                                           "\n".join(lines[edit.start_line:end])))

    def session(self, current: str) -> SessionContext:
        """The session as a prompt mode sees it at a point in ``current``."""
        return SessionContext(
            open_files=tuple((rel, self.text(rel)) for rel in self._opened if rel != current),
            recent_files=tuple(rel for rel in self._edited if rel != current),
            recent_edits=tuple(self._edits),
        )

    def assemble(self, request: ContextRequest, config: ContextConfig,
                 counter: TokenCounter | None) -> AssembledContext:
        """The daemon's context for ``request`` (``request.path`` relative to the root)."""
        return self.projects.assemble_for(assemble_context, request, self.root, config, counter)
