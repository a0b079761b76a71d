package mirror_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// TestChangeReadsOneByCursor: Change gives back each change that Changes
// yields, by its cursor; a cursor not issued is a *CursorError, and the
// cursor of a change removed by PruneChanges matches ErrCursorExpired.
func TestChangeReadsOneByCursor(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		ctx := context.Background()
		_, s, _, m := mirrorOf(t, be, target, ordermsgtest.Config{Seed: 9, Websites: 1, OrdersPerWebsite: 4, MessagesPerWebsite: 3})
		res := syncSite(t, m, s, nil)
		all := changesOf(t, m, "", nil)
		if want := res.Orders.New + res.Messages.New; len(all) != want || want == 0 {
			t.Fatalf("%d changes, want %d", len(all), want)
		}
		for _, want := range all {
			got, err := m.Change(ctx, want.Cursor)
			if err != nil || !reflect.DeepEqual(got.AppendJSON(nil), want.AppendJSON(nil)) {
				t.Errorf("Change(%q) = %s, %v; want %s", want.Cursor, got.AppendJSON(nil), err, want.AppendJSON(nil))
			}
		}
		last := all[len(all)-1].Cursor
		for _, bad := range []string{"", "x", last[:len(last)-4] + "ffff"} {
			var ce *mirror.CursorError
			if _, err := m.Change(ctx, bad); !errors.As(err, &ce) || ce.Expired {
				t.Errorf("Change(%q): %v, want a *CursorError not expired", bad, err)
			}
		}
		if _, err := m.PruneChanges(ctx, time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		for _, c := range []string{all[0].Cursor, last} {
			if _, err := m.Change(ctx, c); !errors.Is(err, mirror.ErrCursorExpired) {
				t.Errorf("Change(%q) after PruneChanges: %v, want ErrCursorExpired", c, err)
			}
		}
	})
}
