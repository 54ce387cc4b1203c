#!/usr/bin/env bash
# Builds Ferry's macOS packages into build/dist/ (run by scripts/package.sh):
# ferry-<version>-darwin-arm64.tar.gz and -darwin-amd64.tar.gz, each a folder
# with the `ferry` CLI and a README.txt. The desktop app is not among them: a
# Wails build for macOS needs Apple's SDK, so it cannot be made off a Mac.
# Go's linker signs the arm64 binary ad hoc, which Apple silicon requires; it
# is not notarized.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/package-version.sh
export PATH=$PATH:/usr/local/go/bin
GO=${GO:-go}
dist=build/dist
mkdir -p "$dist"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mtime=$(git log -1 --format=%cI 2>/dev/null || date -Iseconds)

for arch in arm64 amd64; do
  name="ferry-${version}-darwin-${arch}"
  mkdir -p "$work/$name"
  GOOS=darwin GOARCH=$arch CGO_ENABLED=0 $GO build -ldflags "-s -w $go_ldflags" -o "$work/$name/ferry" ./backend/cmd/ferry
  install -m 0644 build/darwin/README.txt "$work/$name/README.txt"
  tar -C "$work" --owner=0 --group=0 --numeric-owner --sort=name --mtime="$mtime" -czf "$dist/$name.tar.gz" "$name"
  echo "package: $dist/$name.tar.gz"
done
