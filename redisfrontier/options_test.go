package redisfrontier

import (
	"testing"
	"time"
)

// TestDefaultLeaseDuration: a lease outlives the request timeout by 5 s,
// and lives at least 10 s, unless Options sets its own.
func TestDefaultLeaseDuration(t *testing.T) {
	for _, c := range []struct{ timeout, want time.Duration }{
		{0, 10 * time.Second},
		{2 * time.Second, 10 * time.Second},
		{5 * time.Second, 10 * time.Second},
		{30 * time.Second, 35 * time.Second},
	} {
		var o Options
		o.Config.RequestTimeout = c.timeout
		if got := o.withDefaults().LeaseDuration; got != c.want {
			t.Errorf("request timeout %v: lease %v, want %v", c.timeout, got, c.want)
		}
	}
	o := Options{LeaseDuration: 3 * time.Second}
	o.Config.RequestTimeout = 30 * time.Second
	if got := o.withDefaults().LeaseDuration; got != 3*time.Second {
		t.Errorf("a lease Options sets: %v, want 3s", got)
	}
}
