#!/usr/bin/env bash
# Writes OUT/overlay.json, a `go build -overlay` file for the Windows test
# binaries and ferry.exe that run under Wine (make test-windows), never for
# what Ferry ships.
#
# Why: Go's os.RemoveAll on Windows deletes each file with
# NtSetInformationFile(FileDispositionInformationEx), a Windows 10 (1607)
# call, and falls back to the older FileDispositionInfo only when Windows
# says it does not know the call. Wine 8 answers STATUS_NOT_IMPLEMENTED,
# which Go does not take as "unknown", so every RemoveAll fails with
# "Invalid function" (and with it every t.TempDir cleanup). The overlay is
# the installed Go's own file with that one status added to the fallback
# case: on Windows, where the call exists, nothing changes.
#
# Usage: overlay.sh OUT   (GOROOT from `go env GOROOT`)
set -euo pipefail
out=$1
goroot=$(go env GOROOT)
src=$goroot/src/internal/syscall/windows/at_windows.go
mkdir -p "$out"
anchor='STATUS_NOT_SUPPORTED:     // the file system'
if ! grep -qF "$anchor" "$src"; then
  echo "overlay.sh: $src no longer has the fallback case this patch extends (\"$anchor\");" >&2
  echo "overlay.sh: check whether this Go still needs it under Wine and update build/windows/wine/overlay.sh" >&2
  exit 1
fi
sed "s|$anchor|NTStatus(0xC0000002), // STATUS_NOT_IMPLEMENTED: Wine 8 (make test-windows only)\n\t\t$anchor|" "$src" >"$out/at_windows.go"
printf '{"Replace":{"%s":"%s"}}\n' "$src" "$(cd "$out" && pwd)/at_windows.go" >"$out/overlay.json"
