package robots

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Conservative readings of malformed pacing values (see doc.go).
const (
	// FallbackDelay is the Crawl-delay (and Request-rate interval) assumed
	// for a value that is not a number: the 1996 extended standard's
	// rule-of-thumb minimum.
	FallbackDelay = 10 * time.Second
	// MaxDelay caps Crawl-delay and Request-rate intervals. A longer pause
	// outlives the 24 h a robots.txt may be cached (RFC 9309 2.4).
	MaxDelay = 24 * time.Hour
)

// extension reads a per-group extension directive into p.cur.
func (p *parser) extension(d directive, s, val string, n int) {
	g := p.cur
	if g.ext == nil {
		g.ext = &pacing{}
	}
	x := g.ext
	switch d {
	case dCrawlDelay:
		delay, msg := parseDelay(val)
		if msg != "" {
			p.warn(g, n, s, msg)
		}
		if !x.hasDelay || delay > x.delay {
			x.delay, x.hasDelay, x.delayAt, x.delayTxt = delay, true, int32(n), p.spanOf(s)
		}
	case dRequestRate:
		rate, msgs := parseRate(val)
		for _, m := range msgs {
			p.warn(g, n, s, m)
		}
		rate.Line, rate.Text = n, s
		l := x.list()
		if l.rates == nil {
			l.rates = make([]RequestRate, 0, 4) // files with rates tend to have several
		}
		l.rates = append(l.rates, rate)
	case dVisitTime:
		var buf [4]Window
		ws, ok := appendWindows(buf[:0], val)
		if !ok || len(ws) == 0 {
			p.warn(g, n, s, "Visit-time is not \"HHMM-HHMM\" or \"HHMM HHMM\" (UTC); ignored")
			return
		}
		l := x.list()
		l.visits = append(l.visits, ws...)
	case dComment:
		if val != "" {
			l := x.list()
			if l.comments == nil {
				l.comments = make([]string, 0, 2)
			}
			l.comments = append(l.comments, val)
		}
	case dRobotVersion:
		if x.hasVer {
			p.warn(g, n, s, "second Robot-version in the group; the first one is kept")
			return
		}
		x.hasVer = true
		if val != "" {
			x.version = p.spanOf(val)
		}
		if val != "1.0" && val != "2.0" && val != "1.0.0" && val != "2.0.0" {
			p.warn(g, n, s, "unknown Robot-version; rules are read per RFC 9309 anyway")
		}
	}
}

// parseDelay reads a Crawl-delay value in seconds, fractions allowed.
// Conservative readings: a negative value counts by its magnitude, a value
// that is not a number is FallbackDelay, and delays are capped at MaxDelay.
func parseDelay(val string) (time.Duration, string) {
	f, ok := digits(val)
	var err error
	if !ok {
		f, err = strconv.ParseFloat(val, 64)
	}
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		if t, ok := strings.CutSuffix(val, "s"); ok {
			if g, err2 := strconv.ParseFloat(trimWS(t), 64); err2 == nil && g >= 0 && !math.IsInf(g, 0) {
				return secs(g), ""
			}
		}
		return FallbackDelay, "Crawl-delay is not a number of seconds; read as 10 s"
	}
	msg := ""
	if f < 0 {
		f, msg = -f, "negative Crawl-delay; read as its magnitude"
	}
	if f > MaxDelay.Seconds() {
		return MaxDelay, "Crawl-delay longer than a day; capped at 24 h"
	}
	return secs(f), msg
}

// digits reads s if it is 1 to 9 decimal digits, the common Crawl-delay,
// as strconv.ParseFloat would, without its generality.
func digits(s string) (float64, bool) {
	if len(s) == 0 || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return float64(n), true
}

func secs(f float64) time.Duration {
	if f > MaxDelay.Seconds() {
		return MaxDelay
	}
	return time.Duration(math.Round(f * float64(time.Second)))
}

