# Build gpucheck for Windows: the one-folder app (PyInstaller) and gpucheck-setup-<version>.exe (Inno Setup 6).
#
#   powershell -ExecutionPolicy Bypass -File packaging\windows\build.ps1 [-Python C:\path\python.exe]
#
# Needs: the build environment (pip install -e ".[build]") and Inno Setup 6 (choco install innosetup).
# Output: dist\gpucheck\ (gpucheck.exe = command line, gpucheck-gui.exe = desktop app without a console)
#         dist\gpucheck-setup-<version>.exe
# Signing: set GPUCHECK_SIGNTOOL_CERT (path to a .pfx) and GPUCHECK_SIGNTOOL_PASSWORD to sign the
# programs and the setup with signtool; without them nothing is signed (SmartScreen will warn users).
param(
    [string]$Python = ""
)
$ErrorActionPreference = "Stop"
$Root = Resolve-Path (Join-Path $PSScriptRoot "..\..")
Set-Location $Root

# Run a program with its arguments (a plain function, so "-m" etc. reach the program untouched)
# and stop the build when it fails.
function Invoke-Checked {
    $Exe = $args[0]
    $Rest = @($args | Select-Object -Skip 1)
    & $Exe @Rest
    if ($LASTEXITCODE -ne 0) { throw "$Exe $Rest failed with exit code $LASTEXITCODE" }
}

if (-not $Python) {
    if (Test-Path ".venv\Scripts\python.exe") { $Python = ".venv\Scripts\python.exe" } else { $Python = "python" }
}
$Version = (& $Python -c "import tomllib; print(tomllib.load(open('pyproject.toml','rb'))['project']['version'])").Trim()
if ($LASTEXITCODE -ne 0 -or -not $Version) { throw "could not read the version from pyproject.toml" }
$Start = Get-Date
New-Item -ItemType Directory -Force build, dist | Out-Null

# 1. Icon and version resource (the spec picks up build\gpucheck.ico and build\win-version.txt).
Invoke-Checked $Python packaging\make_icons.py ico build\gpucheck.ico
Invoke-Checked $Python packaging\windows\version_info.py $Version build\win-version.txt

# 2. The one-folder app.
Invoke-Checked $Python -m PyInstaller --noconfirm --log-level WARN --distpath dist --workpath build\pyinstaller packaging\gpucheck.spec
Invoke-Checked dist\gpucheck\gpucheck.exe --version

# 3. Optional code signing of the programs (before they go into the setup).
$Cert = $env:GPUCHECK_SIGNTOOL_CERT
function Sign-File([string]$Path) {
    if (-not $Cert) { return }
    Invoke-Checked signtool sign /f $Cert /p $env:GPUCHECK_SIGNTOOL_PASSWORD /fd SHA256 /tr http://timestamp.digicert.com /td SHA256 $Path
}
Sign-File dist\gpucheck\gpucheck.exe
Sign-File dist\gpucheck\gpucheck-gui.exe

# 4. Inno Setup.
$Iscc = @(
    (Get-Command iscc.exe -ErrorAction SilentlyContinue | Select-Object -ExpandProperty Source),
    "${env:ProgramFiles(x86)}\Inno Setup 6\ISCC.exe",
    "$env:ProgramFiles\Inno Setup 6\ISCC.exe",
    "$env:LOCALAPPDATA\Programs\Inno Setup 6\ISCC.exe"
) | Where-Object { $_ -and (Test-Path $_) } | Select-Object -First 1
if (-not $Iscc) { throw "Inno Setup 6 is not installed (choco install innosetup -y)" }

# Simplified Chinese: Inno Setup 6.4 has it only as an unofficial translation, so a copy ships in
# packaging\windows\ChineseSimplified.isl (gpucheck.iss uses it; nothing is downloaded). An Inno Setup
# that has its own copy (official since 6.5) gets that one, which matches its version.
$IsccArgs = @("/Q", "/DAppVersion=$Version")
$Installed = Join-Path (Split-Path $Iscc) "Languages\ChineseSimplified.isl"
if (Test-Path $Installed) { $IsccArgs += "/DZhMessages=$Installed" }

Invoke-Checked $Iscc @IsccArgs packaging\windows\gpucheck.iss
$Setup = "dist\gpucheck-setup-$Version.exe"
Sign-File $Setup

$Secs = [int]((Get-Date) - $Start).TotalSeconds
$SetupMB = [math]::Round((Get-Item $Setup).Length / 1MB, 1)
$AppMB = [math]::Round(((Get-ChildItem dist\gpucheck -Recurse -File | Measure-Object Length -Sum).Sum) / 1MB, 1)
Write-Host "build.ps1: $Setup  $SetupMB MB (installed $AppMB MB), done in $Secs s"
