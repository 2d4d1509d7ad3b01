"""``nospin doctor``: check an install and say what to fix.

``run_checks(probe)`` runs every check in order and returns one ``CheckResult`` each; a check
never raises, and says why it was skipped. All I/O goes through ``Probe`` (paths, commands,
module lookups), so tests can point it at a temporary install and fake the rest.

Checks: install (manifest), venv, packages (``pip check``; a watchdog the project watcher knows),
config, model (file and sha256), cpu_engine (a few tokens
decoded in a child process: a llama.cpp build that crashes here), gpu (torch and CUDA,
imported lazily), flash_attn, daemon (socket answers), service (registered, running), tray.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Literal

from app import config as cfg
from app.errors import ConfigError, ModelError, NospinError
from app.install import templates as t
from app.install.apply import CommandResult, Runner, run_command
from app.install.manifest import Manifest, load_manifest
from app.install.plan import MANIFEST_NAME, Host, venv_paths

Status = Literal["ok", "warn", "fail", "skip"]
FLASH_ATTN_MIN = (2, 5, 7)  # paged ExLlamaV2 generator (design.md §6)
CHECKS = ("install", "venv", "packages", "config", "model", "cpu_engine", "gpu", "flash_attn",
          "daemon", "service", "tray")  # in the order they run; each is the function check_<name>


@dataclass(frozen=True, slots=True)
class CheckResult:
    """One check's verdict."""

    name: str  # short id: venv, model, gpu, ...
    status: Status  # ok | warn (works, worse) | fail (broken) | skip (not applicable, why)
    summary: str  # what was found
    fix: str = ""  # what to do about it (empty when nothing)


@dataclass
class Probe:
    """What the checks may look at; defaults are this machine."""

    host: Host
    runner: Runner = run_command
    find_spec: Callable[[str], object | None] = importlib.util.find_spec
    import_module: Callable[[str], ModuleType] = importlib.import_module
    version_of: Callable[[str], str] = importlib.metadata.version
    config_path: Path | None = None  # default: the host's config.toml
    verify_model: bool = True  # rehash the model fully (about a second per 500 MB)
    _manifest: list[Manifest | None] = field(default_factory=list)

    @property
    def manifest(self) -> Manifest | None:
        if not self._manifest:
            try:
                self._manifest.append(load_manifest(Path(self.host.data_dir) / MANIFEST_NAME))
            except ConfigError:
                self._manifest.append(None)
        return self._manifest[0]

    def run(self, *argv: str) -> CommandResult:
        return self.runner(argv, timeout_s=20)


def run_checks(probe: Probe) -> list[CheckResult]:
    """Every check, in order; an unexpected error becomes that check's ``fail``."""
    results: list[CheckResult] = []
    for name in CHECKS:
        check: Callable[[Probe], CheckResult] = globals()[f"check_{name}"]
        try:
            results.append(check(probe))
        except Exception as exc:  # a doctor reports, it does not crash
            results.append(CheckResult(name, "fail", f"the check itself failed: {exc!r}"))
    return results


def _reinstall(probe: Probe) -> str:
    return "run `nospin install` again (it repairs what differs and keeps your config)"


def check_install(probe: Probe) -> CheckResult:
    m = probe.manifest
    if m is None:
        return CheckResult("install", "warn", "nospin is not installed as a service here "
                           f"(no {Path(probe.host.data_dir) / MANIFEST_NAME})",
                           "run `nospin install` (or keep using it from this environment)")
    extras = [name for name in ("gpu", "tray") if m.options.get(name)]
    return CheckResult("install", "ok", f"nospin {m.nospin_version} installed for "
                       f"{m.platform}, extras: {', '.join(extras) or 'none'}")


