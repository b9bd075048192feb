# SPDX-License-Identifier: GPL-3.0-or-later
#
# The Windows installer, dist/diskmeter-setup-x86_64.exe, built by
# build-aux/windows-gtk-build with makensis from the folder the zip is packed
# from. It installs for the current user without administrator rights
# (%LOCALAPPDATA%\Programs\Diskmeter, HKCU), and for all users when started
# elevated (Program Files, HKLM); /ALLUSERS and /CURRENTUSER choose by hand.
#
#   makensis -DVERSION=0.1.0 -DSTAGE=dir -DFILES=files.nsh -DICON=diskmeter.ico
#            -DOUTFILE=diskmeter-setup-x86_64.exe diskmeter.nsi
#
# FILES lists the staged files and folders as Delete and RMDir lines (made by
# windows-gtk-build), so that the uninstaller removes what was installed and
# nothing else, even from a folder the user picked with /D=.

Unicode true
# Diskmeter is a 64-bit program: a 64-bit installer sees the 64-bit Program
# Files and registry, and stops with Windows' own message on 32-bit Windows.
Target amd64-unicode
SetCompressor /SOLID lzma
# "setup" in the file name makes Windows treat it as an installer (warning
# 9000); it is one, and the name is what users look for.
!pragma warning disable 9000
# asInvoker: no UAC prompt. Elevated by the user, it installs for everyone.
RequestExecutionLevel user
ManifestDPIAware true

!ifndef VERSION
  !error "makensis -DVERSION=x.y.z: the version comes from the meson project"
!endif
!ifndef STAGE | FILES | ICON | OUTFILE
  !error "makensis needs -DSTAGE, -DFILES, -DICON and -DOUTFILE (see windows-gtk-build)"
!endif

!define PRODUCT "Diskmeter"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Diskmeter"

!include MUI2.nsh
!include LogicLib.nsh
!include FileFunc.nsh

Name "${PRODUCT}"
OutFile "${OUTFILE}"
# Set in .onInit once the mode is known; /D= overrides it.
InstallDir ""
BrandingText "${PRODUCT} ${VERSION}"
ShowInstDetails nevershow
ShowUninstDetails nevershow

VIProductVersion "${VERSION}.0"
VIAddVersionKey "ProductName" "${PRODUCT}"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "CompanyName" "${PRODUCT}"
VIAddVersionKey "FileDescription" "${PRODUCT} ${VERSION} Setup"
VIAddVersionKey "LegalCopyright" "GNU GPL version 3 or later"

Var AllUsers

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\diskmeter.exe"
!define MUI_FINISHPAGE_RUN_TEXT "Start ${PRODUCT}"
!define MUI_FINISHPAGE_NOREBOOTSUPPORT

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

# Sets $AllUsers: 1 when the process runs elevated (UserInfo sees the
# Administrators group only in an elevated token), 0 for /CURRENTUSER or
# when not elevated. /ALLUSERS without elevation starts the installer again
# through UAC with the same options.
!macro DM_CHOOSE_MODE un
  Function ${un}DmElevate
    ClearErrors
    !ifdef __UNINSTALL__
      # The uninstaller runs from a copy in %TEMP%: start the installed one.
      StrCpy $3 ""
      ${If} ${Silent}
        StrCpy $3 "/S"
      ${EndIf}
      ExecShell "runas" "$INSTDIR\uninstall.exe" $3
    !else
      ExecShell "runas" "$EXEPATH" $1
    !endif
    ${If} ${Errors}
      MessageBox MB_OK|MB_ICONSTOP "${PRODUCT} for all users needs administrator rights." /SD IDOK
      SetErrorLevel 740  # ERROR_ELEVATION_REQUIRED
    ${EndIf}
    Quit
  FunctionEnd

  Function ${un}DmChooseMode
    UserInfo::GetAccountType
    Pop $0
    ${GetParameters} $1
    ClearErrors
    ${GetOptions} $1 "/CURRENTUSER" $2
    ${IfNot} ${Errors}
      StrCpy $AllUsers 0
    ${ElseIf} $0 == "Admin"
      StrCpy $AllUsers 1
    ${Else}
      StrCpy $AllUsers 0
      ClearErrors
      ${GetOptions} $1 "/ALLUSERS" $2
      ${IfNot} ${Errors}
        Call ${un}DmElevate
      ${EndIf}
    ${EndIf}
    ${If} $AllUsers = 1
      SetShellVarContext all
    ${Else}
      SetShellVarContext current
    ${EndIf}
  FunctionEnd
