package report_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/crawlproject/crawl/report"
)

func ExampleWrite() {
	dir, err := os.MkdirTemp("", "crawl-out-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	summary := `{"started":"2026-11-21T10:00:00Z","finished":"2026-11-21T10:00:05Z","agent":"crawl",
	 "totals":{"fetched":1},"hosts":[{"host":"http://127.0.0.1:8080","state":"done","pace_seconds":1,"pace_rule":"crawl-delay 1s (line 2)"}]}`
	if err := os.WriteFile(filepath.Join(dir, report.SummaryFile), []byte(summary), 0o644); err != nil {
		fmt.Println(err)
		return
	}
	if err := report.Write(dir); err != nil {
		fmt.Println(err)
		return
	}
	_, err = os.Stat(filepath.Join(dir, report.ReportFile))
	fmt.Println("report written:", err == nil)
	// Output: report written: true
}
