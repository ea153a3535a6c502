package report

import (
	"fmt"
	"testing"
)

func TestRuleKind(t *testing.T) {
	tests := []struct{ rule, kind, text string }{
		{"adaptive 2x41.761261ms", "adaptive 2xD", "adaptive 2× fetch time"},
		{"adaptive 2x42ms", "adaptive 2xD", "adaptive 2× fetch time"},
		{"adaptive 1.5x1m2.5s", "adaptive 1.5xD", "adaptive 1.5× fetch time"},
		{"adaptive 2×42ms", "adaptive 2×D", "adaptive 2× fetch time"},
		{"adaptive 2x fetch time 41.8ms", "adaptive 2x fetch time D", "adaptive 2× fetch time"},
		{"crawl-delay 500ms (line 3)", "crawl-delay D (line 3)", "crawl-delay (line 3)"},
		{"crawl-delay 1m clamped from 2h (line 4)", "crawl-delay D clamped from D (line 4)", "crawl-delay clamped from (line 4)"},
		{"request-rate 1/10m 13:00-16:59 (line 5)", "request-rate 1/D 13:00-16:59 (line 5)", "request-rate 1/D 13:00-16:59 (line 5)"},
		{"default 10s (1996 rule of thumb)", "default D (1996 rule of thumb)", "default (1996 rule of thumb)"},
		{"back-off 4s after 503 on robots.txt", "back-off D after 503 on robots.txt", "back-off after 503 on robots.txt"},
		{"previous run's interval 1.5s (until robots.txt is read)", "previous run's interval D (until robots.txt is read)", "previous run's interval (until robots.txt is read)"},
		{"retry-after 3s (429 on /busy10s)", "retry-after D (429 on /busy10s)", "retry-after (429 on /busy10s)"},
		{"5min 429", "5min 429", "5min 429"},
		{"", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			if got := ruleKind(tt.rule); got != tt.kind {
				t.Errorf("ruleKind(%q) = %q, want %q", tt.rule, got, tt.kind)
			}
			if got := kindText(ruleKind(tt.rule)); got != tt.text {
				t.Errorf("kindText = %q, want %q", got, tt.text)
			}
		})
	}
}

// TestPaceUsedGroupsAdaptive: the adaptive pace carries the measured fetch
// time in its label, so every request has its own label. "Pace used" must
// still be one line per kind of rule with the range of intervals, while
// robots rules from different lines stay apart.
func TestPaceUsedGroupsAdaptive(t *testing.T) {
	const host = "http://127.0.0.1:27190"
	var reqs []request
	add := func(sec, pace float64, rule string) {
		reqs = append(reqs, request{Time: at(sec), Host: host, URL: host + "/p", Kind: "page", Status: 200, PaceSeconds: pace, PaceRule: rule})
	}
	add(0, 10, "default 10s (1996 rule of thumb)")
	for i := range 67 {
		fetch := 0.025 + float64(i)*0.0005 // 25ms .. 58ms, each a different label
		add(1+float64(i)*0.2, 2*fetch, fmt.Sprintf("adaptive 2x%.6fms", fetch*1000))
	}
	add(20, 0.5, "crawl-delay 500ms (line 3)")
	add(21, 1, "request-rate 1/1s (line 5)")
	add(22, 0.5, "crawl-delay 500ms (line 3)")
	in := &input{summary: summary{Started: t0, Finished: at(30), Hosts: []hostSummary{{Host: host, State: "done"}}}, requests: reqs}
	v := buildView(in, "")
	if len(v.Hosts) != 1 {
		t.Fatalf("%d hosts", len(v.Hosts))
	}
	want := []paceUse{
		{Pace: "10s", Rule: "default 10s (1996 rule of thumb)", Count: 1},
		{Pace: "50ms–116ms", Rule: "adaptive 2× fetch time", Count: 67},
		{Pace: "500ms", Rule: "crawl-delay 500ms (line 3)", Count: 2},
		{Pace: "1s", Rule: "request-rate 1/1s (line 5)", Count: 1},
	}
	got := v.Hosts[0].Paces
	if len(got) != len(want) {
		t.Fatalf("Pace used has %d entries, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("entry %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// The robots.txt lines still learn which pace rule cites them.
	rules := map[string]bool{}
	_, used := pacesUsed(reqs)
	for _, r := range used {
		rules[r] = true
	}
	if !rules["crawl-delay 500ms (line 3)"] || !rules["request-rate 1/1s (line 5)"] || len(used) != 4 {
		t.Errorf("rules for robots.txt lines: %q", used)
	}
}
