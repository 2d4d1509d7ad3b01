"""``nospin lsp``: a language server over stdio that lets any LSP editor use the daemon.

Thin by design: the daemon does the work. This server

- mirrors ``didOpen``/``didChange``/``didClose`` to the daemon as ``open``/``change``/``close``
  (unsaved buffers and edits feed context and edit history), converting LSP columns (UTF-16 by
  default) to the daemon's code points;
- answers ``textDocument/inlineCompletion`` (LSP 3.18) with the daemon's ``done.text``, and
  ``textDocument/completion`` with one item for clients without inline completion, each by its
  deadline whatever the daemon's state (``null`` when the daemon has not answered by then);
- turns ``$/cancelRequest`` into a daemon ``cancel`` (pygls cancels the handler's task; the
  client library sends ``cancel`` when a ``complete`` is abandoned);
- sends a ``nospin/status`` notification after every completion (latency, tier, cache) and on
  fast-mode changes, and offers the commands ``nospin.status``, ``nospin.fastMode``,
  ``nospin.toggleFastMode`` and ``nospin.warm`` (uri, position: the cursor settled there; the
  daemon prefills the prompt in the background) through ``workspace/executeCommand``; bad
  arguments get InvalidParams (-32602), daemon errors RequestFailed (-32803), one line each.

Document notifications are applied to the daemon strictly in the order they arrive, and a
completion waits for the ones before it, so a completion always sees the edits typed before it.
The daemon is started on demand. When its connection is lost (the daemon stopped, restarted or
crashed: noticed at once, see ``AsyncClient.lost``) the server says so in a ``nospin/status``
error and connects again (tcp, --no-start: at once; this user's daemon: with the next edit or
completion, starting it), also when the connection goes while it is being made or while the
documents are sent again after a hang (one path: ``_on_lost``); a new connection opens every
document with the server's current text, and the updates still queued from before it, which that
text already contains, are skipped: the daemon's copy is the server's, never an edit twice.
A daemon that hangs with its connection open (stopped, in a debugger, stuck: see
``AsyncClient.hung``) is reported within about 4 s of a request getting nothing from it;
meanwhile requests fail at once instead of waiting for it. It is neither restarted nor
disconnected from: when it answers again, the documents are sent again in the same way (the
updates that failed meanwhile are in that text) and the server reports ``connected``.
A daemon that says the one before it crashed (``StatusReply.last_crash``) gets a warning
(``window/showMessage``) once per crash.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from lsprotocol import types as t
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from app import __version__
from app.client import AsyncClient, check_endpoint
from app.errors import (
    Cancelled,
    ConfigError,
    DaemonError,
    DeadlineExceeded,
    InputError,
    NospinError,
)
from app.lsp.text import (
    Encoding,
    apply_change,
    first_line,
    split_lines,
    to_client_units,
    to_code_points,
    word_start,
)
from daemon import lifecycle
from daemon import protocol as p
from daemon.crashlog import describe as describe_crash

log = logging.getLogger(__name__)

STATUS_NOTIFICATION = "nospin/status"
CRASH_NOTICE_S = 3600.0  # a crash older than this is in nospin.status only, not a warning
CMD_STATUS = "nospin.status"
CMD_FAST_MODE = "nospin.fastMode"
CMD_TOGGLE_FAST_MODE = "nospin.toggleFastMode"
CMD_WARM = "nospin.warm"  # arguments: uri, {"line": L, "character": C}: the cursor arrived there
TIER_NAMES = {0: "cache", 1: "normal", 2: "cap", 3: "fast"}
REPLY_MARGIN_MS = 100  # of a completion's deadline, kept for the daemon's reply to arrive
ON_OFF = {"true": True, "on": True, "false": False, "off": False}  # nospin.fastMode strings
CompletionMode = Literal["auto", "on", "off"]
Daemon = Callable[[], Awaitable[AsyncClient]]  # a command's way to the connected daemon


class _Reported(DaemonError):
    """A connection attempt failed by the loss of its connection or its daemon hanging, which
    ``_on_lost`` / ``_on_hung`` have reported already (to its waiters, a DaemonError)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LspSettings:
    """Server options: command-line flags, overridden by the client's ``initializationOptions``
    (same names in camelCase: ``deadlineMs``, ``maxTokens``, ``completion``, ``endpoint``)."""

    endpoint: str | None = None  # daemon endpoint; None: this user's ipc socket (NOSPIN_ENDPOINT)
    autostart: bool = True  # start a daemon when none runs
    deadline_ms: int = p.DEFAULT_DEADLINE_MS  # complete.options.deadline_ms
    max_tokens: int | None = None  # complete.options.max_tokens; None: the daemon's setting
    completion: CompletionMode = "auto"  # textDocument/completion: auto = when no inline support

    def with_options(self, options: Any) -> LspSettings:
        """These settings updated from ``initializationOptions`` (unknown keys, and values of
        the wrong type or below 1 for ``deadlineMs`` / ``maxTokens``, ignored)."""
        if not isinstance(options, dict):
            return self
        changes: dict[str, Any] = {}
        for key, name, kind in (("endpoint", "endpoint", str), ("deadlineMs", "deadline_ms", int),
                                ("maxTokens", "max_tokens", int), ("completion", "completion", str),
                                ("autostart", "autostart", bool)):
            value = options.get(key)
            if kind is int and (isinstance(value, bool) or not isinstance(value, int)
                                or value < 1):
                continue  # a count or a time: a whole number of at least 1 (not true/false)
            if isinstance(value, kind) and value != "":
                changes[name] = value
        if changes.get("completion") not in (None, "auto", "on", "off"):
            del changes["completion"]
        return dataclasses.replace(self, **changes)


