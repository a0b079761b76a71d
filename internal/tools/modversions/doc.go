// Command modversions keeps the versions by which the repository's modules
// name one another in step, so that each released module requires released
// siblings and no user of a release ever needs a replace directive.
//
// Run from the repository's top:
//
//	go run ./internal/tools/modversions             # check
//	go run ./internal/tools/modversions -set v0.2.0 # what the release script does
//	go run ./internal/tools/modversions -tags v0.2.0
//	go run ./internal/tools/modversions -current
//
// The rules it checks (RELEASING.md explains them):
//
//   - go.work uses every module of the repository (every go.mod outside
//     testdata): the release tags exactly those;
//   - no go.mod has a replace directive: a dependency's replaces are ignored
//     and go install refuses them;
//   - every require of one of the repository's modules names the same
//     version V, a release version and never a pseudo-version: the version
//     the tree is released as (before the first release, the first one's);
//   - go.work replaces each module that another requires, at V, by its
//     folder, so that a clone builds without fetching V;
//   - the SDK's Version constant (sent in the User-Agent header) is V
//     without its "v".
//
// -set V rewrites the requires, the go.work replaces and Version to V.
// -tags V prints the tag of every module for V, one a line. -current
// prints V, after the check.
package main
