# Sourced by scripts/package*.sh: the version every package carries, from git.
# Sets describe (git describe), version (the package version), date (the last
# commit's day), winversion (four numbers for Windows' version resources) and
# go_ldflags (the version stamp for the binaries built here). describe is the
# version build/bin/ferry prints (what `make build` stamped), so every package
# is named for, and carries, the version of the Linux binaries even when
# commits land during the build; without that binary it is git describe now.
#
# v1.2.3 is 1.2.3; 4 commits after it is 1.2.3+4.g<hash>; with no tag it is
# 0.0~git<date>.<hash>. A dirty tree adds +dirty. Debian versions start with a
# digit and take no hyphen here. Windows wants numbers: 1.2.3 and 4 commits is
# 1.2.3.4; with no tag it is 0.0.0.<commit count>.
#
# scripts/package.sh exports what it found, so that the scripts it runs name
# every package alike even when a commit lands while they build.
if [ -n "${FERRY_PKG_VERSION:-}" ]; then
  describe=$FERRY_PKG_DESCRIBE version=$FERRY_PKG_VERSION date=$FERRY_PKG_DATE winversion=$FERRY_PKG_WINVERSION
  go_ldflags="-X github.com/ferrydesk/ferry/backend/version.Version=$describe"
  return 0
fi
describe=${FERRY_DESCRIBE:-}
if [ -z "$describe" ] && [ -x build/bin/ferry ]; then
  describe=$(build/bin/ferry version --json | sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p')
fi
[ -n "$describe" ] || describe=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
if [[ $describe =~ ^v?([0-9]+(\.[0-9A-Za-z]+)+)(-([0-9]+)-g([0-9a-f]+))?(-dirty)?$ ]]; then
  version=${BASH_REMATCH[1]}
  if [ -n "${BASH_REMATCH[4]}" ]; then version+="+${BASH_REMATCH[4]}.g${BASH_REMATCH[5]}"; fi
  if [ -n "${BASH_REMATCH[6]}" ]; then version+="+dirty"; fi
  IFS=. read -r -a nums <<<"${BASH_REMATCH[1]}"
  winversion=""
  for i in 0 1 2; do
    n=${nums[$i]:-0}
    n=${n%%[!0-9]*}
    winversion+="$((10#${n:-0} % 65536))."
  done
  winversion+=$(( ${BASH_REMATCH[4]:-0} % 65536 ))
else
  hash=${describe%-dirty}
  version="0.0~git$(git log -1 --format=%cd --date=format:%Y%m%d 2>/dev/null || date +%Y%m%d).${hash}"
  if [[ $describe == *-dirty ]]; then version+="+dirty"; fi
  winversion="0.0.0.$(( $(git rev-list --count HEAD 2>/dev/null || echo 0) % 65536 ))"
fi
date=$(git log -1 --format=%cd --date=format:%Y-%m-%d 2>/dev/null || date +%Y-%m-%d)
go_ldflags="-X github.com/ferrydesk/ferry/backend/version.Version=$describe"
export FERRY_PKG_DESCRIBE=$describe FERRY_PKG_VERSION=$version FERRY_PKG_DATE=$date FERRY_PKG_WINVERSION=$winversion