// parseRate reads a Request-rate value: "n/t[unit]" with unit s, m, h or d
// (seconds if absent), optionally followed by a UTC window. See doc.go for
// the conservative readings of malformed values.
func parseRate(val string) (RequestRate, []string) {
	var msgs []string
	rate := RequestRate{}
	s := val
	num, s, ok := readNumber(s)
	if !ok {
		return RequestRate{Requests: 1, Per: FallbackDelay, Malformed: true},
			[]string{"Request-rate does not start with a number; read as one document per 10 s"}
	}
	if num < 0 {
		num = -num
		msgs = append(msgs, "negative request count; read as its magnitude")
	}
	s = trimWS(s)
	var per time.Duration
	if rest, slash := strings.CutPrefix(s, "/"); slash {
		s = trimWS(rest)
		t, rest, ok := readNumber(s)
		if !ok {
			t = 1
		}
		if t < 0 {
			t = -t
			msgs = append(msgs, "negative period; read as its magnitude")
		}
		s = trimWS(rest)
		unit := time.Second
		u := 0
		for u < len(s) && ('a' <= s[u]|0x20 && s[u]|0x20 <= 'z') {
			u++
		}
		switch strings.ToLower(s[:u]) {
		case "", "s", "sec", "secs", "second", "seconds":
		case "m", "min", "mins", "minute", "minutes":
			unit = time.Minute
		case "h", "hr", "hour", "hours":
			unit = time.Hour
		case "d", "day", "days":
			unit = 24 * time.Hour
		default:
			unit = time.Hour
			msgs = append(msgs, "unknown time unit \""+s[:u]+"\"; read as hours, the slowest reading")
		}
		s = s[u:]
		if t == 0 {
			t = 1
			msgs = append(msgs, "zero period; read as one unit")
		}
		per = time.Duration(math.Min(t*float64(unit), float64(MaxDelay)))
	} else {
		// "Request-rate: 10": the slower reading is one document per 10 s.
		msgs = append(msgs, "no period; read as one document per that many seconds")
		if num == 0 {
			num = 1
		}
		per = time.Duration(math.Min(num*float64(time.Second), float64(MaxDelay)))
		num = 1
	}
	switch {
	case num == 0:
		msgs = append(msgs, "zero documents per period; read as one")
		rate.Requests = 1
	case num != math.Trunc(num) || num < 1:
		rate.Requests = 1
		per = time.Duration(float64(per) / num)
	case num > 1e9:
		rate.Requests = 1e9
	default:
		rate.Requests = int(num)
	}
	rate.Per = min(per, MaxDelay)
	if rate.Per <= 0 {
		rate.Per = time.Nanosecond
	}
	if s = trimWS(s); s != "" {
		var one [2]Window
		ws, ok := appendWindows(one[:0], s)
		switch {
		case ok && len(ws) == 1:
			rate.Window, rate.Windowed = ws[0], true
		default:
			msgs = append(msgs, "unreadable time window; the rate applies all day")
		}
	}
	rate.Malformed = len(msgs) > 0
	return rate, msgs
}

// readNumber reads a decimal number (sign and fraction allowed) at the
// start of s.
func readNumber(s string) (float64, string, bool) {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := 0
	for i < len(s) && ('0' <= s[i] && s[i] <= '9' || s[i] == '.') {
		if s[i] != '.' {
			digits++
		}
		i++
	}
	if digits == 0 {
		return 0, s, false
	}
	f, err := strconv.ParseFloat(s[:i], 64)
	if err != nil {
		return 0, s, false
	}
	return f, s[i:], true
}

// appendWindows reads one or more UTC windows from s, "HHMM-HHMM",
// "HHMM HHMM" or "HH:MM-HH:MM", separated by white space or ',', and
// appends them to ws (which callers keep on their stack). "2400" as an end
// means the end of the day. It appends nothing if s cannot be read.
func appendWindows(ws []Window, s string) ([]Window, bool) {
	times := make([]int, 0, 8) // stays on the stack for the usual one or two windows
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case isWS(c) || c == ',' || c == '-':
			i++
		case '0' <= c && c <= '9':
			j := i
			for j < len(s) && ('0' <= s[j] && s[j] <= '9' || s[j] == ':') {
				j++
			}
			m, ok := clockMinutes(s[i:j], len(times)%2 == 1)
			if !ok {
				return nil, false
			}
			times = append(times, m)
			i = j
		default:
			return nil, false
		}
	}
	if len(times) == 0 || len(times)%2 != 0 {
		return nil, false
	}
	ws = slices.Grow(ws, len(times)/2)
	for k := 0; k < len(times); k += 2 {
		ws = append(ws, Window{From: times[k], To: times[k+1]})
	}
	return ws, true
}

// clockMinutes reads "HHMM", "HMM" or "HH:MM" as minutes after midnight.
func clockMinutes(t string, end bool) (int, bool) {
	var hh, mm string
	if i := strings.IndexByte(t, ':'); i >= 0 {
		hh, mm = t[:i], t[i+1:]
	} else if len(t) == 3 || len(t) == 4 {
		hh, mm = t[:len(t)-2], t[len(t)-2:]
	} else {
		return 0, false
	}
	if len(hh) < 1 || len(hh) > 2 || len(mm) != 2 {
		return 0, false
	}
	h, err1 := strconv.Atoi(hh)
	m, err2 := strconv.Atoi(mm)
	if err1 != nil || err2 != nil || m > 59 {
		return 0, false
	}
	if h == 24 && m == 0 {
		if end {
			return minutesPerDay - 1, true
		}
		return 0, true
	}
	if h > 23 {
		return 0, false
	}
	return h*60 + m, true
}
