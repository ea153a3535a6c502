package wire

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"time"
)

// rawDialer opens the Transport's connections as rawConns. For
// https it does the TLS handshake itself, so the recorder sees the
// plaintext HTTP/1.1 messages, and it offers only "http/1.1" by ALPN
// (RFC 7301): WARC 1.1 (sections 6.3, 6.4) stores an exchange as
// application/http messages, the HTTP/1.1 wire format, and HTTP/2's binary
// frames and compressed headers have no standard form in a WARC record.
// Speaking HTTP/1.1 to every server, the crawler's records are the very
// messages that went over the connection, not a translation.
type rawDialer struct {
	net     net.Dialer
	tls     *tls.Config // cloned per connection; ServerName is set from the address
	timeout time.Duration
}

func newRawDialer(timeout time.Duration) *rawDialer {
	return &rawDialer{
		net: net.Dialer{Timeout: timeout, KeepAlive: 30 * time.Second},
		tls: &tls.Config{MinVersion: tls.VersionTLS12, NextProtos: []string{"http/1.1"}},
		// The Transport's TLSHandshakeTimeout does not apply to a custom
		// TLS dialer, and its dial context carries no deadline.
		timeout: timeout,
	}
}

// dial is the Transport's DialContext (plain http).
func (d *rawDialer) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := d.net.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &rawConn{Conn: c}, nil
}

// dialTLS is the Transport's DialTLSContext (https).
func (d *rawDialer) dialTLS(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := d.net.DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	cfg := d.tls.Clone()
	if cfg.ServerName == "" {
		host, _, serr := net.SplitHostPort(addr)
		if serr != nil {
			host = addr
		}
		cfg.ServerName = host
	}
	tc := tls.Client(c, cfg)
	hctx, cancel := context.WithTimeout(ctx, d.timeout)
	defer cancel()
	if err := tc.HandshakeContext(hctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("crawler: tls handshake with %s: %w", addr, err)
	}
	if p := tc.ConnectionState().NegotiatedProtocol; p != "" && p != "http/1.1" {
		tc.Close()
		return nil, fmt.Errorf("crawler: %s negotiated %q; only http/1.1 was offered", addr, p)
	}
	return &rawConn{Conn: tc}, nil
}
