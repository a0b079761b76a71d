// Package webhook delivers the mirror's changes to web services, signed
// as the Standard Webhooks specification says (https://www.standardwebhooks.com),
// at least once, as River jobs in the database the mirror uses.
//
// A program that runs River builds a Deliverer from its change feed and
// endpoints, registers it with its workers, merges its Queues into its
// river.Config, and calls Enqueue after each sync:
//
//	d, err := webhook.NewDeliverer(changes, []webhook.Endpoint{{URL: u, Secret: s}},
//		webhook.WithEvents(webhook.Events{GivenUp: countFailed}))
//	d.Register(workers)                          // river.NewWorkers()
//	maps.Copy(config.Queues, d.Queues())         // one queue per endpoint
//	store := webhook.PgxStore{Pool: pool}        // store.CreateTable once
//	n, err := webhook.Enqueue(ctx, client, store, d)
//
// Each endpoint has its own queue and cursor; a slow one delays only its
// own deliveries, and syncing never waits on any. docs/webhooks.md gives
// the headers, a receiver's check, the retry schedule and the give-up time.
package webhook