def check_venv(probe: Probe) -> CheckResult:
    venv = Path(probe.host.data_dir) / "venv"
    if probe.manifest is None:
        return CheckResult("venv", "skip", f"no dedicated venv; running from {sys.prefix}")
    python = Path(venv_paths(probe.host.platform, venv)[0])
    if not python.exists():
        return CheckResult("venv", "fail", f"the virtual environment {venv} is missing",
                           _reinstall(probe))
    result = probe.run(str(python), "-I", "-m", "app.cli", "--version")
    if result.returncode != 0:
        return CheckResult("venv", "fail", f"nospin does not start from {venv}: "
                           f"{result.output.strip().splitlines()[-1:]}", _reinstall(probe))
    return CheckResult("venv", "ok", f"{venv} ({result.output.strip()})")


def check_packages(probe: Probe) -> CheckResult:
    """The packages of the environment this runs in (the one running ``nospin``): ``pip check``
    (every installed package's requirements met), and a watchdog whose internals the project
    watcher knows (``daemon/inotify_pruned.py``: with another, the daemon watches every folder,
    build output and dependencies included). Both were broken by hand upgrades, and a watchdog
    patch release changed those internals (7.1.1)."""
    from daemon.inotify_pruned import SUPPORTED_WATCHDOG

    fix_versions = ("run `nospin install` again (it installs the versions nospin was tested "
                    "with), or `pip install` the versions pip names into this environment")
    result = probe.run(sys.executable, "-m", "pip", "check")
    ran = result.returncode in (0, 1) and "No module named pip" not in result.output
    if ran and result.returncode == 1:  # broken requirements, a line each
        lines = [ln for ln in result.output.strip().splitlines() if ln.strip()] or ["pip check"]
        more = f" (and {len(lines) - 1} more)" if len(lines) > 1 else ""
        return CheckResult("packages", "fail", lines[0] + more, fix_versions)
    checked = "pip check: no broken requirements" if ran else "pip check could not run"
    try:
        watchdog = probe.version_of("watchdog")
    except importlib.metadata.PackageNotFoundError:
        return CheckResult("packages", "fail", f"{checked}; watchdog is not installed (the "
                           "daemon cannot follow changes on disk)", fix_versions)
    if watchdog not in SUPPORTED_WATCHDOG:
        want = SUPPORTED_WATCHDOG[-1]
        return CheckResult("packages", "warn", f"{checked}; watchdog {watchdog} is not one the "
                           f"project watcher knows ({', '.join(SUPPORTED_WATCHDOG)}): the daemon "
                           "watches every folder of a project, .venv, node_modules and build "
                           "output included (more CPU during builds and installs)",
                           f"pip install watchdog=={want} into this environment, or run "
                           "`nospin install` again")
    return CheckResult("packages", "ok", f"{checked}; watchdog {watchdog}")


def _load_config(probe: Probe) -> cfg.Config:
    return cfg.load(probe.config_path or Path(probe.host.config_dir) / "config.toml")


def check_config(probe: Probe) -> CheckResult:
    path = probe.config_path or Path(probe.host.config_dir) / "config.toml"
    try:
        config = _load_config(probe)
    except ConfigError as exc:
        return CheckResult("config", "fail", str(exc),
                           f"correct {path}, or move it away and run `nospin install` for "
                           "defaults")
    where = str(path) if path.exists() else f"{path} missing: defaults"
    return CheckResult("config", "ok", f"{where}; engine {_engine_named(probe, config.engine)}")


def _engine_kind(probe: Probe, e: cfg.EngineConfig) -> str:
    """The engine that runs for ``e`` here (``auto`` resolved: engine/factory.py)."""
    from engine.factory import engine_kind

    return engine_kind(e, probe.find_spec)


def _resolved(probe: Probe, e: cfg.EngineConfig) -> cfg.EngineConfig:
    """``e`` with ``auto`` resolved as the daemon here would (engine/factory.py resolved)."""
    from engine.factory import resolved

    return resolved(e, probe.find_spec)


def _engine_named(probe: Probe, e: cfg.EngineConfig) -> str:
    """``e.kind`` for people: "auto (xllamacpp)" names the engine ``auto`` runs here."""
    kind = _engine_kind(probe, e)
    return kind if kind == e.kind else f"{e.kind} ({kind})"


