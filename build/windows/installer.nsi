; Ferry's Windows installer (NSIS 3, Debian's makensis). scripts/package-windows.sh
; runs it as
;   makensis -DVERSION=… -DVIVERSION=a.b.c.d -DSRCDIR=DIR -DICON=ferry.ico -DOUTFILE=… installer.nsi
; SRCDIR holds ferry-desktop.exe and ferry.exe.
;
; A per-user install without administrator rights: the programs go to
; %LOCALAPPDATA%\Programs\Ferry (as other per-user apps do), a Start-menu entry
; to the user's Start menu, the uninstaller's entry to HKCU's Uninstall key
; ("Installed apps"), and the folder to the user's PATH so `ferry` works in a
; terminal and for coding agents. The uninstaller removes exactly these (and
; the start-at-login entry when it starts this copy) and leaves the user's
; data (%LOCALAPPDATA%\Ferry, %APPDATA%\Ferry) alone.
; Silent: `setup.exe /S [/D=DIR]`, `uninstall.exe /S`.

Unicode true
; 64-bit, like the programs it installs (and so it runs under a 64-bit-only Wine).
Target amd64-unicode
ManifestDPIAware true
RequestExecutionLevel user
SetCompressor /SOLID lzma

!ifndef VERSION | VIVERSION | SRCDIR | ICON | OUTFILE
  !error "define VERSION, VIVERSION, SRCDIR, ICON and OUTFILE (see scripts/package-windows.sh)"
!endif

!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Ferry"
!define ENV_KEY "Environment"
; The longest PATH plus folder NSIS writes whole: its own string limit less
; the separator and the terminating NUL.
!define /math PATH_ROOM ${NSIS_MAX_STRLEN} - 2

!include MUI2.nsh
!include LogicLib.nsh
!include FileFunc.nsh
!include StrFunc.nsh
!include WinMessages.nsh
${StrStr}
${UnStrStr}
${UnStrRep}

Name "Ferry"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\Ferry"
InstallDirRegKey HKCU "${UNINST_KEY}" "InstallLocation"
BrandingText "Ferry ${VERSION}"
ShowInstDetails nevershow
ShowUninstDetails nevershow

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\ferry-desktop.exe"
!define MUI_FINISHPAGE_RUN_TEXT "Start Ferry"
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

VIProductVersion "${VIVERSION}"
VIFileVersion "${VIVERSION}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "ProductName" "Ferry"
VIAddVersionKey /LANG=${LANG_ENGLISH} "CompanyName" "The Ferry authors"
VIAddVersionKey /LANG=${LANG_ENGLISH} "FileDescription" "Ferry installer"
VIAddVersionKey /LANG=${LANG_ENGLISH} "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=${LANG_ENGLISH} "LegalCopyright" "The Ferry authors"

