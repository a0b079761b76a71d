#!/usr/bin/env bash
# The release rehearsal: proves, before anything is published, that a
# release of this commit is what Go users can consume.
#
#   .ci/rehearse-release.sh [VERSION]
#
# In a throwaway clone of HEAD (uncommitted changes are not in it) it does
# what a maintainer does (RELEASING.md) for a test version, by default the
# tree's version with the next patch and "-rehearsal" (v0.1.1-rehearsal for
# v0.1.0): moves the CHANGELOG's Unreleased notes into the version's
# section, then runs .ci/release.sh. It writes a file-based module proxy
# holding only the tags it made (internal/tools/modproxy, zips made by
# golang.org/x/mod/zip as the public proxy makes them), and then, from an
# empty module cache, with the project's modules from that proxy alone and
# every other module from the usual proxy, checks that:
#   1. go get github.com/ordermsg/ordermsg-go@VERSION works in a new module,
#      and a program using the SDK builds and runs;
#   2. go get github.com/ordermsg/ordermsg-go/mirror@VERSION works, and a
#      program using the mirror with pgx builds;
#   3. go install github.com/ordermsg/ordermsg-go/cmd/ordermsg@VERSION works,
#      and ordermsg --version prints VERSION;
#   4. a module that imports only the root package has no pgx, modernc, cobra,
#      kin-openapi or OpenTelemetry (go.opentelemetry.io) in its go.sum after
#      go mod tidy;
#   5. go test of the released packages (the list `tested` below) passes from
#      the module cache, as a user's `go test all` runs them: the files
#      read-only, no sibling module's folder beside them;
#   6. go get github.com/ordermsg/ordermsg-go/otelordermsg@VERSION works, and a
#      program traced with it builds and prints its spans.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD

step() { printf '\n== rehearsal: %s\n' "$*"; }
fail() { printf 'rehearsal: %s\n' "$*" >&2; exit 1; }

