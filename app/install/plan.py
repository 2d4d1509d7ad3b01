"""The install plan: what ``nospin install`` writes and runs, computed from data alone.

``make_plan(host, options)`` is pure: it takes the machine's paths (``Host``, gathered once by
``app.install.host.detect_host``) and the user's choices (``InstallOptions``) and returns an
``InstallPlan``: the virtual environment to create, the pip requirement, the model step, the
config changes, every service file with its full text, and the commands that register, start
and stop the services. ``app.install.apply`` executes it; ``--dry-run`` prints it. Tests render
the macOS and Windows plans on Linux by building a ``Host`` by hand.

What each platform gets::

    linux    systemd user unit nospin.service (+ the default.target.wants link `enable` makes),
             XDG autostart entry and applications-menu launcher for the tray
    macos    launchd agents dev.nospin.daemon and dev.nospin.tray (~/Library/LaunchAgents)
    windows  run-daemon.ps1, register.ps1, unregister.ps1 in the data dir; register.ps1 adds the
             logon task "nospin daemon" and the Start-up shortcut "nospin tray.lnk"
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, Literal

from app.install import templates as t

Platform = Literal["linux", "macos", "windows"]
Build = Literal["auto", "native", "prebuilt"]
Choose = Literal["auto", "force", "off"]


@dataclass(frozen=True, slots=True)
class Host:
    """The machine as the plan sees it: platform and resolved per-user directories."""

    platform: Platform
    data_dir: PurePath  # nospin's user data dir: the venv and the install manifest live here
    config_dir: PurePath  # app.paths.config_dir(): config.toml, snapshots, tcp token
    cache_dir: PurePath  # app.paths.cache_dir(): assembled models, KV state files
    state_dir: PurePath  # app.paths.state_dir(): request log, daemon.log
    runtime_dir: PurePath  # app.paths.runtime_dir(): socket and lock
    log_dir: PurePath  # where launchd agents write stdout/stderr (macOS)
    systemd_user_dir: PurePath  # linux: $XDG_CONFIG_HOME/systemd/user
    autostart_dir: PurePath  # linux: $XDG_CONFIG_HOME/autostart
    applications_dir: PurePath  # linux: $XDG_DATA_HOME/applications
    launch_agents_dir: PurePath  # macos: ~/Library/LaunchAgents
    startup_dir: PurePath  # windows: the user's Start-up folder
    uid: int = 0  # macos: launchctl's gui/<uid> domain
    base_python: str = "python3"  # interpreter that creates the venv
    sandboxed: bool = False  # NOSPIN_HOME is set: everything stays under it, nothing activates
    environment: tuple[tuple[str, str], ...] = ()  # variables the services must carry
    compiler: bool = False  # a C/C++ compiler and cmake are found: llama-cpp-python can build


@dataclass(frozen=True, slots=True, kw_only=True)
class InstallOptions:
    """What the user asked for (``nospin install`` flags)."""

    source: str  # checkout folder, wheel or sdist that nospin is installed from
    gpu: bool = False  # the `gpu` extra (ExLlamaV2 + torch) besides the CPU engine
    tray: bool = True  # the `tray` extra and its autostart entry / launcher / agent / shortcut
    model: str = ""  # a GGUF file or EXL2 folder for engine.model; "" keeps the embedded model
    system_site_packages: bool = False  # venv sees the system's packages (a system torch, say)
    activate: bool = True  # run systemctl/launchctl/PowerShell to register and start now
    # the CPU engine: "native" builds llama-cpp-python for this CPU (the `native` extra,
    # minutes), "prebuilt" installs wheels only (xllamacpp), "auto" native where Host.compiler
    build: Build = "auto"
    # the model by measurement (``nospin model choose --setup``): "auto" where it could change
    # the answer (app/model_choice.worth_measuring), "force" always, "off" never
    choose: Choose = "auto"


@dataclass(frozen=True, slots=True)
class FileSpec:
    """A file the install writes; the manifest records its hash, uninstall removes it."""

    path: PurePath
    content: str
    purpose: str  # shown by --dry-run and in the manifest
    mode: int = 0o644


@dataclass(frozen=True, slots=True)
class LinkSpec:
    """A symbolic link the install makes (systemd's ``enable``, done without systemctl)."""

    path: PurePath
    target: PurePath
    purpose: str


@dataclass(frozen=True, slots=True)
class Command:
    """A command run for the services. Failures are warnings: files are in place either way
    and the service starts at the next login."""

    argv: tuple[str, ...]
    purpose: str


@dataclass(frozen=True, slots=True)
class ModelStep:
    """How the model gets in place: the embedded one assembled and hash-checked, or a file."""

    kind: Literal["embedded", "file", "folder"]
    path: PurePath  # embedded: its place in the cache dir; else the user's file or folder
    sha256: str = ""  # embedded: the expected hash; "" for a user's model (nothing to compare)


@dataclass(frozen=True, slots=True)
class InstallPlan:
    """Everything one ``nospin install`` does, in order (see the module docstring)."""

    platform: Platform
    options: InstallOptions
    venv: PurePath
    python: PurePath  # the venv's interpreter
    nospin: PurePath  # the venv's console script
    create_venv: tuple[str, ...]  # argv that creates the venv (skipped when it exists)
    extras: tuple[str, ...]  # pip extras installed with nospin
    native: bool  # llama-cpp-python is built (the `native` extra); else wheels only
    model: ModelStep
    config_path: PurePath
    config_changes: dict[str, Any]  # dotted keys set in the config (new or existing)
    choose: tuple[str, ...]  # argv of the venv's `model choose --setup` (() none: --model, off)
    files: tuple[FileSpec, ...]
    links: tuple[LinkSpec, ...]
    activate: tuple[Command, ...]  # after the files are written
    deactivate: tuple[Command, ...]  # at uninstall, before anything is removed
    after_remove: tuple[Command, ...]  # at uninstall, after the files are gone
    external: tuple[PurePath, ...]  # files the activate commands create (Windows shortcut)
    create_dirs: tuple[PurePath, ...]  # made (and recorded) first: services write into them
    owned_dirs: tuple[PurePath, ...]  # nospin's own folders, emptied at uninstall
    keep: tuple[PurePath, ...]  # user data in them, kept by uninstall unless --purge
    manifest_path: PurePath
    notes: tuple[str, ...] = field(default=())  # said to the user (e.g. why nothing activates)

    def pip_install_argv(self, source: str, constraints: str | None = None) -> tuple[str, ...]:
        """pip's command line installing nospin from ``source`` with the plan's extras, held to
        the versions in ``constraints`` (a checkout's ``installers/constraints.txt``) if given;
        without the native build, wheels only (pip fails rather than compile anything)."""
        requirement = f"{source}[{','.join(self.extras)}]" if self.extras else source
        pinned = ("-c", constraints) if constraints else ()
        wheels = () if self.native else ("--only-binary", ":all:")
        return (str(self.python), "-m", "pip", "install", "--disable-pip-version-check",
                "--upgrade", *wheels, *pinned, requirement)


MANIFEST_NAME = "install-manifest.json"
EMBEDDED_MODEL_DIR = "models"


def venv_paths(platform: Platform, venv: PurePath) -> tuple[PurePath, PurePath, PurePath]:
    """(python, pythonw, nospin console script) inside ``venv``."""
    if platform == "windows":
        scripts = venv / "Scripts"
        return scripts / "python.exe", scripts / "pythonw.exe", scripts / "nospin.exe"
    return venv / "bin" / "python", venv / "bin" / "python", venv / "bin" / "nospin"


def make_plan(host: Host, options: InstallOptions, *, embedded_file: str,
              embedded_sha256: str, model_is_dir: bool = False) -> InstallPlan:
    """The plan for ``host`` and ``options``.

    ``embedded_file`` and ``embedded_sha256`` name the embedded model (``engine.models``);
    ``model_is_dir`` says whether ``options.model`` is a folder (an EXL2 model), which the
    caller found out.
    """
    venv = host.data_dir / "venv"
    python, pythonw, nospin = venv_paths(host.platform, venv)
    create_venv = [host.base_python, "-m", "venv"]
    if options.system_site_packages:
        create_venv.append("--system-site-packages")
    create_venv.append(str(venv))
    native = options.build == "native" or (options.build == "auto" and host.compiler)
    extras = tuple(e for e, on in (("native", native), ("gpu", options.gpu),
                                   ("tray", options.tray)) if on)

    changes: dict[str, Any] = {}
    if options.model:
        kind: Literal["file", "folder"] = "folder" if model_is_dir else "file"
        model = ModelStep(kind=kind, path=PurePath(options.model))
        changes["engine.model"] = options.model
        changes["engine.kind"] = "exllamav2" if model_is_dir else "auto"
    else:
        model = ModelStep(kind="embedded", sha256=embedded_sha256,
                          path=host.cache_dir / EMBEDDED_MODEL_DIR / embedded_file)

    choose: tuple[str, ...] = ()
    if not options.model and options.choose != "off":
        choose = (str(python), "-I", "-m", "app.cli", "model", "choose", "--setup", "--apply",
                  *(("--force",) if options.choose == "force" else ()))

    env = dict(host.environment)
    daemon_argv = (str(nospin), "daemon")
    tray_argv = (str(nospin), "tray")
    notes: list[str] = []
    if options.build == "auto" and not native:
        notes.append("no C/C++ compiler and cmake found: wheels only, the CPU engine is "
                     "xllamacpp (--native builds llama-cpp-python)")
    builders: dict[Platform, Callable[..., _Parts]] = {
        "linux": _linux, "macos": _macos, "windows": _windows}
    builder = builders[host.platform]
    files, links, activate, deactivate, after_remove, external = builder(
        host, options, env=env, daemon_argv=daemon_argv, tray_argv=tray_argv, python=python,
        pythonw=pythonw, venv=venv)
    if host.sandboxed or not options.activate:
        why = ("NOSPIN_HOME is set: service files stay under it" if host.sandboxed
               else "--no-activate")
        notes.append(f"services are written but not registered or started ({why})")
        activate, deactivate, after_remove = (), (), ()

    create = [host.data_dir, host.cache_dir, host.state_dir]
    if host.platform == "macos":
        create.append(host.log_dir)
    owned = [*create, host.runtime_dir, host.config_dir]
    keep = (host.config_dir / "config.toml", host.config_dir / "snapshots",
            host.config_dir / "daemon.token")
    return InstallPlan(
        platform=host.platform, options=options, venv=venv, python=python, nospin=nospin,
        create_venv=tuple(create_venv), extras=extras, native=native, model=model,
        config_path=host.config_dir / "config.toml", config_changes=changes, choose=choose,
        files=files, links=links, activate=activate, deactivate=deactivate,
        after_remove=after_remove, external=external, create_dirs=_dedupe(create),
        owned_dirs=_dedupe(owned), keep=keep,
        manifest_path=host.data_dir / MANIFEST_NAME, notes=tuple(notes),
    )


_Parts = tuple[tuple[FileSpec, ...], tuple[LinkSpec, ...], tuple[Command, ...],
               tuple[Command, ...], tuple[Command, ...], tuple[PurePath, ...]]


def _linux(host: Host, options: InstallOptions, *, env: dict[str, str],
           daemon_argv: tuple[str, ...], tray_argv: tuple[str, ...], **_: Any) -> _Parts:
    unit = host.systemd_user_dir / t.SYSTEMD_UNIT
    unit_env = {"PYTHONUNBUFFERED": "1", **env}
    files = [FileSpec(unit, t.systemd_unit(argv=daemon_argv, environment=unit_env),
                      "systemd user unit of the daemon")]
    links = (LinkSpec(host.systemd_user_dir / "default.target.wants" / t.SYSTEMD_UNIT, unit,
                      "enables the unit at login (what `systemctl --user enable` makes)"),)
    if options.tray:
        files += [
            FileSpec(host.autostart_dir / t.TRAY_DESKTOP_ID,
                     t.desktop_entry(argv=tray_argv, autostart=True),
                     "XDG autostart entry of the tray"),
            FileSpec(host.applications_dir / t.TRAY_DESKTOP_ID,
                     t.desktop_entry(argv=tray_argv, autostart=False),
                     "applications-menu launcher of the tray"),
        ]
    systemctl = ("systemctl", "--user")
    activate = (Command((*systemctl, "daemon-reload"), "let systemd read the unit"),
                Command((*systemctl, "restart", t.SYSTEMD_UNIT),
                        "start the daemon now (restart: an upgrade runs the new code)"))
    deactivate = (Command((*systemctl, "stop", t.SYSTEMD_UNIT), "stop the daemon"),)
    after_remove = (Command((*systemctl, "daemon-reload"), "let systemd forget the unit"),)
    return tuple(files), links, activate, deactivate, after_remove, ()


def _macos(host: Host, options: InstallOptions, *, env: dict[str, str],
           daemon_argv: tuple[str, ...], tray_argv: tuple[str, ...], **_: Any) -> _Parts:
    domain = f"gui/{host.uid}"
    agent_env = {"PYTHONUNBUFFERED": "1", **env}
    agents = [(t.LAUNCHD_DAEMON_LABEL, daemon_argv, "daemon", True, False)]
    if options.tray:
        agents.append((t.LAUNCHD_TRAY_LABEL, tray_argv, "tray", False, True))
    files: list[FileSpec] = []
    activate: list[Command] = []
    deactivate: list[Command] = []
    for label, argv, name, keep_alive, gui_only in agents:
        plist = host.launch_agents_dir / f"{label}.plist"
        files.append(FileSpec(plist, t.launchd_plist(
            label=label, argv=argv, environment=agent_env,
            log_path=str(host.log_dir / f"{name}.log"), keep_alive=keep_alive,
            gui_only=gui_only), f"launchd agent of the {name}"))
        activate += [Command(("launchctl", "bootout", f"{domain}/{label}"),
                             f"unload an older {name} agent (fails when none: fine)"),
                     Command(("launchctl", "bootstrap", domain, str(plist)),
                             f"load and start the {name} agent")]
        deactivate.append(Command(("launchctl", "bootout", f"{domain}/{label}"),
                                  f"stop and unload the {name} agent"))
    return tuple(files), (), tuple(activate), tuple(deactivate), (), ()


def _windows(host: Host, options: InstallOptions, *, env: dict[str, str],
             python: PurePath, pythonw: PurePath, venv: PurePath, **_: Any) -> _Parts:
    run_script = host.data_dir / "run-daemon.ps1"
    register = host.data_dir / "register.ps1"
    unregister = host.data_dir / "unregister.ps1"
    shortcut = host.startup_dir / t.WINDOWS_SHORTCUT if options.tray else None
    shortcut_s = str(shortcut) if shortcut is not None else None
    files = (
        FileSpec(run_script, t.windows_run_daemon(
            python=str(python), log_path=str(host.state_dir / "daemon.log"), environment=env),
            "the logon task's script: runs the daemon, output to daemon.log"),
        FileSpec(register, t.windows_register(
            run_script=str(run_script), pythonw=str(pythonw), venv=str(venv),
            shortcut=shortcut_s), "registers the logon task and the tray's Start-up shortcut"),
        FileSpec(unregister, t.windows_unregister(shortcut=shortcut_s),
                 "removes the logon task and the shortcut"),
    )
    ps = ("powershell.exe", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass",
          "-File")
    activate = (Command((*ps, str(register), "-Start"), "register and start the logon task"),)
    deactivate = (Command((*ps, str(unregister)), "stop and remove the logon task"),)
    external = (shortcut,) if shortcut is not None else ()
    return files, (), activate, deactivate, (), external


def _dedupe(paths: list[PurePath]) -> tuple[PurePath, ...]:
    seen: dict[PurePath, None] = {}
    for p in paths:
        seen.setdefault(p, None)
    return tuple(seen)


def describe(plan: InstallPlan, *, show_files: bool = True) -> str:
    """Human-readable plan (``nospin install --dry-run``)."""
    o = plan.options
    lines = [f"nospin install plan ({plan.platform})",
             f"  venv     {plan.venv}  (created with: {' '.join(plan.create_venv)})",
             f"  pip      {' '.join(plan.pip_install_argv(o.source))}"
             "  (a checkout with installers/constraints.txt: with -c it)",
             "  engine   " + ("llamacpp: llama-cpp-python built for this CPU (minutes)"
                              if plan.native else "xllamacpp: prebuilt wheels, nothing compiled")]
    m = plan.model
    if m.kind == "embedded":
        lines.append(f"  model    embedded model assembled and checked at {m.path} "
                     f"(sha256 {m.sha256[:12]}...)")
    else:
        lines.append(f"  model    {m.kind} {m.path}")
    change = ", ".join(f"{k} = {v!r}" for k, v in plan.config_changes.items())
    lines.append(f"  config   {plan.config_path}: defaults unless it exists"
                 + (f"; set {change}" if change else ""))
    if plan.choose:
        lines.append(f"  choose   {' '.join(plan.choose)}  (the 1.5B installed and measured "
                     "where a GPU or enough cores could run it within the typing targets)")
    for f in plan.files:
        lines.append(f"  file     {f.path}  ({f.purpose})")
    for link in plan.links:
        lines.append(f"  link     {link.path} -> {link.target}  ({link.purpose})")
    for c in plan.activate:
        lines.append(f"  run      {' '.join(c.argv)}  ({c.purpose})")
    for note in plan.notes:
        lines.append(f"  note     {note}")
    if show_files:
        for f in plan.files:
            lines += ["", f"--- {f.path}", f.content.rstrip("\n")]
    return "\n".join(lines)
