package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// hostileInput builds an input whose every free-text field carries s.
func hostileInput(s string) *input {
	h := "http://127.0.0.1:9"
	delay := 1.0
	from, to := s, s
	return &input{
		summary: summary{
			Started: t0, Finished: at(10), Agent: s, UserAgent: s, Out: s,
			Politeness: map[string]any{s: s},
			Hosts: []hostSummary{{
				Host: h, State: s, PaceSeconds: 1, PaceRule: s, PagesByStatus: map[string]int{s: 1},
				DeferReason: s, DropReason: s,
				Robots: &robotsSummary{URL: s, Body: s + "\nDisallow: " + s + "\n", Group: s, CrawlDelaySeconds: &delay,
					RequestRates: []requestRate{{Requests: 1, Seconds: 1, From: &from, To: &to}},
					VisitTimes:   []visitTime{{From: s, To: s}}, Comments: []string{s}, Sitemaps: []string{s}, Warnings: []string{s}},
				Events: []event{{Time: at(1), Kind: s, Detail: s}},
			}},
		},
		requests: []request{{Time: at(1), URL: h + "/" + s, Host: h, Kind: s, Status: 200, PaceSeconds: 1, PaceRule: s, RobotsRule: s, RobotsLine: 2, Redirect: s, Error: s}},
		skips:    []skip{{Time: at(2), URL: s, Host: h, Reason: s, Detail: s, Rule: s, Line: 2}},
		robots:   []robotsFetch{{Time: at(0), Host: h, URL: s, Outcome: s, Redirects: []string{s}, Error: s}},
		notes:    []string{s},
	}
}

// FuzzRenderEscapes checks that no input text becomes markup: the page
// keeps exactly its own elements whatever the crawl recorded.
func FuzzRenderEscapes(f *testing.F) {
	for _, s := range []string{
		`<script>alert(1)</script>`, `"><img src=x onerror=alert(1)>`, `</style><script>x</script>`,
		`javascript:alert(1)`, `]]><svg onload=alert(1)>`, `</title><script>`, "\x00\u2028<!--", `{{.}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var buf bytes.Buffer
		if err := render(&buf, hostileInput(s)); err != nil {
			t.Fatal(err)
		}
		doc, err := html.Parse(&buf)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range findAll(doc, func(*html.Node) bool { return true }) {
			switch n.Data {
			case "script", "img", "iframe", "object", "embed", "link", "base", "form", "foreignObject", "foreignobject":
				t.Fatalf("input %q produced <%s>", s, n.Data)
			}
			for _, a := range n.Attr {
				if strings.HasPrefix(strings.ToLower(a.Key), "on") || a.Key == "src" {
					t.Fatalf("input %q produced attribute %s on <%s>", s, a.Key, n.Data)
				}
				if a.Key == "href" && !strings.HasPrefix(a.Val, "#") {
					t.Fatalf("input %q produced href %q", s, a.Val)
				}
			}
		}
		if n := len(findAll(doc, func(n *html.Node) bool { return n.Data == "style" })); n != 1 {
			t.Fatalf("input %q: %d <style> elements", s, n)
		}
	})
}

// bigInput is a crawl of hosts hosts with perHost requests and skips each.
func bigInput(hosts, perHost int) *input {
	in := &input{summary: summary{Started: t0, Finished: at(float64(perHost) + 1), Agent: "crawl"}}
	for h := range hosts {
		host := fmt.Sprintf("http://127.0.0.1:%d", 10000+h)
		body := "User-agent: *\nCrawl-delay: 1\nDisallow: /private/\nAllow: /private/ok\n"
		in.summary.Hosts = append(in.summary.Hosts, hostSummary{Host: host, State: "done", PaceSeconds: 1,
			PaceRule: "crawl-delay 1s (line 2)", PagesByStatus: map[string]int{"200": perHost},
			Robots: &robotsSummary{URL: host + "/robots.txt", Status: 200, Outcome: "parsed", Body: body}})
		for i := range perHost {
			in.requests = append(in.requests, request{Time: at(float64(i)), URL: fmt.Sprintf("%s/p/%d", host, i), Host: host,
				Kind: "page", Status: 200, PaceSeconds: 1, PaceRule: "crawl-delay 1s (line 2)", RobotsLine: 4})
			in.skips = append(in.skips, skip{Time: at(float64(i)), URL: fmt.Sprintf("%s/private/%d", host, i), Host: host,
				Reason: "robots-disallowed", Rule: "Disallow: /private/", Line: 3})
		}
	}
	return in
}

// BenchmarkRender renders a crawl of 20 hosts with 1000 requests and 1000
// skips each (20 000 timeline marks).
func BenchmarkRender(b *testing.B) {
	in := bigInput(20, 1000)
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := render(&buf, in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len())/1e6, "MB/page")
}
