package robots

import (
	"strings"
	"testing"
)

// TestVisitTimeZones1996 proves the 1996 extended standard's reading of
// Visit-time: "<time> is in UT (or GMT)" (its Visit-time directive), so a
// UTC, GMT, UT or Z suffix, in any case and glued or apart, only says so,
// and the window is read, not ignored. A numeric
// offset is read exactly, with a warning; another zone keeps the times as
// UTC, with a warning naming the line.
func TestVisitTimeZones1996(t *testing.T) {
	cases := []struct {
		name, value string
		from, to    []int // UTC minutes of each window
		warn        string
	}{
		{"plain HHMM-HHMM", "0100-0200", []int{60}, []int{120}, ""},
		{"suffix UTC", "0100-0200 UTC", []int{60}, []int{120}, ""},
		{"suffix utc lower case", "0100-0200 utc", []int{60}, []int{120}, ""},
		{"suffix GMT", "0100-0200 GMT", []int{60}, []int{120}, ""},
		{"suffix UT", "0100-0200 UT", []int{60}, []int{120}, ""},
		{"suffix Z", "0100-0200 Z", []int{60}, []int{120}, ""},
		{"Z glued to each time", "0100Z-0200z", []int{60}, []int{120}, ""},
		{"UTC glued to each time", "0100UTC-0200UTC", []int{60}, []int{120}, ""},
		{"HH:MM-HH:MM", "01:00-02:00", []int{60}, []int{120}, ""},
		{"HH:MM-HH:MM UTC", "01:00-02:00 UTC", []int{60}, []int{120}, ""},
		{"HHMM to HHMM", "0100 to 0200", []int{60}, []int{120}, ""},
		{"HHMM HHMM GMT", "0100 0200 GMT", []int{60}, []int{120}, ""},
		{"spaced hyphen", "0100 - 0200 UTC", []int{60}, []int{120}, ""},
		{"en dash", "0100\u20130200 UTC", []int{60}, []int{120}, ""},
		{"two windows with a zone", "0100-0200 UTC, 2300-2330 UTC", []int{60, 1380}, []int{120, 1410}, ""},
		{"UTC+1 is read as UTC", "0100-0200 UTC+1", []int{0}, []int{60}, "written at UTC+01:00, read as 00:00 to 01:00:59 UTC"},
		{"offset -05:00", "0100-0200 -05:00", []int{360}, []int{420}, "written at UTC-05:00, read as 06:00 to 07:00:59 UTC"},
		{"offset +0530 wraps", "0000-0100 +0530", []int{1110}, []int{1170}, "written at UTC+05:30, read as 18:30 to 19:30:59 UTC"},
		{"GMT+0 says nothing", "0100-0200 GMT+0", []int{60}, []int{120}, ""},
		{"unknown zone: times as UTC, warned", "0100-0200 CET", []int{60}, []int{120}, `"CET" is a word this crawler does not read`},
		{"a word: times as UTC, warned", "0100-0200 weekdays", []int{60}, []int{120}, `"weekdays" is a word this crawler does not read`},
		// The windows after a word may be what it excludes; the first
		// alone is the cautious reading.
		{"a word: only the first window", "0100-0200 except 1300-1400", []int{60}, []int{120}, "only the line's first window is kept"},
		{"days: only the first window", "Mon-Fri 1300-1400, 1500-1600", []int{780}, []int{840}, `"Mon" is a word this crawler does not read`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Parse([]byte("User-agent: *\nVisit-time: " + c.value + "\n"))
			g := r.Group("bot")
			ws := g.VisitTimes()
			if len(ws) != len(c.from) {
				t.Fatalf("%q: windows %v, want %d", c.value, ws, len(c.from))
			}
			for i, w := range ws {
				if w.From != c.from[i] || w.To != c.to[i] || w.Line != 2 {
					t.Errorf("%q: window %d = %+v, want %d-%d on line 2", c.value, i, w, c.from[i], c.to[i])
				}
			}
			var got []string
			for _, w := range g.Warnings() {
				got = append(got, w.Message)
				if w.Line != 2 {
					t.Errorf("warning on line %d, want 2: %v", w.Line, w)
				}
			}
			all := strings.Join(got, "\n")
			if c.warn == "" && all != "" {
				t.Errorf("%q: unexpected warnings %s", c.value, all)
			}
			if c.warn != "" && !strings.Contains(all, c.warn) {
				t.Errorf("%q: warnings %q lack %q", c.value, all, c.warn)
			}
		})
	}
}

