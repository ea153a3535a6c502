package config

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxEcho is how many bytes of a value, key or parser message an error
// quotes: enough to recognise a typo, short enough that a binary file or a
// value of thousands of digits does not flood the terminal.
const maxEcho = 64

// maxEchoKeys is how many unknown keys one error lists.
const maxEchoKeys = 10

// quoteValue is s as an error message quotes it: in Go quotes, with
// control characters, invalid UTF-8 and other unprintable runes escaped
// (strconv.Quote), and, when s is longer than maxEcho bytes, cut at a rune
// boundary and followed by its length: "\"99999...\"... (301 bytes)".
func quoteValue(s string) string {
	if len(s) <= maxEcho {
		return strconv.Quote(s)
	}
	return strconv.Quote(runePrefix(s, maxEcho)) + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// runePrefix is the longest prefix of s of at most n bytes that does not
// end inside a UTF-8 sequence (an invalid octet counts as one rune).
func runePrefix(s string, n int) string {
	end := 0
	for end < len(s) {
		_, size := utf8.DecodeRuneInString(s[end:])
		if end+size > n {
			break
		}
		end += size
	}
	return s[:end]
}

// echoKey is a key named in an error: as written when it looks like a
// key (letters, digits, '.', '_', '-', '[', ']', at most maxEcho bytes),
// else quoted and cut by quoteValue, so a binary file's "keys" are not
// echoed raw.
func echoKey(k string) string {
	if len(k) > maxEcho || k == "" {
		return quoteValue(k)
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("._-[]", c) >= 0) {
			return quoteValue(k)
		}
	}
	return k
}

// echoKeys lists keys for an error, each by echoKey, at most maxEchoKeys
// of them and then how many more there are.
func echoKeys(keys []string) string {
	shown := make([]string, 0, min(len(keys), maxEchoKeys))
	for i, k := range keys {
		if i == maxEchoKeys {
			shown = append(shown, "and "+strconv.Itoa(len(keys)-i)+" more")
			break
		}
		shown = append(shown, echoKey(k))
	}
	return strings.Join(shown, ", ")
}

// echoMessage is a parser's message (which may quote the file, cut inside
// a UTF-8 sequence) as an error carries it: invalid UTF-8 dropped, at most
// 4*maxEcho bytes, cut at a rune boundary.
func echoMessage(msg string) string {
	msg = strings.ToValidUTF8(msg, "")
	if len(msg) <= 4*maxEcho {
		return msg
	}
	return runePrefix(msg, 4*maxEcho) + "..."
}
