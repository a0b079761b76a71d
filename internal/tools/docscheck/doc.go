// Package docscheck holds the tests that hold the repository's Markdown
// files to the code of every module: the tests, benchmarks and files they
// name exist, and their links resolve; and every hand-written Go file's doc
// comments to 20 lines outside doc.go. They span the modules, so they live
// in the tools module, which is never released and so always runs in a
// clone, where every module's folder is present; a released module's zip
// holds its own folder only.
package docscheck
