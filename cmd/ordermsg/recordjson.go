package main

import "encoding/json"

// recordJSON is the JSON of a record that sync --db stores: the record as
// the server sent it. Until the SDK keeps the server's bytes, it is the
// record encoded again, which gives back the same JSON value (the SDK's
// rule 2). When the SDK's ListOrdersOptions/ListMessagesOptions gain
// KeepRawJSON and Order/Message gain RawJSON() []byte, ask for KeepRawJSON
// and return RawJSON() here: this is the one place to change.
func recordJSON(v any) ([]byte, error) { return json.Marshal(v) }
