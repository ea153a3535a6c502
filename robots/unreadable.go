package robots

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// longestSpan returns the longest time span written anywhere in s, in
// nanoseconds: every run of digits (with at most one '.') read with the
// time unit right after it, if that is one timeUnit knows ("10s", "2 min",
// "1h"), else in seconds, the Crawl-delay and Request-rate default, and
// every word that is a unit alone as one of it ("per minute"). ',' and
// '_' between digits are read as digit grouping ("1,000" is 1000, "1,5" is
// 15), the longer of the readings a decimal comma would give. It returns 0
// if s holds neither a digit nor a unit word. Unreadable pacing values use it so that their
// conservative reading is never faster than a sane reading of the text.
func longestSpan(s string) float64 {
	var longest float64
	for i := 0; i < len(s); {
		if w := letterRun(s[i:]); w != "" {
			// A unit word alone is one unit: "2 per minute".
			if u, known := timeUnit(w); known {
				longest = max(longest, float64(u))
			}
			i += len(w)
			continue
		}
		if !isDigit(s[i]) && (s[i] != '.' || i+1 >= len(s) || !isDigit(s[i+1])) {
			i++
			continue
		}
		num, n := groupedNumber(s[i:])
		i += n
		longest = max(longest, num*float64(unitAfter(s[i:])))
	}
	return longest
}

// groupedNumber reads the number at the start of s, which starts with a
// digit or '.': digits, at most one '.', and ',' or '_' between digits,
// which are dropped. It returns the number (+Inf if too large) and the
// length read.
func groupedNumber(s string) (float64, int) {
	var b strings.Builder
	i, dot := 0, false
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case isDigit(c):
			b.WriteByte(c)
		case c == '.' && !dot && i+1 < len(s) && isDigit(s[i+1]):
			dot = true
			b.WriteByte(c)
		case (c == ',' || c == '_') && i > 0 && isDigit(s[i-1]) && i+1 < len(s) && isDigit(s[i+1]):
		default:
			return parseDigits(b.String()), i
		}
	}
	return parseDigits(b.String()), i
}

// parseDigits reads digits with at most one '.'; a number too large for a
// float64 is +Inf.
func parseDigits(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && math.IsInf(f, 1) {
		return f
	}
	if err != nil {
		return 0
	}
	return f
}

// unitAfter returns the time unit that s starts with, after white space,
// if timeUnit knows it ("10s", "2 min"), else the second, the Crawl-delay
// and Request-rate default.
func unitAfter(s string) time.Duration {
	if u, known := timeUnit(letterRun(trimWS(s))); known {
		return u
	}
	return time.Second
}

// letterRun returns the ASCII letters at the start of s.
func letterRun(s string) string {
	i := 0
	for i < len(s) && 'a' <= s[i]|0x20 && s[i]|0x20 <= 'z' {
		i++
	}
	return s[:i]
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
