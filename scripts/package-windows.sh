#!/usr/bin/env bash
# Builds Ferry's Windows packages into build/dist/ (run by scripts/package.sh):
#   ferry-<version>-windows-amd64-setup.exe  the per-user NSIS installer
#   ferry-<version>-windows-amd64.zip        both programs, to run unpacked
# Both .exe carry a version resource, the app icon and an application manifest
# (build/windows/ferry.rc.in, *.manifest). windres compiles them to a .syso that
# sits in the Go package's directory only while that package builds (go build
# reads .syso files nowhere else), and is removed again on any exit.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/package-version.sh
export PATH=$PATH:/usr/local/go/bin
GO=${GO:-go}
dist=build/dist
mkdir -p "$dist"
[ -f frontend/dist/index.html ] || { echo "package-windows: frontend/dist is not built: run make frontend first" >&2; exit 1; }

work=$(mktemp -d)
syso_cli=backend/cmd/ferry/ferry_rsrc_windows_amd64.syso
syso_desktop=ferry_rsrc_windows_amd64.syso
cleanup() { rm -f "$syso_cli" "$syso_desktop"; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# The icon, from the same SVG as the Linux icons.
for s in 16 32 48 256; do
  rsvg-convert -w "$s" -h "$s" -o "$work/icon-$s.png" build/appicon.svg
done
$GO run ./build/windows/mkico -o "$work/ferry.ico" "$work"/icon-{16,32,48,256}.png

# resource NAME DESCRIPTION MANIFEST SYSO compiles NAME.exe's resources to SYSO.
resource() {
  sed -e "s|@VERSION_DOTS@|$winversion|" "build/windows/$3" > "$work/$1.manifest"
  sed -e "s|@ICON@|$work/ferry.ico|" -e "s|@MANIFEST@|$work/$1.manifest|" \
    -e "s|@VERSION_COMMAS@|${winversion//./,}|" -e "s|@VERSION@|$version|" \
    -e "s|@DESCRIPTION@|$2|" -e "s|@NAME@|$1|" build/windows/ferry.rc.in > "$work/$1.rc"
  x86_64-w64-mingw32-windres --input-format=rc --output-format=coff -i "$work/$1.rc" -o "$4"
}

mkdir -p "$work/bin"
export GOOS=windows GOARCH=amd64 CGO_ENABLED=0
resource ferry "Ferry command-line tool" cli.manifest "$syso_cli"
$GO build -ldflags "-s -w $go_ldflags" -o "$work/bin/ferry.exe" ./backend/cmd/ferry
rm -f "$syso_cli"
resource ferry-desktop "Ferry" desktop.manifest "$syso_desktop"
$GO build -tags desktop,production -ldflags "-s -w -H=windowsgui $go_ldflags" -o "$work/bin/ferry-desktop.exe" .
rm -f "$syso_desktop"
unset GOOS GOARCH CGO_ENABLED

# The portable zip: a folder with both programs and how to use them.
name="ferry-${version}-windows-amd64"
mkdir -p "$work/zip/$name"
cp "$work/bin/ferry.exe" "$work/bin/ferry-desktop.exe" "$work/zip/$name/"
sed 's/$/\r/' build/windows/README.txt > "$work/zip/$name/README.txt"
find "$work/zip" -exec touch -d "$(git log -1 --format=%cI 2>/dev/null || date -Iseconds)" {} +
rm -f "$dist/$name.zip"
# Fast, not small, under FERRY_PACKAGE_FAST (make test: see package.sh).
zip_level=9 nsis_fast=()
[ -z "${FERRY_PACKAGE_FAST:-}" ] || { zip_level=1; nsis_fast=(-X"SetCompressor /FINAL zlib"); }
(cd "$work/zip" && 7z a -tzip -mx=$zip_level -bd -bso0 "$work/$name.zip" "$name")
mv "$work/$name.zip" "$dist/"

# The installer.
makensis -V2 "${nsis_fast[@]}" -DVERSION="$version" -DVIVERSION="$winversion" -DSRCDIR="$work/bin" \
  -DICON="$work/ferry.ico" -DOUTFILE="$PWD/$dist/$name-setup.exe" build/windows/installer.nsi
echo "package: $dist/$name-setup.exe"
echo "package: $dist/$name.zip"
