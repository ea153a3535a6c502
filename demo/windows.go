package demo

import (
	"fmt"
	"time"

	"github.com/crawlproject/crawl/robots"
)

// windowAround returns the daily UTC window that opens at now+from and
// closes at the last minute before now+to (from < to, both within a day).
func windowAround(now time.Time, from, to time.Duration) robots.Window {
	return robots.Window{
		From: minuteOfDay(now.Add(from)),
		To:   minuteOfDay(now.Add(to - time.Minute)),
	}
}

// minuteOfDay returns t's minutes after midnight UTC.
func minuteOfDay(t time.Time) int {
	u := t.UTC()
	return u.Hour()*60 + u.Minute()
}

// hhmm formats w as robots.txt writes windows: "HHMM-HHMM".
func hhmm(w robots.Window) string {
	return fmt.Sprintf("%02d%02d-%02d%02d", w.From/60, w.From%60, w.To/60, w.To%60)
}

// complement returns the window covering every minute of the day outside w.
func complement(w robots.Window) robots.Window {
	const day = 24 * 60
	return robots.Window{From: (w.To + 1) % day, To: (w.From + day - 1) % day}
}
