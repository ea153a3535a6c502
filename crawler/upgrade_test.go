package crawler

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/internal/wiretest"
)

// TestSwitchingProtocolsDoesNotHang: a server that answers 101 Switching
// Protocols and holds the connection must not have the raw connection
// read as the body, past fetch.timeout and Ctrl-C, for as long as it
// holds it. The crawler never asks for an upgrade: the answer is a failed
// request, and the crawl goes on to its other pages and ends.
func TestSwitchingProtocolsDoesNotHang(t *testing.T) {
	t.Parallel()
	s := wiretest.NewServer(t, map[string]wiretest.Route{
		"/up": {Resp: "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\nhello", End: "stall"},
		"/ok": {Resp: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"},
	}, nil)
	cfg := testConfig(t)
	cfg.Fetch.Timeout = 2 * time.Second
	cfg.Politeness.MaxFailures = 1
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, cfg, Options{Seeds: []string{s.URL("/up"), s.URL("/ok")}})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		cancel()
		t.Fatal("the crawl still runs 30 s after a 101 answer, with fetch.timeout 2s")
	}
	var up *crawllog.CrawlEntry
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		if e.URL == s.URL("/up") {
			up = &e
		}
	}
	if up == nil || up.Status != 101 || !strings.Contains(up.Error, "switched protocols") {
		t.Errorf("/up logged as %+v; want status 101 with the error", up)
	}
}

// TestStatusZeroIsAnError: "HTTP/1.1 000" is logged with an error, not as
// status 0 with no error, counted neither as fetched nor as an error.
func TestStatusZeroIsAnError(t *testing.T) {
	t.Parallel()
	s := wiretest.NewServer(t, map[string]wiretest.Route{
		"/zero": {Resp: "HTTP/1.1 000 Nothing\r\nContent-Length: 2\r\n\r\nok", End: "close"},
	}, nil)
	cfg := testConfig(t)
	cfg.Politeness.MaxFailures = 1
	crawlFor(t, cfg, s.URL("/zero"))
	var got *crawllog.CrawlEntry
	for _, e := range readJSONL[crawllog.CrawlEntry](t, filepath.Join(cfg.Out, crawllog.CrawlLogFile)) {
		if e.URL == s.URL("/zero") {
			got = &e
		}
	}
	if got == nil || !strings.Contains(got.Error, "status code 000 is no HTTP status") {
		t.Errorf("/zero logged as %+v; want the error", got)
	}
}
