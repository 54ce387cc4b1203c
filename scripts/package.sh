#!/usr/bin/env bash
# Builds Ferry's packages into build/dist/: here the Linux ones, a .deb (amd64)
# and a portable .tar.gz with the same files; then scripts/package-windows.sh
# (installer and zip) and scripts/package-darwin.sh (CLI tarballs). Run by
# `make package` after both Linux binaries are built; every file but the
# binaries is made from one source in build/ (the icon's SVG, the desktop
# entry, the AppStream metainfo) or from the CLI itself (the man page, the
# shell completions), so nothing drifts.
set -euo pipefail
cd "$(dirname "$0")/.."

app_id=io.github.ferrydesk.Ferry
arch=amd64
dist=build/dist
bin=build/pkgbin

. scripts/package-version.sh

rm -rf "$dist" "$bin"
mkdir -p "$dist" "$bin"
# The binaries `make build` made (stamped with the same version), stripped.
for b in ferry ferry-desktop; do
  [ -x "build/bin/$b" ] || { echo "package: build/bin/$b is missing: run make build first" >&2; exit 1; }
  strip --strip-unneeded -o "$bin/$b" "build/bin/$b"
done

# stage FILES_ROOT lays out the installed tree under FILES_ROOT/usr.
stage() {
  local root=$1 usr=$1/usr
  install -d "$usr/bin" "$usr/share/applications" "$usr/share/metainfo" "$usr/share/man/man1" \
    "$usr/share/bash-completion/completions" "$usr/share/zsh/vendor-completions" \
    "$usr/share/fish/vendor_completions.d" "$usr/share/doc/ferry" "$usr/share/icons/hicolor/scalable/apps"
  install -m 0755 "$bin/ferry" "$bin/ferry-desktop" "$usr/bin/"
  install -m 0644 "build/linux/$app_id.desktop" "$usr/share/applications/"
  sed -e "s/@VERSION@/$version/" -e "s/@DATE@/$date/" build/linux/ferry.metainfo.xml > "$usr/share/metainfo/$app_id.metainfo.xml"
  chmod 0644 "$usr/share/metainfo/$app_id.metainfo.xml"
  install -m 0644 build/appicon.svg "$usr/share/icons/hicolor/scalable/apps/$app_id.svg"
  for s in 16 24 32 48 64 128 256 512; do
    install -d "$usr/share/icons/hicolor/${s}x${s}/apps"
    rsvg-convert -w "$s" -h "$s" -o "$usr/share/icons/hicolor/${s}x${s}/apps/$app_id.png" build/appicon.svg
    chmod 0644 "$usr/share/icons/hicolor/${s}x${s}/apps/$app_id.png"
  done
  "$bin/ferry" help man | gzip -9n > "$usr/share/man/man1/ferry.1.gz"
  gzip -9n < build/linux/ferry-desktop.1 > "$usr/share/man/man1/ferry-desktop.1.gz"
  chmod 0644 "$usr/share/man/man1/"*.gz
  "$bin/ferry" completion bash > "$usr/share/bash-completion/completions/ferry"
  "$bin/ferry" completion zsh > "$usr/share/zsh/vendor-completions/_ferry"
  "$bin/ferry" completion fish > "$usr/share/fish/vendor_completions.d/ferry.fish"
  chmod 0644 "$usr/share/bash-completion/completions/ferry" "$usr/share/zsh/vendor-completions/_ferry" "$usr/share/fish/vendor_completions.d/ferry.fish"
  install -m 0644 build/linux/copyright "$usr/share/doc/ferry/copyright"
  install -d "$usr/share/lintian/overrides"
  install -m 0644 build/linux/lintian-overrides "$usr/share/lintian/overrides/ferry"
  printf 'ferry (%s) unstable; urgency=medium\n\n  * Built from %s.\n\n -- The Ferry authors <ferry@users.noreply.github.com>  %s\n' \
    "$version" "$describe" "$(git log -1 --format=%cD 2>/dev/null || date -R)" | gzip -9n > "$usr/share/doc/ferry/changelog.gz"
  chmod 0644 "$usr/share/doc/ferry/changelog.gz"
}

# The .deb.
deb=$(mktemp -d)
trap 'rm -rf "$deb" "$tarroot"' EXIT
tarroot=$(mktemp -d)
stage "$deb"
install -d "$deb/DEBIAN"
# Run-time libraries of the desktop binary, as dpkg-shlibdeps finds them.
shl=$(mktemp -d)
mkdir -p "$shl/debian"
printf 'Source: ferry\n\nPackage: ferry\nArchitecture: any\n' > "$shl/debian/control"
depends=$(cd "$shl" && dpkg-shlibdeps -O --ignore-missing-info "$deb/usr/bin/ferry-desktop" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
rm -rf "$shl"
[ -n "$depends" ] || { echo "package: dpkg-shlibdeps found no libraries for ferry-desktop" >&2; exit 1; }
size=$(du -sk --exclude=DEBIAN "$deb" | cut -f1)
cat > "$deb/DEBIAN/control" <<CONTROL
Package: ferry
Version: $version
Architecture: $arch
Maintainer: The Ferry authors <ferry@users.noreply.github.com>
Installed-Size: $size
Depends: $depends
Recommends: chromium
Suggests: xvfb
Section: utils
Priority: optional
Homepage: https://github.com/ferrydesk/ferry
Description: control room for your logged-in AI chat sites
 Ferry drives your own Chromium to use the web AI chat sites you are logged
 in to (ChatGPT, Claude, Gemini, Grok, Kimi, DeepSeek, AI Studio) as a
 dependable tool: it sends prompts from templates, waits for the true end of
 each answer, recognises rate limits, Cloudflare checks and usage caps, brings
 sandbox zips home verified, and keeps every run in a searchable local
 history. A desktop app, a command-line tool, a local API and an MCP server
 for coding agents share one core.
 .
 Chromium is recommended, not required: Ferry can attach to a browser you
 started yourself with its DevTools endpoint enabled.
CONTROL
(cd "$deb" && find usr -type f -print0 | sort -z | xargs -0 md5sum > DEBIAN/md5sums)
chmod 0644 "$deb/DEBIAN/control" "$deb/DEBIAN/md5sums"
# make test builds its packages with FERRY_PACKAGE_FAST=1: the same files
# installed the same way, compressed fast (a minute of CPU less) instead of small.
deb_compression=(-Zxz)
[ -z "${FERRY_PACKAGE_FAST:-}" ] || deb_compression=(-Zgzip -z1)
dpkg-deb --root-owner-group "${deb_compression[@]}" --build "$deb" "$dist/ferry_${version}_${arch}.deb" >/dev/null

# The portable tarball: the same tree, and how to run it without installing.
name="ferry-${version}-linux-${arch}"
stage "$tarroot/$name"
install -m 0644 build/linux/README-portable.txt "$tarroot/$name/README.txt"
tar -C "$tarroot" --owner=0 --group=0 --numeric-owner --sort=name -czf "$dist/$name.tar.gz" "$name"
echo "package: $dist/ferry_${version}_${arch}.deb"
echo "package: $dist/$name.tar.gz"

scripts/package-windows.sh
scripts/package-darwin.sh
