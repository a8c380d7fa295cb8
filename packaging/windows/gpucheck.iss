; Inno Setup 6 script: dist\gpucheck (the PyInstaller one-folder app) → dist\gpucheck-setup-<version>.exe
;
;   packaging\windows\build.ps1        (freezes the app, makes the icon, then runs:)
;   ISCC.exe /DAppVersion=0.1.0 packaging\windows\gpucheck.iss
;
; Installs per user by default (no admin prompt; the setup offers "install for all users" too),
; adds a Start-menu shortcut (and optionally a desktop one) and an uninstaller in "Apps & features".
; The setup speaks English and Simplified Chinese (picked from the Windows display language).

#ifndef AppVersion
  #error Pass the version: ISCC /DAppVersion=x.y.z gpucheck.iss (build.ps1 reads it from pyproject.toml)
#endif
#define AppName "gpucheck"
#define Root AddBackslash(SourcePath) + "..\.."
#ifndef AppDir
  #define AppDir Root + "\dist\gpucheck"
#endif
; Simplified Chinese is an unofficial translation in Inno Setup 6.4: a copy ships beside this script
; (ChineseSimplified.isl, see packaging/windows/README.md), so the build downloads nothing. build.ps1
; passes /DZhMessages=... when the installed Inno Setup has its own (official since 6.5) copy.
#ifndef ZhMessages
  #define ZhMessages AddBackslash(SourcePath) + "ChineseSimplified.isl"
#endif
#ifndef SetupIcon
  #define SetupIcon Root + "\build\gpucheck.ico"
#endif
; Where the app and its Start-menu entry go. On Windows: {autopf} and {autoprograms}, i.e. with the
; default per-user install %LOCALAPPDATA%\Programs\gpucheck and the user's Start menu.
; packaging/windows/check-installer.sh runs this setup under Wine 8, which lacks the per-user Program Files
; known folder ({autopf} stops with "Failed to expand shell folder constant autopf"): it compiles with
; /DInstallRoot={localappdata}\Programs /DProgramsFolder={userprograms}, the same folders spelt out.
#ifndef InstallRoot
  #define InstallRoot "{autopf}"
#endif
#ifndef ProgramsFolder
  #define ProgramsFolder "{autoprograms}"
#endif

[Setup]
; AppId identifies the product for upgrades and uninstall: never change it.
AppId={{5B0F3C8E-7A4D-4E61-9D0B-6C2F1A8E4B37}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher=gpucheck developers
AppPublisherURL=https://github.com/gpucheck/gpucheck
AppSupportURL=https://github.com/gpucheck/gpucheck/issues
VersionInfoVersion={#AppVersion}
DefaultDirName={#InstallRoot}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
MinVersion=10.0
OutputDir={#Root}\dist
OutputBaseFilename=gpucheck-setup-{#AppVersion}
SetupIconFile={#SetupIcon}
UninstallDisplayIcon={app}\gpucheck-gui.exe
UninstallDisplayName={#AppName} {#AppVersion}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
ShowLanguageDialog=auto
CloseApplications=yes

[Languages]
Name: "en"; MessagesFile: "compiler:Default.isl"
#if FileExists(ZhMessages)
Name: "zh_CN"; MessagesFile: "{#ZhMessages}"
#else
  #error ChineseSimplified.isl is missing: the setup would be English only
#endif

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#AppDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs
Source: "{#Root}\LICENSE"; DestDir: "{app}"; DestName: "LICENSE.txt"; Flags: ignoreversion

[Icons]
; gpucheck-gui.exe is the windowed program (no console window); gpucheck.exe is the command line.
Name: "{#ProgramsFolder}\{#AppName}"; Filename: "{app}\gpucheck-gui.exe"; WorkingDir: "{userdocs}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\gpucheck-gui.exe"; WorkingDir: "{userdocs}"; Tasks: desktopicon

[Run]
Filename: "{app}\gpucheck-gui.exe"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent

[UninstallDelete]
; Anything the frozen app may have written next to itself (e.g. a crash-time Python cache).
Type: filesandordirs; Name: "{app}\_internal"
