package robots

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// windowZone is what a Visit-time or Request-rate window said about its
// time zone. The 1996 extended standard writes the times in UTC ("in UT
// (or GMT)"), so a "UTC", "GMT", "UT" or "Z" (any case) only says so; a
// numeric offset ("+0100", "UTC-05:00") is read exactly; any other word is
// kept in other so the caller can choose a cautious reading and warn.
type windowZone struct {
	offset    int    // minutes east of UTC the times were written at
	hasOffset bool   // a numeric offset was written
	other     string // the first word that is no UTC name, no separator and no offset
}

// utcName reports whether the lower-case word w names UTC.
func utcName(w string) bool { return w == "utc" || w == "gmt" || w == "ut" || w == "z" }

// appendWindows reads one or more daily windows from s, "HHMM-HHMM",
// "HHMM HHMM", "HH:MM-HH:MM" or "HHMM to HHMM", separated by white space,
// ',' or ';', each time optionally followed by a UTC name ("0100Z",
// "0100 UTC"), the line optionally by a numeric offset, and appends them,
// in UTC, to ws (which callers keep on their stack). "2400" as an end
// means the end of the day. It appends nothing and reports false if s
// holds no time or an odd number of times; a word it does not know is
// reported in the windowZone, not refused.
func appendWindows(ws []Window, s string) ([]Window, windowZone, bool) {
	times := make([]int, 0, 8) // stays on the stack for the usual one or two windows
	var z windowZone
	other := func(w string) {
		if z.other == "" {
			z.other = w
		}
	}
	afterName := false // the previous token was a UTC name: a sign after a whole window starts an offset
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isWS(c) || c == ',' || c == ';' || c == '(' || c == ')':
			i++
			afterName = afterName && c != ',' && c != ';'
			continue
		case strings.HasPrefix(s[i:], "\u2013"): // an en dash, as word processors write "-"
			i += len("\u2013")
		case c == '+' || c == '-' && i+1 < len(s) && isDigit(s[i+1]) && (afterName && len(times)%2 == 0 || signedOffset(s, i, len(times))):
			j := timeEnd(s, i+1)
			off, ok := offsetMinutes(s[i+1 : j])
			switch {
			case !ok:
				other(s[i:j])
			case z.hasOffset && z.offset != off:
				other(s[i:j])
			default:
				z.offset, z.hasOffset = off, true
				if c == '-' {
					z.offset = -off
				}
			}
			i = j
		case c == '-':
			i++
		case isDigit(c):
			j := timeEnd(s, i)
			m, ok := clockMinutes(s[i:j], len(times)%2 == 1)
			if !ok {
				return nil, z, false
			}
			times = append(times, m)
			i = j
		case isLetter(c):
			j := i
			for j < len(s) && isLetter(s[j]) {
				j++
			}
			w := strings.ToLower(s[i:j])
			switch {
			case utcName(w):
				afterName = true
				i = j
				continue
			case w == "to" || w == "and":
			default:
				other(s[i:j])
			}
			i = j
		default:
			other(s[i : i+1])
			i++
		}
		afterName = false
	}
	if len(times) == 0 || len(times)%2 != 0 {
		return nil, z, false
	}
	ws = slices.Grow(ws, len(times)/2)
	for k := 0; k < len(times); k += 2 {
		ws = append(ws, Window{From: toUTC(times[k], z.offset), To: toUTC(times[k+1], z.offset)})
	}
	return ws, z, true
}

// signedOffset reports whether the '-' at s[i] starts a numeric offset
// rather than joining two times: it follows white space and a whole
// number of windows (n times read), and the number after it ends s.
func signedOffset(s string, i, n int) bool {
	if n == 0 || n%2 != 0 || i == 0 || !isWS(s[i-1]) {
		return false
	}
	return trimWS(s[timeEnd(s, i+1):]) == ""
}

// timeEnd returns the end of the run of digits and ':' (a time or an
// offset) that starts at s[i].
func timeEnd(s string, i int) int {
	for i < len(s) && (isDigit(s[i]) || s[i] == ':') {
		i++
	}
	return i
}

// offsetMinutes reads the digits of a numeric zone offset, "H", "HH",
// "HHMM" or "H:MM", as minutes (at most 14 h, RFC 3339's and the world's
// widest).
func offsetMinutes(t string) (int, bool) {
	hh, mm := t, "0"
	if k := strings.IndexByte(t, ':'); k >= 0 {
		hh, mm = t[:k], t[k+1:]
	} else if len(t) == 4 {
		hh, mm = t[:2], t[2:]
	}
	if len(hh) < 1 || len(hh) > 2 || len(mm) < 1 || len(mm) > 2 {
		return 0, false
	}
	h, err1 := strconv.Atoi(hh)
	m, err2 := strconv.Atoi(mm)
	if err1 != nil || err2 != nil || m > 59 || h*60+m > 14*60 {
		return 0, false
	}
	return h*60 + m, true
}

// toUTC returns the minute of the day m, written at offset minutes east of
// UTC, in UTC.
func toUTC(m, offset int) int {
	return ((m-offset)%minutesPerDay + minutesPerDay) % minutesPerDay
}

// offsetNote is the warning for a window line whose zone was given as a
// numeric offset: the line was read, but not in the standard's UTC.
func (z windowZone) offsetNote(what string, ws []Window) string {
	if !z.hasOffset || z.offset == 0 {
		return ""
	}
	sign, off := '+', z.offset
	if off < 0 {
		sign, off = '-', -off
	}
	return fmt.Sprintf("%s times are UTC (1996 extended standard); written at UTC%c%02d:%02d, read as %s",
		what, sign, off/60, off%60, windowSpans(ws))
}

// windowSpans lists the Span of each of ws.
func windowSpans(ws []Window) string {
	spans := make([]string, len(ws))
	for i, w := range ws {
		spans[i] = w.Span()
	}
	return strings.Join(spans, ", ")
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

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
