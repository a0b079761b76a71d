package ordermsgtest

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"
)

// Fault is a way a response can fail.
type Fault int

// The faults the handler can inject.
const (
	FaultNone        Fault = iota
	FaultRateLimit         // 429 with a Retry-After header
	FaultServerError       // 500
	FaultUnavailable       // 503
	FaultDrop              // the connection is closed with no response
	FaultCutBody           // a 200 whose body stops halfway, then the connection closes
	FaultSlow              // the right answer, after Faults.SlowDelay
)

var faultNames = [...]string{"none", "429", "500", "503", "drop", "cut-body", "slow"}

// String names the fault.
func (f Fault) String() string {
	if f >= 0 && int(f) < len(faultNames) {
		return faultNames[f]
	}
	return "fault(?)"
}

// AllFaults lists every fault but FaultNone.
var AllFaults = []Fault{FaultRateLimit, FaultServerError, FaultUnavailable, FaultDrop, FaultCutBody, FaultSlow}

// Faults says which share of responses fail, and how. The draws come from a
// generator seeded with Seed, in the order requests arrive: the same seed
// and the same request order give the same faults.
type Faults struct {
	Seed uint64
	// Rate is the share of requests that get a fault, from 0 to 1.
	Rate float64
	// Kinds are the faults drawn from, evenly; nil means AllFaults.
	Kinds []Fault
	// RetryAfter is the Retry-After of FaultRateLimit, in whole seconds;
	// 0 sends "Retry-After: 0".
	RetryAfter time.Duration
	// SlowDelay is the delay of FaultSlow; 0 means 50ms.
	SlowDelay time.Duration
}

// Stats counts what a handler served.
type Stats struct {
	Requests int64
	// Faults counts the injected faults by kind.
	Faults map[Fault]int64
}

// FaultTotal is the number of injected faults of every kind.
func (s Stats) FaultTotal() int64 {
	var n int64
	for _, c := range s.Faults {
		n += c
	}
	return n
}

type faultInjector struct {
	cfg      Faults
	mu       sync.Mutex
	rng      *rand.Rand
	requests atomic.Int64
	counts   [len(faultNames)]atomic.Int64
}

func newFaultInjector(f Faults) *faultInjector {
	if len(f.Kinds) == 0 {
		f.Kinds = AllFaults
	}
	if f.SlowDelay == 0 {
		f.SlowDelay = 50 * time.Millisecond
	}
	return &faultInjector{cfg: f, rng: rand.New(rand.NewPCG(f.Seed, f.Seed^0x6661756c74))}
}

// next draws the fault of the next request.
func (fi *faultInjector) next() Fault {
	fi.requests.Add(1)
	if fi.cfg.Rate <= 0 {
		return FaultNone
	}
	fi.mu.Lock()
	hit := fi.rng.Float64() < fi.cfg.Rate
	kind := fi.cfg.Kinds[fi.rng.IntN(len(fi.cfg.Kinds))]
	fi.mu.Unlock()
	if !hit {
		return FaultNone
	}
	fi.counts[kind].Add(1)
	return kind
}

func (fi *faultInjector) stats() Stats {
	s := Stats{Requests: fi.requests.Load(), Faults: map[Fault]int64{}}
	for _, f := range AllFaults {
		if n := fi.counts[f].Load(); n > 0 {
			s.Faults[f] = n
		}
	}
	return s
}
