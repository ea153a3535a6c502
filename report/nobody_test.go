package report

import (
	"strings"
	"testing"
)

// TestNoBodyTextFollowsThePolicy: a 403 is "everything allowed" under RFC
// 9309 2.3.1.3, but "everything disallowed" when the crawl applied
// robots.forbidden_disallows; the report says what the crawl did.
func TestNoBodyTextFollowsThePolicy(t *testing.T) {
	if got := noBodyText(403, "unavailable", "allow-all"); !strings.Contains(got, `"everything allowed"`) {
		t.Errorf("403, allow-all: %q", got)
	}
	if got := noBodyText(403, "unavailable", "disallow-all"); !strings.Contains(got, `"everything disallowed"`) || !strings.Contains(got, "403") {
		t.Errorf("403, forbidden_disallows: %q", got)
	}
	if got := noBodyText(503, "unreachable", "disallow-all"); !strings.Contains(got, "could not be fetched") {
		t.Errorf("503: %q", got)
	}
}
