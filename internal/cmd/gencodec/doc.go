// Command gencodec writes codec.go, the JSON methods of the ordermsg
// package's wire types, from their struct definitions. `go generate` runs it
// in the package's folder (see the //go:generate line in types.go).
//
// A wire type is a struct type with a field named Unknown tagged
// `json:",embed"`: it keeps the members the SDK does not model. Each gets a
// decoder that reads its members token by token (decodeFrom: a switch on
// each member name, over decode.go's helpers), a twin type without methods
// (orderFields for Order, ...) that encoding/json/v2 encodes from the struct
// tags, and four methods: UnmarshalJSONFrom and MarshalJSONTo
// (encoding/json/v2), UnmarshalJSON and MarshalJSON (encoding/json, v1).
// The type named by -lenient gets decodeValues: its string fields from the
// members whose values are strings, any other member skipped.
//
// The wire types that the types named by -validate hold, at any depth (and
// those types), also get a validator: validateFrom checks a value exactly
// as decodeFrom decodes it, keeping nothing (the lenient type gets
// validateValues; each -validate type also gets validateMember, which
// checks one member). A type that such a value
// holds and that has a decoder of its own (decodeFrom, or UnmarshalJSONFrom)
// must have a validateFrom of its own beside it, which the compiler checks.
//
// Usage:
//
//	gencodec [-o codec.go] [-lenient Type] [-validate Type,Type]
package main
