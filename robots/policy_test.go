package robots

import (
	"errors"
	"testing"
)

func TestRFC9309_2_3_1_AccessResults(t *testing.T) {
	body := []byte("User-agent: *\nDisallow: /private\n")
	netErr := errors.New("dial tcp: connection refused")
	for _, c := range []struct {
		name       string
		status     int
		err        error
		opts       PolicyOptions
		avail      Availability
		privateOK  bool
		publicOK   bool
		denyReason Reason
	}{
		{"2.3.1.1 success 200", 200, nil, PolicyOptions{}, Available, false, true, ReasonRule},
		{"2.3.1.1 success 204", 204, nil, PolicyOptions{}, Available, false, true, ReasonRule},
		{"2.3.1.2 redirects left after five hops", 301, nil, PolicyOptions{}, Unavailable, true, true, ReasonNoRule},
		{"2.3.1.3 unavailable 404", 404, nil, PolicyOptions{}, Unavailable, true, true, ReasonNoRule},
		{"2.3.1.3 unavailable 410", 410, nil, PolicyOptions{}, Unavailable, true, true, ReasonNoRule},
		{"2.3.1.3 unavailable 401", 401, nil, PolicyOptions{}, Unavailable, true, true, ReasonNoRule},
		{"2.3.1.3 unavailable 403", 403, nil, PolicyOptions{}, Unavailable, true, true, ReasonNoRule},
		{"operator option 401 disallows", 401, nil, PolicyOptions{RestrictedDisallows: true}, Restricted, false, false, ReasonUnauthorized},
		{"operator option 403 disallows", 403, nil, PolicyOptions{RestrictedDisallows: true}, Restricted, false, false, ReasonUnauthorized},
		{"operator option leaves 404 alone", 404, nil, PolicyOptions{RestrictedDisallows: true}, Unavailable, true, true, ReasonNoRule},
		{"429 is unreachable", 429, nil, PolicyOptions{}, Unreachable, false, false, ReasonUnreachable},
		{"2.3.1.4 unreachable 500", 500, nil, PolicyOptions{}, Unreachable, false, false, ReasonUnreachable},
		{"2.3.1.4 unreachable 503", 503, nil, PolicyOptions{}, Unreachable, false, false, ReasonUnreachable},
		{"2.3.1.4 undefined code 100", 100, nil, PolicyOptions{}, Unreachable, false, false, ReasonUnreachable},
		{"2.3.1.4 undefined code 600", 600, nil, PolicyOptions{}, Unreachable, false, false, ReasonUnreachable},
		{"2.3.1.4 network error", 0, netErr, PolicyOptions{}, Unreachable, false, false, ReasonUnreachable},
		{"network error wins over a status", 200, netErr, PolicyOptions{}, Unreachable, false, false, ReasonUnreachable},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Classify(c.status, c.err, c.opts); got != c.avail {
				t.Errorf("Classify = %v, want %v", got, c.avail)
			}
			r := FromFetch(c.status, body, c.err, c.opts)
			if r.Availability() != c.avail {
				t.Errorf("Availability = %v, want %v", r.Availability(), c.avail)
			}
			g := r.Group("bot")
			if v := g.Allowed("/private/x"); v.Allowed != c.privateOK || v.Reason != c.denyReason {
				t.Errorf("/private/x: %v", v)
			}
			if v := g.Allowed("/public"); v.Allowed != c.publicOK {
				t.Errorf("/public: %v", v)
			}
			if v := g.Allowed("/robots.txt"); !v.Allowed {
				t.Errorf("/robots.txt: %v", v)
			}
		})
	}
}

// TestDisallowAll_GroupIsStar checks the group a policy answers with when
// the robots.txt was unreachable: the "*" group, as Agents and the
// Verdict's Agent say.
func TestDisallowAll_GroupIsStar(t *testing.T) {
	g := DisallowAll().Group("bot")
	if got := g.Agents(); len(got) != 1 || got[0] != "*" {
		t.Errorf("Agents() = %q, want [*]", got)
	}
	if v := g.Allowed("/a"); v.Agent != "*" || v.Allowed {
		t.Errorf("Allowed(/a) = %+v, want disallowed for agent *", v)
	}
}
