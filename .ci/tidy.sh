#!/usr/bin/env bash
# `go mod tidy` for every module of the repository, or with -check, a check
# that each go.mod and go.sum is exactly what it would write.
#
#   .ci/tidy.sh           # tidy every module (after changing an import)
#   .ci/tidy.sh -check    # CI: fail, with the diff, when one is not tidy
#
# Plain `go mod tidy` cannot do it in a module that requires a sibling:
# the siblings require one another at the version of the next release
# (RELEASING.md), which no proxy serves before it is published, and tidy
# ignores go.work. So each module is tidied through a copy of its go.mod
# and go.sum (go mod tidy -modfile) with temporary replace directives that
# point every sibling at its folder; the replaces are dropped again before
# the copy is compared with, or written over, the real files. A replaced
# module has no go.sum lines, so go.sum never holds lines of this
# repository's own modules; users never read them (a go.sum is the main
# module's only), and go install ...@version checks what it fetches against
# the checksum database, or GONOSUMDB.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD

check=false
case "${1:-}" in
  -check) check=true ;;
  "") ;;
  *) echo "usage: .ci/tidy.sh [-check]" >&2; exit 2 ;;
esac

# The modules are go.work's (modversions checks that it names every go.mod).
mapfile -t dirs < <(go work edit -json | sed -n 's/^[[:space:]]*"DiskPath": "\(.*\)".*/\1/p')
declare -A path_of
for dir in "${dirs[@]}"; do
  path_of[$dir]=$(awk '$1 == "module" {print $2; exit}' "$dir/go.mod")
done

# The decode benchmark's ogen peer is generated, not checked in, and tidy
# needs the packages its module imports: generate it when it is missing.
if [ ! -d internal/benchpeers/ogen/ogenclient ]; then
  out=$(cd internal/benchpeers/ogen && go generate ./... 2>&1) || { echo "$out" >&2; exit 1; }
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
untidy=()
n=0
for dir in "${dirs[@]}"; do
  n=$((n + 1))
  mod=$tmp/$n
  mkdir "$mod"
  cp "$dir/go.mod" "$mod/go.mod"
  if [ -f "$dir/go.sum" ]; then cp "$dir/go.sum" "$mod/go.sum"; fi
  replaces=() drops=()
  for other in "${dirs[@]}"; do
    replaces+=("-replace=${path_of[$other]}=$top/$other")
    drops+=("-dropreplace=${path_of[$other]}")
  done
  go mod edit "${replaces[@]}" "$mod/go.mod"
  (cd "$dir" && GOWORK=off go mod tidy -modfile="$mod/go.mod") ||
    { echo "go mod tidy failed in $dir"; exit 1; }
  go mod edit "${drops[@]}" "$mod/go.mod"

  for f in go.mod go.sum; do
    # A missing file compares as an empty one: tidy writes no go.sum for a
    # module without dependencies.
    [ -f "$mod/$f" ] || : >"$mod/$f"
    if [ -f "$dir/$f" ]; then cp "$dir/$f" "$mod/$f.now"; else : >"$mod/$f.now"; fi
    cmp -s "$mod/$f" "$mod/$f.now" && continue
    if $check; then
      echo "$dir/$f is not tidy; .ci/tidy.sh would change it:"
      diff -u --label "$dir/$f" --label "$dir/$f (tidy)" "$mod/$f.now" "$mod/$f" || true
      untidy+=("$dir")
    elif [ -s "$mod/$f" ]; then
      cp "$mod/$f" "$dir/$f"
    else
      rm -f "$dir/$f"
    fi
  done
done

if [ ${#untidy[@]} -gt 0 ]; then
  echo "not tidy: ${untidy[*]}: run .ci/tidy.sh"
  exit 1
fi
