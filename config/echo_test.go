package config

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// loadError loads a config file holding body, with an empty environment,
// and returns its error.
func loadError(t *testing.T, body string) error {
	t.Helper()
	_, _, err := loadFile(t, "c.yaml", body)
	if err == nil {
		t.Fatalf("config %.40q loaded", body)
	}
	return err
}

// TestErrorsArePrefixedConfig: a config error begins "config: " (the
// package's name), once; it read "crawler: config" and the command printed
// "crawl: crawler: config ...".
func TestErrorsArePrefixedConfig(t *testing.T) {
	for _, body := range []string{"politeness:\n  default_dleay: 1s\n", "politeness: [\n", "politeness:\n  default_delay: 10\n"} {
		msg := loadError(t, body).Error()
		if !strings.HasPrefix(msg, "config: ") || strings.Contains(msg, "crawler") || strings.Count(msg, "config: ") != 1 {
			t.Errorf("%q: error %q, want one \"config: \" prefix", body, msg)
		}
	}
}

// TestErrorsEchoShortPrintableExcerpts: what an error quotes of the file
// (a value, a key, the YAML parser's excerpt) is short, valid UTF-8 and
// free of control characters, however long or binary the file: an
// overflowing duration of 300 digits was echoed whole, and a binary file
// as mojibake.
func TestErrorsEchoShortPrintableExcerpts(t *testing.T) {
	digits := strings.Repeat("9", 300) + "h"
	var junk strings.Builder
	for i := range 3000 {
		junk.WriteRune(rune(0xa0 + i*7%0x2f00))
	}
	for name, body := range map[string]string{
		"overflowing duration": "politeness:\n  default_delay: " + digits + "\n",
		"bare number":          "politeness:\n  default_delay: " + strings.Repeat("9", 300) + "\n",
		"binary value":         "politeness:\n  default_delay: \"" + junk.String()[:900] + "\\x01\"\n",
		"binary key":           junk.String()[:900] + ": 1\n",
		"many keys":            strings.Repeat("x", 200) + ": 1\n" + "a1: 1\na2: 1\na3: 1\na4: 1\na5: 1\na6: 1\na7: 1\na8: 1\na9: 1\nb0: 1\nb1: 1\n",
		"binary file":          junk.String(),
		"regexp":               "scope:\n  include: [\"(" + strings.Repeat("a", 500) + "\"]\n",
	} {
		msg := loadError(t, body).Error()
		if len(msg) > 400 || !utf8.ValidString(msg) || strings.ContainsAny(msg, "\x00\x01\n") || strings.Contains(msg, "\uFFFD") {
			t.Errorf("%s: error of %d bytes: %q", name, len(msg), msg)
		}
	}
	msg := loadError(t, "politeness:\n  default_delay: "+digits+"\n").Error()
	if !strings.Contains(msg, `"`+strings.Repeat("9", maxEcho)+`"... (301 bytes) is not a duration`) {
		t.Errorf("overflowing duration: %q, want its first %d bytes and its length", msg, maxEcho)
	}
}

func TestQuoteValueCutsAtARuneBoundary(t *testing.T) {
	s := strings.Repeat("é", 40) // 80 bytes
	got := quoteValue(s)
	if want := `"` + strings.Repeat("é", 32) + `"... (80 bytes)`; got != want {
		t.Errorf("quoteValue = %s, want %s", got, want)
	}
	if got := quoteValue("a\x01b"); got != `"a\x01b"` {
		t.Errorf("quoteValue of a control = %s", got)
	}
}
