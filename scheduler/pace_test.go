package scheduler

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"
)

func TestCrawlDelay10FourURLsTake30s(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t, testConfig(), NewMemStore())
		defer f.s.Close()
		f.rules["http://a.test:80"] = Rules{CrawlDelay: 10 * time.Second, HasCrawlDelay: true, CrawlDelayLine: 3}
		f.add(urls("http://a.test", 4)...)
		f.run(2)
		p := f.pages()
		if len(p) != 4 {
			t.Fatalf("fetched %d pages, want 4", len(p))
		}
		if got := p[3].Sub(p[0]); got != 30*time.Second {
			t.Errorf("4 URLs took %s, want 30s", got)
		}
		want := []time.Duration{10 * time.Second, 10 * time.Second, 10 * time.Second}
		if g := gaps(p); !slices.Equal(g, want) {
			t.Errorf("gaps %v, want %v", g, want)
		}
		// robots.txt at 0, first page one Crawl-delay later.
		if !p[0].Equal(epoch.Add(10 * time.Second)) {
			t.Errorf("first page at %s, want 00:00:10", p[0])
		}
		if src := f.s.Host("http://a.test:80").PaceSource; src != "crawl-delay 10s (line 3)" {
			t.Errorf("pace source %q", src)
		}
	})
}
