// Package resources names the API's two resources once, for the SDK, the
// mirror and the command-line tool: the "object" of their records and the
// path segment of their collection, which is also the name that a
// checkpoint, the mirror's table and the tool's command take.
//
// The rest of what describes a resource is the SDK's, public: its includes
// (ordermsg.AllOrderIncludes, AllMessageIncludes), and a record's id,
// creation time and bytes as sent (ordermsg.RawRecord, or the typed
// record's ID, DateCreated and RawJSON).
package resources

// The records' "object": constants, so that package ordermsg's ObjectOrder
// and ObjectMessage are these.
const (
	OrderObject   = "order"
	MessageObject = "message"
)

// Resource is one of the API's resources.
type Resource struct {
	// Object is the "object" of its records: "order".
	Object string
	// Collection is the path segment of its collection, under
	// /websites/:website_id/, and the name of its checkpoints, of the
	// mirror's table and of the tool's command: "orders".
	Collection string
}

// Orders and Messages are the API's two resources.
var (
	Orders   = Resource{Object: OrderObject, Collection: "orders"}
	Messages = Resource{Object: MessageObject, Collection: "messages"}
)
