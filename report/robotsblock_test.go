package report

import "testing"

// TestRobotsBlockNamesAGroupOnlyForAFileThatWasRead: RFC 9309 2.2.1 — a
// group is matched in the rules of a robots.txt that was read. For a
// robots.txt that was unreachable (2.3.1.4) or unavailable (2.3.1.3) the
// policy that stands in for it has no group, whatever summary.json says.
func TestRobotsBlockNamesAGroupOnlyForAFileThatWasRead(t *testing.T) {
	for _, tt := range []struct {
		outcome string
		status  int
		want    string
	}{
		{"parsed", 200, "*"},
		{"unreachable", 503, ""},
		{"unavailable", 404, ""},
		{"unavailable", 403, ""},
	} {
		rb := &robotsSummary{URL: "http://h/robots.txt", Status: tt.status, Outcome: tt.outcome, Group: "*"}
		rv := robotsViewFor("h", "http://h", rb, nil, nil, nil, nil)
		if rv.Group != tt.want {
			t.Errorf("%s (HTTP %d): group used %q, want %q", tt.outcome, tt.status, rv.Group, tt.want)
		}
	}
}
