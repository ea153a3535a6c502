package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"
)

// callTimeout bounds one command's round trip.
const callTimeout = 10 * time.Second

// A Conn is one connection to a Redis server, sending one command at a
// time. It is not safe for concurrent use.
type Conn struct {
	c net.Conn
	r *bufio.Reader
}

// An Error is an error reply of the server ("-ERR ...", "-MOVED ...").
type Error string

func (e Error) Error() string { return "redistest: server: " + string(e) }

// Dial connects to the server at addr (host:port).
func Dial(addr string) (*Conn, error) {
	c, err := net.DialTimeout("tcp", addr, callTimeout)
	if err != nil {
		return nil, fmt.Errorf("redistest: %w", err)
	}
	return &Conn{c: c, r: bufio.NewReader(c)}, nil
}

// Close closes the connection.
func (c *Conn) Close() error { return c.c.Close() }

// Do sends one command and returns its reply: a string (simple or bulk),
// an int64, nil (a null bulk string or array), or []any; an error reply is
// returned as an Error.
func (c *Conn) Do(args ...string) (any, error) {
	c.c.SetDeadline(time.Now().Add(callTimeout))
	b := fmt.Appendf(nil, "*%d\r\n", len(args))
	for _, a := range args {
		b = fmt.Appendf(b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := c.c.Write(b); err != nil {
		return nil, fmt.Errorf("redistest: %s: %w", args[0], err)
	}
	v, err := c.read()
	if err != nil {
		var e Error
		if errors.As(err, &e) {
			return nil, err
		}
		return nil, fmt.Errorf("redistest: %s: %w", args[0], err)
	}
	return v, nil
}

// read reads one reply.
func (c *Conn) read() (any, error) {
	line, err := c.r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	if len(line) < 3 || line[len(line)-2] != '\r' {
		return nil, fmt.Errorf("malformed reply %q", line)
	}
	kind, body := line[0], line[1:len(line)-2]
	switch kind {
	case '+':
		return body, nil
	case '-':
		return nil, Error(body)
	case ':':
		return strconv.ParseInt(body, 10, 64)
	case '$':
		return c.readBulk(body)
	case '*':
		return c.readArray(body)
	}
	return nil, fmt.Errorf("unknown reply type %q", kind)
}

func (c *Conn) readBulk(size string) (any, error) {
	n, err := strconv.Atoi(size)
	if err != nil || n < 0 {
		return nil, err // "$-1": the null bulk string
	}
	b := make([]byte, n+2)
	if _, err := io.ReadFull(c.r, b); err != nil {
		return nil, err
	}
	return string(b[:n]), nil
}

func (c *Conn) readArray(size string) (any, error) {
	n, err := strconv.Atoi(size)
	if err != nil || n < 0 {
		return nil, err // "*-1": the null array
	}
	a := make([]any, n)
	for i := range a {
		if a[i], err = c.read(); err != nil {
			return nil, err
		}
	}
	return a, nil
}
