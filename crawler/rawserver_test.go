package crawler

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"io"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/archive"
)

// rawServer is an HTTP/1.1 server on 127.0.0.1 that answers each path with
// an exact byte sequence and keeps the exact bytes of every request it
// received: what a WARC record must hold, byte for byte.
type rawServer struct {
	ln     net.Listener
	tls    bool
	routes map[string]rawRoute

	mu    sync.Mutex
	got   map[string][][]byte // path -> requests received
	alpn  []string            // protocol negotiated on each TLS connection
	open  map[net.Conn]bool   // closed by the cleanup: a client may keep them idle
	conns sync.WaitGroup
}

// rawRoute is the answer to one path.
type rawRoute struct {
	resp string
	// end is what follows the answer: "" keeps the connection, "close"
	// closes it, "stall" waits (sending nothing) until the client leaves.
	end string
	// then, if set, answers every request to the path after the first.
	then *rawRoute
}

// newRawServer starts a server; with cfg it speaks TLS.
func newRawServer(t *testing.T, routes map[string]rawRoute, cfg *tls.Config) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if cfg != nil {
		ln = tls.NewListener(ln, cfg)
	}
	s := &rawServer{ln: ln, tls: cfg != nil, routes: routes, got: map[string][][]byte{}, open: map[net.Conn]bool{}}
	if _, ok := routes["/robots.txt"]; !ok {
		routes["/robots.txt"] = rawRoute{resp: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"}
	}
	go s.accept()
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		for c := range s.open {
			c.Close()
		}
		s.mu.Unlock()
		s.conns.Wait()
	})
	return s
}

func (s *rawServer) accept() {
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.open[c] = true
		s.mu.Unlock()
		s.conns.Add(1)
		go func() {
			defer s.conns.Done()
			s.serve(c)
			c.Close()
			s.mu.Lock()
			delete(s.open, c)
			s.mu.Unlock()
		}()
	}
}

// serve answers the requests of one connection. Requests carry no body.
func (s *rawServer) serve(c net.Conn) {
	c.SetDeadline(time.Now().Add(30 * time.Second))
	if tc, ok := c.(*tls.Conn); ok {
		if tc.Handshake() != nil {
			return
		}
		s.mu.Lock()
		s.alpn = append(s.alpn, tc.ConnectionState().NegotiatedProtocol)
		s.mu.Unlock()
	}
	br := bufio.NewReader(c)
	for {
		var req []byte
		for !bytes.HasSuffix(req, []byte("\r\n\r\n")) {
			line, err := br.ReadSlice('\n')
			if err != nil {
				return
			}
			req = append(req, line...)
		}
		path := ""
		if f := bytes.Fields(req); len(f) > 1 {
			path = string(f[1])
		}
		s.mu.Lock()
		s.got[path] = append(s.got[path], req)
		again := len(s.got[path]) > 1
		s.mu.Unlock()
		route, ok := s.routes[path]
		if ok && again && route.then != nil {
			route = *route.then
		}
		if !ok {
			route = rawRoute{resp: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"}
		}
		if _, err := io.WriteString(c, route.resp); err != nil {
			return
		}
		switch route.end {
		case "close":
			return
		case "stall":
			io.Copy(io.Discard, c) // until the client hangs up
			return
		}
	}
}

// URL returns the absolute URL of path on this server.
func (s *rawServer) URL(path string) string {
	scheme := "http"
	if s.tls {
		scheme = "https"
	}
	return scheme + "://" + s.ln.Addr().String() + path
}

// requests returns the requests received for path.
func (s *rawServer) requests(path string) [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got[path]
}

// warcRecords reads every record of the WARC files under dir/archive.
func warcRecords(t *testing.T, dir string) []*archive.Record {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "archive", "*.warc.gz"))
	if len(files) == 0 {
		t.Fatal("no WARC file written")
	}
	var out []*archive.Record
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		r := archive.NewReader(f)
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				f.Close()
				t.Fatalf("%s: %v", name, err)
			}
			if err := rec.VerifyBlockDigest(); err != nil {
				t.Errorf("%s %s: %v", rec.Type(), rec.Get("WARC-Target-URI"), err)
			}
			out = append(out, rec)
		}
		f.Close()
	}
	return out
}

// recordsOf returns the records of type typ for target, in file order.
func recordsOf(recs []*archive.Record, typ, target string) []*archive.Record {
	var out []*archive.Record
	for _, r := range recs {
		if r.Type() == typ && r.Get("WARC-Target-URI") == target {
			out = append(out, r)
		}
	}
	return out
}

// testCert returns a self-signed certificate for 127.0.0.1 and a pool
// trusting it.
func testCert(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "127.0.0.1"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool
}
