package robots

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// maxRequests is the largest document count a RequestRate keeps; a larger
// count is read as this one, which only slows the rate.
const maxRequests = 1e9

// parseRate reads a Request-rate value. The 1996 extended standard's
// grammar is "<rate>", "<rate> <time> <time>" or "<rate> <time> '-'
// <time>", where <rate> is <numdocuments> '/' <timeunit> and the default
// unit is the second: the rate is one word, which white space ends.
// parseRate also accepts white space around '/' and before a unit
// ("1 / 5 s") and the units s, m, h and d spelt out, unless what follows
// the white space after '/' is a time window: "1/ 0600-0700" is a rate
// without a period in the window 06:00-07:00, not one document per 600 s.
//
// The period is kept as written; only the interval it gives is capped, at
// MaxDelay (see RequestRate.Interval), with a warning. See doc.go for the
// conservative readings of malformed values; each comes with a warning.
func parseRate(val string) (RequestRate, []string) {
	var msgs []string
	num, s, ok := readDecimal(val, true)
	if !ok {
		return RequestRate{Requests: 1, Per: FallbackDelay, Malformed: true},
			[]string{"Request-rate does not start with a number; read as one document per 10 s"}
	}
	if num < 0 {
		num = -num
		msgs = append(msgs, "negative request count; read as its magnitude")
	}
	num, per, s, msgs := ratePeriod(val, trimWS(s), num, msgs)
	rate, msgs := rateOf(num, per, msgs)
	if s = trimWS(s); s != "" {
		msgs = rate.readWindow(s, msgs)
	}
	rate.Malformed = len(msgs) > 0
	return rate, msgs
}

// ratePeriod reads what follows the count num in the Request-rate value
// val: s, '/' and a period, or no period. It returns the count and the
// period (in nanoseconds) as read, what follows the period, and msgs with
// the warnings about them appended.
func ratePeriod(val, s string, num float64, msgs []string) (float64, float64, string, []string) {
	var per float64
	if rest, slash := strings.CutPrefix(s, "/"); !slash && (s == "" || isWindow(s)) {
		// "Request-rate: 10": the slower reading is one document per 10 s.
		msgs = append(msgs, "no period; read as one document per that many seconds")
		per, num = max(num, 1)*float64(time.Second), 1
	} else if !slash {
		// "1 per 10s", "1,000/1h", "1e3/1h", "1:10", "1m": unreadable
		// after the count. At least FallbackDelay, and never faster than
		// the count with its unit as one document's period ("1m"), nor
		// any number later in the text as the period of the count.
		per = max(float64(FallbackDelay), slowestCountReading(num, s))
		num, s = 1, ""
		msgs = append(msgs, fmt.Sprintf("%q after the count is not '/' and a period; read as one document per %s (the slowest reading of its numbers, at least 10 s)",
			trimWS(val[len(val)-len(rest):]), durationText(per)))
	} else {
		p, rest, pmsgs, bad := readPeriod(rest)
		msgs = append(msgs, pmsgs...)
		s, per = rest, p
		if bad != "" {
			// Unreadable, like a Crawl-delay that is not a number (at
			// least FallbackDelay), and never faster than the count read
			// alone, as "Request-rate: 100" is.
			per, num = max(num*float64(time.Second), float64(FallbackDelay)), 1
			msgs = append(msgs, bad+"; read as one document per "+durationText(per)+" (the count as seconds, at least 10 s)")
		}
	}
	return num, per, s, msgs
}

// rateOf returns the rate of num documents (not negative) per per
// nanoseconds: a whole count of at least one and at most maxRequests, a
// fraction folded into the period, a period that fits a Duration. It
// appends the warnings about them to msgs.
func rateOf(num, per float64, msgs []string) (RequestRate, []string) {
	rate := RequestRate{}
	switch {
	case num == 0:
		msgs = append(msgs, "zero documents per period; read as one")
		rate.Requests = 1
	case num != math.Trunc(num) || num < 1:
		// "0.5/1m" is one document per 2 minutes.
		rate.Requests = 1
		per /= num
	case num > maxRequests:
		msgs = append(msgs, "more than 10^9 documents per period; read as 10^9")
		rate.Requests = maxRequests
	default:
		rate.Requests = int(num)
	}
	interval := per / float64(rate.Requests)
	if interval > float64(MaxDelay) {
		msgs = append(msgs, "one document every "+durationText(interval)+" is slower than one a day; capped at one every 24 h")
	}
	if per >= math.MaxInt64 {
		// The period does not fit a Duration ("200000/4000000h"): keep
		// the interval it gives, capped, as one document per interval.
		rate.Requests, per = 1, min(interval, float64(MaxDelay))
	}
	rate.Per = max(time.Duration(per), time.Nanosecond)
	return rate, msgs
}

// readWindow reads s, the text after a rate, as the rate's time window,
// and returns msgs with the warnings about it appended.
func (rate *RequestRate) readWindow(s string, msgs []string) []string {
	var one [2]Window
	ws, zone, ok := appendWindows(one[:0], s)
	switch {
	case ok && len(ws) == 1 && zone.other != "":
		// The window's hours are unknown: the rate all day is the
		// cautious reading, as for any unreadable window.
		msgs = append(msgs, fmt.Sprintf("%q is not a time zone this crawler reads (UTC, GMT, Z or a numeric offset); the rate applies all day", zone.other))
	case ok && len(ws) == 1:
		rate.Window, rate.Windowed = ws[0], true
		if note := zone.offsetNote("Request-rate window", ws); note != "" {
			msgs = append(msgs, note)
		}
	default:
		msgs = append(msgs, "unreadable time window; the rate applies all day")
	}
	return msgs
}