def check_model(probe: Probe) -> CheckResult:
    from engine.models import packaged_model, read_gguf_metadata, verify_model

    try:
        e = _load_config(probe).engine
    except ConfigError:
        return CheckResult("model", "skip", "the config does not load (see config)")
    if e.kind == "remote":
        return CheckResult("model", "skip", f"remote engine {e.remote_url}: no local model")
    model = packaged_model(e.model)  # "" or a name ("embedded", "qwen2.5-coder-1.5b")
    if model is None:
        path = Path(e.model).expanduser()
        if not path.exists():
            return CheckResult("model", "fail", f"engine.model {path} does not exist",
                               "fix engine.model in the config, or `nospin install --model "
                               "PATH`")
        kind = _engine_kind(probe, e)
        if kind in ("llamacpp", "xllamacpp"):  # loads a GGUF file only, whatever its name
            if not path.is_file():
                return CheckResult("model", "fail", f"engine.model {path} is a folder, not a "
                                   f"GGUF file (engine.kind {_engine_named(probe, e)})",
                                   "point engine.model at a GGUF file, or set engine.kind = "
                                   '"exllamav2" for an EXL2/HF folder (GPU)')
            try:
                meta = read_gguf_metadata(path)
            except ModelError as exc:
                return CheckResult("model", "fail", f"engine.model: {exc}",
                                   "point engine.model at a GGUF file")
            return CheckResult("model", "ok", f"{path} ({meta.get('general.name', 'GGUF')}; "
                               "no reference hash to compare)")
        # exllamav2: an EXL2/HF folder, checked when the engine loads it
        if path.is_file() and path.suffix == ".gguf":
            try:
                meta = read_gguf_metadata(path)
            except ModelError as exc:
                return CheckResult("model", "fail", str(exc), "point engine.model at a GGUF file")
            return CheckResult("model", "ok", f"{path} ({meta.get('general.name', 'GGUF')}; "
                               "no reference hash to compare)")
        return CheckResult("model", "ok", f"{path} (no reference hash to compare)")
    path = Path(probe.host.cache_dir) / "models" / model.filename
    if not path.is_file():
        named = f" --model {e.model}" if e.model else ""
        return CheckResult("model", "fail", f"{model.title} is not at {path}",
                           f"run `nospin install` or `nospin model path{named}` (assembles it)")
    if not probe.verify_model:
        return CheckResult("model", "ok", f"{path} (not rehashed)" + _cpu_weights(e, path))
    try:
        verify_model(path, model.sha256)
    except ModelError as exc:
        return CheckResult("model", "fail", str(exc),
                           f"delete {path}, then run `nospin install` (assembles it again)")
    return CheckResult("model", "ok", f"{path}, sha256 {model.sha256[:12]}... matches"
                       + _cpu_weights(e, path))


def _cpu_model(probe: Probe, e: cfg.EngineConfig) -> Path | None:
    """The GGUF file the CPU engine loads (its made Q8_0 weights for the embedded model);
    None when there is none yet (check_model says why)."""
    from engine.models import packaged_model
    from engine.requantize import applies, describe

    model = packaged_model(e.model)
    if model is None:
        path = Path(e.model).expanduser()
        return path if path.is_file() else None
    path = Path(probe.host.cache_dir) / "models" / model.filename
    if not path.is_file():
        return None
    info = describe(path) if applies(_resolved(probe, e)) else None
    return Path(str(info["path"])) if info and info["made"] else path


