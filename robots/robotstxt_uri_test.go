package robots

import "testing"

// TestRFC9309_2_2_2_OnlyTheRobotsTxtURIIsImplicitlyAllowed proves RFC 9309
// section 2.2.2, "The /robots.txt URI is implicitly allowed": that one
// URI (fragment aside, and however its octets are percent-encoded), not
// every URI whose path is /robots.txt. "/robots.txt?page=7" is another
// URI, which a server may route anywhere and a page may link without
// end: the rules decide it like any URL.
func TestRFC9309_2_2_2_OnlyTheRobotsTxtURIIsImplicitlyAllowed(t *testing.T) {
	const body = "User-agent: *\nDisallow: /\n\nUser-agent: narrow\nDisallow: /robots\nAllow: /robots.txt?ok\n"
	cases := []struct {
		name, agent, target string
		allowed             bool
		reason              Reason
		line                int
	}{
		{"the URI itself", "bot", "/robots.txt", true, ReasonRobotsTxt, 0},
		{"the URI with a fragment", "bot", "/robots.txt#top", true, ReasonRobotsTxt, 0},
		{"the URI absolute", "bot", "http://h.example/robots.txt", true, ReasonRobotsTxt, 0},
		{"the URI absolute with a fragment", "bot", "http://h.example/robots.txt#x", true, ReasonRobotsTxt, 0},
		{"the URI with an unreserved octet escaped", "bot", "/robots.tx%74", true, ReasonRobotsTxt, 0},
		{"with a query the rules decide", "bot", "/robots.txt?page=7", false, ReasonRule, 2},
		{"absolute with a query the rules decide", "bot", "http://h.example/robots.txt?page=7", false, ReasonRule, 2},
		{"an empty query is another URI (RFC 3986 6.2.3)", "bot", "/robots.txt?", false, ReasonRule, 2},
		{"an escaped '?' is part of the path", "bot", "/robots.txt%3F", false, ReasonRule, 2},
		{"a longer path", "bot", "/robots.txt/x", false, ReasonRule, 2},
		{"escaped octet then a query", "bot", "/robots.tx%74?a", false, ReasonRule, 2},
		{"the URI under a Disallow that matches it", "narrow", "/robots.txt", true, ReasonRobotsTxt, 0},
		{"a query under that Disallow", "narrow", "/robots.txt?x", false, ReasonRule, 5},
		{"a query an Allow names", "narrow", "/robots.txt?ok=1", true, ReasonRule, 6},
	}
	r := Parse([]byte(body))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Three checks: the first two use the cold matcher, the
			// third its hot copy; each must decide the same.
			for i := range 3 {
				v := r.Allowed(c.agent, c.target)
				if v.Allowed != c.allowed || v.Reason != c.reason || v.Line != c.line {
					t.Fatalf("check %d of %q for %s: %+v, want allowed=%v reason=%v line=%d",
						i+1, c.target, c.agent, v, c.allowed, c.reason, c.line)
				}
			}
		})
	}
}

// TestRFC9309_2_3_1_4_UnreachableStillAllowsOnlyTheRobotsTxtURI: under
// the disallow-all reading of an unreachable robots.txt (RFC 9309
// 2.3.1.4), the /robots.txt URI stays allowed (2.2.2) and a query on it
// does not.
func TestRFC9309_2_3_1_4_UnreachableStillAllowsOnlyTheRobotsTxtURI(t *testing.T) {
	r := DisallowAll()
	for i := range 3 {
		if v := r.Allowed("bot", "/robots.txt"); !v.Allowed || v.Reason != ReasonRobotsTxt {
			t.Fatalf("check %d: /robots.txt: %+v", i+1, v)
		}
		if v := r.Allowed("bot", "/robots.txt?x=1"); v.Allowed || v.Reason != ReasonUnreachable {
			t.Fatalf("check %d: /robots.txt?x=1: %+v", i+1, v)
		}
	}
}
