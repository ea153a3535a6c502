package main

import "testing"

// TestUserAgentRobot: the robot's product token of well-known crawlers'
// User-Agent headers is the one after "compatible;" in a comment, else the
// first product that is not a browser's; a browser's header names none.
func TestUserAgentRobot(t *testing.T) {
	for ua, want := range map[string]string{
		"Mozilla/5.0 (compatible; MJ12bot/v1.4.8; +http://mj12bot.com/)":                                                                                   "MJ12bot",
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)":                                                                         "Googlebot",
		"Googlebot/2.1 (+http://www.google.com/bot.html)":                                                                                                  "Googlebot",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36": "bingbot",
		"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)": "Googlebot",
		"Mozilla/5.0 (compatible ; SemrushBot/7~bl ; +http://www.semrush.com/bot.html)":                                                                                                                   "SemrushBot",
		"facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)":                                                                                                                       "facebookexternalhit",
		"Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0 Safari/537.36 360Spider":                                                                                  "360Spider",
		"Wget/1.21.4": "Wget",
		"Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; Trident/5.0)":        "",
		"Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0": "",
		"Mozilla/5.0 (compatible; (nested; x) Bot9/1":                            "",
	} {
		if got := userAgentRobot(ua); got != want {
			t.Errorf("userAgentRobot(%q) = %q, want %q", ua, got, want)
		}
	}
}