def check_cpu_engine(probe: Probe) -> CheckResult:
    """Decode a few tokens with llama.cpp in a child process: a build that crashes on this CPU
    (engine/cpu_build.py: AMX on a machine that lists it without enabling it) kills the
    child, not the doctor, and is named with its fix."""
    import signal

    from engine.cpu_build import AMX_OFF, built_with_amx
    from engine.factory import NATIVE_INSTALL, native_installed

    try:
        e = _load_config(probe).engine
    except ConfigError:
        return CheckResult("cpu_engine", "skip", "the config does not load (see config)")
    kind = _engine_kind(probe, e)
    if kind == "xllamacpp":
        return CheckResult("cpu_engine", "skip", f"engine.kind is {_engine_named(probe, e)}: "
                           "llama.cpp from xllamacpp's prebuilt wheel, no build of this "
                           "machine's to check")
    if kind != "llamacpp":
        return CheckResult("cpu_engine", "skip", f"engine.kind is {e.kind}, not llamacpp")
    if not native_installed(probe.find_spec):
        return CheckResult("cpu_engine", "fail", 'engine.kind is "llamacpp" and llama-cpp-python '
                           "is not installed", f'{NATIVE_INSTALL}, or set engine.kind = "auto"')
    path = _cpu_model(probe, e)
    if path is None:
        return CheckResult("cpu_engine", "skip", "no model file to load (see model)")
    venv = Path(probe.host.data_dir) / "venv"
    python = Path(venv_paths(probe.host.platform, venv)[0])
    exe = str(python) if probe.manifest is not None and python.exists() else sys.executable
    result = probe.runner([exe, "-m", "engine.cpu_build", str(path)], timeout_s=180)
    lines = result.output.strip().splitlines()
    if result.returncode == 0:
        return CheckResult("cpu_engine", "ok", f"{path.name}: {lines[-1] if lines else 'ok'}")
    if result.returncode < 0:
        try:
            how = f"crashed ({signal.Signals(-result.returncode).name})"
        except ValueError:
            how = f"was killed by signal {-result.returncode}"
    else:
        how = f"failed (exit status {result.returncode}: {lines[-1] if lines else ''})"
    summary = f"llama.cpp {how} decoding 4 tokens of {path.name}"
    flags = " ".join(AMX_OFF)
    rebuild = (f"CFLAGS='{flags}' CXXFLAGS='{flags}' pip install --force-reinstall "
               "--no-deps --no-cache-dir llama-cpp-python (in nospin's venv)")
    if built_with_amx(result.output):  # the engine works around it: a warning
        return CheckResult("cpu_engine", "warn", summary + "; it was built with AMX, which "
                           "this machine lists but may not enable (the engine loads the model "
                           "without llama.cpp's extra buffer types meanwhile)",
                           "rebuild it without AMX: `nospin install` again (it does), or "
                           + rebuild)
    return CheckResult("cpu_engine", "fail", summary, "reinstall llama-cpp-python: " + rebuild)


def _cpu_weights(e: cfg.EngineConfig, path: Path) -> str:
    """Which weights the CPU engine loads for the embedded model (engine/requantize.py)."""
    from engine.factory import resolved
    from engine.requantize import applies, describe

    info = describe(path) if applies(resolved(e)) else None
    if info is None:
        return ""
    made = "made" if info["made"] else "made at the daemon's first start (about 7 s)"
    return f"; the CPU engine loads it as {info['kind']} ({made}: {info['path']})"


def _gpu_wanted(probe: Probe) -> bool:
    m = probe.manifest
    try:
        kind = _load_config(probe).engine.kind
    except ConfigError:
        kind = ""
    return kind == "exllamav2" or bool(m and m.options.get("gpu"))


def check_gpu(probe: Probe) -> CheckResult:
    wanted = _gpu_wanted(probe)
    if probe.find_spec("torch") is None:
        if wanted:
            return CheckResult("gpu", "fail", "torch is not installed, the GPU engine needs it",
                               "run `nospin install --gpu`")
        return CheckResult("gpu", "skip", "torch is not installed (CPU-only install); for "
                           "the GPU engine: `nospin install --gpu`")
    try:
        torch: Any = probe.import_module("torch")
    except Exception as exc:  # a broken CUDA install raises anything
        return CheckResult("gpu", "fail", f"torch does not import: {exc}",
                           "reinstall torch for this CUDA driver (`nospin install --gpu`)")
    if not torch.cuda.is_available():
        status: Status = "fail" if wanted else "skip"
        return CheckResult("gpu", status, f"torch {torch.__version__} sees no CUDA device",
                           "install the NVIDIA driver and a CUDA build of torch, or set "
                           "engine.kind = \"auto\" (the CPU engine)" if wanted else "")
    names = [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]
    return CheckResult("gpu", "ok", f"torch {torch.__version__}, CUDA {torch.version.cuda}: "
                       + ", ".join(names))


