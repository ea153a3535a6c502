package robots

import (
	"fmt"
	"time"
)

// minutesPerDay is the length of a UTC day in minutes.
const minutesPerDay = 24 * 60

// A Window is a daily span of UTC time, as written in Visit-time and
// Request-rate lines ("0600-0845" or "0600 0845"). From and To are minutes
// after 00:00 UTC (0..1439). To is inclusive at minute granularity: the window
// 1300-1659 covers 13:00:00 up to but not including 17:00:00, which is how the
// 1996 extended standard's example tiles a day with 1300-1659, 1700-0459 and
// 0500-1259. A window whose To is before its From wraps past midnight.
//
// The zero Window covers exactly the minute 00:00. Window is a plain value and
// safe for concurrent use.
type Window struct {
	From int // minutes after midnight UTC at which the window opens
	To   int // last minute after midnight UTC inside the window
	Line int // 1-based line of the Visit-time in robots.txt; 0 when not from a Visit-time line
	// Text is that line as written, trimmed, without comment
	// ("Visit-time: 0800-0845"), at most 200 octets; it is set on the
	// first window of the line only (a line may hold several windows), and
	// empty when not from a line.
	Text string `json:",omitempty"`
}

// Contains reports whether t (converted to UTC) falls inside w.
func (w Window) Contains(t time.Time) bool {
	m := minuteOfDay(t)
	if w.From <= w.To {
		return m >= w.From && m <= w.To
	}
	return m >= w.From || m <= w.To
}

// NextOpen returns the earliest instant at or after t at which w is open.
// If t is inside w, NextOpen returns t.
func (w Window) NextOpen(t time.Time) time.Time {
	if w.Contains(t) {
		return t
	}
	u := t.UTC()
	day := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	open := day.Add(time.Duration(w.From) * time.Minute)
	if !open.After(u) {
		open = open.Add(24 * time.Hour)
	}
	return open
}

// Close returns the instant at which the occurrence of w that contains t
// ends. If t is outside w, Close returns t.
func (w Window) Close(t time.Time) time.Time {
	if !w.Contains(t) {
		return t
	}
	u := t.UTC()
	day := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	end := day.Add(time.Duration(w.To+1) * time.Minute)
	if !end.After(u) {
		end = end.Add(24 * time.Hour)
	}
	return end
}

// String formats w as "HH:MM-HH:MM".
func (w Window) String() string {
	return fmt.Sprintf("%s-%s", clock(w.From), clock(w.To))
}

// Span words w as a person should read it, its last minute included, as
// Contains has it: "12:23 to 12:24:59 UTC" for the window 1223-1224 (a
// request may start until the end of 12:24), "22:00 to 04:59:59 UTC" for
// one that wraps past midnight, "all day (00:00 to 23:59:59 UTC)" for
// 0000-2400. String's "12:23-12:24" reads as ending at 12:24:00.
func (w Window) Span() string {
	s := clock(w.From) + " to " + clock(w.To) + ":59 UTC"
	if w.From == (w.To+1)%minutesPerDay {
		return "all day (" + s + ")"
	}
	return s
}

// FromClock returns the window's opening time as "HH:MM".
func (w Window) FromClock() string { return clock(w.From) }

// ToClock returns the window's last minute as "HH:MM".
func (w Window) ToClock() string { return clock(w.To) }

func clock(m int) string { return fmt.Sprintf("%02d:%02d", m/60, m%60) }

func minuteOfDay(t time.Time) int {
	u := t.UTC()
	return u.Hour()*60 + u.Minute()
}