current=$(go run ./internal/tools/modversions -current)
if [ $# -ge 1 ]; then
  version=$1
else
  core=${current#v}
  core=${core%%-*}
  version=v${core%.*}.$((${core##*.} + 1))-rehearsal
fi
root=github.com/ordermsg/ordermsg-go

# The packages whose tests step 5 runs from the module cache: a released
# module adds its pattern here.
tested=("$root/..." "$root/mirror/..." "$root/otelordermsg/...")

work=$(mktemp -d /tmp/ordermsg-rehearsal.XXXXXX)
# Step 5's module cache is read-only, as go makes it without -modcacherw.
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

step "a clone of $(git rev-parse --short HEAD), released as $version"
[ -z "$(git status --porcelain)" ] || echo "uncommitted changes are not rehearsed: only the commit is"
git clone -q "$(git rev-parse --path-format=absolute --git-common-dir)" "$work/clone"
git -C "$work/clone" checkout -q -B rehearsal "$(git rev-parse HEAD)"
export GIT_AUTHOR_NAME=rehearsal GIT_AUTHOR_EMAIL=rehearsal@ordermsg.invalid
export GIT_COMMITTER_NAME=rehearsal GIT_COMMITTER_EMAIL=rehearsal@ordermsg.invalid
(
  cd "$work/clone"
  # The maintainer's edit: the Unreleased notes become the version's section.
  sed -i "0,/^## \[Unreleased\]\$/s//## [Unreleased]\n\n## [${version#v}] - $(date -u +%F)/" CHANGELOG.md
  git commit -q -am "CHANGELOG: ${version#v}"
  .ci/release.sh "$version"
)

step "a module proxy holding only the tags of $version"
go run ./internal/tools/modproxy -repo "$work/clone" -version "$version" -out "$work/proxy"

# Everything from here is a user's machine: an empty module cache, no
# go.work, the project's modules from the file proxy (not in the checksum
# database, since unpublished), the others from the usual proxy.
upstream=$(go env GOPROXY | tr ',|' '\n\n' | grep -v -x -e direct -e off | paste -sd, -)
[ -n "$upstream" ] || fail "GOPROXY ($(go env GOPROXY)) names no proxy for the third-party modules"
export GOPROXY="file://$work/proxy,$upstream"
export GONOSUMDB=$root GONOPROXY= GOPRIVATE=
# -trimpath keeps the folder of the throwaway module cache out of the build
# cache's keys, so that the third-party packages compiled by an earlier
# rehearsal are found again (a build caches each package by its folder).
export GOMODCACHE=$work/modcache GOFLAGS="-modcacherw -trimpath" GOWORK=off GOTOOLCHAIN=local
export GOBIN=$work/bin

newmodule() { # newmodule NAME: a new module in $work/NAME, as a user makes it
  mkdir "$work/$1"
  (cd "$work/$1" && go mod init "example.com/$1" 2>/dev/null)
}

step "1. go get $root@$version, and a program using the SDK"
newmodule sdkuser
cat >"$work/sdkuser/main.go" <<'EOF'
// A program that uses the SDK as the README shows, against a server that
// answers one page of one order.
package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/ordermsg/ordermsg-go"
)

func main() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"object":"list","data":[{"object":"order","id":7,"date_created":"2024-03-01T10:00:00+00:00"}],`+
			`"meta":{"pagination":{"total":1,"count":1,"per_page":25,"current_page":1,"total_pages":1}}}`)
	}))
	defer srv.Close()
	c, err := ordermsg.NewClient(srv.URL, "key", ordermsg.WithVersionHeader("Acme-Api-Version", "1"))
	if err != nil {
		log.Fatal(err)
	}
	for o, err := range c.Orders.All(context.Background(), 1, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("order", o.ID)
	}
}
EOF
(
  cd "$work/sdkuser"
  go get "$root@$version"
  go mod tidy
  out=$(go run .)
  [ "$out" = "order 7" ] || fail "the SDK program printed $out"
  echo "$out"
)

step "4. a module that imports only the root package: its go.sum"
sum=$work/sdkuser/go.sum
if grep -E '^(github\.com/jackc/pgx|modernc\.org/|github\.com/spf13/cobra|github\.com/getkin/kin-openapi|go\.opentelemetry\.io/)' "$sum"; then
  fail "the go.sum of a module that imports only $root holds the lines above"
fi
echo "no pgx, modernc, cobra, kin-openapi or go.opentelemetry.io among its $(wc -l <"$sum") go.sum lines"

step "2. go get $root/mirror@$version, and a program using the mirror with pgx"
newmodule mirroruser
cat >"$work/mirroruser/main.go" <<'EOF'
// A program that mirrors a website into PostgreSQL, as the README shows.
package main

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"os"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
)

func main() {
	ctx := context.Background()
	db, err := sql.Open("pgx", os.Getenv("DATABASE_URL"))
	if err != nil {
		log.Fatal(err)
	}
	c, err := ordermsg.NewClient(os.Getenv("ORDERMSG_BASE_URL"), os.Getenv("ORDERMSG_API_KEY"))
	if err != nil {
		log.Fatal(err)
	}
	m, err := mirror.Open(ctx, db, mirror.PostgreSQL)
	if err != nil {
		log.Fatal(err)
	}
	res, err := m.Sync(ctx, c, 1, &mirror.Options{RefreshDays: 7})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Orders, res.Messages)
}
EOF
(
  cd "$work/mirroruser"
  go get "$root/mirror@$version"
  go mod tidy
  go build -o "$work/mirroruser/mirroruser" .
  grep -Eq "^\s+github\.com/ordermsg/ordermsg-go ${version//./\\.}\$" go.mod || fail "the mirror did not bring the SDK $version"
  echo "built; go.mod requires $(grep -c ordermsg-go go.mod) modules of the project at $version"
)

step "3. go install $root/cmd/ordermsg@$version"
(cd "$work" && go install "$root/cmd/ordermsg@$version")
printed=$("$GOBIN/ordermsg" --version)
[ "$printed" = "ordermsg $version" ] || fail "ordermsg --version printed '$printed', want 'ordermsg $version'"
echo "$printed"

step "6. go get $root/otelordermsg@$version, and a program traced with it"
newmodule oteluser
cat >"$work/oteluser/main.go" <<'EOF'
// A program whose SDK calls are traced with otelordermsg, its spans kept
// in memory and printed, against a server that answers one page.
package main

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/otelordermsg"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

func main() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"object":"list","data":[{"object":"order","id":7,"date_created":"2024-03-01T10:00:00+00:00"}],`+
			`"meta":{"pagination":{"total":1,"count":1,"per_page":25,"current_page":1,"total_pages":1}}}`)
	}))
	defer srv.Close()
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	c, err := ordermsg.NewClient(srv.URL, "key", otelordermsg.New(otelordermsg.WithTracerProvider(tp)))
	if err != nil {
		log.Fatal(err)
	}
	if _, err := c.Orders.List(context.Background(), 1, nil); err != nil {
		log.Fatal(err)
	}
	for _, s := range spans.Ended() {
		fmt.Println(s.Name())
	}
}
EOF
(
  cd "$work/oteluser"
  go get "$root/otelordermsg@$version"
  go mod tidy
  out=$(go run . | paste -sd, -)
  [ "$out" = "GET /websites/{website_id}/orders,Orders.List" ] || fail "the traced program printed $out"
  echo "spans: $out"
  grep -Eq "^\s+github\.com/ordermsg/ordermsg-go/otelordermsg ${version//./\\.}\$" go.mod || fail "go.mod does not require otelordermsg $version"
)

step "5. go test ${tested[*]} from a read-only module cache"
# A new module that requires the tested modules, with their tests'
# dependencies (go get -t), and a module cache of its own, extracted
# read-only (no -modcacherw), so that a test that writes beside its sources
# fails. In the cache each module's folder stands alone: a test that reads
# a sibling module's files must skip, saying so.
newmodule testuser
(
  cd "$work/testuser"
  export GOMODCACHE=$work/testcache GOFLAGS=-trimpath
  unset GOWORK # as a user has it: the tests' own go commands find go.work files
  # What a module zip changes is the files, not the database: the
  # PostgreSQL cases ran in CI's test step, and skip here.
  # -short: the long cases (soaks, processes) ran in CI's test step too.
  unset ORDERMSG_TEST_POSTGRES CI
  go get -t "${tested[@]/%/@$version}"
  go test -short -count=1 "${tested[@]}"
)

step "$version: every check passed"