def _version_tuple(version: str) -> tuple[int, ...]:
    parts: list[int] = []
    for piece in version.split("+")[0].split("."):
        digits = "".join(c for c in piece if c.isdigit())
        if not digits:
            break
        parts.append(int(digits))
    return tuple(parts)


def check_flash_attn(probe: Probe) -> CheckResult:
    wanted = _gpu_wanted(probe)
    if probe.find_spec("flash_attn") is None:
        if not wanted:
            return CheckResult("flash_attn", "skip", "not installed; only the GPU engine uses it")
        return CheckResult("flash_attn", "warn", "flash-attn is not installed: the ExLlamaV2 "
                           "generator runs unpaged (one request at a time)",
                           "pip install 'flash-attn>=2.5.7' into the nospin venv "
                           "(builds against its torch)")
    version = probe.version_of("flash-attn")
    need = ".".join(map(str, FLASH_ATTN_MIN))
    if _version_tuple(version) < FLASH_ATTN_MIN:
        return CheckResult("flash_attn", "warn", f"flash-attn {version} is older than {need}: "
                           "the generator runs unpaged", f"pip install 'flash-attn>={need}'")
    return CheckResult("flash_attn", "ok", f"flash-attn {version} (paged generator)")


def _start_hint(platform: str) -> str:
    return {"linux": f"systemctl --user start {t.SYSTEMD_UNIT}",
            "macos": f"launchctl kickstart gui/$(id -u)/{t.LAUNCHD_DAEMON_LABEL}",
            "windows": f"Start-ScheduledTask -TaskName '{t.WINDOWS_TASK_NAME}'"}.get(
                platform, "nospin daemon")


def check_daemon(probe: Probe) -> CheckResult:
    from app.client import Client
    from daemon import lifecycle

    info = lifecycle.read_daemon_info()
    if info is None:
        hint = _start_hint(probe.host.platform) if probe.manifest else "nospin daemon"
        return CheckResult("daemon", "warn", "no daemon is running (socket "
                           f"{lifecycle.socket_path()})",
                           f"start it: `{hint}` (editors also start one on demand)")
    try:
        with Client(autostart=False, idle_timeout_s=5.0, client_name="nospin-doctor") as client:
            status = client.status()
    except NospinError as exc:
        return CheckResult("daemon", "fail", f"pid {info.pid} holds the lock but does not "
                           f"answer: {exc}", f"restart it; its log: {info.log_path or 'journal'}")
    engine = status.engine
    summary = (f"pid {info.pid} answers at {', '.join(info.endpoints)}"
               f"; engine {engine.get('kind')} {engine.get('state')}")
    if status.last_crash:  # the daemon before this one died of a fatal signal
        import time

        from daemon.crashlog import describe

        return CheckResult("daemon", "warn", f"{summary}; the previous daemon crashed: "
                           f"{describe(status.last_crash, time.time())}",
                           "see the cpu_engine check above (a llama.cpp build that crashes "
                           "here), and the report it names")
    if status.root_problems:  # changes on disk not followed: an inotify limit
        root, problem = sorted(status.root_problems.items())[0]
        more = len(status.root_problems) - 1
        return CheckResult("daemon", "warn", f"{summary}; project {root}: {problem}"
                           + (f" (and {more} more project(s): `nospin status`)" if more else ""),
                           "raise the inotify limit it names, then `nospin restart`")
    return CheckResult("daemon", "ok", summary)


