// Package ogenpeer holds the decode benchmark's peer: a client that ogen
// (github.com/ogen-go/ogen) generates from the repository's openapi.yaml, in
// package ogenclient. This is a module of its own, used only by its
// benchmark (bench_test.go), so that neither the SDK nor its users depend on
// ogen or on the code it generates.
//
// The client is generated, never checked in: run `go generate ./...` in
// this folder before building the benchmark (.ci/run does). ogen, pinned at
// v1.24.0, does not accept openapi.yaml as it is: derive.go writes the copy
// it accepts, openapi.ogen.yaml (generated too), and says what it changes.
// ogen.yml is ogen's configuration.
package ogenpeer

//go:generate go run derive.go
//go:generate go run github.com/ogen-go/ogen/cmd/ogen@v1.24.0 --config ogen.yml --target ogenclient --package ogenclient --clean openapi.ogen.yaml
