package crawler

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/config"
)

// The warcinfo record (WARC 1.1 section 6.2) names each of its fields
// once: the archive writer writes format and conformsTo itself, and the
// crawler adds its politeness settings and operator agent.
func TestWarcinfoFieldsAppearOnce(t *testing.T) {
	cfg := testConfig(t)
	w, err := openArchive(cfg, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rec := onlyWarcinfo(t, w.Dir(), "*.warc.gz")
	seen := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(rec.Block)), "\r\n") {
		name, _, _ := strings.Cut(line, ":")
		seen[name]++
	}
	for _, name := range []string{"software", "format", "conformsTo", "operator-agent", "politeness-default-delay"} {
		if seen[name] != 1 {
			t.Errorf("warcinfo field %q appears %d times, want once:\n%s", name, seen[name], rec.Block)
		}
	}
}

// onlyWarcinfo returns the first record of the one WARC file in dir that
// matches pattern, failing t unless there is one and it is a warcinfo.
func onlyWarcinfo(t *testing.T, dir, pattern string) *archive.Record {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, pattern))
	if len(files) != 1 {
		t.Fatalf("files %v, want one matching %s", files, pattern)
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := archive.NewReader(f).Next()
	if err != nil && err != io.EOF {
		t.Fatal(err)
	}
	if rec == nil || rec.Type() != "warcinfo" {
		t.Fatalf("first record %v, want warcinfo", rec)
	}
	return rec
}

// The mirror is made from the archived responses, so asking for it
// without the WARC archive is a configuration error, not a silent no-op.
func TestValidate_MirrorNeedsWARC(t *testing.T) {
	c := config.Default()
	c.Archive.WARC, c.Archive.Mirror = false, true
	err := c.Validate()
	if err == nil || !strings.Contains(err.Error(), "archive.mirror") {
		t.Fatalf("Validate() = %v, want an archive.mirror error", err)
	}
	c.Archive.WARC = true
	if err := c.Validate(); err != nil {
		t.Error(err)
	}
}

// A response whose mirror copy cannot be made (here a body that says it
// is gzip and is not) is still archived: the crawl logs a warning about
// the mirror, not an archive write failure.
func TestMirrorOnlyFailureIsAWarning(t *testing.T) {
	t.Parallel()
	a := newTestHost(t)
	a.robotsText("User-agent: *\nAllow: /\n")
	a.pages["/"] = func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Encoding", "gzip")
		fmt.Fprint(w, "<p>not gzip at all</p>")
	}
	cfg := testConfig(t)
	cfg.Archive.Mirror = true
	var logs bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := Run(ctx, cfg, Options{Seeds: []string{a.URL("/")}, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), "archive write failed") || !strings.Contains(logs.String(), "level=WARN msg=\"mirror copy not written") {
		t.Errorf("logs:\n%s", logs.String())
	}
	idx, err := os.ReadFile(filepath.Join(cfg.Out, "archive", archive.IndexName))
	if err != nil || !strings.Contains(string(idx), `"url":"`+a.URL("/")+`"`) {
		t.Errorf("the response should be indexed: %v\n%s", err, idx)
	}
}

// RFC 9309 section 2.2.1: the product token a crawler matches groups with
// holds letters, '_' and '-' only. A digit would be cut off when groups are
// matched, so "Bot2" would obey "User-agent: Bot1"'s group; such a token
// is refused.
func TestValidate_AgentTokenIsAProductToken(t *testing.T) {
	for token, ok := range map[string]bool{"crawl": true, "my_bot-X": true, "Bot2": false, "a b": false, "": false, "bot/1.0": false} {
		c := config.Default()
		c.Agent.Token = token
		err := c.Validate()
		if (err == nil) != ok || (!ok && !strings.Contains(err.Error(), "agent.token")) {
			t.Errorf("token %q: Validate() = %v, want ok=%v", token, err, ok)
		}
	}
}

// TestValidConfigPassesTheScheduler: a config Validate accepts is one the
// scheduler accepts too, at the edges of every mirrored check.
func TestValidConfigPassesTheScheduler(t *testing.T) {
	edges := []func(*config.Config){
		func(c *config.Config) {},
		func(c *config.Config) {
			c.Politeness.MaxWait = time.Nanosecond
			c.Politeness.DefaultDelay, c.Politeness.MinDelay, c.Politeness.Margin = time.Nanosecond, 0, 0
		},
		func(c *config.Config) { c.Politeness.BackoffBase, c.Politeness.BackoffMax = time.Minute, time.Minute },
		func(c *config.Config) { c.Politeness.BackoffBase, c.Politeness.BackoffMax = 0, 0 },
		func(c *config.Config) {
			c.Politeness.DefaultDelay, c.Politeness.MinDelay, c.Politeness.Margin, c.Politeness.MaxCrawlDelay = 0, 0, 0, 0
			c.Politeness.FetchTimeFactor, c.Politeness.RetryAfterMax = 0, 0
		},
		func(c *config.Config) { c.Fetch.Workers, c.Politeness.PerHost, c.Politeness.MaxFailures = 1, 1, 1 },
		func(c *config.Config) {
			c.Scope.Hosts, c.Scope.Include, c.Scope.Exclude = "any", []string{"a{1,2}"}, []string{"b"}
		},
	}
	for i, edge := range edges {
		c := config.Default()
		edge(&c)
		if err := c.Validate(); err != nil {
			t.Errorf("edge %d: Validate: %v", i, err)
			continue
		}
		sc := schedulerConfig(c, nil)
		if c.Politeness.BackoffMax != sc.BackoffMax {
			t.Errorf("edge %d: backoff_max %s was replaced by %s", i, c.Politeness.BackoffMax, sc.BackoffMax)
		}
		if err := sc.Validate(); err != nil {
			t.Errorf("edge %d: Validate accepted what the scheduler refuses: %v", i, err)
		}
	}
}
