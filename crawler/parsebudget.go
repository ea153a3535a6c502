package crawler

import (
	"net/http"
	"strings"
	"sync"

	"github.com/gocolly/colly/v2"
)

// maxParseBytes is how many bytes of HTML colly may parse at once, over
// all workers. colly builds a DOM (goquery) of every HTML response, which
// costs 10 to 35 times the page: sixteen workers parsing 9 MB pages of
// links at once held 5.6 GB. Pages are still parsed whole, and a page
// larger than the budget is parsed alone; typical pages (tens of KB) never
// wait.
const maxParseBytes = 16 << 20

// parseBudget bounds the bytes being parsed at once, first come first
// served: a large page waiting for room is not passed by small pages that
// came after it (they would keep it waiting while its worker holds its
// host's turn). Safe for concurrent use.
type parseBudget struct {
	mu     sync.Mutex
	cond   sync.Cond
	size   int64
	free   int64
	ticket uint64 // the next ticket to hand out
	turn   uint64 // the ticket served next
}

func newParseBudget(size int64) *parseBudget {
	b := &parseBudget{size: size, free: size}
	b.cond.L = &b.mu
	return b
}

// take waits until n bytes, or the whole budget if n is larger, are free,
// takes them and returns how many it took.
func (b *parseBudget) take(n int64) int64 {
	n = min(n, b.size)
	b.mu.Lock()
	defer b.mu.Unlock()
	mine := b.ticket
	b.ticket++
	for b.turn != mine || b.free < n {
		b.cond.Wait()
	}
	b.turn++
	b.free -= n
	b.cond.Broadcast() // the next in line may fit too
	return n
}

// give returns n bytes taken by take.
func (b *parseBudget) give(n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	b.free += n
	b.mu.Unlock()
	b.cond.Broadcast()
}

// parsedAsHTML reports whether colly builds a DOM of r: it has HTML
// callbacks, and parses a response whose Content-Type (or, without one,
// whose sniffed type) is text/html or application/xhtml+xml.
func parsedAsHTML(r *colly.Response) bool {
	ct := r.Headers.Get("Content-Type")
	if ct == "" {
		ct = http.DetectContentType(r.Body)
	}
	return htmlMediaType(ct)
}

// htmlMediaType reports whether the Content-Type value ct names a type
// colly parses as HTML: text/html or application/xhtml+xml.
func htmlMediaType(ct string) bool {
	mt, _, _ := strings.Cut(ct, ";")
	switch strings.TrimSpace(strings.ToLower(mt)) {
	case "text/html", "application/xhtml+xml":
		return true
	}
	return false
}
