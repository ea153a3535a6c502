package scheduler

import (
	"net"
	"net/url"
	"regexp"
	"strings"
)

// scope is the compiled form of ScopeConfig. It is immutable after
// construction except for the seed hosts, which the scheduler guards.
type scope struct {
	mode    string
	hosts   map[string]bool
	include []*regexp.Regexp
	exclude []*regexp.Regexp
	cfg     ScopeConfig
}

func newScope(c ScopeConfig) (*scope, error) {
	s := &scope{mode: c.Mode, hosts: map[string]bool{}, cfg: c}
	if s.mode == "" {
		s.mode = ScopeSeeds
	}
	for _, h := range c.Hosts {
		s.hosts[strings.ToLower(strings.TrimSpace(h))] = true
	}
	for _, p := range c.Include {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, err
		}
		s.include = append(s.include, re)
	}
	for _, p := range c.Exclude {
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, err
		}
		s.exclude = append(s.exclude, re)
	}
	return s, nil
}

// seedKey is u's host as the seeds scope compares it: the host name and
// the effective port, where the scheme's default port (http 80, https 443)
// counts as one "default port". So an http seed keeps its https redirect
// in scope, while another port of the same name is another host (its own
// queue, robots.txt and pace; RFC 9309 2.3: robots.txt applies to the
// scheme, host and port it came from).
func seedKey(u *url.URL) string {
	return net.JoinHostPort(hostName(u), portOf(u)) // "h:" for the default port
}

// check returns "" if u (canonical) is in scope, else a detail saying why
// not. seedHost reports whether a seedKey is a seed's; for a seed, the
// host test and the include patterns are skipped.
func (s *scope) check(u *url.URL, kind Kind, seed bool, seedHost func(string) bool) string {
	str := u.String()
	host := u.Hostname()
	if !seed && !(kind == KindRequisite && s.cfg.RequisitesAnyHost) {
		switch s.mode {
		case ScopeSeeds:
			if !seedHost(seedKey(u)) {
				return "host " + u.Host + " is not a seed host (host name and port)"
			}
		case ScopeHosts:
			if !s.hosts[host] {
				return "host " + host + " is not in scope.hosts"
			}
		}
	}
	for _, re := range s.exclude {
		if re.MatchString(str) {
			return "matches exclude " + re.String()
		}
	}
	if !seed && len(s.include) > 0 {
		for _, re := range s.include {
			if re.MatchString(str) {
				return ""
			}
		}
		return "matches no include pattern"
	}
	return ""
}
