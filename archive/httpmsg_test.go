package archive

import "testing"

func TestParseHTTPHead(t *testing.T) {
	cases := []struct {
		name     string
		msg      string
		status   int
		body     string // the payload: msg[bodyOffset:]
		complete bool
		get      map[string]string
	}{
		{"RFC9112 2.1 response with body", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nhi",
			200, "hi", true, map[string]string{"Content-Type": "text/html", "content-length": "2", "Server": ""}},
		{"RFC9112 2.2 bare LF line ends", "HTTP/1.0 404 Not Found\nContent-Type: text/plain\n\nnot found",
			404, "not found", true, map[string]string{"Content-Type": "text/plain"}},
		{"RFC9112 2.2 empty lines before the start line", "\r\n\r\nHTTP/1.1 204 No Content\r\nServer: x\r\n\r\n",
			204, "", true, map[string]string{"Server": "x"}},
		{"RFC9112 5.2 obsolete line folding", "HTTP/1.1 200 OK\r\nX-Long: a\r\n  b\r\n\tc \r\nContent-Type: text/html\r\n\r\n",
			200, "", true, map[string]string{"X-Long": "a b c", "Content-Type": "text/html"}},
		{"RFC9110 5.1 names are case-insensitive, first field wins", "HTTP/1.1 200 OK\r\ncontent-TYPE:  text/a  \r\nContent-Type: text/b\r\n\r\n",
			200, "", true, map[string]string{"Content-Type": "text/a"}},
		{"line without colon is skipped", "HTTP/1.1 200 OK\r\nnonsense\r\nA: 1\r\n\r\nx",
			200, "x", true, map[string]string{"A": "1", "nonsense": ""}},
		{"RFC9112 2.3 a lower-case http name, which the crawler reads repaired", "http/1.1 200 OK\r\nA: 1\r\n\r\nx",
			200, "x", true, map[string]string{"A": "1"}},
		{"request", "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n",
			0, "", true, map[string]string{"Host": "example.com"}},
		{"header block never ends", "HTTP/1.1 200 OK\r\nA: 1\r\nB: 2",
			200, "", false, map[string]string{"A": "1", "B": ""}},
		{"no start line", "", 0, "", false, map[string]string{"A": ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			msg := []byte(tc.msg)
			h := parseHTTPHead(msg)
			if h.status != tc.status || h.complete != tc.complete || string(msg[h.bodyOffset:]) != tc.body {
				t.Errorf("status %d complete %v body %q; want %d %v %q",
					h.status, h.complete, msg[h.bodyOffset:], tc.status, tc.complete, tc.body)
			}
			for name, want := range tc.get {
				if got := h.get(name); got != want {
					t.Errorf("get(%q) = %q, want %q", name, got, want)
				}
			}
		})
	}
}

func TestParseHTTPHeadDoesNotAllocate(t *testing.T) {
	msg := []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\nServer: x\r\n\r\nhi")
	if n := testing.AllocsPerRun(100, func() { parseHTTPHead(msg) }); n != 0 {
		t.Errorf("parseHTTPHead allocates %v times", n)
	}
}