def check_service(probe: Probe) -> CheckResult:
    host = probe.host
    if probe.manifest is None:
        return CheckResult("service", "skip", "not installed as a service")
    if host.platform == "linux":
        unit = Path(host.systemd_user_dir) / t.SYSTEMD_UNIT
        link = Path(host.systemd_user_dir) / "default.target.wants" / t.SYSTEMD_UNIT
        if not unit.is_file():
            return CheckResult("service", "fail", f"{unit} is missing", _reinstall(probe))
        if not link.is_symlink():
            return CheckResult("service", "warn", f"{unit} is not enabled at login",
                               f"systemctl --user enable {t.SYSTEMD_UNIT}")
        if host.sandboxed:
            return CheckResult("service", "ok", f"{unit} written and enabled (NOSPIN_HOME: "
                               "not asked whether it runs)")
        r = probe.run("systemctl", "--user", "is-active", t.SYSTEMD_UNIT)
        state = r.output.strip().splitlines()[-1:] or [""]
        if r.returncode == 0:
            return CheckResult("service", "ok", f"{unit} enabled and {state[0]}")
        if r.returncode in (3, 4) or state[0] in ("inactive", "failed", "activating"):
            return CheckResult("service", "warn", f"{unit} enabled but {state[0] or 'stopped'}",
                               f"systemctl --user start {t.SYSTEMD_UNIT}; then "
                               f"journalctl --user -u nospin")
        return CheckResult("service", "skip", f"{unit} enabled; no systemd user session to ask "
                           f"whether it runs ({state[0]})")
    if host.platform == "macos":
        plist = Path(host.launch_agents_dir) / f"{t.LAUNCHD_DAEMON_LABEL}.plist"
        if not plist.is_file():
            return CheckResult("service", "fail", f"{plist} is missing", _reinstall(probe))
        r = probe.run("launchctl", "print", f"gui/{host.uid}/{t.LAUNCHD_DAEMON_LABEL}")
        if r.returncode != 0:
            return CheckResult("service", "warn", f"{plist} is not loaded",
                               f"launchctl bootstrap gui/$(id -u) '{plist}'")
        running = "state = running" in r.output
        shown = "running" if running else "not running"
        return CheckResult("service", "ok" if running else "warn",
                           f"{t.LAUNCHD_DAEMON_LABEL} loaded, {shown}",
                           "" if running else _start_hint("macos"))
    r = probe.run("schtasks", "/Query", "/TN", t.WINDOWS_TASK_NAME, "/FO", "LIST")
    if r.returncode != 0:
        return CheckResult("service", "fail", f"the logon task {t.WINDOWS_TASK_NAME!r} is not "
                           "registered", _reinstall(probe))
    running = "Running" in r.output
    return CheckResult("service", "ok" if running else "warn",
                       f"logon task {t.WINDOWS_TASK_NAME!r} registered, "
                       f"{'running' if running else 'not running'}",
                       "" if running else _start_hint("windows"))


def check_tray(probe: Probe) -> CheckResult:
    m = probe.manifest
    if m is None or not m.options.get("tray"):
        return CheckResult("tray", "skip", "installed without the tray" if m else
                           "not installed as a service")
    host = probe.host
    expected = {"linux": Path(host.autostart_dir) / t.TRAY_DESKTOP_ID,
                "macos": Path(host.launch_agents_dir) / f"{t.LAUNCHD_TRAY_LABEL}.plist",
                "windows": Path(host.startup_dir) / t.WINDOWS_SHORTCUT}[host.platform]
    if not expected.is_file():
        return CheckResult("tray", "fail", f"{expected} is missing", _reinstall(probe))
    if probe.find_spec("PySide6") is None and m.options.get("tray"):
        return CheckResult("tray", "warn", f"{expected} registered, but PySide6 is not "
                           "importable here", "run `nospin doctor` from the installed nospin, "
                           "or `nospin install` again")
    return CheckResult("tray", "ok", f"starts at login: {expected}")


def format_results(results: list[CheckResult]) -> str:
    """The text report: one line per check, a ``fix:`` line under each problem."""
    label = {"ok": "ok", "warn": "WARN", "fail": "FAIL", "skip": "skip"}
    lines = []
    for r in results:
        lines.append(f"  {label[r.status]:<5} {r.name:<11} {r.summary}")
        if r.fix and r.status != "ok":
            lines.append(f"  {'':<5} {'':<11} fix: {r.fix}")
    fails = sum(r.status == "fail" for r in results)
    warns = sum(r.status == "warn" for r in results)
    lines.append(f"{fails} problem(s), {warns} warning(s)")
    return "\n".join(lines)
