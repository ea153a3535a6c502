package archive

import "testing"

// The CDXJ key must be the one pywb computes for the same URL (python
// surt's default transform), or replay cannot find the record. The cases
// are surt's own test vectors (WaybackURLKeyMakerTest, the Google and IA
// canonicaliser tests, the session-id tests) written as whole keys.
func TestSURT_MatchesPythonSurt(t *testing.T) {
	const sid32 = "0123456789abcdefghijklemopqrstuv"
	tests := []struct{ in, want string }{
		// WaybackURLKeyMakerTest
		{"http://www.archive.org/", "org,archive)/"},
		{"http://archive.org/", "org,archive)/"},
		{"http://archive.org", "org,archive)/"},
		{"http://archive.org/goo/", "org,archive)/goo"},
		{"http://archive.org/goo/?", "org,archive)/goo"},
		{"http://archive.org/goo/?b&a", "org,archive)/goo?a&b"},
		{"http://archive.org/goo/?a=2&b&a=1", "org,archive)/goo?a=1&a=2&b"},
		{"http://archive.org/index.php?PHPSESSID=" + sid32 + "&action=profile;u=4221", "org,archive)/index.php?action=profile;u=4221"},
		{"http://visit.webhosting.yahoo.com/visit.gif?&r=http%3A//web.archive.org/web/20090517140029/http%3A//anthonystewarthead.electric-chi.com/&b=Netscape%205.0%20%28Windows%3B%20en-US%29&s=1366x768&o=Win32&c=24&j=true&v=1.2",
			"com,yahoo,webhosting,visit)/visit.gif?&b=netscape%205.0%20(windows;%20en-us)&c=24&j=true&o=win32&r=http://web.archive.org/web/20090517140029/http://anthonystewarthead.electric-chi.com/&s=1366x768&v=1.2"},
		{"dns:archive.org", "dns:archive.org"},
		{"mailto:foo@example.com", "mailto:foo@example.com"},
		{"warcinfo:foo.warc.gz", "warcinfo:foo.warc.gz"},
		// Google canonicaliser: decoding until stable, escaping once
		{"http://host/%25%32%35", "host)/%25"},
		{"http://host/%2525252525252525", "host)/%25"},
		{"http://host/%%%25%32%35asd%%", "host)/%25%25%25asd%25%25"},
		{"http://%31%36%38%2e%31%38%38%2e%39%39%2e%32%36/%2E%73%65%63%75%72%65/%77%77%77%2E%65%62%61%79%2E%63%6F%6D/", "26,99,188,168)/.secure/www.ebay.com"},
		{"http://host%23.com/%257Ea%2521b%2540c%2523d%2524e%25f%255E00%252611%252A22%252833%252944_55%252B", "com,host%23)/~a!b@c%23d$e%25f^00&11*22(33)44_55+"},
		{"http://host.com/ab%23cd", "com,host)/ab%23cd"},
		{"http://example.com/a%2Fb", "com,example)/a/b"},
		{"http://example.com/a b", "com,example)/a%20b"},
		// Google canonicaliser: host forms
		{"http://3279880203/blah", "11,0,127,195)/blah"},
		{"http://017.0.0.1/", "1,0,0,15)/"},
		{"http://10.0.258/", "2,1,0,10)/"},
		{"http://1.2.3.256/", "256,3,2,1)/"},
		{"http://www.GOOgle.com/", "com,google)/"},
		{"http://www.google.com.../", "com,google)/"},
		{"http://B\u00fccher.ch:8080/", "ch,xn--bcher-kva:8080)/"},
		// Google canonicaliser: paths
		{"http://www.google.com/blah/..", "com,google)/"},
		{"http://host.com//twoslashes?more//slashes", "com,host)/twoslashes?more//slashes"},
		{"http://www.evil.com/blah#frag", "com,evil)/blah"},
		{"http://evil.com/foo;", "com,evil)/foo;"},
		// IA canonicaliser
		{"http://ARCHIVE.ORG/", "org,archive)/"},
		{"http://www.archive.org:80/", "org,archive)/"},
		{"https://www.archive.org:80/", "org,archive:80)/"},
		{"http://www.archive.org:443/", "org,archive:443)/"},
		{"https://www.archive.org:443/", "org,archive)/"},
		{"http://www.archive.org/big/", "org,archive)/big"},
		{"http://www34.archive.org/index.html?b=a&b=b&a=b", "org,archive)/index.html?a=b&b=a&b=b"},
		{"http://www2foo.com/", "com,www2foo)/"},
		{"http://www2.www2foo.com/", "com,www2foo)/"},
		{"http://user:pw@example.com/", "com,example)/"},
		{"http://example.com:8080/A/B?z=1&a=2#frag", "com,example:8080)/a/b?a=2&z=1"},
		// IPv4 hosts are reversed like names (surt's reverse_ipaddr default)
		{"http://192.168.1.254/info/", "254,1,168,192)/info"},
		{"http://127.0.0.1:18081/a", "1,0,0,127:18081)/a"},
		// IPv6: surt keeps the address without brackets
		{"http://[::1]:8080/x", "::1:8080)/x"},
		// session ids (URLRegexTransformerTest)
		{"http://x.com/?jsessionid=" + sid32 + "&x=y", "com,x)/?x=y"},
		{"http://x.com/?jsessionid=" + sid32 + "0", "com,x)/?jsessionid=" + sid32 + "0"},
		{"http://x.com/?one=two&jsessionid=" + sid32 + "&x=y", "com,x)/?one=two&x=y"},
		{"http://x.com/?one=two&jsessionid=" + sid32, "com,x)/?&one=two"},
		{"http://x.com/?aspsessionidABCDEFGH=ABCDEFGHIJKLMNOPQRSTUVWX&x=y", "com,x)/?x=y"},
		{"http://x.com/?one=two&phpsessid=" + sid32 + "&x=y", "com,x)/?one=two&x=y"},
		{"http://x.com/?sid=9682993c8daa2c5497996114facdc805&x=y", "com,x)/?x=y"},
		{"http://x.com/?sid=9682993c8daa2c5497996114facdc805&jsessionid=" + sid32, "com,x)/"},
		{"http://x.com/?CFID=1169580&CFTOKEN=48630702&dtstamp=22%2F08%2F2006%7C06%3A58%3A11", "com,x)/?dtstamp=22/08/2006|06:58:11"},
		{"http://x.com/?CFID=14475712&CFTOKEN=2D89F5AF-3048-2957-DA4EE4B6B13661AB&r=468710288378&m=forgotten", "com,x)/?m=forgotten&r=468710288378"},
		{"http://x.com/?CFID=16603925&CFTOKEN=2AE13EEE-3048-85B0-56CEDAAB0ACA44B8", "com,x)/"},
		{"http://x.com/(S(4hqa0555fwsecu455xqckv45))/mileg.aspx", "com,x)/mileg.aspx"},
		{"http://x.com/(4hqa0555fwsecu455xqckv45)/mileg.aspx", "com,x)/mileg.aspx"},
		{"http://x.com/(a(4hqa0555fwsecu455xqckv45)S(4hqa0555fwsecu455xqckv45)f(4hqa0555fwsecu455xqckv45))/mileg.aspx?page=sessionschedules", "com,x)/mileg.aspx?page=sessionschedules"},
		{"http://x.com/photos/36050182@N05/", "com,x)/photos/36050182@n05"},
	}
	for _, tt := range tests {
		if got := SURT(tt.in); got != tt.want {
			t.Errorf("SURT(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

func TestNumericIPv4(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{"127.0.0.1", "127.0.0.1", true},
		{"017.0.0.1", "15.0.0.1", true},
		{"10.0.258", "10.0.1.2", true},
		{"1.2.3.256", "", false},
		{"39024579298", "22.11.210.226", true}, // surt masks to the low four bytes
		{"1.2.3.08", "", false},
		{"0x7f.1", "", false},
		{"1.2.3.4.5", "", false},
		{"example.com", "", false},
	}
	for _, tt := range tests {
		got, ok := numericIPv4(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("numericIPv4(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}
