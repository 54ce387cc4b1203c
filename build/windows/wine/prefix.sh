#!/usr/bin/env bash
# Runs a command in a private Wine prefix made for this run alone, then
# removes the prefix: make test-windows runs the Windows tests through it.
#
# Usage: prefix.sh SHIM_DLL -- COMMAND [ARGS...]
#
# The prefix is a new temporary directory (never ~/.wine): `wineboot -i`
# creates it headless (≈ 10–20 s; Wine needs no display for it or for
# console programs), Wine's Mono and Gecko installers are refused (nothing
# here needs .NET or a browser inside Wine), and SHIM_DLL (the
# bcryptprimitives.dll that Go ≥ 1.22's Windows runtime loads and Wine 8
# lacks: bcryptprimitives.c) is copied into its System32. COMMAND then runs
# with WINEPREFIX, WINEDEBUG=-all and FERRY_WINE (the wine64 loader) set.
set -euo pipefail
if [ $# -lt 3 ] || [ "$2" != -- ]; then
  echo "usage: $0 SHIM_DLL -- COMMAND [ARGS...]" >&2
  exit 2
fi
shim=$1
shift 2

wine=$(command -v wine64 || true)
[ -n "$wine" ] || [ ! -x /usr/lib/wine/wine64 ] || wine=/usr/lib/wine/wine64 # Debian's wine64 without the wine wrapper
wineserver=$(command -v wineserver || true)
[ -n "$wineserver" ] || [ ! -x /usr/lib/wine/wineserver ] || wineserver=/usr/lib/wine/wineserver
if [ -z "$wine" ] || [ -z "$wineserver" ]; then
  echo "prefix.sh: Wine is not installed (wine64 and wineserver): run scripts/setup-system.sh" >&2
  exit 1
fi

WINEPREFIX=$(mktemp -d "${TMPDIR:-/tmp}/ferry-wine.XXXXXX")
# The prefix is made without a display; tests whose programs open windows
# (app/'s notification icon, the hotkey's window) get this one back.
export FERRY_WINE_DISPLAY=${DISPLAY:-}
export WINEPREFIX WINEDEBUG=-all DISPLAY=
cleanup() {
  "$wineserver" -k 2>/dev/null || true
  rm -rf "$WINEPREFIX"
}
trap cleanup EXIT

start=$(date +%s)
# wineboot says it cannot find syswow64\rundll32.exe: this prefix is 64-bit
# only, as the programs it runs are. Its output is shown only on failure.
if ! out=$(WINEDLLOVERRIDES="mscoree=;mshtml=" "$wine" wineboot -i 2>&1); then
  echo "prefix.sh: wineboot -i failed in $WINEPREFIX:" >&2
  echo "$out" >&2
  exit 1
fi
"$wineserver" -w
cp "$shim" "$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
echo "prefix.sh: Wine prefix $WINEPREFIX ready in $(( $(date +%s) - start )) s"

FERRY_WINE=$wine "$@"
