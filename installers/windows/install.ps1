<#
.SYNOPSIS
    Install nospin for the current Windows user: its own virtual environment, the embedded
    model, a default config, a logon task for the daemon and a Start-up shortcut for the tray.

.DESCRIPTION
    Creates a throw-away bootstrap environment, installs nospin into it from -Source (this
    checkout by default, or a wheel/sdist), runs `nospin install` there (which creates the
    dedicated venv in the user data folder and registers the services), then deletes the
    bootstrap environment. Run it again to upgrade in place; `nospin uninstall` removes it all.

    The CPU engine: where MSVC's cl and cmake are found (a Developer PowerShell), pip builds
    llama-cpp-python for this CPU (engine.kind "llamacpp", minutes); elsewhere it installs
    wheels only and the engine is xllamacpp. -Prebuilt forces the wheels-only set-up, -Native
    the build.

    Last, `nospin install` picks the model by measurement where a CUDA GPU or enough cores
    could run the 1.5B within the typing targets (`nospin model choose --setup`): -Choose
    measures whatever the machine, -NoChoose keeps the 0.5B without measuring.

.EXAMPLE
    powershell -ExecutionPolicy Bypass -File installers\windows\install.ps1
    powershell -ExecutionPolicy Bypass -File installers\windows\install.ps1 -Gpu -DryRun

.EXAMPLE
    powershell -ExecutionPolicy Bypass -File installers\windows\install.ps1 -Prebuilt
#>
[CmdletBinding()]
param(
    [string]$Source = (Split-Path -Parent (Split-Path -Parent $PSScriptRoot)),
    [switch]$Gpu,
    [string]$Model = '',
    [switch]$NoTray,
    [switch]$DryRun,
    [switch]$Prebuilt,
    [switch]$Native,
    [switch]$Choose,
    [switch]$NoChoose,
    [string]$Python = ''
)
$ErrorActionPreference = 'Stop'
if ($Prebuilt -and $Native) {
    throw '-Prebuilt and -Native exclude each other: give one of them, or neither.'
}
if ($Choose -and $NoChoose) {
    throw '-Choose and -NoChoose exclude each other: give one of them, or neither.'
}

if ($Python -eq '') {
    if (Get-Command py -ErrorAction SilentlyContinue) {
        $Python = (& py -3 -c 'import sys; print(sys.executable)').Trim()
    } elseif (Get-Command python -ErrorAction SilentlyContinue) {
        $Python = (Get-Command python).Source
    } else {
        throw 'Python 3.11 or newer is needed: install it from python.org, then run this again.'
    }
}
& $Python -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'
if ($LASTEXITCODE -ne 0) {
    throw "nospin needs Python 3.11 or newer; $Python is older."
}

$Boot = Join-Path ([System.IO.Path]::GetTempPath()) ('nospin-bootstrap-' + [guid]::NewGuid())
try {
    & $Python -m venv $Boot
    if ($LASTEXITCODE -ne 0) { throw "could not create $Boot" }
    $BootPython = Join-Path $Boot 'Scripts\python.exe'
    $Requirement = $Source
    if (Test-Path -LiteralPath $Source -PathType Container) {
        # pip builds in the source folder: build from a copy, not the checkout
        $Requirement = Join-Path $Boot 'src'
        # (no double quotes inside: Windows PowerShell 5.1 drops them from native arguments)
        $Copy = "import shutil, sys; shutil.copytree(sys.argv[1], sys.argv[2], ignore=" +
            "shutil.ignore_patterns('.git', '.venv', 'build', 'dist', '*.egg-info', " +
            "'__pycache__', '.mypy_cache', '.pytest_cache', '.ruff_cache', '.hypothesis'))"
        & $Python -c $Copy $Source $Requirement
        if ($LASTEXITCODE -ne 0) { throw "could not copy $Source" }
    }
    # the bootstrap needs nospin's own dependencies only (no llama-cpp-python); with -Prebuilt
    # wheels only there too, so nothing at all is compiled
    $Pip = @('-m', 'pip', 'install', '--disable-pip-version-check', '--quiet')
    if ($Prebuilt) { $Pip += @('--only-binary', ':all:') }
    & $BootPython @Pip $Requirement
    if ($LASTEXITCODE -ne 0) { throw "pip could not install nospin from $Source" }

    $Arguments = @('-I', '-m', 'app.cli', 'install', '--source', $Source)
    if ($Gpu) { $Arguments += '--gpu' }
    if ($Model -ne '') { $Arguments += @('--model', $Model) }
    if ($NoTray) { $Arguments += '--no-tray' }
    if ($DryRun) { $Arguments += '--dry-run' }
    if ($Prebuilt) { $Arguments += '--prebuilt' }
    if ($Native) { $Arguments += '--native' }
    if ($Choose) { $Arguments += '--choose' }
    if ($NoChoose) { $Arguments += '--no-choose' }
    & $BootPython @Arguments
    $Code = $LASTEXITCODE
} finally {
    if (Test-Path -LiteralPath $Boot) {
        Remove-Item -LiteralPath $Boot -Recurse -Force -ErrorAction SilentlyContinue
    }
}
exit $Code
