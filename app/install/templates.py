"""Text of the per-platform service files, rendered from plain values (no I/O).

Called by ``app.install.plan.make_plan``; each function returns the whole file as a string. The
quoting helpers follow each format's own rules, so paths with spaces, quotes, ``%`` or ``$``
survive: systemd (``systemd.syntax(7)``, ``systemd.service(5)``), the XDG Desktop Entry
specification (the ``Exec`` key), property lists (``plistlib``) and PowerShell single-quoted
strings.
"""

from __future__ import annotations

import plistlib
from collections.abc import Mapping, Sequence
from typing import Any

HEADER = "Written by `nospin install`; `nospin uninstall` removes it. Edits are lost on reinstall."

SYSTEMD_UNIT = "nospin.service"
TRAY_DESKTOP_ID = "nospin-tray.desktop"
LAUNCHD_DAEMON_LABEL = "dev.nospin.daemon"
LAUNCHD_TRAY_LABEL = "dev.nospin.tray"
WINDOWS_TASK_NAME = "nospin daemon"
WINDOWS_SHORTCUT = "nospin tray.lnk"


# --------------------------------------------------------------------------- systemd
def systemd_quote(arg: str, *, dollars: bool = True) -> str:
    """One ExecStart/Environment word: double-quoted with C escapes when needed; ``%`` doubled
    (no specifier expansion) and, where systemd expands variables (``dollars``: ExecStart's
    arguments, not its program nor Environment=), ``$`` doubled."""
    arg = arg.replace("%", "%%")
    if dollars:
        arg = arg.replace("$", "$$")
    if arg and not any(c in arg for c in " \t\n\"'\\;"):
        return arg
    escaped = arg.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace(
        "\t", "\\t")
    return f'"{escaped}"'


def systemd_unit(*, argv: Sequence[str], environment: Mapping[str, str]) -> str:
    """The user unit of the daemon: restarted on failure, stdout and stderr to the journal."""
    env_lines = [f"Environment={systemd_quote(f'{k}={v}', dollars=False)}"
                 for k, v in environment.items()]
    program, *args = argv
    return "\n".join([
        f"# {HEADER}",
        "[Unit]",
        "Description=nospin code-completion daemon",
        "",
        "[Service]",
        "Type=simple",
        "ExecStart=" + " ".join([systemd_quote(program, dollars=False),
                                 *(systemd_quote(a) for a in args)]),
        *env_lines,
        "Restart=on-failure",
        "RestartSec=5",
        "# logs: journalctl --user -u nospin",
        "StandardOutput=journal",
        "StandardError=journal",
        "",
        "[Install]",
        "WantedBy=default.target",
        "",
    ])


# --------------------------------------------------------------------------- XDG desktop entries
_DESKTOP_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")


def desktop_exec_quote(arg: str) -> str:
    """One ``Exec`` argument: quoted as the spec asks when it holds a reserved character, then
    escaped once more as a string value (backslashes doubled); ``%`` doubled (field codes)."""
    arg = arg.replace("%", "%%")
    if any(c in _DESKTOP_RESERVED for c in arg):
        inner = "".join("\\" + c if c in '"`$\\' else c for c in arg)
        arg = f'"{inner}"'
    return arg.replace("\\", "\\\\")


def desktop_entry(*, argv: Sequence[str], autostart: bool) -> str:
    """The tray's desktop entry: a launcher (applications menu) or an XDG autostart entry."""
    lines = [
        f"# {HEADER}",
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.4",
        "Name=nospin",
        "GenericName=Code completion",
        "Comment=Local AI code completion: latency, fast mode and settings in the tray",
        "Exec=" + " ".join(desktop_exec_quote(a) for a in argv),
        "Terminal=false",
        "Categories=Development;",
        "Keywords=completion;AI;code;",
        "StartupNotify=false",
    ]
    if autostart:
        lines += ["X-GNOME-Autostart-enabled=true", "X-GNOME-Autostart-Delay=5"]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- launchd
def launchd_plist(*, label: str, argv: Sequence[str], environment: Mapping[str, str],
                  log_path: str, keep_alive: bool, gui_only: bool) -> str:
    """A launchd user agent (``~/Library/LaunchAgents``): starts at login (``RunAtLoad``);
    ``keep_alive`` restarts it when it exits with an error; ``gui_only`` limits it to the
    graphical (Aqua) session."""
    data: dict[str, Any] = {
        "Label": label,
        "ProgramArguments": list(argv),
        "RunAtLoad": True,
        "ProcessType": "Interactive",
        "StandardOutPath": log_path,
        "StandardErrorPath": log_path,
        "EnvironmentVariables": dict(environment),
    }
    if keep_alive:
        data["KeepAlive"] = {"SuccessfulExit": False}
        data["ThrottleInterval"] = 5
    if gui_only:
        data["LimitLoadToSessionType"] = "Aqua"
    return plistlib.dumps(data, sort_keys=True).decode("utf-8")


