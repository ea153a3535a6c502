package report

import (
	"testing"
	"time"
)

func TestFmtDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{200 * time.Millisecond, "200ms"},
		{time.Second, "1s"},
		{2500 * time.Millisecond, "2.5s"},
		{2780 * time.Millisecond, "2.78s"}, // Seconds() is 2.7800000000000002
		{7810 * time.Millisecond, "7.81s"},
		{4694 * time.Millisecond, "4.69s"},
		{59996 * time.Millisecond, "1m"},
		{59994 * time.Millisecond, "59.99s"},
		{1005 * time.Millisecond, "1.01s"},
		{90 * time.Second, "1m 30s"},
		{10 * time.Minute, "10m"},
		{3*time.Hour + 2*time.Minute, "3h 2m"},
		{-2 * time.Second, "-2s"},
	}
	for _, tt := range tests {
		if got := fmtDuration(tt.d); got != tt.want {
			t.Errorf("fmtDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestFmtValue(t *testing.T) {
	tests := []struct {
		key  string
		v    any
		want string
	}{
		{"default_delay_seconds", 0.2, "200ms"},
		{"per_host", 1.0, "1"},
		{"respect_robots", true, "yes"},
		{"x", nil, "not set"},
		{"agents", []any{"a", "b"}, "a, b"},
		{"m", map[string]any{"b_seconds": 2.0, "a": "x"}, "a=x, b_seconds=2s"},
	}
	for _, tt := range tests {
		if got := fmtValue(tt.key, tt.v); got != tt.want {
			t.Errorf("fmtValue(%q, %v) = %q, want %q", tt.key, tt.v, got, tt.want)
		}
	}
}

func TestStatusParts(t *testing.T) {
	parts := statusParts(map[string]int{"404": 1, "200": 3, "0": 0})
	if len(parts) != 2 || parts[0].Code != "200" || parts[0].W != 75 || parts[1].X != 75 || parts[1].Class != "s4" {
		t.Errorf("statusParts = %+v", parts)
	}
}

func TestPathOf(t *testing.T) {
	if got := pathOf("http://h:1/a?b", "http://h:1"); got != "/a?b" {
		t.Errorf("pathOf = %q", got)
	}
	if got := pathOf("http://h:1", "http://h:1"); got != "/" {
		t.Errorf("pathOf root = %q", got)
	}
	if got := pathOf("http://other/a", "http://h:1"); got != "http://other/a" {
		t.Errorf("pathOf other host = %q", got)
	}
}
