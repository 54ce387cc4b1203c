#!/usr/bin/env bash
# Installs the system packages Ferry needs to build, run and test on Debian or
# Ubuntu. As root it installs what is missing; otherwise it prints the exact
# apt-get line to run and fails. Installed packages are left alone.
set -euo pipefail

pkgs=(
  pkg-config gcc libgtk-3-dev libwebkit2gtk-4.1-dev   # the desktop window (cgo, WebKitGTK 4.1)
  chromium                                            # the browser Ferry drives (and tests drive)
  xvfb xauth xdotool imagemagick dbus-daemon dbus-x11 # headless display, GUI tests, screenshots, session bus
  openbox x11-utils xdg-utils                         # a window manager for the GUI test of minimized windows; xdg-open, xdg-mime
  git ca-certificates
  dpkg-dev desktop-file-utils appstream lintian librsvg2-bin # packages: shlibdeps, validators, icons
  wine64 gcc-mingw-w64-x86-64 nsis p7zip-full          # Windows: tests under Wine (and its shim DLL), the installer
)

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
  echo "setup: missing system packages: ${missing[*]}" >&2
  echo "setup: this script knows Debian and Ubuntu (apt-get); install their equivalents with your package manager." >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "setup: missing system packages: ${missing[*]}" >&2
  echo "setup: run this, then run make again:" >&2
  echo "  sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
