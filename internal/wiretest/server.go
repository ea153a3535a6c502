package wiretest

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
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/crawlproject/crawl/archive"
)

// Server is an HTTP/1.1 server on 127.0.0.1 that answers each path with
// an exact byte sequence and keeps the exact bytes of every request it
// received: what a WARC record must hold, byte for byte. Safe for
// concurrent use.
type Server struct {
	ln     net.Listener
	tls    bool
	routes map[string]Route

	mu    sync.Mutex
	got   map[string][][]byte // path -> requests received
	alpn  []string            // protocol negotiated on each TLS connection
	open  map[net.Conn]bool   // closed by the cleanup: a client may keep them idle
	conns sync.WaitGroup
}

// Route is the answer to one path.
type Route struct {
	// Resp is the bytes sent in answer, exactly.
	Resp string
	// End is what follows the answer: "" keeps the connection, "close"
	// closes it, "stall" waits (sending nothing) until the client leaves.
	End string
	// Then, if set, answers every request to the path after the first.
	Then *Route
}

// NewServer starts a server answering routes (a path without a route,
// and /robots.txt unless routes has it, is answered 404); with cfg it
// speaks TLS. t's cleanup closes it and its connections.
func NewServer(t testing.TB, routes map[string]Route, cfg *tls.Config) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if cfg != nil {
		ln = tls.NewListener(ln, cfg)
	}
	s := &Server{ln: ln, tls: cfg != nil, routes: routes, got: map[string][][]byte{}, open: map[net.Conn]bool{}}
	if _, ok := routes["/robots.txt"]; !ok {
		routes["/robots.txt"] = Route{Resp: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"}
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

func (s *Server) accept() {
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
func (s *Server) serve(c net.Conn) {
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
		if ok && again && route.Then != nil {
			route = *route.Then
		}
		if !ok {
			route = Route{Resp: "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"}
		}
		if _, err := io.WriteString(c, route.Resp); err != nil {
			return
		}
		switch route.End {
		case "close":
			return
		case "stall":
			io.Copy(io.Discard, c) // until the client hangs up
			return
		}
	}
}

// URL returns the absolute URL of path on this server.
func (s *Server) URL(path string) string {
	scheme := "http"
	if s.tls {
		scheme = "https"
	}
	return scheme + "://" + s.Addr() + path
}

// Addr returns the server's "host:port".
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Requests returns the requests received for path, each as its bytes.
func (s *Server) Requests(path string) [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.got[path]
}

// ALPN returns the protocol negotiated on each TLS connection, in order.
func (s *Server) ALPN() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.alpn)
}

// WARCRecords reads every record of the WARC files under dir/archive (a
// crawl's output directory), checking each block digest.
func WARCRecords(t testing.TB, dir string) []*archive.Record {
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

// RecordsOf returns the records of type typ for target, in file order.
func RecordsOf(recs []*archive.Record, typ, target string) []*archive.Record {
	var out []*archive.Record
	for _, r := range recs {
		if r.Type() == typ && r.Get("WARC-Target-URI") == target {
			out = append(out, r)
		}
	}
	return out
}

// Cert returns a self-signed certificate for 127.0.0.1 and a pool
// trusting it.
func Cert(t testing.TB) (tls.Certificate, *x509.CertPool) {
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
