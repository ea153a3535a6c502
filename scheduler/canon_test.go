package scheduler

import (
	"net/url"
	"strings"
	"testing"
)

func TestCanonicalize(t *testing.T) {
	base, _ := url.Parse("http://Example.com/a/b/c.html?x=1#frag")
	for _, tc := range []struct {
		name, raw, want string
	}{
		{"RFC3986 6.2.2.1 scheme and host case", "HTTP://EXAMPLE.COM/Path", "http://example.com/Path"},
		{"RFC3986 6.2.3 default http port removed", "http://example.com:80/", "http://example.com/"},
		{"RFC3986 6.2.3 default https port removed", "https://example.com:443/x", "https://example.com/x"},
		{"non-default port kept", "http://example.com:8080/x", "http://example.com:8080/x"},
		{"RFC3986 6.2.3 empty path is /", "http://example.com", "http://example.com/"},
		{"fragment removed", "http://example.com/x#top", "http://example.com/x"},
		{"RFC3986 3.5 a bad escape in the fragment is no part of the request", "b.html#%_sec", "http://example.com/a/b/b.html"},
		{"a fragment's bad escape after a query", "/q?a=1#%zz%", "http://example.com/q?a=1"},
		{"query kept in order", "http://example.com/x?b=2&a=1&b=1", "http://example.com/x?b=2&a=1&b=1"},
		{"empty query dropped", "http://example.com/x?", "http://example.com/x"},
		{"RFC3986 5.2.4 dot segments", "http://example.com/a/./b/../c/", "http://example.com/a/c/"},
		{"RFC3986 5.2.4 dot segments above root", "http://example.com/../../x", "http://example.com/x"},
		{"RFC3986 5.2.4 trailing dot-dot", "http://example.com/a/b/..", "http://example.com/a/"},
		{"RFC3986 6.2.2.1 percent hex upper-cased", "http://example.com/a%2fb?q=%c3%a9", "http://example.com/a%2Fb?q=%C3%A9"},
		{"RFC3986 6.2.2.2 unreserved decoded", "http://example.com/%7Euser/%41", "http://example.com/~user/A"},
		{"RFC3986 5.2 relative reference", "../d?y=2", "http://example.com/a/d?y=2"},
		{"RFC3986 5.2 absolute path reference", "/root", "http://example.com/root"},
		{"RFC3986 5.2 network-path reference", "//other.org/p", "http://other.org/p"},
		{"RFC3986 5.2 fragment-only reference", "#x", "http://example.com/a/b/c.html?x=1"},
		{"user info dropped", "http://user:pw@example.com/", "http://example.com/"},
		{"spaces trimmed", "  http://example.com/x  ", "http://example.com/x"},
		{"IPv6 host", "http://[::1]:80/x", "http://[::1]/x"},
		{"IPv6 host with port", "http://[::1]:8080/x", "http://[::1]:8080/x"},
		{"RFC3986 6.2.3 empty port dropped", "http://example.com:/x", "http://example.com/x"},
		{"port leading zeros dropped", "http://127.0.0.1:018801/a", "http://127.0.0.1:18801/a"},
		{"port many leading zeros dropped", "http://127.0.0.1:00018801/c", "http://127.0.0.1:18801/c"},
		{"RFC3986 6.2.3 default port with leading zeros removed", "http://example.com:0080/", "http://example.com/"},
		{"default https port with leading zero removed", "https://example.com:0443/", "https://example.com/"},
		{"http port 443 kept", "http://example.com:443/", "http://example.com:443/"},
		{"IPv6 port leading zeros dropped", "http://[::1]:08080/x", "http://[::1]:8080/x"},
		{"trailing dot of a fully qualified host dropped", "http://Example.COM./x", "http://example.com/x"},
		{"trailing dot with a port", "http://example.com.:8080/x", "http://example.com:8080/x"},
		// RFC 3986 3.4; the URL Standard's special-query percent-encode set.
		{"raw Latin-1 octet in the query encoded as it came", "http://example.com/s?q=caf\xe9", "http://example.com/s?q=caf%E9"},
		{"raw UTF-8 in the query encoded octet by octet", "http://example.com/s?q=café", "http://example.com/s?q=caf%C3%A9"},
		{"space, double quote and angle brackets in the query encoded, the apostrophe kept", "http://example.com/s?q=a b\"c'<d>", "http://example.com/s?q=a%20b%22c'%3Cd%3E"},
		// A path that must be escaped keeps its sub-delimiters (a robots.txt
		// rule with "'" must match it), and "%27" as written stays.
		{"path with a space keeps its apostrophe and parentheses", "http://example.com/it's (a) b", "http://example.com/it's%20(a)%20b"},
		{"relative path with a space keeps its apostrophe", "it's b", "http://example.com/a/b/it's%20b"},
		{"path with raw UTF-8 keeps its apostrophe", "http://example.com/caf\u00e9's", "http://example.com/caf%C3%A9's"},
		{"encoded apostrophe kept as written", "http://example.com/it%27s b", "http://example.com/it%27s%20b"},
		{"path with an apostrophe alone unchanged", "http://example.com/it's", "http://example.com/it's"},
		{"reserved and other printable octets kept", "http://example.com/s?a=1&b=[x]|{y}^`\\", "http://example.com/s?a=1&b=[x]|{y}^`\\"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := Canonicalize(tc.raw, base)
			if err != nil {
				t.Fatalf("Canonicalize(%q): %v", tc.raw, err)
			}
			if got := u.String(); got != tc.want {
				t.Errorf("Canonicalize(%q) = %q, want %q", tc.raw, got, tc.want)
			}
			again, err := Canonicalize(u.String(), nil)
			if err != nil || again.String() != u.String() {
				t.Errorf("not idempotent: %q -> %v %v", u, again, err)
			}
		})
	}
	for _, raw := range []string{"mailto:a@b.c", "ftp://example.com/", "javascript:void(0)", "http://", "http://exa mple.com/", "/relative-without-base", "http://%zz/",
		"http://example.com:0/", "http://example.com:00000/", "http://example.com:65536/", "http://example.com:99999999999999999999/"} {
		if u, err := Canonicalize(raw, nil); err == nil {
			t.Errorf("Canonicalize(%q) = %v, want an error", raw, u)
		}
	}
}

