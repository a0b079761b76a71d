package webhook

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/riverqueue/river"

	"github.com/ordermsg/ordermsg-go/internal/urls"
)

// Kind is the River job kind of a delivery.
const Kind = "ordermsg_webhook_delivery"

// DeliveryArgs are a delivery job's arguments: which change goes where.
// They hold neither the body nor the secret; the body is read from the
// change feed at each attempt, the secret from the Deliverer.
type DeliveryArgs struct {
	Endpoint string `json:"endpoint"`
	Cursor   string `json:"cursor"`
	ID       string `json:"id"`
}

// Kind is Kind, the job kind River files deliveries under.
func (DeliveryArgs) Kind() string { return Kind }

// Events are told what deliveries do, for metrics and logs; a nil func is
// not called. They are called from River's workers, concurrently.
type Events struct {
	// Delivered: the endpoint answered 2xx.
	Delivered func(endpoint, cursor string)
	// Retrying: an attempt failed and another will follow.
	Retrying func(endpoint, cursor string, attempt int, err error)
	// GivenUp: the last attempt failed, or the change is no longer kept.
	// Its job stays in River's table as discarded or cancelled, counted
	// by CountGivenUp.
	GivenUp func(endpoint, cursor string, err error)
}

// Option configures a Deliverer.
type Option func(*Deliverer)

// WithSchedule sets the retry schedule (DefaultSchedule otherwise).
func WithSchedule(s Schedule) Option { return func(d *Deliverer) { d.schedule = s } }

// WithEvents sets what is told of each delivery.
func WithEvents(e Events) Option { return func(d *Deliverer) { d.events = e } }

// WithTransport sets the HTTP transport of every endpoint (a clone of
// http.DefaultTransport otherwise). Redirects are never followed.
func WithTransport(rt http.RoundTripper) Option { return func(d *Deliverer) { d.transport = rt } }

// Deliverer is the River worker of deliveries: it posts each change to its
// endpoint, signed, and tells River when to try again (NextRetry) and how
// long an attempt may take (Timeout).
type Deliverer struct {
	river.WorkerDefaults[DeliveryArgs]
	changes   Changes
	endpoints map[string]endpoint
	schedule  Schedule
	events    Events
	transport http.RoundTripper
}

// endpoint is an Endpoint ready to post to.
type endpoint struct {
	Endpoint
	shown  string
	client *http.Client
}

// NewDeliverer returns the worker that delivers changes to endpoints. It
// refuses, before anything is sent, an endpoint whose URL is not https://
// (or http:// to a loopback host), that has no secret, or whose name two
// share.
func NewDeliverer(changes Changes, endpoints []Endpoint, opts ...Option) (*Deliverer, error) {
	d := &Deliverer{changes: changes, endpoints: map[string]endpoint{}, schedule: DefaultSchedule}
	for _, o := range opts {
		o(d)
	}
	if err := d.schedule.check(); err != nil {
		return nil, err
	}
	if len(endpoints) == 0 {
		return nil, errors.New("webhook: NewDeliverer needs an endpoint")
	}
	transport := d.transport
	if transport == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = DefaultConcurrency
		transport = t
	}
	for _, e := range endpoints {
		if err := e.check(); err != nil {
			return nil, err
		}
		if _, dup := d.endpoints[e.name()]; dup {
			return nil, fmt.Errorf("webhook: two endpoints are named %s", e.name())
		}
		u, _ := url.Parse(e.URL)
		d.endpoints[e.name()] = endpoint{Endpoint: e, shown: urls.Redact(u), client: &http.Client{
			Transport:     transport,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}}
	}
	return d, nil
}

// Register adds the Deliverer to River's workers.
func (d *Deliverer) Register(workers *river.Workers) error {
	return river.AddWorkerSafely(workers, d)
}

// fetchCooldown is how often a delivery queue may fetch jobs: River's
// default, 100 ms, would bound an endpoint to Concurrency × 10 a second.
const fetchCooldown = 5 * time.Millisecond

// Queues are the River queues of the endpoints, one each, with as many
// workers as its Concurrency: merge them into river.Config.Queues. A slow
// or dead endpoint fills only its own queue.
func (d *Deliverer) Queues() map[string]river.QueueConfig {
	q := map[string]river.QueueConfig{}
	for _, e := range d.endpoints {
		q[e.Queue()] = river.QueueConfig{MaxWorkers: e.concurrency(), FetchCooldown: fetchCooldown, FetchPollInterval: time.Second}
	}
	return q
}

// NextRetry is when River tries a failed delivery again: the Schedule's
// wait after the attempt that failed.
func (d *Deliverer) NextRetry(job *river.Job[DeliveryArgs]) time.Time {
	return time.Now().Add(d.schedule.Wait(job.Attempt))
}

// Timeout bounds a delivery job: the endpoint's Timeout for the request,
// and as long again for reading the change.
func (d *Deliverer) Timeout(job *river.Job[DeliveryArgs]) time.Duration {
	if e, ok := d.endpoints[job.Args.Endpoint]; ok {
		return 2 * e.timeout()
	}
	return DefaultTimeout
}

// Work makes one attempt to deliver a change: a non-2xx answer, a timeout
// or a failure to connect is an error, which River retries.
func (d *Deliverer) Work(ctx context.Context, job *river.Job[DeliveryArgs]) error {
	e, ok := d.endpoints[job.Args.Endpoint]
	if !ok {
		return river.JobCancel(fmt.Errorf("webhook: no endpoint named %s in this worker", job.Args.Endpoint))
	}
	body, err := d.changes.Line(ctx, job.Args.Cursor)
	if errors.Is(err, ErrNoChange) {
		d.tellGivenUp(e, job, err)
		return river.JobCancel(err)
	}
	if err == nil {
		err = e.post(ctx, job.Args.ID, body)
	}
	switch {
	case err == nil:
		if d.events.Delivered != nil {
			d.events.Delivered(e.name(), job.Args.Cursor)
		}
	case job.Attempt >= job.MaxAttempts:
		d.tellGivenUp(e, job, err)
	case d.events.Retrying != nil:
		d.events.Retrying(e.name(), job.Args.Cursor, job.Attempt, err)
	}
	return err
}

func (d *Deliverer) tellGivenUp(e endpoint, job *river.Job[DeliveryArgs], err error) {
	if d.events.GivenUp != nil {
		d.events.GivenUp(e.name(), job.Args.Cursor, err)
	}
}

// maxAnswer is how much of an answer's body is read, so that its
// connection can serve the next delivery; the rest is left.
const maxAnswer = 64 << 10

// post sends body to the endpoint, signed, within its Timeout.
func (e endpoint) post(ctx context.Context, id string, body []byte) error {
	ctx, cancel := context.WithTimeout(ctx, e.timeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.URL, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("webhook: %s: %w", e.shown, urls.RedactError(err))
	}
	now := time.Now().Unix()
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "ordermsg-webhook")
	req.Header.Set(HeaderID, id)
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(now, 10))
	req.Header.Set(HeaderSignature, Sign(e.Secret, id, now, body))
	resp, err := e.client.Do(req)
	if err != nil {
		return fmt.Errorf("webhook: %s: %w", e.shown, urls.RedactError(err))
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxAnswer))
	resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("webhook: %s answered %s", e.shown, resp.Status)
	}
	return nil
}
