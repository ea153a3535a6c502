package robots

import (
	"fmt"
	"strings"
	"time"
)

// A RequestRate is one Request-rate line of a group: at most Requests
// documents per Per, optionally only inside a daily UTC Window.
//
// A RequestRate is a plain value and safe for concurrent use.
type RequestRate struct {
	Requests  int           // documents allowed per period; at least 1 after parsing
	Per       time.Duration // the period as written; positive after parsing
	Window    Window        // the UTC window; meaningful only if Windowed
	Windowed  bool          // whether the line named a time window
	Line      int           // 1-based line number in robots.txt
	Text      string        // the line as written, without comment, at most 200 octets (longer lines are cut, with "...")
	Malformed bool          // the value was repaired conservatively (see Group.Warnings)
}

// Interval returns the time between two request starts that the rate asks
// for: Per divided by Requests ("100/24h" is one document every 864 s,
// "100/48h" one every 28m48s), capped at MaxDelay ("1/2d" is one document
// every 24 h; Parse warns about such a line).
func (r RequestRate) Interval() time.Duration {
	iv := r.Per
	if r.Requests > 1 {
		iv /= time.Duration(r.Requests)
	}
	return min(iv, MaxDelay)
}

// ActiveAt reports whether the rate is in force at t: always for a rate
// without a window, otherwise only while t is inside its window.
func (r RequestRate) ActiveAt(t time.Time) bool {
	return !r.Windowed || r.Window.Contains(t)
}

// String formats the rate as "n/period" followed by its window, if any.
func (r RequestRate) String() string {
	s := fmt.Sprintf("%d/%s", r.Requests, period(r.Per))
	if r.Windowed {
		s += " " + r.Window.String()
	}
	return s
}

// period formats d in the largest whole unit of the Request-rate syntax:
// "10m", "1h", "30s", or fractional seconds "0.5s".
func period(d time.Duration) string {
	switch {
	case d > 0 && d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d > 0 && d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return fmt.Sprintf("%gs", d.Seconds())
}

// ShortDuration formats d as time.Duration.String does, without the zero
// units it trails: "10m" rather than "10m0s", "1h30m" rather than
// "1h30m0s", "2h" rather than "2h0m0s"; "2.5s" and "1h0m5s" stay as they are.
func ShortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
