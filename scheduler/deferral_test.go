package scheduler

import (
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// TestDeferredHostReportsEveryQueuedURL: a host deferred by a slow
// Request-rate reports each queued URL once, spilled ones included, with
// the Request-rate line that holds it back; nothing is fetched and every
// URL stays queued.
func TestDeferredHostReportsEveryQueuedURL(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake(t, testConfig(), NewMemStore()) // MaxWait 1h
		defer f.s.Close()
		rr := rrate(1, 2*time.Hour, "", 4)
		rr.Text = "Request-rate: 1/2h"
		f.rules["http://a.test:80"] = Rules{RequestRates: []robots.RequestRate{rr}}
		want := urls("http://a.test", 2*perHostCache+5)
		f.add(want...)
		f.run(1)
		if p := f.pages(); len(p) != 0 {
			t.Errorf("pages %v, want none (robots.txt started the 2 h interval)", p)
		}
		var got []string
		for _, sk := range f.skips {
			got = append(got, sk.URL)
			if sk.Reason != ReasonCrawlDelayTooLong || sk.Rule != "Request-rate: 1/2h" || sk.Line != 4 {
				t.Errorf("skip %+v, want crawl-delay-too-long by the Request-rate on line 4", sk)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("skipped %d URLs %v, want the %d still queued", len(got), got, len(want))
		}
		if st := f.s.Stats(); st.Queued != len(want) {
			t.Errorf("queued %d, want %d", st.Queued, len(want))
		}
	})
}
