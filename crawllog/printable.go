package crawllog

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Printable returns s as it can safely be written to a terminal: text from
// a remote server (a robots.txt Comment: line, a rule, a reason) may hold
// ESC sequences that would clear the screen, set the window title or hide
// text. Controls (C0, DEL, C1), bidi overrides and other unprintable runes
// and the backslash itself are written as Go escapes (\x1b, \u202e, \\),
// octets that are not UTF-8 as \xNN; printable text, spaces included, is
// unchanged. Safe for concurrent use.
func Printable(s string) string {
	i := 0
	for i < len(s) && ' ' <= s[i] && s[i] < 0x7f && s[i] != '\\' {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\' || !strconv.IsPrint(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