func TestAuthority(t *testing.T) {
	for raw, want := range map[string]string{
		"http://127.0.0.1:8080/x":  "http://127.0.0.1:8080",
		"https://example.com/":     "https://example.com:443",
		"http://example.com/":      "http://example.com:80",
		"HTTP://Example.COM:80/a":  "http://example.com:80",
		"http://[::1]:9000/":       "http://[::1]:9000",
		"https://example.com:8443": "https://example.com:8443",
		"http://127.0.0.1:018801/": "http://127.0.0.1:18801",
		"http://127.0.0.1:0018801": "http://127.0.0.1:18801",
		"http://example.com:0080/": "http://example.com:80",
		"http://example.com:/":     "http://example.com:80",
	} {
		u, err := Canonicalize(raw, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := Authority(u); got != want {
			t.Errorf("Authority(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestAuthorityOfUncanonicalURL shows that Authority, given a URL that did
// not pass through Canonicalize, still names one authority per port.
func TestAuthorityOfUncanonicalURL(t *testing.T) {
	for raw, want := range map[string]string{
		"http://127.0.0.1:018801/x": "http://127.0.0.1:18801",
		"HTTPS://A.test:00443/":     "https://a.test:443",
		"http://a.test:/":           "http://a.test:80",
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := Authority(u); got != want {
			t.Errorf("Authority(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestPortAliasesShareOneHost: links to ":018801", ":0018801" and
// ":00018801" of a host at ":18801" must not create hosts of their own
// (each would fetch robots.txt and get a pace of its own).
func TestPortAliasesShareOneHost(t *testing.T) {
	s, err := Open(testConfig(), NewMemStore())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if sk, err := s.Add(Candidate{URL: "http://127.0.0.1:18801/", Seed: true}); err != nil || sk != nil {
		t.Fatalf("seed: %v %+v", err, sk)
	}
	for _, raw := range []string{"http://127.0.0.1:018801/a", "http://127.0.0.1:0018801/b", "http://127.0.0.1:00018801/c"} {
		if sk, err := s.Add(Candidate{URL: raw, Parent: "http://127.0.0.1:18801/", Depth: 1}); err != nil || sk != nil {
			t.Fatalf("add %s: %v %+v", raw, err, sk)
		}
	}
	if sk, _ := s.Add(Candidate{URL: "http://127.0.0.1:018801/", Parent: "http://127.0.0.1:18801/a", Depth: 2}); sk == nil || sk.Reason != ReasonDuplicate {
		t.Errorf("alias of the seed: %+v, want duplicate", sk)
	}
	hs := s.Hosts()
	if len(hs) != 1 || hs[0].Authority != "http://127.0.0.1:18801" || hs[0].Queued != 4 {
		t.Errorf("hosts = %+v, want one host http://127.0.0.1:18801 with 4 queued", hs)
	}
}

func TestAddDedupeScopeDepthLimits(t *testing.T) {
	type step struct {
		c    Candidate
		want Reason // "" = queued
	}
	for _, tc := range []struct {
		name  string
		cfg   func(*Config)
		steps []step
	}{
		{"dedupe after canonicalisation", nil, []step{
			{Candidate{URL: "http://a.test/x", Seed: true}, ""},
			{Candidate{URL: "HTTP://A.TEST:80/./x#f", Parent: "http://a.test/"}, ReasonDuplicate},
			{Candidate{URL: "x", Parent: "http://a.test/y"}, ReasonDuplicate},
			{Candidate{URL: "http://a.test/x?"}, ReasonDuplicate},
			{Candidate{URL: "http://a.test/x?q"}, ""},
		}},
		{"nofollow links are reported, not remembered", nil, []step{
			{Candidate{URL: "http://a.test/", Seed: true}, ""},
			{Candidate{URL: "http://a.test/", Parent: "http://a.test/p", Depth: 1, Nofollow: "page asks"}, ReasonDuplicate},
			{Candidate{URL: "http://a.test/n", Parent: "http://a.test/p", Depth: 1, Nofollow: "page asks"}, ReasonNofollow},
			{Candidate{URL: "http://a.test/n", Parent: "http://a.test/p", Depth: 1, Nofollow: "page asks"}, ReasonNofollow},
			{Candidate{URL: "http://b.test/", Parent: "http://a.test/p", Depth: 1, Nofollow: "page asks"}, ReasonOutOfScope},
			{Candidate{URL: "http://a.test/n", Parent: "http://a.test/q", Depth: 1}, ""},
			{Candidate{URL: "http://a.test/n", Parent: "http://a.test/p", Depth: 1, Nofollow: "page asks"}, ReasonDuplicate},
		}},
		{"invalid", nil, []step{
			{Candidate{URL: "mailto:x@y"}, ReasonInvalidURL},
			{Candidate{URL: "ftp://a.test/"}, ReasonInvalidURL},
		}},
		{"seed hosts scope", nil, []step{
			{Candidate{URL: "http://a.test/", Seed: true}, ""},
			{Candidate{URL: "http://b.test/", Parent: "http://a.test/", Depth: 1}, ReasonOutOfScope},
			{Candidate{URL: "https://a.test/secure", Parent: "http://a.test/", Depth: 1}, ""},
			{Candidate{URL: "http://b.test/", Parent: "http://a.test/", Depth: 1}, ReasonOutOfScope},
			{Candidate{URL: "http://b.test/", Seed: true}, ""},
			{Candidate{URL: "http://b.test/other", Depth: 1}, ""},
		}},
		{"seed hosts scope: RFC 9309 2.3 host name and port, default ports alike", nil, []step{
			{Candidate{URL: "http://127.0.0.1:18081/", Seed: true}, ""},
			{Candidate{URL: "http://127.0.0.1:18083/other", Parent: "http://127.0.0.1:18081/", Depth: 1}, ReasonOutOfScope},
			{Candidate{URL: "http://127.0.0.1/", Parent: "http://127.0.0.1:18081/", Depth: 1}, ReasonOutOfScope},
			{Candidate{URL: "http://127.0.0.1:18081/p", Parent: "http://127.0.0.1:18081/", Depth: 1}, ""},
			{Candidate{URL: "https://127.0.0.1:18081/p", Parent: "http://127.0.0.1:18081/", Depth: 1}, ""},
			{Candidate{URL: "http://h.test/", Seed: true}, ""},
			{Candidate{URL: "https://h.test:443/x", Parent: "http://h.test/", Depth: 1}, ""},
			{Candidate{URL: "http://H.test:80/y", Parent: "http://h.test/", Depth: 1}, ""},
			{Candidate{URL: "http://h.test:443/", Parent: "http://h.test/", Depth: 1}, ReasonOutOfScope},
			{Candidate{URL: "http://h.test:8080/", Parent: "http://h.test/", Depth: 1}, ReasonOutOfScope},
			{Candidate{URL: "https://k.test:8443/", Seed: true}, ""},
			{Candidate{URL: "http://k.test:8443/a", Parent: "https://k.test:8443/", Depth: 1}, ""},
			{Candidate{URL: "https://k.test/a", Parent: "https://k.test:8443/", Depth: 1}, ReasonOutOfScope},
		}},
		{"any host", func(c *Config) { c.Scope.Mode = ScopeAny }, []step{
			{Candidate{URL: "http://b.test/", Depth: 1}, ""},
		}},
		{"host list", func(c *Config) { c.Scope.Mode = ScopeHosts; c.Scope.Hosts = []string{"A.test"} }, []step{
			{Candidate{URL: "http://a.test:8080/"}, ""},
			{Candidate{URL: "http://b.test/"}, ReasonOutOfScope},
		}},
		{"requisites any host", func(c *Config) { c.Scope.RequisitesAnyHost = true }, []step{
			{Candidate{URL: "http://a.test/", Seed: true}, ""},
			{Candidate{URL: "http://cdn.test/x.css", Kind: KindRequisite, Depth: 1}, ""},
			{Candidate{URL: "http://cdn.test/page", Kind: KindPage, Depth: 1}, ReasonOutOfScope},
		}},
		{"include and exclude", func(c *Config) {
			c.Scope.Include = []string{`^http://a\.test/blog/`}
			c.Scope.Exclude = []string{`\?print=`, `/private/`}
		}, []step{
			{Candidate{URL: "http://a.test/", Seed: true}, ""},
			{Candidate{URL: "http://a.test/about", Depth: 1}, ReasonOutOfScope},
			{Candidate{URL: "http://a.test/blog/1", Depth: 1}, ""},
			{Candidate{URL: "http://a.test/blog/1?print=1", Depth: 1}, ReasonOutOfScope},
			{Candidate{URL: "http://a.test/private/x", Seed: true}, ReasonOutOfScope},
		}},
		{"max depth", func(c *Config) { c.Scope.MaxDepth = 2 }, []step{
			{Candidate{URL: "http://a.test/", Seed: true}, ""},
			{Candidate{URL: "http://a.test/2", Depth: 2}, ""},
			{Candidate{URL: "http://a.test/3", Depth: 3}, ReasonMaxDepth},
			{Candidate{URL: "http://a.test/3", Depth: 1}, ""},
		}},
		{"redirect chain cut after MaxRedirects hops", func(c *Config) { c.Scope.MaxDepth = 1 }, []step{
			{Candidate{URL: "http://a.test/", Seed: true}, ""},
			{Candidate{URL: "https://a.test/", Parent: "http://a.test/", Redirects: 1}, ""}, // a seed's http->https redirect keeps depth 0
			{Candidate{URL: "http://a.test/s?sid=10", Parent: "http://a.test/s?sid=9", Depth: 1, Redirects: MaxRedirects}, ""},
			{Candidate{URL: "http://a.test/s?sid=11", Parent: "http://a.test/s?sid=10", Depth: 1, Redirects: MaxRedirects + 1}, ReasonRedirectLimit},
		}},
		{"max URL length: the canonical form counts", func(c *Config) { c.Scope.MaxURLLength = 40 }, []step{
			{Candidate{URL: "http://a.test/", Seed: true}, ""},
			{Candidate{URL: "http://a.test/" + strings.Repeat("x", 26), Depth: 1}, ""}, // 40 octets
			{Candidate{URL: "http://a.test/" + strings.Repeat("y", 27), Depth: 1}, ReasonURLTooLong},
			{Candidate{URL: "HTTP://A.TEST:80/a/../" + strings.Repeat("z", 26), Depth: 1}, ""}, // 40 once canonical
			{Candidate{URL: "http://a.test/" + strings.Repeat("w", 4000), Seed: true}, ""},     // the operator's choice
			{Candidate{URL: "http://a.test/" + strings.Repeat("v", 4000), Depth: 1}, ReasonURLTooLong},
		}},
		{"max path repeats: relative-link traps, seeds exempt", func(c *Config) { c.Scope.MaxPathRepeats = 2 }, []step{
			{Candidate{URL: "http://a.test/a/a/a/", Seed: true}, ""}, // the operator's choice
			{Candidate{URL: "a/", Parent: "http://a.test/a/", Depth: 1}, ""},
			{Candidate{URL: "a/", Parent: "http://a.test/a/a/", Depth: 2}, ReasonDuplicate}, // the seed: queued, so not a trap's
			{Candidate{URL: "http://b.test/a/a/a/", Depth: 1}, ReasonOutOfScope},            // scope first
			{Candidate{URL: "a/", Parent: "http://a.test/a/a/a/", Depth: 3}, ReasonPathRepeats},
			{Candidate{URL: "b/a/b/", Parent: "http://a.test/x/a/b/a/", Depth: 1}, ReasonPathRepeats},
			{Candidate{URL: "http://a.test/x/y/../x/", Depth: 1}, ""}, // /x/x/ once canonical
			{Candidate{URL: "http://a.test/x/y/../x/x/", Depth: 1}, ReasonPathRepeats},
			{Candidate{URL: "http://a.test/x/x/x/?q=1", Kind: KindSitemap}, ReasonPathRepeats},
			{Candidate{URL: "http://a.test/s.css/s.css/s.css", Kind: KindRequisite, Depth: 1}, ReasonPathRepeats},
			{Candidate{URL: "http://a.test/s/s/s/", Parent: "http://a.test/s/s/s", Redirects: 1, SeedRedirect: true}, ""}, // a seed's slash form
		}},
		{"a seed's redirect is exempt from the trap limits, not from the patterns", func(c *Config) {
			c.Scope.MaxPathRepeats, c.Scope.MaxURLLength = 2, 40
			c.Scope.Include = []string{`^http://a\.test/docs/`}
		}, []step{
			{Candidate{URL: "http://a.test/start", Seed: true}, ""},
			{Candidate{URL: "http://a.test/docs/d/d/d/", Parent: "http://a.test/start", Redirects: 1, SeedRedirect: true}, ""},
			{Candidate{URL: "http://a.test/docs/" + strings.Repeat("x", 40), Parent: "http://a.test/start", Redirects: 1, SeedRedirect: true}, ""},
			{Candidate{URL: "http://a.test/login?next=/start", Parent: "http://a.test/start", Redirects: 1, SeedRedirect: true}, ReasonOutOfScope},
			{Candidate{URL: "http://a.test/docs/e/e/e/", Parent: "http://a.test/docs/", Redirects: 1}, ReasonPathRepeats},
		}},
		{"max path repeats 0: no limit", func(c *Config) { c.Scope.MaxPathRepeats = 0 }, []step{
			{Candidate{URL: "http://a.test/", Seed: true}, ""},
			{Candidate{URL: "http://a.test/a/a/a/a/a/", Depth: 1}, ""},
		}},
		{"sitemap nesting limited, max depth not applied to sitemaps", func(c *Config) { c.Scope.MaxDepth = 1 }, []step{
			{Candidate{URL: "http://a.test/", Seed: true}, ""},
			{Candidate{URL: "http://a.test/sm0.xml", Parent: "http://a.test/robots.txt", Kind: KindSitemap}, ""},
			{Candidate{URL: "http://a.test/sm2.xml", Parent: "http://a.test/sm1.xml", Kind: KindSitemap, Depth: MaxSitemapNesting}, ""},
			{Candidate{URL: "http://a.test/sm3.xml", Parent: "http://a.test/sm2.xml", Kind: KindSitemap, Depth: MaxSitemapNesting + 1}, ReasonSitemapNesting},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig()
			if tc.cfg != nil {
				tc.cfg(&cfg)
			}
			s, err := Open(cfg, NewMemStore())
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			queued := 0
			for i, st := range tc.steps {
				sk, err := s.Add(st.c)
				if err != nil {
					t.Fatal(err)
				}
				var got Reason
				if sk != nil {
					got = sk.Reason
				} else {
					queued++
				}
				if got != st.want {
					t.Errorf("step %d Add(%+v) = %v, want %q", i, st.c, sk, st.want)
				}
			}
			if q := s.Stats().Queued; q != queued {
				t.Errorf("queued %d, want %d", q, queued)
			}
		})
	}
}

func TestConfigValidate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default config: %v", err)
	}
	for name, mut := range map[string]func(*Config){
		"per_host":           func(c *Config) { c.PerHost = 0 },
		"crawl_delay_policy": func(c *Config) { c.CrawlDelayPolicy = "ignore" },
		"scope.mode":         func(c *Config) { c.Scope.Mode = "world" },
		"scope.hosts":        func(c *Config) { c.Scope.Mode = ScopeHosts },
		"scope pattern":      func(c *Config) { c.Scope.Exclude = []string{"(("} },
		"max_wait":           func(c *Config) { c.MaxWait = 0 },
		"min_delay":          func(c *Config) { c.MinDelay = -1 },
		"max_failures":       func(c *Config) { c.MaxFailures = 0 },
		"backoff_max":        func(c *Config) { c.BackoffMax = 1 },
	} {
		c := DefaultConfig()
		mut(&c)
		err := c.Validate()
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if _, err2 := Open(c, NewMemStore()); err2 == nil {
			t.Errorf("%s: Open accepted an invalid config", name)
		}
	}
}

// A fully qualified host name ("example.com.") is the same server as the
// name without its trailing dot: one authority, one pace, one robots.txt.
func TestAuthorityTrailingDot(t *testing.T) {
	for raw, want := range map[string]string{
		"http://Example.com./a":   "http://example.com:80",
		"https://example.com.:08": "https://example.com:8",
		"http://[::1]:8080/":      "http://[::1]:8080",
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := Authority(u); got != want {
			t.Errorf("Authority(%s) = %s, want %s", raw, got, want)
		}
	}
}

// TestSeedScopeSurvivesRestart: the seeds' host names and ports are
// restored from the frontier, so a resumed crawl keeps a link to another
// port of the seed's host name out of scope and says why.
func TestSeedScopeSurvivesRestart(t *testing.T) {
	store := NewMemStore()
	s, err := Open(DefaultConfig(), store)
	if err != nil {
		t.Fatal(err)
	}
	if sk, err := s.Add(Candidate{URL: "http://127.0.0.1:18081/", Seed: true}); sk != nil || err != nil {
		t.Fatal(sk, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	g, err := Open(DefaultConfig(), store)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	sk, err := g.Add(Candidate{URL: "http://127.0.0.1:18083/other", Parent: "http://127.0.0.1:18081/", Depth: 1})
	if err != nil || sk == nil || sk.Reason != ReasonOutOfScope || sk.Detail != "host 127.0.0.1:18083 is not a seed host (host name and port)" {
		t.Errorf("link to another port: %+v %v, want out-of-scope naming 127.0.0.1:18083", sk, err)
	}
	if sk, err := g.Add(Candidate{URL: "http://127.0.0.1:18081/p", Parent: "http://127.0.0.1:18081/", Depth: 1}); sk != nil || err != nil {
		t.Errorf("link on the seed's host and port: %+v %v, want queued", sk, err)
	}
}

// TestAddTooLongURL: a URL over Scope.MaxURLLength is skipped with its
// length in the detail; the Skip carries it whole (the crawler's log cuts
// it).
func TestAddTooLongURL(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Scope.MaxURLLength = 100
	s, err := Open(cfg, NewMemStore())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	long := "http://a.test/" + strings.Repeat("a/", 50000)
	sk, err := s.Add(Candidate{URL: long, Parent: "http://a.test/", Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	if sk == nil || sk.Reason != ReasonURLTooLong || sk.URL != long || sk.Authority != "http://a.test:80" ||
		!strings.Contains(sk.Detail, "100014 octets") || !strings.Contains(sk.Detail, "scope.max_url_length") {
		t.Fatalf("skip %+v", sk)
	}
	if st := s.Stats(); st.Skipped != 1 || st.Queued != 0 {
		t.Errorf("stats %+v; want one skip, nothing queued", st)
	}
}

// TestAddPathRepeats: a link whose path repeats a run of segments more
// than Scope.MaxPathRepeats times in a row is skipped with the run, its
// count and the key in the detail; the URL is not remembered, so it is
// refused again when offered again.
func TestAddPathRepeats(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Scope.MaxPathRepeats = 2
	s, err := Open(cfg, NewMemStore())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if sk, err := s.Add(Candidate{URL: "http://a.test/", Seed: true}); sk != nil || err != nil {
		t.Fatal(sk, err)
	}
	for range 2 {
		sk, err := s.Add(Candidate{URL: "b/a/b/", Parent: "http://a.test/docs/a/b/a/", Depth: 3})
		if err != nil {
			t.Fatal(err)
		}
		if sk == nil || sk.Reason != ReasonPathRepeats || sk.URL != "http://a.test/docs/a/b/a/b/a/b/" || sk.Authority != "http://a.test:80" ||
			sk.Parent != "http://a.test/docs/a/b/a/" || sk.Detail != `path segments "a/b/" occur 3 times in a row, more than 2 (scope.max_path_repeats)` {
			t.Fatalf("skip %+v", sk)
		}
	}
	if st := s.Stats(); st.Skipped != 2 || st.Queued != 1 {
		t.Errorf("stats %+v; want two skips, the seed queued", st)
	}
}

// TestSeen: Seen tells a queued URL from one only reported (a nofollow
// link is not remembered), and fails once the scheduler is closed.
func TestSeen(t *testing.T) {
	s, err := Open(testConfig(), NewMemStore())
	if err != nil {
		t.Fatal(err)
	}
	if sk, err := s.Add(Candidate{URL: "http://a.test/", Seed: true}); err != nil || sk != nil {
		t.Fatalf("seed: %v %+v", err, sk)
	}
	if sk, err := s.Add(Candidate{URL: "/n", Parent: "http://a.test/", Depth: 1, Nofollow: "page asks"}); err != nil || sk == nil || sk.Reason != ReasonNofollow {
		t.Fatalf("nofollow link: %v %+v", err, sk)
	}
	for key, want := range map[string]bool{"http://a.test/": true, "http://a.test/n": false, "http://b.test/": false} {
		if got, err := s.Seen(key); err != nil || got != want {
			t.Errorf("Seen(%s) = %v, %v; want %v", key, got, err, want)
		}
	}
	s.Close()
	if _, err := s.Seen("http://a.test/"); err != ErrClosed {
		t.Errorf("Seen after Close: %v, want ErrClosed", err)
	}
}

// TestResolveText: a reference that is no URI is logged as the absolute
// URL it was meant to be, merged with its page's URL as RFC 3986 5.2.2
// and 5.2.3 merge text.
func TestResolveText(t *testing.T) {
	base, _ := url.Parse("http://example.com:8080/a/b/c.html?x=1")
	for _, tc := range []struct{ raw, want string }{
		{"/bad%zz", "http://example.com:8080/bad%zz"},
		{"bad%zz", "http://example.com:8080/a/b/bad%zz"},
		{"//other.test/%zz", "http://other.test/%zz"},
		{"?q=%zz", "http://example.com:8080/a/b/c.html?q=%zz"},
		{"http://[::1", "http://[::1"},
		{"  /trim%zz ", "http://example.com:8080/trim%zz"},
	} {
		if got := ResolveText(tc.raw, base); got != tc.want {
			t.Errorf("ResolveText(%q) = %q, want %q", tc.raw, got, tc.want)
		}
	}
	if got := ResolveText("x%zz", nil); got != "x%zz" {
		t.Errorf("without a base: %q, want the reference as written", got)
	}
	hostOnly, _ := url.Parse("http://example.com")
	if got := ResolveText("x%zz", hostOnly); got != "http://example.com/x%zz" {
		t.Errorf("against a base with no path: %q, want http://example.com/x%%zz", got)
	}
}
