"""Gather the machine's per-user directories once, for the pure plan (``plan.Host``).

Locations come from platformdirs (the same ones ``app.paths`` uses) and the XDG variables. With
``NOSPIN_HOME`` set (tests), every location, service folders included, lies under it and the
plan registers and starts nothing, so a test can never touch the real session.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import platformdirs

from app import paths
from app.install.plan import Host, InstallOptions, InstallPlan, Platform, make_plan

_APP = "nospin"


def current_platform() -> Platform:
    if sys.platform == "darwin":
        return "macos"
    if sys.platform == "win32":
        return "windows"
    return "linux"


def data_dir() -> Path:
    """nospin's user data directory (the dedicated venv and the install manifest)."""
    home = os.environ.get("NOSPIN_HOME")
    return Path(home) / "data" if home else Path(platformdirs.user_data_dir(_APP))


def base_python() -> str:
    """The interpreter to create venvs with: the base of the running one (not a venv's copy)."""
    base = getattr(sys, "_base_executable", "") or sys.executable
    return str(base)


def compiler_found(platform: Platform) -> bool:
    """Whether llama-cpp-python can build here: a C and a C++ compiler and cmake on PATH
    (MSVC's cl on Windows; $CC and $CXX where set), as installers/install.sh checks."""
    if platform == "windows":
        tools = ["cl", "cmake"]
    else:
        tools = [os.environ.get("CC") or "cc", os.environ.get("CXX") or "c++", "cmake"]
    return all(shutil.which(tool) for tool in tools)


def detect_host(platform: Platform | None = None) -> Host:
    """The ``Host`` of this machine and user (reads the environment and platformdirs)."""
    platform = platform or current_platform()
    nospin_home = os.environ.get("NOSPIN_HOME")
    home = Path.home()
    if nospin_home:
        root = Path(nospin_home)
        services = root / "services"
        return Host(
            platform=platform, data_dir=data_dir(), config_dir=paths.config_dir(),
            cache_dir=paths.cache_dir(), state_dir=paths.state_dir(),
            runtime_dir=paths.runtime_dir(), log_dir=root / "log",
            systemd_user_dir=services / "systemd" / "user", autostart_dir=services / "autostart",
            applications_dir=services / "applications",
            launch_agents_dir=services / "LaunchAgents", startup_dir=services / "Startup",
            uid=_uid(), base_python=base_python(), sandboxed=True,
            environment=(("NOSPIN_HOME", str(root)),), compiler=compiler_found(platform),
        )
    config_home = Path(os.environ.get("XDG_CONFIG_HOME") or home / ".config")
    data_home = Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share")
    appdata = Path(os.environ.get("APPDATA") or home / "AppData" / "Roaming")
    return Host(
        platform=platform, data_dir=data_dir(), config_dir=paths.config_dir(),
        cache_dir=paths.cache_dir(), state_dir=paths.state_dir(),
        runtime_dir=paths.runtime_dir(), log_dir=Path(platformdirs.user_log_dir(_APP)),
        systemd_user_dir=config_home / "systemd" / "user",
        autostart_dir=config_home / "autostart",
        applications_dir=data_home / "applications",
        launch_agents_dir=home / "Library" / "LaunchAgents",
        startup_dir=appdata / "Microsoft" / "Windows" / "Start Menu" / "Programs" / "Startup",
        uid=_uid(), base_python=base_python(), compiler=compiler_found(platform),
    )


def _uid() -> int:
    getuid = getattr(os, "getuid", None)
    return int(getuid()) if getuid is not None else 0


def checkout_root() -> Path | None:
    """The nospin checkout this code runs from (editable install), or None (a wheel install)."""
    root = Path(__file__).resolve().parents[2]
    pyproject = root / "pyproject.toml"
    try:
        text = pyproject.read_text(encoding="utf-8")
    except OSError:
        return None
    return root if 'name = "nospin"' in text else None


def plan_here(options: InstallOptions, host: Host | None = None) -> InstallPlan:
    """The plan for this machine (``detect_host``) and ``options``."""
    from engine.models import EMBEDDED_MODEL

    model_is_dir = bool(options.model) and Path(options.model).expanduser().is_dir()
    return make_plan(host or detect_host(), options, embedded_file=EMBEDDED_MODEL.filename,
                     embedded_sha256=EMBEDDED_MODEL.sha256, model_is_dir=model_is_dir)
