#!/usr/bin/env bash
# Cuts release VERSION of every module of the repository at one commit, in
# Go's multi-module convention (v0.2.0, mirror/v0.2.0, cmd/ordermsg/v0.2.0,
# …). RELEASING.md is the procedure around it.
#
#   .ci/release.sh v0.2.0
#
# It checks what must be true first, moves the modules' requires of one
# another, go.work and ordermsg.Version to VERSION, commits that ("Release
# VERSION") and tags every module at the commit. It pushes nothing and runs
# no tests: .ci/run must have passed on the commit it starts from, which is
# the maintainer's duty (RELEASING.md).
set -euo pipefail
cd "$(dirname "$0")/.."

die() { printf 'release: %s\n' "$*" >&2; exit 1; }
step() { printf '\n== %s\n' "$*"; }

[ $# -eq 1 ] || die "usage: .ci/release.sh vX.Y.Z"
version=$1

# newer A B: whether semantic version A is above B (a release is above its
# prereleases).
newer() {
  local a=${1#v} b=${2#v} ap="" bp=""
  local ac=${a%%-*} bc=${b%%-*}
  [[ $a == *-* ]] && ap=${a#*-}
  [[ $b == *-* ]] && bp=${b#*-}
  if [ "$ac" != "$bc" ]; then
    [ "$(printf '%s\n' "$ac" "$bc" | sort -V | tail -n1)" = "$ac" ]
    return
  fi
  [ -z "$ap" ] && [ -n "$bp" ] && return 0
  [ -z "$bp" ] && return 1
  [ "$ap" != "$bp" ] && [ "$(printf '%s\n' "$ap" "$bp" | sort -V | tail -n1)" = "$ap" ]
}

step "what must be true first"
# A version a module path of this repository can carry (v0 or v1); its tags.
tags=$(go run ./internal/tools/modversions -tags "$version") || die "$version cannot be released"
[ -z "$(git status --porcelain)" ] || die "the tree has changes that are not committed: a release is a commit that CI tested"
for tag in $tags; do
  if git rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
    die "the tag $tag exists already"
  fi
done
last=""
for tag in $(git tag --list 'v*'); do
  [[ $tag =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || continue
  if [ -z "$last" ] || newer "$tag" "$last"; then last=$tag; fi
done
if [ -n "$last" ] && ! newer "$version" "$last"; then
  die "$version is not above the last release, $last"
fi
echo "last release: ${last:-none}; releasing $version from $(git rev-parse --short HEAD) ($(git branch --show-current || true))"
grep -q '^## \[Unreleased\]' CHANGELOG.md ||
  die "CHANGELOG.md has no '## [Unreleased]' section, where the changes after the release go"
grep -Eq "^## \[${version#v}\] - [0-9]{4}-[0-9]{2}-[0-9]{2}\$" CHANGELOG.md ||
  die "CHANGELOG.md has no section '## [${version#v}] - YYYY-MM-DD': move the Unreleased notes into it first"
# The modules name one another as the rules say, at the last version.
go run ./internal/tools/modversions
# The API record is the code's, and what broke since the last release is
# in the CHANGELOG.
go run ./internal/tools/api

step "the modules require one another at $version"
# The tree was clean: if a step below fails, it is put back as it was.
trap 'git checkout -q -- . && echo "release: stopped; the tree is as it was" >&2' ERR
go run ./internal/tools/modversions -set "$version"
git --no-pager diff --stat
.ci/tidy.sh -check
mapfile -t patterns < <(go work edit -json | sed -n 's/^[[:space:]]*"DiskPath": "\(.*\)".*/\1\/.../p')
go build "${patterns[@]}"
trap - ERR

step "commit and tags"
if ! git diff --quiet; then
  git commit -q -am "Release $version"
fi
for tag in $tags; do
  git tag -a -m "Release $version" "$tag"
done
git --no-pager log -1 --format='%h %s'
printf 'tags: %s\n' $tags

cat <<EOF

Nothing is pushed. Publish the commit and every tag at once:
  git push --atomic origin HEAD:$(git branch --show-current 2>/dev/null | grep . || echo main) $(echo $tags)
EOF