// TestVisitTimeUnreadableStillIgnored: a Visit-time with no readable pair
// of times gives no window to keep (see doc.go's Deviations) and a warning.
func TestVisitTimeUnreadableStillIgnored(t *testing.T) {
	for _, v := range []string{"at night", "0100", "0100-", "25:00-26:00 UTC"} {
		g := Parse([]byte("User-agent: *\nVisit-time: " + v + "\n")).Group("bot")
		if ws := g.VisitTimes(); len(ws) != 0 {
			t.Errorf("%q: windows %v", v, ws)
		}
		if len(g.Warnings()) == 0 {
			t.Errorf("%q: no warning", v)
		}
	}
}

// TestRequestRateWindowZones1996: a Request-rate window is read like a
// Visit-time ("<rate> <time>-<time>", times in UTC, 1996 extended
// standard); a window in a zone it cannot read gives the cautious reading,
// the rate all day.
func TestRequestRateWindowZones1996(t *testing.T) {
	cases := []struct {
		value    string
		windowed bool
		from, to int
		warn     string
	}{
		{"1/10m 1300-1659 UTC", true, 780, 1019, ""},
		{"1/10m 13:00-16:59 GMT", true, 780, 1019, ""},
		{"1/10m 1300Z-1659Z", true, 780, 1019, ""},
		{"1/10m 1300 to 1659", true, 780, 1019, ""},
		{"1/10m 1300-1659 +0100", true, 720, 959, "written at UTC+01:00, read as 12:00 to 15:59:59 UTC"},
		{"1/10m 1300-1659 CET", false, 0, 0, "the rate applies all day"},
	}
	for _, c := range cases {
		t.Run(c.value, func(t *testing.T) {
			g := Parse([]byte("User-agent: *\nRequest-rate: " + c.value + "\n")).Group("bot")
			rs := g.RequestRates()
			if len(rs) != 1 {
				t.Fatalf("rates %v", rs)
			}
			r := rs[0]
			if r.Requests != 1 || r.Per.Minutes() != 10 || r.Windowed != c.windowed ||
				c.windowed && (r.Window.From != c.from || r.Window.To != c.to) {
				t.Errorf("%q: %+v", c.value, r)
			}
			var all []string
			for _, w := range g.Warnings() {
				all = append(all, w.Message)
			}
			got := strings.Join(all, "\n")
			if c.warn == "" && got != "" || c.warn != "" && !strings.Contains(got, c.warn) {
				t.Errorf("%q: warnings %q, want %q", c.value, got, c.warn)
			}
		})
	}
}

// TestWindowSpanIncludesLastMinute: Window.Contains keeps a window open
// through its last minute (the 1996 example tiles a day with 1300-1659,
// 1700-0459, 0500-1259), and Span says so.
func TestWindowSpanIncludesLastMinute(t *testing.T) {
	for _, c := range []struct {
		w    Window
		want string
	}{
		{Window{From: 743, To: 744}, "12:23 to 12:24:59 UTC"},
		{Window{From: 743, To: 743}, "12:23 to 12:23:59 UTC"},
		{Window{From: 1320, To: 299}, "22:00 to 04:59:59 UTC"},
		{Window{From: 0, To: 1439}, "all day (00:00 to 23:59:59 UTC)"},
	} {
		if got := c.w.Span(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.w, got, c.want)
		}
	}
}

// FuzzWindows: whatever a Visit-time or Request-rate window says, the
// windows read are minutes of a UTC day, and a Visit-time either gives
// windows or is warned about; a value with a zone or a word it does not
// read is warned about too.
func FuzzWindows(f *testing.F) {
	for _, s := range []string{"0100-0200 UTC", "0100Z-0200Z", "01:00-02:00 +05:30", "0100 to 0200 CET",
		"0000-2400 UTC-14", "0100-0200 -0500", "1300-1659, 1700-0459", "UTC+1", "0100-0200 UTC+99"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var buf [4]Window
		ws, zone, ok := appendWindows(buf[:0], v)
		if ok != (len(ws) > 0) {
			t.Fatalf("%q: ok %v with %d windows", v, ok, len(ws))
		}
		for _, w := range ws {
			if w.From < 0 || w.From >= minutesPerDay || w.To < 0 || w.To >= minutesPerDay {
				t.Fatalf("%q: window %+v outside the day", v, w)
			}
		}
		if zone.offset < -14*60 || zone.offset > 14*60 {
			t.Fatalf("%q: offset %d", v, zone.offset)
		}
		if strings.ContainsAny(v, "\n\r#") {
			return
		}
		g := Parse([]byte("User-agent: *\nVisit-time: " + v + "\n")).Group("bot")
		if len(g.VisitTimes()) == 0 && len(g.Warnings()) == 0 && strings.TrimSpace(v) != "" {
			t.Fatalf("%q: no window and no warning", v)
		}
	})
}
