"""The Settings dialog: engine and models, context budget and shares, tiers and timing.

Values come from the daemon's configuration (``config.get``), changes are checked with
``app.config.with_changes`` before anything is sent (the same validation the daemon runs), then
sent as one ``config.set``: all applied or none. The daemon's answer is shown under the form,
applied (with the snapshot it took) or refused (with its reason).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app import config as cfg
from app.errors import ConfigError
from ui.bridge import DaemonBridge

__all__ = ["ENGINE_KINDS", "SHARES", "SettingsDialog"]

ENGINE_KINDS = (
    ("auto", "Automatic (the CPU engine installed)"),
    ("llamacpp", "llama.cpp (CPU, built here)"),
    ("xllamacpp", "llama.cpp server (CPU, prebuilt)"),
    ("exllamav2", "ExLlamaV2 (GPU)"),
    ("remote", "Remote server (OpenAI-compatible)"),
)
SHARES = (  # context.shares.<key>, label, what it holds
    ("cursor", "Cursor window", "±50 lines around the cursor"),
    ("enclosing", "Enclosing function", "the function being edited"),
    ("related", "Related definitions", "signatures and types used here"),
    ("retrieval", "Project retrieval", "similar code in the project"),
    ("history", "Edit history", "summary of recent edits"),
    ("instructions", "Instructions", "format tokens (fixed)"),
)
# what engine.draft_model takes, per engine kind (the field's placeholder)
_DRAFT_HINTS = {
    "auto": "auto, none, a model, a GGUF file or prompt-lookup",
    "llamacpp": "auto, none, a model, a GGUF file or prompt-lookup",
    "xllamacpp": "auto, none, a model, a GGUF file or prompt-lookup",
    "exllamav2": "none (an EXL2 or HF folder)",
    "remote": "the server's own",
}
_OK = "#1a7f37"
_BAD = "#cf222e"


@dataclass(frozen=True, slots=True)
class _Number:
    key: str  # dotted config key
    widget: QSpinBox | QDoubleSpinBox
    scale: float = 1.0  # shown value = config value * scale


def _get(values: Mapping[str, Any], dotted: str) -> Any:
    node: Any = values
    for part in dotted.split("."):
        node = node[part]
    return node


def _spin(low: int, high: int, *, step: int = 1, suffix: str = "") -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setSingleStep(step)
    box.setSuffix(suffix)
    box.setAlignment(Qt.AlignmentFlag.AlignRight)
    box.setMinimumWidth(110)
    return box


def _dspin(low: float, high: float, *, step: float, decimals: int, suffix: str = ""
           ) -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(low, high)
    box.setSingleStep(step)
    box.setDecimals(decimals)
    box.setSuffix(suffix)
    box.setAlignment(Qt.AlignmentFlag.AlignRight)
    box.setMinimumWidth(110)
    return box


def _form() -> QFormLayout:
    form = QFormLayout()
    form.setLabelAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
    form.setHorizontalSpacing(14)
    form.setVerticalSpacing(9)
    return form


def _hint(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setStyleSheet("color: palette(placeholder-text);")
    return label


class SettingsDialog(QDialog):
    """Edit the daemon's settings; Apply sends the changed ones as one ``config.set``."""

    def __init__(self, bridge: DaemonBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bridge = bridge
        self.setWindowTitle("nospin Settings")
        self.setObjectName("settingsDialog")
        self._values: dict[str, Any] = {}
        self._numbers: list[_Number] = []
        self._pending = False

        self.tabs = QTabWidget()
        self.tabs.addTab(self._engine_tab(), "Engine")
        self.tabs.addTab(self._context_tab(), "Context")
        self.tabs.addTab(self._latency_tab(), "Latency")

        self.status = QLabel()
        self.status.setObjectName("settingsStatus")
        self.status.setWordWrap(True)
        self.status.setMinimumHeight(34)
        self.status.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        buttons = QDialogButtonBox()
        self.revert_button = buttons.addButton("Revert", QDialogButtonBox.ButtonRole.ResetRole)
        self.apply_button = buttons.addButton(QDialogButtonBox.StandardButton.Apply)
        self.close_button = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.apply_button.setDefault(True)
        self.apply_button.clicked.connect(self.apply)
        self.revert_button.clicked.connect(lambda: self.load(self._values))
        self.close_button.clicked.connect(self.close)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 12)
        layout.setSpacing(10)
        layout.addWidget(self.tabs)
        layout.addWidget(self.status)
        layout.addWidget(buttons)
        self.setMinimumWidth(560)

        bridge.configApplied.connect(self._on_applied)
        bridge.configRefused.connect(self._on_refused)
        if bridge.view.config:
            self.load(bridge.view.config)

    # ------------------------------------------------------------------ tabs
    def _engine_tab(self) -> QWidget:
        page = QWidget()
        form = _form()
        self.kind = QComboBox()
        for value, text in ENGINE_KINDS:
            self.kind.addItem(text, value)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        form.addRow("Engine:", self.kind)
        self.model = QLineEdit()
        self.model.setPlaceholderText("embedded Qwen2.5-Coder-0.5B")
        form.addRow("Main model:", self._with_browse(self.model, "main model"))
        self.draft = QLineEdit()
        self.draft.setPlaceholderText(_DRAFT_HINTS["auto"])
        self.draft.setToolTip("A smaller model of the same vocabulary drafts tokens the main "
                              "model checks; prompt-lookup (llama.cpp only) drafts from text "
                              "already in the prompt")
        form.addRow("Draft model:", self._with_browse(self.draft, "draft model"))
        self.remote_url = QLineEdit()
        self.remote_url.setPlaceholderText("http://127.0.0.1:8000")
        form.addRow("Server URL:", self.remote_url)

        spec = QGroupBox("Speculative decoding")
        spec_form = _form()
        self.draft_tokens = _spin(0, 16, suffix=" tokens")
        self.draft_tokens.setSpecialValueText("auto")  # 0: what suits the draft
        self._numbers.append(_Number("engine.num_draft_tokens", self.draft_tokens))
        spec_form.addRow("Draft tokens per step:", self.draft_tokens)
        self.min_acceptance = _dspin(0, 100, step=5, decimals=0, suffix=" %")
        self._numbers.append(_Number("engine.speculation_min_acceptance", self.min_acceptance,
                                     100.0))
        spec_form.addRow("Switch off below:", self.min_acceptance)
        spec_form.addRow("", _hint("Speculation turns itself off when fewer draft tokens than "
                                   "this are accepted: below about 40 % it only adds latency."))
        spec.setLayout(spec_form)

        layout = QVBoxLayout(page)
        layout.setContentsMargins(16, 16, 16, 12)
        layout.setSpacing(14)
        layout.addLayout(form)
        layout.addWidget(spec)
        layout.addWidget(_hint("Engine and model changes load the engine again when applied; "
                               "one that does not start changes nothing."))
        layout.addStretch(1)
        return page

    def _with_browse(self, edit: QLineEdit, what: str) -> QWidget:
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(6)
        row.addWidget(edit, 1)
        button = QPushButton("Browse…")
        button.setObjectName(f"browse {what}")
        button.clicked.connect(lambda: self._browse(edit, what))
        row.addWidget(button)
        return box

    def _browse(self, edit: QLineEdit, what: str) -> None:
        if self.kind.currentData() == "exllamav2":
            path = QFileDialog.getExistingDirectory(self, f"Choose the {what} folder",
                                                    edit.text())
        else:
            path, _ = QFileDialog.getOpenFileName(
                self, f"Choose the {what}", edit.text(), "GGUF models (*.gguf);;All files (*)")
        if path:
            edit.setText(path)

    def _kind_changed(self) -> None:
        kind = self.kind.currentData()
        self.remote_url.setEnabled(kind == "remote")
        self.draft.setEnabled(kind != "remote")  # a server drafts (or not) on its own
        self.draft.setPlaceholderText(_DRAFT_HINTS.get(kind, "none"))

    def _context_tab(self) -> QWidget:
        page = QWidget()
        form = _form()
        self.budget = _spin(64, 131_072, step=256, suffix=" tokens")
        self._numbers.append(_Number("context.budget_tokens", self.budget))
        form.addRow("Context budget:", self.budget)

        shares = QGroupBox("Shares of the budget")
        grid = _form()
        self.shares: dict[str, QDoubleSpinBox] = {}
        for key, label, hint in SHARES:
            box = _dspin(0, 100, step=5, decimals=1, suffix=" %")
            box.setToolTip(hint)
            box.valueChanged.connect(self._update_total)
            self.shares[key] = box
            self._numbers.append(_Number(f"context.shares.{key}", box, 100.0))
            row = QWidget()
            line = QHBoxLayout(row)
            line.setContentsMargins(0, 0, 0, 0)
            line.setSpacing(10)
            line.addWidget(box)
            line.addWidget(_hint(hint), 1)
            grid.addRow(f"{label}:", row)
        rule = QFrame()
        rule.setFrameShape(QFrame.Shape.HLine)
        rule.setFrameShadow(QFrame.Shadow.Sunken)
        grid.addRow(rule)
        self.total = QLabel()
        self.total.setObjectName("sharesTotal")
        grid.addRow("Total:", self.total)
        shares.setLayout(grid)

        layout = QVBoxLayout(page)
        layout.setContentsMargins(16, 16, 16, 12)
        layout.setSpacing(14)
        layout.addLayout(form)
        layout.addWidget(shares)
        layout.addStretch(1)
        return page

    def _latency_tab(self) -> QWidget:
        page = QWidget()
        tiers = QGroupBox("Degradation tiers (from the predicted latency)")
        form = _form()
        self.normal_ms = _spin(1, 60_000, step=50, suffix=" ms")
        self.cap_ms = _spin(1, 60_000, step=50, suffix=" ms")
        self.fast_ms = _spin(1, 60_000, step=50, suffix=" ms")
        self.cap_tokens = _spin(1, 2048, suffix=" tokens")
        self._numbers += [
            _Number("tiers.normal_ms", self.normal_ms),
            _Number("tiers.cap_ms", self.cap_ms),
            _Number("tiers.fast_ms", self.fast_ms),
            _Number("tiers.cap_tokens", self.cap_tokens),
        ]
        form.addRow("Normal up to:", self.normal_ms)
        form.addRow("Cap tokens past:", self.cap_ms)
        form.addRow("Fast mode past:", self.fast_ms)
        form.addRow("Tokens when capped:", self.cap_tokens)
        form.addRow("", _hint("Fast mode shrinks the context and turns speculation off."))
        tiers.setLayout(form)

        editor = QGroupBox("Editors")
        editor_form = _form()
        self.debounce = _spin(0, 2000, step=5, suffix=" ms")
        self._numbers.append(_Number("completion.debounce_ms", self.debounce))
        editor_form.addRow("Debounce:", self.debounce)
        editor_form.addRow("", _hint("How long editors wait after a keystroke before asking."))
        editor.setLayout(editor_form)

        layout = QVBoxLayout(page)
        layout.setContentsMargins(16, 16, 16, 12)
        layout.setSpacing(14)
        layout.addWidget(tiers)
        layout.addWidget(editor)
        layout.addStretch(1)
        return page

    # ------------------------------------------------------------------ values
    def load(self, values: Mapping[str, Any]) -> None:
        """Show ``values`` (the daemon's whole configuration)."""
        self._values = dict(values)
        engine = values["engine"]
        index = self.kind.findData(engine["kind"])
        self.kind.setCurrentIndex(max(0, index))
        self.model.setText(engine["model"])
        self.draft.setText(engine["draft_model"])
        self.remote_url.setText(engine["remote_url"])
        self._kind_changed()
        for number in self._numbers:
            number.widget.setValue(_get(values, number.key) * number.scale)
        self._update_total()

    def changes(self) -> dict[str, Any]:
        """The dotted keys whose shown value differs from the daemon's."""
        if not self._values:
            return {}
        shown: dict[str, Any] = {
            "engine.kind": self.kind.currentData(),
            "engine.model": self.model.text().strip(),
            "engine.draft_model": self.draft.text().strip(),
            "engine.remote_url": self.remote_url.text().strip(),
        }
        for number in self._numbers:
            value = number.widget.value() / number.scale
            old = _get(self._values, number.key)
            if isinstance(old, int) and not isinstance(old, bool):
                shown[number.key] = round(value)
            else:
                shown[number.key] = round(value, 6)
        return {k: v for k, v in shown.items() if not _same(v, _get(self._values, k))}

    def _share_total(self) -> float:
        return sum(box.value() for box in self.shares.values())

    def _update_total(self) -> None:
        total = self._share_total()
        if abs(total - 100.0) < 1e-6:
            self.total.setText(f"<b>{total:.0f} %</b> ✓")
            self.total.setStyleSheet(f"color: {_OK};")
        else:
            self.total.setText(f"<b>{total:.1f} %</b> — the shares must add up to 100 %")
            self.total.setStyleSheet(f"color: {_BAD};")

    def apply(self) -> None:
        """Validate the changes here, then send them; the outcome shows in the status line."""
        changes = self.changes()
        if not changes:
            self._show("Nothing changed.", None)
            return
        try:
            cfg.with_changes(cfg.from_dict(self._values), changes)
        except ConfigError as exc:
            self._show(f"Not sent: {exc.message}", _BAD)
            return
        self.send(changes)

    def send(self, changes: dict[str, Any]) -> None:
        """Send ``changes`` to the daemon as they are (``apply`` validates first)."""
        self._pending = True
        self._sent_keys = sorted(changes)
        self.apply_button.setEnabled(False)
        self._show("Applying…", None)
        self.bridge.apply_config(changes)

    def _on_applied(self, values: dict[str, Any], snapshot: str) -> None:
        if not self._pending:
            self.load(values)
            return
        self._pending = False
        self.apply_button.setEnabled(True)
        self.load(values)
        text = f"Applied {len(self._sent_keys)} change" + ("s" if len(self._sent_keys) > 1
                                                             else "")
        if snapshot:
            text += f" · snapshot {snapshot}"
        if any(key.startswith("engine.") and key != "engine.speculation"
               for key in self._sent_keys):
            text += " · engine reloaded"
        self._show(text, _OK)

    def _on_refused(self, reason: str) -> None:
        if not self._pending:
            return
        self._pending = False
        self.apply_button.setEnabled(True)
        self._show(f"Refused by the daemon: {reason}", _BAD)

    def _show(self, text: str, color: str | None) -> None:
        self.status.setText(text)
        self.status.setStyleSheet(f"color: {color};" if color else "")


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float | int) and isinstance(b, float | int) and not isinstance(a, bool):
        return abs(float(a) - float(b)) < 1e-9
    return bool(a == b)
