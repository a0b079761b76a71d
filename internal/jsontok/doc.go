// Package jsontok reads JSON values from a jsontext.Decoder token by token,
// straight into Go values: the runtime of the decoders that gencodec
// generates for the SDK's wire types (codec.go at the module's root), and of
// the few types with decoders of their own.
//
// An object is read with Object, which hands each member's name to the
// caller's switch; that reads the value straight into its field (ReadString,
// ReadInt, ReadFloat, ReadBool) and says which member it was, and Object
// keeps the others as sent. The validators that gencodec generates beside
// the decoders read the same values and keep nothing (CheckString,
// CheckInt, …): they accept exactly what the readers accept. The decoders run with
// jsontext.AllowDuplicateNames(true) (the decoder's set of names per object
// was a tenth of a page's decode): Object tells a name seen twice by a bit per
// known member, and UniqueNames checks the values read whole or skipped. A
// value of the wrong kind is a *json.SemanticError at that value, as
// encoding/json/v2 gives it.
//
// The decoder must read from memory (json.Unmarshal's, or one made over a
// *bytes.Buffer): Object keeps the names it has read, as slices of the
// decoder's buffer, while it reads the values, which a decoder that
// streams its input may overwrite.
package jsontok
