package robots

import (
	"errors"
	"fmt"
	"math"
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

// extension reads a per-group extension directive into p.cur: the line
// s, its value val.
func (p *parser) extension(d directive, s, val field, n int) {
	g := p.cur
	if g.ext == nil {
		g.ext = &pacing{}
	}
	x := g.ext
	switch d {
	case dCrawlDelay:
		delay, msg := parseDelay(val.s)
		if msg != "" {
			p.warn(g, n, s.s, msg)
		}
		if !x.hasDelay || delay > x.delay {
			x.delay, x.hasDelay, x.delayAt, x.delayTxt = delay, true, int32(n), s.span()
		}
	case dRequestRate:
		p.requestRate(x, s.s, val.s, n)
	case dVisitTime:
		p.visitTime(x, s.s, val.s, n)
	case dComment:
		if val.s != "" {
			l := x.list()
			if l.comments == nil {
				l.comments = make([]string, 0, 2)
			}
			l.comments = append(l.comments, val.s)
		}
	case dRobotVersion:
		p.robotVersion(x, s.s, val, n)
	}
}

// requestRate reads a Request-rate line s, whose value is val, into x.
func (p *parser) requestRate(x *pacing, s, val string, n int) {
	rate, msgs := parseRate(val)
	for _, m := range msgs {
		p.warn(p.cur, n, s, m)
	}
	rate.Line, rate.Text = n, quoteLine(s)
	l := x.list()
	if l.rates == nil {
		l.rates = make([]RequestRate, 0, 4) // files with rates tend to have several
	}
	l.rates = append(l.rates, rate)
}

// visitTime reads a Visit-time line s, whose value is val, into x.
func (p *parser) visitTime(x *pacing, s, val string, n int) {
	g := p.cur
	var buf [4]Window
	ws, zone, ok := appendWindows(buf[:0], val)
	if !ok || len(ws) == 0 {
		p.warn(g, n, s, "Visit-time is not \"HHMM-HHMM\" or \"HHMM HHMM\" (UTC); ignored")
		return
	}
	switch {
	case zone.other != "":
		// Cautious: the first window, read as written in the UTC the
		// 1996 extended standard prescribes, rather than no window at
		// all; a later one may be what the word excludes ("0100-0200
		// except 1300-1400") or narrows ("Mon-Fri").
		ws = ws[:1]
		p.warn(g, n, s, fmt.Sprintf("Visit-time: %q is a word this crawler does not read (it reads UTC, GMT, Z or a numeric offset); only the line's first window is kept, read as UTC as the 1996 extended standard defines it: %s",
			zone.other, windowSpans(ws)))
	case zone.hasOffset && zone.offset != 0:
		p.warn(g, n, s, zone.offsetNote("Visit-time", ws))
	}
	l := x.list()
	if room := MaxVisitWindows - len(l.visits); len(ws) > room {
		// Fewer windows only ever mean fewer visits; and the windows
		// are kept with the host's record in the crawler's frontier.
		p.warn(g, n, s, fmt.Sprintf("more than %d Visit-time windows in the group; the rest are ignored", MaxVisitWindows))
		ws = ws[:max(room, 0)]
	}
	for i := range ws {
		ws[i].Line = n
	}
	if len(ws) > 0 {
		ws[0].Text = quoteLine(s) // once per line: see Window.Text
	}
	l.visits = append(l.visits, ws...)
}

// robotVersion reads a Robot-version line s, whose value is val, into x:
// the group's first one counts.
func (p *parser) robotVersion(x *pacing, s string, val field, n int) {
	if x.hasVer {
		p.warn(p.cur, n, s, "second Robot-version in the group; the first one is kept")
		return
	}
	x.hasVer = true
	if val.s != "" {
		x.version = val.span()
	}
	if v := val.s; v != "1.0" && v != "2.0" && v != "1.0.0" && v != "2.0.0" {
		p.warn(p.cur, n, s, "unknown Robot-version; rules are read per RFC 9309 anyway")
	}
}

// parseDelay reads a Crawl-delay value in seconds, fractions allowed, with
// an optional "s". Conservative readings: a negative value counts by its
// magnitude; a number followed by another time unit parseRate knows ("1m",
// "2 min", "1h") is read in that unit; any other value that is not a
// number (NaN included) is the longest time span written in it, at least
// FallbackDelay (see longestSpan); a value too large, including one too
// large for a float64 ("1e400") and infinity, is capped at MaxDelay. Every
// reading but a plain number of seconds of at most MaxDelay comes with a
// warning.
func parseDelay(val string) (time.Duration, string) {
	f, ok := digits(val)
	var note string
	if !ok {
		num := val
		if t, cut := strings.CutSuffix(val, "s"); cut {
			num = trimWS(t)
		}
		var err error
		f, err = strconv.ParseFloat(num, 64)
		// ErrRange is an overflow (f is ±Inf) or an underflow (f is ±0):
		// both are numbers, read below.
		if err != nil && !errors.Is(err, strconv.ErrRange) || math.IsNaN(f) {
			if f, note, ok = delayWithUnit(val); !ok {
				return unreadableDelay(val)
			}
		}
	}
	neg := f < 0
	if neg {
		f = -f
	}
	switch {
	case f > MaxDelay.Seconds() && neg:
		return MaxDelay, joinNotes(note, "negative Crawl-delay whose magnitude is longer than a day; capped at 24 h")
	case f > MaxDelay.Seconds():
		return MaxDelay, joinNotes(note, "Crawl-delay longer than a day; capped at 24 h")
	case neg:
		return secs(f), joinNotes(note, "negative Crawl-delay; read as its magnitude")
	}
	return secs(f), note
}

// delayWithUnit reads a Crawl-delay written as a number and a time unit
// ("1m", "2 min", "1h", "10 sec"), and returns it in seconds, with a
// warning unless the unit is the second; ok is false if val is not such a
// value.
func delayWithUnit(val string) (float64, string, bool) {
	f, after, ok := readDecimal(val, false)
	word := trimWS(after)
	if !ok || word == "" || letterRun(word) != word {
		return 0, "", false
	}
	unit, known := timeUnit(word)
	if !known {
		return 0, "", false
	}
	if unit == time.Second {
		return f, "", true // "10 sec": seconds spelt out
	}
	f *= unit.Seconds()
	return f, fmt.Sprintf("Crawl-delay is in seconds; %q read as %s seconds", val, strconv.FormatFloat(f, 'g', -1, 64)), true
}

// unreadableDelay is the reading of a Crawl-delay that is not a number
// of seconds nor a number and a unit: the longest time span written in it,
// at least FallbackDelay, at most MaxDelay.
func unreadableDelay(val string) (time.Duration, string) {
	span := longestSpan(val)
	if span <= float64(FallbackDelay) {
		return FallbackDelay, "Crawl-delay is not a number of seconds; read as 10 s"
	}
	d := time.Duration(min(span, float64(MaxDelay)))
	return d, "Crawl-delay is not a number of seconds; read as " + d.String() + " (the longest time span written in it, at most 24 h)"
}

// joinNotes joins two warnings about one value into one.
func joinNotes(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
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

// MaxVisitWindows is the most Visit-time windows a group keeps (real files
// have one to three); further windows are ignored with a warning.
const MaxVisitWindows = 24

// maxQuote is the longest line text kept to quote a line (RequestRate.Text,
// Window.Text); a longer line is cut, with "...".
const maxQuote = 200

// quoteLine returns line as kept for quoting: at most maxQuote octets, cut
// at a character boundary.
func quoteLine(line string) string {
	if len(line) <= maxQuote {
		return line
	}
	return strings.ToValidUTF8(line[:maxQuote], "") + "..."
}
