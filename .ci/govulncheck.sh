#!/usr/bin/env bash
# govulncheck, pinned, over every module of the repository.
#
#   .ci/govulncheck.sh             # as CI runs it
#   VULNDB=v0.0.0-2026…  .ci/govulncheck.sh   # against a given database
#   VULNDB=live .ci/govulncheck.sh            # against vuln.go.dev itself
#
# govulncheck's database, vuln.go.dev, is not reachable from CI's machines,
# whose only network is the package registries. The Go team publishes the
# same database as the module golang.org/x/vulndb, whose data/osv folder
# holds every entry as an OSV file; govulncheck reads such a folder as a
# local database (-db file://…). So the newest version the module proxy has
# (or VULNDB) is downloaded like any module (about 25 MB) and read from the
# module cache. Where vuln.go.dev is reachable, VULNDB=live uses it.
#
# The standard library is judged at GOTOOLCHAIN (CI gives the newest Go
# release it tests, GO127 in .ci/run): the local toolchain may be an older
# patch release whose fixed vulnerabilities are the machine's, not the
# project's; a finding there means: move CI to the patch release that fixes it.
set -euo pipefail
cd "$(dirname "$0")/.."

govulncheck=golang.org/x/vuln/cmd/govulncheck@v1.9.0
pkgs=(./... ./cmd/ordermsg/... ./contract/... ./mirror/... ./internal/benchpeers/ogen/... ./internal/tools/... ./otelordermsg/...)

db=()
if [ "${VULNDB:-}" != live ]; then
  json=$(cd / && GOWORK=off go mod download -json "golang.org/x/vulndb@${VULNDB:-latest}") || {
    echo "govulncheck: the vulnerability database (golang.org/x/vulndb) could not be downloaded through $(go env GOPROXY)" >&2
    exit 1
  }
  field() { sed -n "s/^[[:space:]]*\"$1\": \"\(.*\)\",\{0,1\}\$/\1/p" <<<"$json" | head -n1; }
  dir=$(field Dir)
  [ -d "$dir/data/osv" ] || { echo "govulncheck: golang.org/x/vulndb@$(field Version) has no data/osv folder" >&2; exit 1; }
  echo "vulnerability database: golang.org/x/vulndb@$(field Version), $(find "$dir/data/osv" -name '*.json' | wc -l) entries"
  db=(-db "file://$dir/data/osv")
fi
echo "standard library: $(go env GOVERSION)"
go run "$govulncheck" "${db[@]}" "${pkgs[@]}"
