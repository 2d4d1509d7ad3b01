"""The language server (``nospin lsp``): editors speak LSP over stdio, it speaks to the daemon.

``server.py`` holds the pygls server, ``text.py`` the pure position and edit conversions.
See docs/editors.md for editor setup and the ``nospin/status`` notification.
"""

from app.lsp.server import LspSettings, NospinLanguageServer, StatusParams, serve

__all__ = ["LspSettings", "NospinLanguageServer", "StatusParams", "serve"]