!macroend
!insertmacro DM_CHOOSE_MODE ""

# The Apps & features entry. $1 holds the size in KiB.
!macro DM_WRITE_KEYS ROOT
  WriteRegStr ${ROOT} "${UNINSTALL_KEY}" "DisplayName" "${PRODUCT}"
  WriteRegStr ${ROOT} "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr ${ROOT} "${UNINSTALL_KEY}" "Publisher" "${PRODUCT}"
  WriteRegStr ${ROOT} "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\diskmeter.ico"
  WriteRegStr ${ROOT} "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr ${ROOT} "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr ${ROOT} "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD ${ROOT} "${UNINSTALL_KEY}" "EstimatedSize" $1
  WriteRegDWORD ${ROOT} "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD ${ROOT} "${UNINSTALL_KEY}" "NoRepair" 1
!macroend

Function .onInit
  Call DmChooseMode
  ${If} $INSTDIR == ""
    ${If} $AllUsers = 1
      StrCpy $INSTDIR "$PROGRAMFILES64\${PRODUCT}"
    ${Else}
      # Where per-user programs go (FOLDERID_UserProgramFiles).
      StrCpy $INSTDIR "$LOCALAPPDATA\Programs\${PRODUCT}"
    ${EndIf}
  ${EndIf}
FunctionEnd

Section "Diskmeter"
  SetOutPath "$INSTDIR"
  File /r "${STAGE}\*"
  File "/oname=diskmeter.ico" "${ICON}"
  WriteUninstaller "$INSTDIR\uninstall.exe"

  SetOutPath "$INSTDIR"  # the shortcut's working folder
  CreateShortcut "$SMPROGRAMS\${PRODUCT}.lnk" "$INSTDIR\diskmeter.exe" "" \
    "$INSTDIR\diskmeter.ico" 0 SW_SHOWNORMAL "" "Measure a disk's speed"

  ${GetSize} "$INSTDIR" "/S=0K" $1 $2 $3
  IntFmt $1 "0x%08X" $1
  # WriteRegStr takes its root from a literal only: one block per root.
  ${If} $AllUsers = 1
    !insertmacro DM_WRITE_KEYS HKLM
  ${Else}
    !insertmacro DM_WRITE_KEYS HKCU
  ${EndIf}
SectionEnd

!insertmacro DM_CHOOSE_MODE "un."

# The uninstaller removes the install its key names: the all-users one when
# HKLM's key points at its folder (through UAC if not elevated, as when
# Apps & features starts it), else the current user's.
Function un.onInit
  Call un.DmChooseMode
  ReadRegStr $0 HKLM "${UNINSTALL_KEY}" "InstallLocation"
  ${If} $0 == $INSTDIR
    ${If} $AllUsers = 0
      ClearErrors
      Call un.DmElevate
    ${EndIf}
  ${Else}
    StrCpy $AllUsers 0
    SetShellVarContext current
  ${EndIf}
FunctionEnd

Section "Uninstall"
  Delete "$SMPROGRAMS\${PRODUCT}.lnk"
  !include "${FILES}"
  Delete "$INSTDIR\diskmeter.ico"
  Delete "$INSTDIR\uninstall.exe"
  # Only if empty: whatever else the user put there stays.
  RMDir "$INSTDIR"
  ${If} $AllUsers = 1
    DeleteRegKey HKLM "${UNINSTALL_KEY}"
  ${Else}
    DeleteRegKey HKCU "${UNINSTALL_KEY}"
  ${EndIf}
SectionEnd