@dataclass(frozen=True, slots=True, kw_only=True)
class StatusParams:
    """Params of the ``nospin/status`` notification (what a statusline shows)."""

    state: str  # "ready" (last completion served), "error", "cancelled", "connected"
    latency_ms: float | None = None  # done.timings.total_ms of the last completion
    first_token_ms: float | None = None  # done.timings.first_token_ms
    tier: int | None = None  # done.tier: 0 cache/none, 1 normal, 2 capped, 3 fast
    tier_name: str = ""  # "normal", "cap", "fast", "cache"
    tier_reason: str = ""  # done.tier_reason
    cache: str = ""  # "miss", "hit", "type_through"
    finish_reason: str = ""  # done.finish_reason
    num_tokens: int = 0  # tokens generated
    fast_mode: bool | None = None  # tiers.force_fast, when known
    engine_state: str = ""  # from hello: loading, ready, restarting, failed
    message: str = ""  # error text for "error"

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class NospinLanguageServer(LanguageServer):
    """The language server; one instance per ``nospin lsp`` process."""

    def __init__(self, settings: LspSettings | None = None) -> None:
        super().__init__("nospin", __version__,
                         text_document_sync_kind=t.TextDocumentSyncKind.Incremental)
        self.settings = settings or LspSettings()
        self._client: AsyncClient | None = None
        self._connecting: asyncio.Future[AsyncClient] | None = None  # shared by all waiters
        self._joining: AsyncClient | None = None  # the connection _connect is making or syncing
        self._docs: dict[str, str] = {}  # uri -> text, as the client sees it
        self._doc_meta: dict[str, tuple[str | None, int]] = {}  # uri -> language, version
        self._sync_tail: asyncio.Future[None] | None = None
        self._num_updates = 0  # document notifications received (each queued update's number)
        self._synced_updates = 0  # how many of them the current connection's opens contain
        # background work (reconnecting, crash reports): cancelled at shutdown
        self._tasks: set[asyncio.Future[None]] = set()
        self.fast_mode: bool | None = None
        self.last_status: StatusParams | None = None
        self._announce_task: asyncio.Future[None] | None = None
        self._crash_shown = 0.0  # the ``when`` of the last crash reported
        self.feature(t.INITIALIZE)(_plain(self._on_initialize))
        self.feature(t.INITIALIZED)(_plain(self._on_initialized))
        self.feature(t.SHUTDOWN)(_plain(self._on_shutdown))
        self.feature(t.TEXT_DOCUMENT_DID_OPEN)(_plain(self._on_did_open))
        self.feature(t.TEXT_DOCUMENT_DID_CHANGE)(_plain(self._on_did_change))
        self.feature(t.TEXT_DOCUMENT_DID_CLOSE)(_plain(self._on_did_close))
        self.feature(t.TEXT_DOCUMENT_INLINE_COMPLETION, t.InlineCompletionOptions())(
            _plain(self._on_inline_completion))
        for name, method in ((CMD_STATUS, self._cmd_status), (CMD_FAST_MODE, self._cmd_fast_mode),
                             (CMD_TOGGLE_FAST_MODE, self._cmd_toggle_fast_mode),
                             (CMD_WARM, self._cmd_warm)):
            self.command(name)(self._command(name, method))

    # ------------------------------------------------------------------ lifecycle
    def _on_initialize(self, params: t.InitializeParams) -> None:
        self.settings = self.settings.with_options(params.initialization_options)
        if self.settings.endpoint is not None:
            try:
                check_endpoint(self.settings.endpoint)
            except ConfigError as exc:  # the initialize request fails with it: a clear error
                raise JsonRpcInvalidParams(f"initializationOptions.endpoint: {exc}") from None
        text_caps = params.capabilities.text_document
        has_inline = text_caps is not None and text_caps.inline_completion is not None
        mode = self.settings.completion
        if mode == "on" or (mode == "auto" and not has_inline):
            # registered here, before pygls computes the capabilities it announces
            self.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions())(
                _plain(self._on_completion))

    def _on_initialized(self, params: t.InitializedParams) -> None:
        self._announce_task = asyncio.ensure_future(self._announce())

    async def _announce(self) -> None:
        """Connect early (starting the daemon loads the model while the user reads code)."""
        try:
            client = await self._daemon()
            values = await client.config_get("tiers.force_fast")
            self.fast_mode = bool(values.get("tiers.force_fast", False))
            engine = client.hello.engine_state if client.hello else ""
            self._notify(StatusParams(state="connected", fast_mode=self.fast_mode,
                                      engine_state=engine))
        except NospinError as exc:
            self._notify(StatusParams(state="error", message=str(exc)))

    async def _on_shutdown(self, params: None) -> None:
        for task in list(self._tasks):
            task.cancel()
        if self._client is not None:
            await self._client.close()
            self._client = None

    @property
    def encoding(self) -> Encoding:
        value = str(self.workspace.position_encoding or "utf-16")
        return value if value in ("utf-8", "utf-32") else "utf-16"  # type: ignore[return-value]

    async def _daemon(self) -> AsyncClient:
        """The connected daemon client (connecting, and starting a daemon, on first use).

        One attempt at a time, shared by every caller and shielded from them: a completion
        that gives up at its deadline (or is cancelled) leaves a daemon start or a slow hello
        running for the next caller instead of aborting it and starting another."""
        if self._client is not None:
            return self._client
        if self._connecting is None or self._connecting.done():  # (done: a failed one)
            self._connecting = asyncio.ensure_future(self._connect())
            self._connecting.add_done_callback(self._connect_done)
        return await asyncio.shield(self._connecting)

    async def _connect(self, resumed: AsyncClient | None = None) -> AsyncClient:
        """A new connection with every document opened; or, given ``resumed`` (a connection
        to a daemon that answers again after it hung), every document opened again on it.

        The connection is ``_joining`` meanwhile: its loss (or its daemon hanging) from the
        hello on is reported as for the current connection (``_on_lost``, ``_on_hung``). A
        daemon that hangs during the opens keeps the connection (as the current one: sent
        again when it answers); any other failure closes it."""
        if resumed is None:
            client = AsyncClient(self.settings.endpoint, autostart=self.settings.autostart,
                                 client_name=f"nospin-lsp {__version__}",
                                 idle_timeout_s=max(15.0, self.settings.deadline_ms / 1000 + 5))
            client.on_lost = lambda: self._on_lost(client)
            client.on_hung = lambda: self._on_hung(client)
            client.on_resumed = lambda: self._on_resumed(client)
        else:
            client = resumed
        self._joining = client
        try:
            if resumed is None:
                await client.connect()  # closes its socket again when it fails
            # a fresh or restarted daemon (or one that missed updates while it hung): every
            # document again, as it is now; the updates queued before this moment are in
            # these texts (``_chain`` skips them on this connection)
            docs = [(uri, text, *self._doc_meta.get(uri, (None, 0)))
                    for uri, text in self._docs.items()]
            synced = self._num_updates
            for uri, text, language, version in docs:
                if (path := to_fs_path(uri)) is not None and uri.startswith("file:"):
                    await client.open(path, text, language=language, version=version)
            if client.lost is not None:  # went after the last open's answer
                raise DaemonError(client.lost)
        except BaseException as exc:
            kept = client.hello is not None and client.hung is not None and client.lost is None
            if kept:
                self._client = client  # hung: kept, the documents sent again when it answers
            else:
                await client.close()
            if isinstance(exc, DaemonError) and (kept or client.lost is not None):
                raise _Reported(exc.message, detail=exc.detail) from exc
            raise
        finally:
            if self._joining is client:
                self._joining = None
        self._client, self._synced_updates = client, synced
        if resumed is None:
            self._background(self._report_crash(client))
        return client

    async def _report_crash(self, client: AsyncClient) -> None:
        """A new connection's daemon says the daemon before it died of a fatal signal (not
        longer than CRASH_NOTICE_S ago): a warning the editor shows (``window/showMessage``),
        once per crash. ``nospin.status`` carries it too, for as long as the daemon runs."""
        try:
            crash = (await client.status()).last_crash
        except NospinError:
            return  # the connection's own troubles are reported where they happen
        when = float(crash.get("when") or 0.0)
        if not crash or when == self._crash_shown or time.time() - when > CRASH_NOTICE_S:
            return
        self._crash_shown = when
        self.window_show_message(t.ShowMessageParams(
            type=t.MessageType.Warning,
            message=f"the previous nospin daemon crashed: {describe_crash(crash, time.time())}."
                    " Run `nospin doctor`."))

    def _background(self, work: Awaitable[None]) -> None:
        """Run ``work`` as a task kept until it ends (cancelled at shutdown)."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _connect_done(self, future: asyncio.Future[AsyncClient]) -> None:
        if self._connecting is future:
            self._connecting = None  # the next caller tries again after a failure
        if not future.cancelled():
            future.exception()  # retrieved: every waiter may have left at its deadline

    async def _drop_client(self, failed: AsyncClient | None) -> None:
        """Close the connection a request failed on with DaemonError, if it is still the
        current one: a connection made since (a reconnection) is left alone, and so is one
        to a daemon that is not responding (``AsyncClient.hung``: kept until it answers
        again). ``None`` (the request failed before it had a connection) closes nothing."""
        if failed is None or failed is not self._client or failed.hung is not None:
            return
        self._client = None
        await failed.close()

    def _on_lost(self, client: AsyncClient) -> None:
        """The daemon closed ``client``'s connection, the current one or the one being made
        or synced (``_joining``: from its hello to its last open, also after a hang): say so
        at once. A daemon this server would start (this user's ipc socket, autostart) starts
        again with the next edit or completion, not now: after `nospin stop` it stays stopped
        while the editor is idle. Anything else (a tcp address, --no-start) is connected to
        again now, once the attempt that lost it has ended."""
        if client is self._joining:
            self._joining = None
            attempt = self._connecting  # fails with the loss: the reconnection comes after
        elif client is self._client:
            self._client = None
            attempt = None
        else:
            return  # not this server's connection any more
        starting = self.settings.autostart and client.endpoint.startswith("ipc://")
        self._notify(StatusParams(
            state="error", fast_mode=self.fast_mode,
            message=f"{client.lost}; " + ("it starts again with the next edit or completion"
                                          if starting else "reconnecting")))
        self._background(client.close() if starting else self._reconnect(client, attempt))

    async def _reconnect(self, lost: AsyncClient, attempt: asyncio.Future[AsyncClient] | None
                         ) -> None:
        await lost.close()
        if attempt is not None:
            await asyncio.wait([attempt])
        old_pid = lost.hello.pid if lost.hello is not None else None
        if lost.endpoint.startswith("ipc://"):  # a stopping daemon holds its lock a moment yet
            give_up = asyncio.get_running_loop().time() + 5.0
            while ((info := lifecycle.read_daemon_info()) is not None and info.pid == old_pid
                   and asyncio.get_running_loop().time() < give_up):
                await asyncio.sleep(0.05)
        await self._announce_connection()

    async def _announce_connection(self) -> None:
        """Connect (or wait for the attempt under way) and say how it went (a connection lost
        or hung meanwhile has been reported as such)."""
        try:
            client = await self._daemon()
        except NospinError as exc:  # the next document update or completion tries again
            if not isinstance(exc, _Reported):
                self._notify(StatusParams(state="error", message=str(exc),
                                          fast_mode=self.fast_mode))
            return
        self._notify(StatusParams(state="connected", fast_mode=self.fast_mode,
                                  engine_state=client.hello.engine_state if client.hello else ""))

    def _on_hung(self, client: AsyncClient) -> None:
        """``client``'s daemon is not responding (stopped, in a debugger, stuck): say so. It
        is not restarted or disconnected from; requests fail at once until it answers. Also
        for the connection being made or synced, once it has said hello (``_connect`` keeps it
        then)."""
        if client is not self._client and (client is not self._joining or client.hello is None):
            return
        self._notify(StatusParams(
            state="error", fast_mode=self.fast_mode,
            message=f"{client.hung}; waiting for it to answer again (it is not restarted)"))

    def _on_resumed(self, client: AsyncClient) -> None:
        """``client``'s daemon answers again: open every document again on the connection
        (the updates that failed while it hung are in that text), then report ``connected``.
        Requests wait for that as for a new connection."""
        if client is not self._client:
            return
        self._client = None
        self._connecting = asyncio.ensure_future(self._connect(client))
        self._connecting.add_done_callback(self._connect_done)
        self._background(self._announce_connection())

    # ------------------------------------------------------------------ documents
    def _on_did_open(self, params: t.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        self._docs[doc.uri] = doc.text
        self._doc_meta[doc.uri] = (doc.language_id or None, doc.version)
        self._chain(lambda client, path: client.open(
            path, doc.text, language=doc.language_id or None, version=doc.version), doc.uri)

    def _on_did_change(self, params: t.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri not in self._docs:
            return
        text = self._docs[uri]
        edits: list[p.TextEdit] = []
        whole = False
        for change in params.content_changes:
            if isinstance(change, t.TextDocumentContentChangeWholeDocument):
                text, whole = change.text, True
                continue
            start, end = change.range.start, change.range.end
            text, edit = apply_change(text, (start.line, start.character),
                                      (end.line, end.character), change.text, self.encoding)
            edits.append(p.TextEdit(range=p.Range(
                start=p.Position(line=edit.start_line, col=edit.start_col),
                end=p.Position(line=edit.end_line, col=edit.end_col)), text=edit.text))
        self._docs[uri] = text
        version = params.text_document.version
        language = self._doc_meta.get(uri, (None, 0))[0]
        self._doc_meta[uri] = (language, version)
        final = text

        async def send(client: AsyncClient, path: str) -> None:
            try:
                if whole:
                    await client.change(path, text=final, version=version)
                else:
                    await client.change(path, edits=edits, version=version)
            except InputError:  # the daemon lost the buffer (restarted): send all of it
                await client.open(path, final, language=language, version=version)

        self._chain(send, uri)

    def _on_did_close(self, params: t.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        self._doc_meta.pop(uri, None)
        if self._docs.pop(uri, None) is not None:
            self._chain(lambda client, path: client.close_document(path), uri)

    def _chain(self, op: Callable[[AsyncClient, str], Awaitable[None]], uri: str) -> None:
        """Run ``op`` after every document operation received before it (called synchronously
        from the notification handler, so the order is the order of arrival).

        Skipped when the connection it gets opened the documents after this notification came:
        their text contains it already (an edit typed while the daemon was down)."""
        self._num_updates += 1
        number = self._num_updates
        path = to_fs_path(uri)
        if path is None or not uri.startswith("file:"):
            return  # untitled and virtual documents stay in the editor
        previous = self._sync_tail

        async def run() -> None:
            if previous is not None:
                await asyncio.wait([previous])
            client: AsyncClient | None = None
            try:
                client = await self._daemon()
                if number <= self._synced_updates:
                    return  # in the text this connection opened
                await op(client, path)
            except DaemonError as exc:
                log.warning("daemon unreachable: %s", exc)
                await self._drop_client(client)
            except NospinError as exc:
                log.warning("document update failed: %s", exc)

        self._sync_tail = asyncio.ensure_future(run())

    # ------------------------------------------------------------------ completion
    async def _complete(self, uri: str, position: t.Position, deadline: float
                        ) -> tuple[p.DoneReply, str, int]:
        """Ask the daemon; returns the reply, the cursor line's text and the code-point column.
        ``deadline`` (loop time): the daemon gets what is left of it after the earlier edits and
        the connection, less REPLY_MARGIN_MS.

        Raises CancelledError when the client cancels (the daemon request is cancelled too)."""
        tail = self._sync_tail
        if tail is not None:
            await asyncio.wait([tail])  # edits typed before this request go first
        path = to_fs_path(uri)
        text = self._docs.get(uri)
        if path is None or text is None or not uri.startswith("file:"):
            raise InputError(f"not an open file document: {uri}")
        lines = split_lines(text)
        line_text = lines[position.line] if position.line < len(lines) else ""
        col = to_code_points(line_text, position.character, self.encoding)
        client = await self._daemon()
        margin_ms = min(REPLY_MARGIN_MS, self.settings.deadline_ms // 10)
        left_ms = int((deadline - asyncio.get_running_loop().time()) * 1000) - margin_ms
        if left_ms < 1:
            raise DeadlineExceeded(f"no completion within {self.settings.deadline_ms} ms",
                                   detail="the earlier edits and the connection took it all")
        started = time.monotonic()
        try:
            done = await client.complete(path, position.line, col,
                                         max_tokens=self.settings.max_tokens,
                                         deadline_ms=left_ms)
        except DaemonError:
            await self._drop_client(client)  # (not a connection made since it failed)
            raise
        log.debug("completion in %.0f ms", (time.monotonic() - started) * 1000)
        self._notify(_status_of(done, self.fast_mode))
        return done, line_text, col

    async def _guarded(self, uri: str, position: t.Position
                       ) -> tuple[p.DoneReply, str, int] | None:
        """``_complete`` with daemon errors turned into "no completion" plus a status, by the
        deadline whatever the daemon's state (starting, unreachable, hung): the daemon request
        is cancelled then, a connection attempt goes on for the next completion."""
        deadline = asyncio.get_running_loop().time() + self.settings.deadline_ms / 1000
        try:
            async with asyncio.timeout_at(deadline):
                return await self._complete(uri, position, deadline)
        except TimeoutError:
            why = ("no daemon connected yet" if self._client is None
                   else "waiting for the daemon")
            late = DeadlineExceeded(f"no completion within {self.settings.deadline_ms} ms",
                                    detail=why)
            self._notify(StatusParams(state="error", message=str(late), fast_mode=self.fast_mode))
        except Cancelled:
            self._notify(StatusParams(state="cancelled", fast_mode=self.fast_mode))
        except NospinError as exc:
            self._notify(StatusParams(state="error", message=str(exc), fast_mode=self.fast_mode))
        return None

    async def _on_inline_completion(self, params: t.InlineCompletionParams
                                    ) -> t.InlineCompletionList | None:
        result = await self._guarded(params.text_document.uri, params.position)
        if result is None or not result[0].text:
            return None
        done = result[0]
        return t.InlineCompletionList(items=[t.InlineCompletionItem(
            insert_text=done.text, range=t.Range(params.position, params.position))])

    async def _on_completion(self, params: t.CompletionParams) -> t.CompletionList | None:
        result = await self._guarded(params.text_document.uri, params.position)
        if result is None or not result[0].text:
            return None
        done, line_text, col = result
        start = word_start(line_text, col)
        word = line_text[start:col]
        start_char = to_client_units(line_text, start, self.encoding)
        edit_range = t.Range(t.Position(params.position.line, start_char), params.position)
        item = t.CompletionItem(
            label=word + first_line(done.text), kind=t.CompletionItemKind.Text,
            detail=f"nospin · {_tier_text(done)}", filter_text=word + done.text,
            sort_text="0", insert_text_format=t.InsertTextFormat.PlainText,
            text_edit=t.TextEdit(range=edit_range, new_text=word + done.text),
            documentation=t.MarkupContent(kind=t.MarkupKind.PlainText, value=done.text))
        return t.CompletionList(is_incomplete=True, items=[item])

    # ------------------------------------------------------------------ commands, status
    def _command(self, name: str, method: Callable[..., Awaitable[Any]]
                 ) -> Callable[..., Awaitable[Any]]:
        """The handler pygls calls for command ``name``: nospin errors become JSON-RPC errors
        with a one-line message (pygls would send any exception as -32603 with its traceback):
        InputError (missing or ill-typed arguments, a request the daemon refused as given) is
        InvalidParams (-32602), any other NospinError RequestFailed (-32803, ``data.code`` =
        the error's code). ``method`` gets the daemon through the ``Daemon`` it is passed, so
        that a DaemonError closes the connection the command failed on (``_drop_client``),
        not whichever is current by then (a reconnection made meanwhile)."""

        async def call(*args: Any) -> Any:
            used: list[AsyncClient] = []  # the connections the command got, in order

            async def daemon() -> AsyncClient:
                client = await self._daemon()
                used.append(client)
                return client

            try:
                return await method(daemon, *args)
            except InputError as exc:
                raise JsonRpcInvalidParams(f"{name}: {exc}") from None
            except NospinError as exc:
                if isinstance(exc, DaemonError):  # the connection it failed on, not whichever
                    await self._drop_client(used[-1] if used else None)  # is current now
                raise JsonRpcException(f"{name}: {exc}", code=t.LSPErrorCodes.RequestFailed,
                                       data={"code": exc.code}) from None
        return call

    async def _cmd_status(self, daemon: Daemon, *args: Any) -> dict[str, Any]:
        _no_arguments(args)
        client = await daemon()
        status = await client.status()
        self.fast_mode = status.fast_mode
        metrics = status.metrics
        return {
            "version": status.version, "pid": status.pid, "fast_mode": status.fast_mode,
            "paused": status.paused, "engine_state": status.engine.get("state", ""),
            "engine": status.engine.get("name", status.engine.get("kind", "")),
            "num_requests": metrics.get("num_requests", 0),
            "total_ms": metrics.get("total_ms"), "first_token_ms": metrics.get("first_token_ms"),
            "num_cancelled": metrics.get("num_cancelled", 0),
            "num_documents": status.num_documents, "log_path": status.log_path,
            "last_crash": describe_crash(status.last_crash, time.time())
            if status.last_crash else "",
            "last": self.last_status.to_json() if self.last_status else None,
        }

    async def _cmd_fast_mode(self, daemon: Daemon, *args: Any) -> dict[str, Any]:
        """Arguments: none (on) or one: a JSON boolean, or "true"/"false"/"on"/"off" (any case;
        for clients whose command line sends strings)."""
        if len(args) > 1:
            raise InputError(f"takes at most one argument, on ({len(args)} given)")
        return await self._set_fast_mode(daemon, _on_off(args[0]) if args else True)

    async def _set_fast_mode(self, daemon: Daemon, on: bool) -> dict[str, Any]:
        client = await daemon()
        await client.fast_mode(on)
        self.fast_mode = on
        self._notify(dataclasses.replace(self.last_status or StatusParams(state="connected"),
                                         fast_mode=on))
        return {"fast_mode": on}

    async def _cmd_toggle_fast_mode(self, daemon: Daemon, *args: Any) -> dict[str, Any]:
        _no_arguments(args)
        client = await daemon()
        status = await client.status()
        return await self._set_fast_mode(daemon, not status.fast_mode)

    async def _cmd_warm(self, daemon: Daemon, *args: Any) -> dict[str, Any]:
        """The editor's cursor settled on a line (insert mode, cursor move): the daemon prefills
        the prompt there in the background. Arguments: the document URI and an LSP position."""
        if len(args) != 2:
            raise InputError(f"takes a document URI and a position ({len(args)} given)")
        uri, position = args
        if not isinstance(uri, str):
            raise InputError(f"the document URI must be a string, got {uri!r}")
        line = _index(position, "line")
        character = _index(position, "character")
        tail = self._sync_tail
        if tail is not None:
            await asyncio.wait([tail])  # the edits before it first
        path = to_fs_path(uri)
        text = self._docs.get(uri)
        if path is None or text is None or not uri.startswith("file:"):
            return {"warm": "not an open file document"}
        lines = split_lines(text)
        if line >= len(lines):
            return {"warm": "outside the document"}
        col = to_code_points(lines[line], character, self.encoding)
        client = await daemon()
        return {"warm": await client.warm(path, line, col)}

    def _notify(self, status: StatusParams) -> None:
        self.last_status = status
        self.protocol.notify(STATUS_NOTIFICATION, status.to_json())


def _index(position: Any, name: str) -> int:
    """``position[name]``, a line or character index, of a command argument (pygls passes
    JSON objects as dicts or namedtuples); InputError unless a number >= 0."""
    if isinstance(position, dict):
        value = position.get(name)
    elif isinstance(position, tuple) and hasattr(position, "_asdict"):
        value = getattr(position, name, None)
    else:
        raise InputError(f"the position must be an object {{line, character}}, got {position!r}")
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InputError(f"position.{name} must be an integer >= 0, got {value!r}")
    return value


def _on_off(value: Any) -> bool:
    """nospin.fastMode's argument: a JSON boolean or "true"/"false"/"on"/"off" (any case)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and (on := ON_OFF.get(value.strip().lower())) is not None:
        return on
    raise InputError(f'expected true or false ("on"/"off" also do), got {value!r}')


def _no_arguments(args: tuple[Any, ...]) -> None:
    if args:
        raise InputError(f"takes no arguments ({len(args)} given)")


def _plain(method: Callable[..., Any]) -> Callable[..., Any]:
    """A plain function calling ``method``: pygls tags handlers with attributes, which bound
    methods cannot carry; ``*args`` also takes every argument of a command."""
    if asyncio.iscoroutinefunction(method):
        async def call_async(*args: Any) -> Any:
            return await method(*args)
        return call_async

    def call(*args: Any) -> Any:
        return method(*args)
    return call


def _status_of(done: p.DoneReply, fast_mode: bool | None) -> StatusParams:
    return StatusParams(
        state="ready", latency_ms=round(done.timings.total_ms, 1),
        first_token_ms=round(done.timings.first_token_ms, 1), tier=done.tier,
        tier_name=TIER_NAMES.get(done.tier, "") if done.cache == "miss" else "cache",
        tier_reason=done.tier_reason, cache=done.cache, finish_reason=done.finish_reason,
        num_tokens=done.num_tokens, fast_mode=fast_mode)


def _tier_text(done: p.DoneReply) -> str:
    name = TIER_NAMES.get(done.tier, "") if done.cache == "miss" else "cache"
    return f"{name}, {done.timings.total_ms:.0f} ms"


class _OneLineRequestErrors(logging.Filter):
    """pygls logs every error answer with a traceback; the ones nospin sends on purpose (bad
    arguments, daemon errors: see ``_command``) get one line, as the client got them."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, JsonRpcException) and exc.code in (
                JsonRpcInvalidParams.CODE, t.LSPErrorCodes.RequestFailed):
            record.msg, record.args = f"{record.getMessage()}: {exc.message}", ()
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def serve(settings: LspSettings) -> None:
    """Serve LSP over this process's stdin/stdout until the client exits."""
    logging.getLogger("pygls.protocol.json_rpc").addFilter(_OneLineRequestErrors())
    NospinLanguageServer(settings).start_io()


__all__ = ["LspSettings", "NospinLanguageServer", "StatusParams", "serve"]
