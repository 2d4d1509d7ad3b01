"""The service's documents: ``open``, ``change``, ``close`` and ``warm`` (buffers, their edits
into the project history, background warm-ups of a prompt), the text a request's document has,
the engine's token counter and the tiers' context budgets. ``daemon.service.Service`` builds on
it."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable, Coroutine
from typing import Any

from app.errors import InputError
from daemon import protocol as p
from daemon.documents import (
    Document,
    Edit,
    find_root,
    normalise_path,
    offset_of,
    read_disk_text,
)
from daemon.fast_budget import tier_budget
from daemon.hints import Cursor
from daemon.languages import editor_language
from daemon.live import Live
from daemon.server import Peer
from daemon.service_settings import ServiceSettings
from daemon.tokens import LineCachedCounter
from engine.base import Engine, EngineTokenCounter, TokenCounter

WARMUP_DEADLINE_MS = 30_000  # a background warm-up older than this is dropped


class ServiceDocuments(ServiceSettings):
    """Documents and warm-ups of ``daemon.service.Service`` (see the module docstring)."""

    # set in Service.__init__
    _warming: dict[str, str]
    _warm_ids: itertools.count[int]
    # methods of Service: one scheduler step; a warm-up's way through the engine
    _step: Callable[[], None]
    _prefill: Callable[[Live], Coroutine[Any, Any, None]]

    def _on_open(self, peer: Peer, req: p.OpenRequest) -> None:
        path = normalise_path(req.path, root=req.root)
        root = normalise_path(req.root) if req.root else find_root(path)
        now = time.monotonic()
        if self._docs.get(path) is None:  # bounded per client: its least recently used goes
            mine = self._docs.owned_by(peer.key)
            for gone in mine[:max(0, len(mine) + 1 - self.config.daemon.max_documents_per_client)]:
                self._drop_document(gone)
        old = self._docs.open(Document(path, req.text, req.language, req.version, root),
                              owner=peer.key, now=now)
        self._projects.ensure(root, self.config)
        edited = old is not None and old.text != req.text
        self._projects.note_buffer(path, None if self._too_large(req.text) else req.text,
                                   edited=edited)
        if self._too_large(req.text):  # kept for its changes; no completions there
            peer.send(p.OkReply(id=req.id, detail=self._too_large_note(req.text)))
            return
        if edited:  # other documents' prompts took its definitions and edits
            self._cache.invalidate_others(path)
        if old is not None:
            self._record_edit(path, root, old.text, req.text)
        self._precount(req.text)
        peer.send(p.OkReply(id=req.id))
        if old is None and self.supervisor.state not in ("failed", "stopped"):
            # a newly opened file: warm its prompt prefix (the file block) in the background
            last = req.text.count("\n")
            language = editor_language(path, req.language)
            self._warm_document(path, req.text, last, 0, language, root, time.monotonic(),
                                multiline=False)
            self._step()

    def _on_close(self, peer: Peer, request: p.CloseRequest) -> None:
        self._drop_document(normalise_path(request.path))
        self._step()
        peer.send(p.OkReply(id=request.id))

    def drop_documents(self, paths: list[str]) -> None:
        """Close documents no client closed: a vanished client's, idle ones."""
        for path in paths:
            self._drop_document(path)
        if paths:
            self._step()

    def _drop_document(self, path: str) -> None:
        """A document closes: its buffer, edits, pending work and cached answers go."""
        doc = self._docs.get(path)
        if doc is not None and self._loop is not None:
            self._in_history_order(
                self._projects.close_buffer, doc.root, path, doc.text,
                max_bytes=self.config.context.max_file_bytes)
        self._docs.close(path)
        self._projects.note_buffer(path, None)
        self.scheduler.cancel_document(path)
        self._cache.invalidate(path)
        self._cache.invalidate_others(path)  # closed unsaved: its definitions went

    def _document_at(self, raw_path: str, raw_root: str | None, text: str | None
                     ) -> tuple[str, str, str, str]:
        """(path, project root, text, language) of a request's document: its own text, else
        the open buffer, else the file on disk (InputError when unreadable)."""
        path = normalise_path(raw_path, root=raw_root)
        doc = self._docs.get(path)
        self._docs.touch(path, time.monotonic())
        root = normalise_path(raw_root) if raw_root else (doc.root if doc else find_root(path))
        if text is None:
            text = doc.text if doc is not None else read_disk_text(
                path, max_bytes=self.config.context.max_file_bytes)
        if self._too_large(text):
            raise InputError(self._too_large_note(text))
        language = editor_language(path, doc.language if doc else None)
        return path, root, text, language

    def _too_large(self, text: str) -> bool:
        """A buffer over ``context.max_file_bytes`` (in characters; disk files are refused at
        that many bytes) or holding a NUL character (binary, as a disk file with one is): no
        completions, warm-ups or edit history there (assembling 5 MB took tens of seconds and
        held the event loop)."""
        return len(text) > self.config.context.max_file_bytes or "\0" in text

    def _too_large_note(self, text: str) -> str:
        if len(text) <= self.config.context.max_file_bytes:
            return "the document looks binary (it holds a NUL character): no completions there"
        return (f"the document is too large for completions ({len(text):,} characters > "
                f"context.max_file_bytes {self.config.context.max_file_bytes:,})")

    def _on_warm(self, peer: Peer, req: p.WarmRequest) -> None:
        """The cursor arrived somewhere (an editor's cursor move, insert mode): prefill the
        prompt there in the background, so the first keystroke's completion finds it cached."""
        path, root, text, language = self._document_at(req.path, req.root, req.text)
        offset_of(text, req.line, req.col)  # a clear error for a cursor outside the text
        if self.config.completion.paused:
            peer.send(p.OkReply(id=req.id, detail="completions are paused"))
            return
        self._projects.ensure(root, self.config)
        queued = self._warm_document(path, text, req.line, req.col, language, root,
                                     time.monotonic(), multiline=False, replace=True)
        peer.send(p.OkReply(id=req.id, detail="warming" if queued else "warm"))
        self._step()

    def _precount(self, text: str) -> None:
        """Count a newly opened document's lines in the background, so that its first
        completion assembles from cached counts (cold counting costs tens of ms)."""
        engine = self.supervisor.engine if self.supervisor.state == "ready" else None
        counter = self._counter_for(engine) if engine is not None else None
        if counter is not None and self._loop is not None:
            self._spawn(asyncio.to_thread(counter.count, text))

    def _on_change(self, peer: Peer, req: p.ChangeRequest) -> None:
        path = normalise_path(req.path)
        edits = None
        if req.edits is not None:
            edits = [Edit(e.range.start.line, e.range.start.col, e.range.end.line,
                          e.range.end.col, e.text) for e in req.edits]
        old, new = self._docs.change(path, text=req.text, edits=edits, version=req.version)
        self._docs.touch(path, time.monotonic())
        edited = new.text != old.text
        self._projects.note_buffer(path, None if self._too_large(new.text) else new.text,
                                   edited=edited)
        if edited:  # other documents' prompts took its definitions and edits
            self._cache.invalidate_others(path)
        if not self._too_large(old.text) and not self._too_large(new.text):
            self._record_edit(path, new.root, old.text, new.text)
        peer.send(p.OkReply(id=req.id))

    def _record_edit(self, path: str, root: str, old: str, new: str) -> None:
        if old != new and self._loop is not None:
            self._in_history_order(self._projects.record_edit, root, path, old, new)

    def _warm_document(self, path: str, text: str, line: int, col: int, language: str,
                       root: str, now: float, *, multiline: bool | None = None,
                       replace: bool = False) -> bool:
        """Prefill the prompt at (line, col) of a document in the background (prefill only,
        cache key = the path), unless the engine holds the document or a warm-up is pending;
        ``replace`` (an editor's ``warm``: the cursor moved) warms anyway and cancels a pending
        warm-up of the document. With the stable layout the prompt starts with the file block,
        the same for every cursor position in the file: a later completion there reuses it.
        Returns whether a warm-up was queued."""
        pending = self._warming.get(path)
        if not replace and (path in self._hints.warm or pending is not None):
            return False
        if pending is not None:
            self.scheduler.cancel(pending)
        key = f"warmup/{next(self._warm_ids)}"
        warm = Live(key=key, peer=None, request_id=key, kind="warmup", path=path,
                     arrival=now, text=text, line=line, col=col, language=language, root=root,
                     multiline=multiline, max_tokens=1, deadline_ms=WARMUP_DEADLINE_MS,
                     last_sent=now)
        self.scheduler.add_request(self._hints.warmup(
            key, Cursor(path, text, line, col, language), self._budgets(), self.config.context,
            followup_new_tokens=self.config.completion.max_tokens), now)
        self._live[key] = warm
        self._warming[path] = key
        self._spawn(self._prefill(warm))
        return True

    def _counter_for(self, engine: Engine) -> TokenCounter | None:
        """The engine's exact tokenizer behind a per-line count cache (None: estimate)."""
        try:
            exact = engine.capabilities.exact_tokenizer
        except Exception:  # capabilities not known yet: count by estimate this time
            return None
        if not exact:
            return None
        cached = self._token_counter
        if cached is None or cached[0] is not engine:
            cached = (engine, LineCachedCounter(EngineTokenCounter(engine)))
            self._token_counter = cached
        return cached[1]

    def _budgets(self) -> tuple[int, int]:
        """The context budgets of the normal tier and (fitted to the engine) the fast tier."""
        return self._budget(1.0), self._budget(self.scheduler.fast_budget_factor)

    def _budget(self, factor: float) -> int:
        """The context budget of a tier whose budget factor is ``factor``."""
        return tier_budget(self.config.context.budget_tokens, factor)
