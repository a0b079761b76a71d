package mirror

import (
	"errors"
	"fmt"
)

// ErrMassDelete is matched (errors.Is) by the *MassDeleteError of a
// reconcile that marked nothing deleted because it would have marked too
// many.
var ErrMassDelete = errors.New("mirror: a reconcile would mark too many records deleted")

// A reconcile marks none of a table's records deleted when it would mark
// more than massDeleteMin of them and more than massDeletePercent percent
// of the website's live records of that table, unless
// Options.AllowMassDelete.
const (
	massDeleteMin     = 10
	massDeletePercent = 10
)

// MassDeleteError is the error of a reconcile that would have marked more
// than 10% of a website's live records of one resource deleted, and more
// than 10 records: it marked none of them, since an empty or truncated
// listing answered with 404s, or a key that now reaches another website,
// looks the same as a mass deletion. What the reconcile read was written;
// the rest of the run went on. When the server really deleted them, run
// with Options.AllowMassDelete (ordermsg sync --allow-mass-delete) once.
type MassDeleteError struct {
	WebsiteID int64
	Resource  string // "orders" or "messages"
	// Deleting is the number of records the reconcile found gone, Live the
	// number of the website's records of the resource that were live.
	Deleting, Live int
}

// Error says how many, why none was marked, and what to do.
func (e *MassDeleteError) Error() string {
	return fmt.Sprintf("mirror: a reconcile of website %d's %s found %d of its %d live %s gone, more than %d%% and more than %d: "+
		"none was marked deleted, since a listing cut short or a key that reaches another website looks the same; "+
		"if the server really deleted them, run with AllowMassDelete (ordermsg sync --allow-mass-delete) once",
		e.WebsiteID, e.Resource, e.Deleting, e.Live, e.Resource, massDeletePercent, massDeleteMin)
}

// Is makes errors.Is(err, ErrMassDelete) true.
func (e *MassDeleteError) Is(target error) bool { return target == ErrMassDelete }

// tooManyGone reports whether marking gone of live records deleted needs
// Options.AllowMassDelete.
func tooManyGone(gone, live int) bool {
	return gone > massDeleteMin && gone*100 > live*massDeletePercent
}
