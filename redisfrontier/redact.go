package redisfrontier

import (
	"net/url"
	"strings"
)

// Redact returns the frontier URL with its password, if any, replaced by
// "xxxxx", for every message that shows the URL. A URL that does not
// parse is shown up to its scheme only.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		scheme, _, _ := strings.Cut(raw, "://")
		return scheme + "://xxxxx"
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	if u.User == nil {
		return u.String()
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}
