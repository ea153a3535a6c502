package redisfrontier

import "github.com/crawlproject/crawl/robotscache"

// The shared robots.txt copies are a robots cache's store. (That
// *Frontier offers the crawler every method of the embedded scheduler it
// uses is checked where the crawler lists them, crawler/frontier.go.)
var _ robotscache.Store = robotsStore{}
