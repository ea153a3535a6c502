package crawllog

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestPrintable(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain text unchanged", "please be gentle: 1 req/s", "please be gentle: 1 req/s"},
		{"non-ASCII letters unchanged", "höflich sein, 礼儀", "höflich sein, 礼儀"},
		{"CSI colour", "\x1b[31mred", `\x1b[31mred`},
		{"OSC window title", "\x1b]0;TITLE\x07", `\x1b]0;TITLE\a`},
		{"carriage return and tab", "a\rb\tc", `a\rb\tc`},
		{"DEL and C1", "\x7f\u009b", `\x7f\u009b`},
		{"bidi override", "a\u202eb", `a\u202eb`},
		{"invalid UTF-8", "a\xffb", `a\xffb`},
		{"backslash escaped so escapes are unambiguous", `a\x1b`, `a\\x1b`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Printable(tt.in); got != tt.want {
				t.Errorf("Printable(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestSummaryPrintEscapesRemoteText: a robots.txt Comment: line, a host's
// warning or drop reason never reach the terminal raw.
func TestSummaryPrintEscapesRemoteText(t *testing.T) {
	s := &Summary{Started: time.Unix(0, 0), Finished: time.Unix(1, 0), Hosts: []HostSummary{{
		Host: "http://a.test", State: "dropped", PaceRule: "crawl-delay 1s", Warning: "w\x1b[2J", DropReason: "d\x1b]0;T\x07",
		Robots: &RobotsSummary{Comments: []string{"\x1b[31mred\x1b[0m"}},
	}}, SkipReasons: map[string]int{"r\x1b": 1}}
	var b bytes.Buffer
	s.Print(&b)
	if strings.ContainsAny(b.String(), "\x1b\x07") {
		t.Errorf("summary printed raw controls: %q", b.String())
	}
	if !strings.Contains(b.String(), `the site says: \x1b[31mred\x1b[0m`) {
		t.Errorf("comment not shown escaped: %q", b.String())
	}
}