# --------------------------------------------------------------------------- Windows PowerShell
def ps_quote(value: str) -> str:
    """A PowerShell single-quoted string literal (no expansion; ``'`` doubled)."""
    return "'" + value.replace("'", "''") + "'"


def windows_run_daemon(*, python: str, log_path: str, environment: Mapping[str, str]) -> str:
    """The logon task's script: runs the daemon with its output appended to the log file."""
    env_lines = [f"$env:{k} = {ps_quote(v)}" for k, v in environment.items()]
    return "\n".join([
        f"# {HEADER}",
        "# Run by the logon task: the nospin daemon, output appended to its log.",
        "$ErrorActionPreference = 'Continue'",
        *env_lines,
        f"$Log = {ps_quote(log_path)}",
        "New-Item -ItemType Directory -Force -Path (Split-Path -Parent $Log) | Out-Null",
        f"& {ps_quote(python)} -I -m app.cli daemon --log-file $Log *>> $Log",
        "exit $LASTEXITCODE",
        "",
    ])


def windows_register(*, run_script: str, pythonw: str, venv: str, shortcut: str | None) -> str:
    """Registers the daemon's logon task (restarted on failure, no time limit) and, when
    ``shortcut`` is set, the tray's Start-up shortcut. ``-Start`` starts the task now."""
    lines = [
        f"# {HEADER}",
        "param([switch]$Start)",
        "$ErrorActionPreference = 'Stop'",
        f"$TaskName = {ps_quote(WINDOWS_TASK_NAME)}",
        f"$RunScript = {ps_quote(run_script)}",
        "$User = \"$env:USERDOMAIN\\$env:USERNAME\"",
        "$Action = New-ScheduledTaskAction -Execute 'powershell.exe' -Argument "
        "(\"-NoProfile -NonInteractive -WindowStyle Hidden -ExecutionPolicy Bypass "
        "-File `\"{0}`\"\" -f $RunScript)",
        "$Trigger = New-ScheduledTaskTrigger -AtLogOn -User $User",
        "$Principal = New-ScheduledTaskPrincipal -UserId $User -LogonType Interactive "
        "-RunLevel Limited",
        "$Settings = New-ScheduledTaskSettingsSet -RestartCount 3 "
        "-RestartInterval (New-TimeSpan -Minutes 1) -ExecutionTimeLimit ([TimeSpan]::Zero) "
        "-MultipleInstances IgnoreNew -AllowStartIfOnBatteries -DontStopIfGoingOnBatteries",
        "Register-ScheduledTask -TaskName $TaskName -Action $Action -Trigger $Trigger "
        "-Principal $Principal -Settings $Settings -Force | Out-Null",
    ]
    if shortcut is not None:
        lines += [
            f"$Shortcut = {ps_quote(shortcut)}",
            "New-Item -ItemType Directory -Force -Path (Split-Path -Parent $Shortcut) | Out-Null",
            "$Shell = New-Object -ComObject WScript.Shell",
            "$Link = $Shell.CreateShortcut($Shortcut)",
            f"$Link.TargetPath = {ps_quote(pythonw)}",
            "$Link.Arguments = '-I -m app.cli tray'",
            f"$Link.WorkingDirectory = {ps_quote(venv)}",
            "$Link.Description = 'nospin tray: latency, fast mode and settings'",
            "$Link.Save()",
        ]
    lines += [
        "if ($Start) {",
        "    Start-ScheduledTask -TaskName $TaskName",
        "}",
        "",
    ]
    return "\n".join(lines)


def windows_unregister(*, shortcut: str | None) -> str:
    """Stops and removes the logon task and the Start-up shortcut; missing ones are fine."""
    lines = [
        f"# {HEADER}",
        "$ErrorActionPreference = 'Stop'",
        f"$TaskName = {ps_quote(WINDOWS_TASK_NAME)}",
        "$Task = Get-ScheduledTask -TaskName $TaskName -ErrorAction SilentlyContinue",
        "if ($null -ne $Task) {",
        "    Stop-ScheduledTask -TaskName $TaskName -ErrorAction SilentlyContinue",
        "    Unregister-ScheduledTask -TaskName $TaskName -Confirm:$false",
        "}",
    ]
    if shortcut is not None:
        lines += [
            f"$Shortcut = {ps_quote(shortcut)}",
            "if (Test-Path -LiteralPath $Shortcut) {",
            "    Remove-Item -LiteralPath $Shortcut -Force",
            "}",
        ]
    return "\n".join(lines) + "\n"
