package scheduler

import (
	"net/url"
	"time"
)

// A Screen applies the crawl's own rules to candidates, as Add does, for
// a frontier kept outside the process: canonicalisation, URL length,
// scope, nofollow, path repeats, redirect, sitemap nesting and depth
// limits. The seen set, the host's robots.txt and page limits are the
// frontier's. It is safe for concurrent use.
type Screen struct {
	cfg   Config
	scope *scope
}

// NewScreen compiles cfg's scope; its error names a bad pattern.
func NewScreen(cfg Config) (*Screen, error) {
	sc, err := newScope(cfg.Scope)
	if err != nil {
		return nil, err
	}
	return &Screen{cfg: cfg, scope: sc}, nil
}

// An Offer is a candidate as a Screen read it: its canonical URL and host.
type Offer struct{ o offer }

// Key returns the canonical URL, the seen set's key.
func (o Offer) Key() string { return o.o.key }

// Authority returns the host, "scheme://host:port".
func (o Offer) Authority() string { return o.o.auth }

// SeedHost returns the host as scope "seeds" compares it (host name and
// effective port).
func (o Offer) SeedHost() string { return seedKey(o.o.u) }

// Candidate returns the candidate read.
func (o Offer) Candidate() Candidate { return o.o.c }

// Read canonicalises c at now, as Add does first: the skip of an invalid
// URL or one longer than Scope.MaxURLLength, else the offer.
func (sc *Screen) Read(c Candidate, now time.Time) (Offer, *Skip) {
	o, sk := readOffer(&sc.cfg, c, now)
	return Offer{o}, sk
}

// Check returns the skip of o by scope and by the way it was reached
// (nofollow, path repeats, redirects, sitemap nesting, depth), in Add's
// order; nil if it may be queued. seedHost reports whether a seedKey is a
// seed's (for scope "seeds"). None of these skips enters the seen set.
func (sc *Screen) Check(o Offer, seedHost func(string) bool) *Skip {
	if r, why := crawlRule(&sc.cfg, sc.scope, &o.o, seedHost); r != "" {
		return o.o.skip(r, why)
	}
	return nil
}

// AuthorityOf returns the authority of a canonical URL key, or "" when it
// does not parse.
func AuthorityOf(key string) string {
	u, err := url.Parse(key)
	if err != nil || u.Host == "" {
		return ""
	}
	return Authority(u)
}
