package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ordermsg/ordermsg-go"
	"github.com/ordermsg/ordermsg-go/mirror"
	dto "github.com/prometheus/client_model/go"
	"gopkg.in/yaml.v3"
)

// servedMetrics are the names a worker's /metrics serves, gathered from its
// registry once every hook has run (a vector has no series before), with the
// _bucket, _sum and _count series of each histogram.
func servedMetrics(t *testing.T) map[string]bool {
	t.Helper()
	m := newWorkerMetrics("v1", fixedStates(mirror.WebsiteState{WebsiteID: 1}), websiteList(1))
	m.RunStarted(1)
	m.RunEnded(mirror.WebsiteResult{WebsiteID: 1})
	o := m.Observer()
	o.StartAttempt(context.Background(), &ordermsg.Attempt{})(ordermsg.AttemptEnd{StatusCode: 200})
	o.Retry(context.Background(), ordermsg.RetryWait{})
	families, err := m.registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, f := range families {
		served[f.GetName()] = true
		if f.GetType() == dto.MetricType_HISTOGRAM {
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				served[f.GetName()+suffix] = true
			}
		}
	}
	return served
}

// metricsDoc is docs/metrics.md.
func metricsDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoTop(t), "docs", "metrics.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// alertRule is a rule of a Prometheus rules file.
type alertRule struct {
	Alert string `yaml:"alert"`
	Expr  string `yaml:"expr"`
}

// documentedRules are the rules of the ```yaml blocks of doc, parsed as
// Prometheus reads a rules file.
func documentedRules(t *testing.T, doc string) []alertRule {
	t.Helper()
	var rules []alertRule
	for _, block := range regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(doc, -1) {
		var file struct {
			Groups []struct {
				Name  string      `yaml:"name"`
				Rules []alertRule `yaml:"rules"`
			} `yaml:"groups"`
		}
		if err := yaml.Unmarshal([]byte(block[1]), &file); err != nil {
			t.Fatalf("a yaml block of docs/metrics.md does not parse: %v", err)
		}
		for _, g := range file.Groups {
			rules = append(rules, g.Rules...)
		}
	}
	return rules
}

// promQLMetrics returns the metric names of a PromQL expression: its
// identifiers but functions, keywords, label names and label values.
func promQLMetrics(expr string) []string {
	for _, drop := range []string{`"[^"]*"`, `\{[^}]*\}`, `\[[^\]]*\]`, `\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)`} {
		expr = regexp.MustCompile(drop).ReplaceAllString(expr, " ")
	}
	keywords := []string{"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "bool", "offset"}
	var names []string
	for _, m := range regexp.MustCompile(`\b([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?`).FindAllStringSubmatch(expr, -1) {
		if m[2] == "" && !slices.Contains(keywords, m[1]) {
			names = append(names, m[1])
		}
	}
	return names
}

func TestMetricsAlertRulesNameOnlyServedMetrics(t *testing.T) {
	served := servedMetrics(t)
	rules := documentedRules(t, metricsDoc(t))
	want := map[string]string{
		"OrdermsgWebsiteStale":   "ordermsg_website_last_success_timestamp_seconds",
		"OrdermsgWebsiteFailing": "ordermsg_website_consecutive_failures",
	}
	for _, r := range rules {
		names := promQLMetrics(r.Expr)
		if len(names) == 0 {
			t.Errorf("rule %s: no metric found in %q", r.Alert, r.Expr)
		}
		for _, name := range names {
			if !served[name] {
				t.Errorf("rule %s names %s, which the worker does not serve", r.Alert, name)
			}
		}
		if fixed, ok := want[r.Alert]; ok {
			if !slices.Equal(names, []string{fixed}) {
				t.Errorf("rule %s names %v, want only the fixed %s", r.Alert, names, fixed)
			}
			delete(want, r.Alert)
		}
	}
	if len(want) > 0 {
		t.Errorf("docs/metrics.md has no rule %v", want)
	}
}

func TestMetricsDocNamesEveryMetricServed(t *testing.T) {
	served := servedMetrics(t)
	doc := metricsDoc(t)
	for name := range served {
		if strings.HasPrefix(name, "ordermsg_") && !strings.HasSuffix(name, "_bucket") && !strings.HasSuffix(name, "_sum") &&
			!strings.HasSuffix(name, "_count") && !strings.Contains(doc, "| `"+name+"` |") {
			t.Errorf("docs/metrics.md has no row for %s", name)
		}
	}
	for _, name := range regexp.MustCompile(`\bordermsg_[a-z_]+`).FindAllString(doc, -1) {
		if !served[name] {
			t.Errorf("docs/metrics.md names %s, which the worker does not serve", name)
		}
	}
}

func TestPromQLMetrics(t *testing.T) {
	for expr, want := range map[string][]string{
		`time() - max by (website_id) (a_b{website_id="1"}) > 2 * 3600`: {"a_b"},
		`rate(c_total[5m] offset 5m) / on (job) d unless e == bool 0`:   {"c_total", "d", "e"},
	} {
		if got := promQLMetrics(expr); !slices.Equal(got, want) {
			t.Errorf("promQLMetrics(%q) = %v, want %v", expr, got, want)
		}
	}
}
