package demo

import (
	"fmt"
	"io"
)

// Narrate writes the demo's introduction to w: one numbered line per site
// with its name, seed and lesson, then a line on what to look for in the
// report. It is meant for "crawl demo" to print before crawling.
func Narrate(w io.Writer, sites []Site) error {
	if _, err := fmt.Fprintf(w, "The demo serves %d small sites on 127.0.0.1, each teaching one point of crawler etiquette:\n", len(sites)); err != nil {
		return fmt.Errorf("demo: narrate: %w", err)
	}
	for i, s := range sites {
		if _, err := fmt.Fprintf(w, "%2d. %s (%s)\n    %s\n", i+1, s.Name, s.Seed, s.Lesson); err != nil {
			return fmt.Errorf("demo: narrate: %w", err)
		}
	}
	if _, err := fmt.Fprintln(w, "The report shows, per site, each request against the interval the site asked for, and which robots.txt line decided what."); err != nil {
		return fmt.Errorf("demo: narrate: %w", err)
	}
	return nil
}
