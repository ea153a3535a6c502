package main

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestRobotsLiveRedirectAndCutBody: the live form says where a robots.txt
// came from when it was redirected (RFC 9309 2.3.1.2: a crawler follows at
// least five redirects), and keeps the status a server answered with when
// the body then failed (2.3.1.4: unreachable, so disallow all), so that a
// site owner sees what to fix.
func TestRobotsLiveRedirectAndCutBody(t *testing.T) {
	t.Setenv("CRAWL_POLITENESS_DEFAULT_DELAY", "10ms")
	moved := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.Redirect(w, r, "/new/robots.txt", http.StatusMovedPermanently)
		case "/new/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
		}
	}))
	t.Cleanup(moved.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 4096)
			c.Read(buf)
			c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 500\r\n\r\nUser-agent: *\n"))
			c.Close()
		}
	}()
	cut := "http://" + ln.Addr().String()
	// A redirect to that cut body: the status shown is the final answer's,
	// not the redirect's.
	toCut := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, cut+"/robots.txt", http.StatusFound)
	}))
	t.Cleanup(toCut.Close)

	out, err := runRobotsCmd(t, robotsOptions{fetch: liveRobotsFetch}, "explain", "--agent", "bot", moved.URL+"/")
	if err != nil {
		t.Fatal(err)
	}
	if want := "redirected 1 time(s), to " + moved.URL + "/new/robots.txt; HTTP 200"; !strings.Contains(out, want) {
		t.Errorf("explain lacks %q:\n%s", want, out)
	}
	out, err = runRobotsCmd(t, robotsOptions{fetch: liveRobotsFetch}, "check", "--agent", "bot", "--json", moved.URL+"/private/a")
	if err != nil {
		t.Fatal(err)
	}
	if want := `"redirects":["` + moved.URL + `/new/robots.txt"]`; !strings.Contains(out, want) || !strings.Contains(out, `"allowed":false`) {
		t.Errorf("check --json lacks %s or the rule of the file it was redirected to:\n%s", want, out)
	}
	out, err = runRobotsCmd(t, robotsOptions{fetch: liveRobotsFetch}, "check", "--agent", "bot", "--json", cut+"/a")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"status":200,"error":`) || !strings.Contains(out, `"outcome":"unreachable","policy":"disallow_all"`) ||
		!strings.Contains(out, `"allowed":false`) {
		t.Errorf("a cut body: want status 200 kept, unreachable, disallowed:\n%s", out)
	}
	out, err = runRobotsCmd(t, robotsOptions{fetch: liveRobotsFetch}, "check", "--agent", "bot", "--json", toCut.URL+"/a")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, `"status":200,"error":`) || !strings.Contains(out, `"redirects":["`+cut+`/robots.txt"]`) {
		t.Errorf("a redirect to a cut body: want the final status 200 and the redirect:\n%s", out)
	}
}