// isWindow reports whether s is one time window and nothing else.
func isWindow(s string) bool {
	var one [2]Window
	ws, zone, ok := appendWindows(one[:0], s)
	return ok && len(ws) == 1 && zone.other == ""
}

// slowestCountReading returns the longest interval, in nanoseconds, that a
// sane reading of a Request-rate gives whose count num is followed by rest,
// which is not '/' and a period: the count read with the time unit right
// after it ("1m"), or in seconds, as one document's period; and every
// number later in rest, with its unit, as the period of num documents
// ("1 per 10s" is 10 s; "1,000/1h", read as 1 then "000/1h", is 1 h).
func slowestCountReading(num float64, rest string) float64 {
	unit := unitAfter(rest)
	count := num
	if count == 0 {
		count = 1
	}
	return max(num*float64(unit), longestSpan(rest)/count)
}

// readPeriod reads the <timeunit> after a Request-rate's '/': a number
// with an optional unit ("10m", "60", "2 hours") or a unit alone ("m", one
// minute). It returns the period in nanoseconds and what follows it. bad
// says why, if s holds no period: nothing before the window or the end
// ("100/", "1/ 0600-0700"), or a word that is neither a number nor a unit
// ("100/soon"); per is then 0. A number followed by something other than
// a known unit is read in hours (the unknown unit rule), with a warning.
func readPeriod(s string) (per float64, rest string, msgs []string, bad string) {
	if s != "" && isWS(s[0]) {
		t := trimWS(s)
		if isWindow(t) {
			return 0, t, nil, "no period after '/' (white space ends the rate; a time window follows)"
		}
		s = t
	}
	t, after, hasNum := readDecimal(s, false)
	if !hasNum {
		letters, next := unitWord(s)
		unit, known := timeUnit(letters)
		if letters == "" || !known {
			word := s[:wordEnd(s)]
			if word == "" {
				return 0, s, nil, "no period after '/'"
			}
			return 0, s[len(word):], nil, fmt.Sprintf("period %q is neither a number nor a time unit (s, m, h, d)", word)
		}
		return float64(unit), next, nil, ""
	}
	if t < 0 {
		t = -t
		msgs = append(msgs, "negative period; read as its magnitude")
	}
	if t == 0 {
		t = 1
		msgs = append(msgs, "zero period; read as one unit")
	}
	letters, next := unitWord(after)
	if letters == "" && next == after && after != "" && !isWS(after[0]) && after[0] != ',' {
		// Neither a unit nor the end of the rate: "5.5.5", "1e3".
		word := after[:wordEnd(after)]
		msgs = append(msgs, fmt.Sprintf("period %q is not a number and a time unit (s, m, h, d); its number %s is read as hours",
			s[:len(s)-len(after)+len(word)], strconv.FormatFloat(t, 'g', -1, 64)))
		return t * float64(time.Hour), after[len(word):], msgs, ""
	}
	unit, known := timeUnit(letters)
	if !known {
		msgs = append(msgs, fmt.Sprintf("unknown time unit %q; read as hours", letters))
	}
	return t * float64(unit), next, msgs, ""
}

// unitWord returns the word of letters at the start of s, or after white
// space there, if the word ends at the end of s, white space or ',', and
// what follows it; otherwise "" and s.
func unitWord(s string) (word, rest string) {
	t := trimWS(s)
	i := len(letterRun(t))
	if i == 0 || i < len(t) && !isWS(t[i]) && t[i] != ',' {
		return "", s
	}
	return t[:i], t[i:]
}

// timeUnit returns the length of a Request-rate time unit; "" is the
// second, the 1996 default. An unknown unit is read as an hour.
func timeUnit(u string) (time.Duration, bool) {
	switch strings.ToLower(u) {
	case "", "s", "sec", "secs", "second", "seconds":
		return time.Second, true
	case "m", "min", "mins", "minute", "minutes":
		return time.Minute, true
	case "h", "hr", "hrs", "hour", "hours":
		return time.Hour, true
	case "d", "day", "days":
		return 24 * time.Hour, true
	}
	return time.Hour, false
}

// wordEnd returns the index of the first white space in s, or len(s).
func wordEnd(s string) int {
	i := 0
	for i < len(s) && !isWS(s[i]) {
		i++
	}
	return i
}

// durationText formats a duration given in nanoseconds, which may be too
// long for a Duration.
func durationText(ns float64) string {
	if ns >= math.MaxInt64 {
		return "more than 290 years"
	}
	return time.Duration(ns).String()
}

// readDecimal reads a decimal number at the start of s: an optional sign,
// digits with at most one '.', at least one digit. A second '.' ends the
// number, unless wholeRun: then the number is the whole run of digits and
// '.' there, and a run with two '.' is no number ("1.2.3" is not 1.2 and
// ".3"). A number too large for a float64 reads as infinity.
func readDecimal(s string, wholeRun bool) (float64, string, bool) {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits, dot := 0, false
	for ; i < len(s); i++ {
		c := s[i]
		if c == '.' && dot && wholeRun {
			return 0, s, false
		}
		if c == '.' && !dot {
			dot = true
			continue
		}
		if c < '0' || c > '9' {
			break
		}
		digits++
	}
	if digits == 0 {
		return 0, s, false
	}
	f, err := strconv.ParseFloat(s[:i], 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, s, false
	}
	return f, s[i:], true
}
