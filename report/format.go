package report

import (
	"fmt"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// fmtSeconds writes a duration given in seconds for people: "200ms",
// "1s", "2.5s", "10m", "1h 30m".
func fmtSeconds(s float64) string {
	if math.IsNaN(s) || math.IsInf(s, 0) {
		return "?"
	}
	return fmtDuration(time.Duration(s * float64(time.Second)))
}

// fmtDuration writes d rounded to what people care about.
func fmtDuration(d time.Duration) string {
	neg := ""
	if d < 0 {
		neg, d = "-", -d
	}
	switch {
	case d == 0:
		return "0s"
	case d < time.Second:
		return neg + strconv.FormatInt(d.Round(time.Millisecond).Milliseconds(), 10) + "ms"
	case d.Round(10*time.Millisecond) < time.Minute:
		// In whole centiseconds: a float's Seconds() printed in full gave
		// "2.7800000000000002s".
		cs := int64(d.Round(10*time.Millisecond) / (10 * time.Millisecond))
		frac := strings.TrimRight(fmt.Sprintf("%02d", cs%100), "0")
		if frac != "" {
			frac = "." + frac
		}
		return neg + strconv.FormatInt(cs/100, 10) + frac + "s"
	case d < time.Hour:
		d = d.Round(time.Second)
		m, s := int(d/time.Minute), int(d%time.Minute/time.Second)
		if s == 0 {
			return fmt.Sprintf("%s%dm", neg, m)
		}
		return fmt.Sprintf("%s%dm %ds", neg, m, s)
	default:
		d = d.Round(time.Minute)
		h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
		if m == 0 {
			return fmt.Sprintf("%s%dh", neg, h)
		}
		return fmt.Sprintf("%s%dh %dm", neg, h, m)
	}
}

// fmtTime writes t in UTC with seconds.
func fmtTime(t time.Time) string {
	if t.IsZero() {
		return "unknown"
	}
	return t.UTC().Format("2006-01-02 15:04:05 UTC")
}

// fmtClock writes t's UTC time of day, with milliseconds when asked.
func fmtClock(t time.Time, millis bool) string {
	if millis {
		return t.UTC().Format("15:04:05.000")
	}
	return t.UTC().Format("15:04:05")
}

// sameDay reports whether a and b fall on one UTC date.
func sameDay(a, b time.Time) bool {
	return a.UTC().Format(time.DateOnly) == b.UTC().Format(time.DateOnly)
}

// fmtValue writes a politeness setting read from JSON.
func fmtValue(key string, v any) string {
	switch x := v.(type) {
	case nil:
		return "not set"
	case float64:
		if strings.HasSuffix(key, "_seconds") {
			return fmtSeconds(x)
		}
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		if x {
			return "yes"
		}
		return "no"
	case string:
		return x
	case []any:
		parts := make([]string, 0, len(x))
		for _, e := range x {
			parts = append(parts, fmtValue("", e))
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, 0, len(x))
		for _, k := range keys {
			parts = append(parts, k+"="+fmtValue(k, x[k]))
		}
		return strings.Join(parts, ", ")
	default:
		return fmt.Sprint(x)
	}
}

// labelFor turns a settings key into words: "default_delay_seconds" becomes
// "default delay".
func labelFor(key string) string {
	k := strings.TrimSuffix(key, "_seconds")
	return strings.ReplaceAll(k, "_", " ")
}

// authorityOf returns scheme://host[:port] of a URL, or "" if it has none.
func authorityOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// pathOf returns the URL without its authority, for compact lists; raw if
// it does not parse.
func pathOf(raw, authority string) string {
	if authority != "" && strings.HasPrefix(raw, authority) {
		if p := raw[len(authority):]; p != "" {
			return p
		}
		return "/"
	}
	return raw
}

// statusClass names the CSS class for an HTTP status ("s2", "s3", "s4",
// "s5", or "s0" for a network error).
func statusClass(code int) string {
	switch {
	case code >= 200 && code < 300:
		return "s2"
	case code >= 300 && code < 400:
		return "s3"
	case code >= 400 && code < 500:
		return "s4"
	case code >= 500 && code < 600:
		return "s5"
	default:
		return "s0"
	}
}
