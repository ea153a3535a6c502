package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestJSONLogStaysJSON: with --log-format json every line on stderr is a
// JSON object, also what net/http logs through the log package: a server
// that sends bytes after its answer on a kept-alive connection makes
// net/http log "Unsolicited response received on idle HTTP channel" with
// those bytes, which must not reach stderr as a raw line.
func TestJSONLogStaysJSON(t *testing.T) {
	t.Parallel()
	bin := buildCrawl(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func(c net.Conn) {
				defer c.Close()
				r := bufio.NewReader(c)
				for {
					req, err := http.ReadRequest(r)
					if err != nil {
						return
					}
					body := `<a href="/a">a</a><a href="/b">b</a>`
					if req.URL.Path == "/robots.txt" {
						body = "User-agent: *\nCrawl-delay: 0.1\n"
					}
					fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%sGARBAGE AFTER THE BODY", len(body), body)
				}
			}(c)
		}
	}()
	dir := t.TempDir()
	seeds := filepath.Join(dir, "seeds.txt")
	os.WriteFile(seeds, []byte("http://"+ln.Addr().String()+"/\n"), 0o644)
	cmd := exec.Command(bin, "--seed", seeds, "--out", filepath.Join(dir, "out"), "--log-format", "json", "--progress", "never")
	cmd.Env = append(os.Environ(), "CRAWL_POLITENESS_DEFAULT_DELAY=100ms")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("crawl: %v\n%s", err, stderr.String())
	}
	lines := 0
	for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
		if line == "" {
			continue
		}
		lines++
		var v map[string]any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Errorf("stderr line is not JSON: %q", line)
		}
	}
	if !strings.Contains(stderr.String(), "Unsolicited response") {
		t.Errorf("net/http logged nothing (%d lines): the test did not exercise its log", lines)
	}
}
