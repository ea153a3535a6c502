package crawler

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/gocolly/colly/v2"
)

// TestParseBudgetWaitsForBytes: a take waits until its bytes are free; a
// take larger than the whole budget takes all of it, so a page larger
// than the budget is still parsed, alone.
func TestParseBudgetWaitsForBytes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newParseBudget(10)
		if got := b.take(6); got != 6 {
			t.Fatalf("took %d, want 6", got)
		}
		done := make(chan int64)
		go func() { done <- b.take(6) }()
		synctest.Wait()
		select {
		case n := <-done:
			t.Fatalf("took %d of 4 free bytes", n)
		default:
		}
		b.give(6)
		if got := <-done; got != 6 {
			t.Fatalf("took %d after the give, want 6", got)
		}
		go func() { done <- b.take(1 << 30) }()
		synctest.Wait()
		select {
		case n := <-done:
			t.Fatalf("took %d while 6 bytes were held", n)
		default:
		}
		b.give(6)
		if got := <-done; got != 10 {
			t.Fatalf("a take over the budget took %d, want the whole budget (10)", got)
		}
		b.give(10)
		b.give(0)
		if b.free != 10 {
			t.Errorf("free %d after every give, want 10", b.free)
		}
	})
}

// TestParseBudgetFirstComeFirstServed: a take that waits for room is not
// passed by a smaller take that came after it, though that one would fit
// (else a 17 MB page can wait behind hundreds of small ones).
func TestParseBudgetFirstComeFirstServed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := newParseBudget(10)
		b.take(6)
		big, small := make(chan int64), make(chan int64)
		go func() { big <- b.take(10) }()
		synctest.Wait()
		go func() { small <- b.take(1) }()
		synctest.Wait()
		select {
		case <-big:
			t.Fatal("the big take got in with 4 bytes free")
		case <-small:
			t.Fatal("the small take passed the big one that came first")
		default:
		}
		b.give(6)
		if got := <-big; got != 10 {
			t.Fatalf("big took %d", got)
		}
		synctest.Wait()
		select {
		case <-small:
			t.Fatal("the small take got in while the big one held everything")
		default:
		}
		b.give(10)
		if got := <-small; got != 1 {
			t.Fatalf("small took %d", got)
		}
	})
}

// TestCollectorHoldsParseBudgetWhileParsingHTML: colly parses an HTML
// response with the page's bytes taken from the budget, and takes nothing
// for a response it does not parse; the worker gives them back.
func TestCollectorHoldsParseBudgetWhileParsingHTML(t *testing.T) {
	page := "<html><body>" + strings.Repeat(`<a href="/x">x</a>`, 100) + "</body></html>"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/data.txt" {
			w.Header().Set("Content-Type", "text/plain")
		} else {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		fmt.Fprint(w, page)
	}))
	defer srv.Close()
	budget := newParseBudget(1 << 20)
	col := newCollector(http.DefaultTransport, testConfig(t), budget)
	var freeWhileParsing []int64
	col.OnHTML("body", func(*colly.HTMLElement) {
		budget.mu.Lock()
		freeWhileParsing = append(freeWhileParsing, budget.free)
		budget.mu.Unlock()
	})
	for _, tc := range []struct {
		path string
		held int64
	}{{"/page.html", int64(len(page))}, {"/data.txt", 0}} {
		j := &job{}
		ctx := colly.NewContext()
		ctx.Put("job", j)
		if err := col.Request(http.MethodGet, srv.URL+tc.path, nil, ctx, nil); err != nil {
			t.Fatal(err)
		}
		if j.parsing != tc.held {
			t.Errorf("%s: held %d bytes, want %d", tc.path, j.parsing, tc.held)
		}
		budget.give(j.parsing)
	}
	if len(freeWhileParsing) != 1 || freeWhileParsing[0] != 1<<20-int64(len(page)) {
		t.Errorf("free while the page was parsed: %v; want %d", freeWhileParsing, 1<<20-len(page))
	}
	if budget.free != 1<<20 {
		t.Errorf("free %d after the requests, want the whole budget", budget.free)
	}
}