; PathState reads the user's PATH into $0 and says in $1 whether it can be
; edited: "ok" (read whole), "none" (no PATH of the user's own yet) or "long"
; (longer than NSIS can hold: then it is never written, so never truncated).
!macro PathState un
Function ${un}PathState
  ClearErrors
  ReadRegStr $0 HKCU "${ENV_KEY}" "Path"
  ${IfNot} ${Errors}
    StrCpy $1 "ok"
    Return
  ${EndIf}
  ; An error is either no value or one too long to read: tell them apart.
  StrCpy $0 ""
  StrCpy $1 "none"
  StrCpy $2 0
  ${Do}
    ClearErrors
    EnumRegValue $3 HKCU "${ENV_KEY}" $2
    ${If} ${Errors}
    ${OrIf} $3 == ""
      ${Break}
    ${EndIf}
    ${If} $3 == "Path"
      StrCpy $1 "long"
      ${Break}
    ${EndIf}
    IntOp $2 $2 + 1
  ${Loop}
FunctionEnd
!macroend
!insertmacro PathState ""
!insertmacro PathState "un."

Section "Ferry"
  SetOutPath "$INSTDIR"
  File "${SRCDIR}/ferry-desktop.exe"
  File "${SRCDIR}/ferry.exe"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateShortcut "$SMPROGRAMS\Ferry.lnk" "$INSTDIR\ferry-desktop.exe" "" "$INSTDIR\ferry-desktop.exe" 0 SW_SHOWNORMAL "" "Ferry: a control room for your AI chat sites"

  WriteRegStr HKCU "${UNINST_KEY}" "DisplayName" "Ferry"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINST_KEY}" "Publisher" "The Ferry authors"
  WriteRegStr HKCU "${UNINST_KEY}" "URLInfoAbout" "https://github.com/ferrydesk/ferry"
  WriteRegStr HKCU "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\ferry-desktop.exe,0"
  WriteRegStr HKCU "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINST_KEY}" "UninstallString" "$\"$INSTDIR\uninstall.exe$\""
  WriteRegStr HKCU "${UNINST_KEY}" "QuietUninstallString" "$\"$INSTDIR\uninstall.exe$\" /S"
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINST_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  WriteRegDWORD HKCU "${UNINST_KEY}" "EstimatedSize" $0

  ; The folder on the user's PATH, once (an upgrade finds it there already).
  Call PathState
  StrLen $2 $0
  StrLen $3 $INSTDIR
  IntOp $2 $2 + $3
  ${If} $2 >= ${PATH_ROOM}
    StrCpy $1 "long"
  ${EndIf}
  ${If} $1 == "long"
    DetailPrint "Your PATH is too long to edit safely: add $INSTDIR to it yourself to run ferry in a terminal."
  ${Else}
    ${StrStr} $2 ";$0;" ";$INSTDIR;"
    ${If} $2 == ""
      ${If} $0 == ""
        StrCpy $0 "$INSTDIR"
      ${Else}
        StrCpy $0 "$0;$INSTDIR"
      ${EndIf}
      WriteRegExpandStr HKCU "${ENV_KEY}" "Path" "$0"
      WriteRegStr HKCU "${UNINST_KEY}" "AddedToPath" "$INSTDIR"
      SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=2000
    ${EndIf}
  ${EndIf}
SectionEnd

Section "Uninstall"
  ; A running Ferry holds its .exe: ask to quit it rather than leave half.
  ${Do}
    ClearErrors
    Delete "$INSTDIR\ferry-desktop.exe"
    Delete "$INSTDIR\ferry.exe"
    ${IfNot} ${FileExists} "$INSTDIR\ferry-desktop.exe"
    ${AndIfNot} ${FileExists} "$INSTDIR\ferry.exe"
      ${Break}
    ${EndIf}
    MessageBox MB_RETRYCANCEL|MB_ICONEXCLAMATION "Ferry is running. Quit it (its tray menu → Quit, and any ferry in a terminal), then press Retry." /SD IDCANCEL IDRETRY retry
    Abort "Ferry is running: quit it and run the uninstaller again."
    retry:
  ${Loop}
  Delete "$SMPROGRAMS\Ferry.lnk"

  ; Settings' "Start Ferry at login" is the Run value "Ferry" (app/autostart_runkey.go):
  ; remove it when it starts this copy, which is gone now.
  ReadRegStr $0 HKCU "Software\Microsoft\Windows\CurrentVersion\Run" "Ferry"
  ${UnStrStr} $1 $0 "$INSTDIR\ferry-desktop.exe"
  ${If} $1 != ""
    DeleteRegValue HKCU "Software\Microsoft\Windows\CurrentVersion\Run" "Ferry"
  ${EndIf}

  ; Take the folder off PATH only if this installer put it there.
  ReadRegStr $4 HKCU "${UNINST_KEY}" "AddedToPath"
  ${If} $4 != ""
    Call un.PathState
    ${If} $1 == "ok"
      ${UnStrRep} $0 ";$0;" ";$4;" ";"
      StrCpy $0 $0 "" 1
      StrCpy $0 $0 -1
      ${If} $0 == ""
        DeleteRegValue HKCU "${ENV_KEY}" "Path"
      ${Else}
        WriteRegExpandStr HKCU "${ENV_KEY}" "Path" "$0"
      ${EndIf}
      SendMessage ${HWND_BROADCAST} ${WM_SETTINGCHANGE} 0 "STR:Environment" /TIMEOUT=2000
    ${EndIf}
  ${EndIf}

  DeleteRegKey HKCU "${UNINST_KEY}"
  Delete "$INSTDIR\uninstall.exe"
  ; Only an empty folder goes: files someone put there stay.
  RMDir "$INSTDIR"
SectionEnd
