package main

import "github.com/crawlproject/crawl/report"

// writeReport renders report.html in an output dir after a crawl.
func writeReport(dir string) error { return report.Write(dir) }
