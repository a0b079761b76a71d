package webhook_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	"github.com/ordermsg/ordermsg-go/mirror/mirrortest"
	"github.com/ordermsg/ordermsg-go/mirror/webhook"
	"github.com/ordermsg/ordermsg-go/ordermsgtest"
)

// TestFromMirrorReadsTheFeed: the adapter pages the mirror's cursors in
// order, gives each change's line as Mirror.Changes makes it, and says
// ErrNoChange for a change that was pruned.
func TestFromMirrorReadsTheFeed(t *testing.T) {
	mirrortest.ForEach(t, func(t *testing.T, be mirrortest.Backend, target string) {
		ctx := context.Background()
		ds := ordermsgtest.Generate(ordermsgtest.Config{Seed: 5, Websites: 1, OrdersPerWebsite: 5})
		srv := ordermsgtest.NewServer(ds)
		t.Cleanup(srv.Close)
		w := ds.Websites[0]
		client, err := ordermsg.NewClient(srv.URL, w.APIKey)
		if err != nil {
			t.Fatal(err)
		}
		m, err := mirror.Open(ctx, be.Open(t, target), be.Backend)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Sync(ctx, client, w.ID, nil); err != nil {
			t.Fatal(err)
		}
		var want []mirror.Change
		for c, err := range m.Changes(ctx, "", nil) {
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, c)
		}
		feed := webhook.FromMirror(m)
		var got []string
		for cursor := ""; ; {
			page, err := feed.After(ctx, cursor, 2)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			got, cursor = append(got, page...), page[len(page)-1]
		}
		if len(got) != len(want) || len(want) < 5 {
			t.Fatalf("After paged %d cursors, the feed has %d", len(got), len(want))
		}
		for i, c := range want {
			line, err := feed.Line(ctx, got[i])
			if err != nil || got[i] != c.Cursor || string(line) != string(c.AppendJSON(nil)) {
				t.Errorf("change %d: cursor %q, line %s, %v; want %q, %s", i, got[i], line, err, c.Cursor, c.AppendJSON(nil))
			}
		}
		if _, err := m.PruneChanges(ctx, time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if _, err := feed.Line(ctx, got[0]); !errors.Is(err, webhook.ErrNoChange) {
			t.Errorf("Line of a pruned change: %v, want ErrNoChange", err)
		}
	})
}
