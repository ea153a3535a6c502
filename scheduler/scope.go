package scheduler

import (
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

// check returns "" if u (canonical) is in scope, else a detail saying why
// not. seedHosts holds the host names of all seeds; for a seed, the host
// test and the include patterns are skipped.
func (s *scope) check(u *url.URL, kind Kind, seed bool, seedHosts map[string]bool) string {
	str := u.String()
	host := u.Hostname()
	if !seed && !(kind == KindRequisite && s.cfg.RequisitesAnyHost) {
		switch s.mode {
		case ScopeSeeds:
			if !seedHosts[host] {
				return "host " + host + " is not a seed host"
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
