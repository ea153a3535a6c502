package wire

import (
	"net"
	"sync"
)

// rawConn is a connection of the Transport that records the bytes
// of the exchange attached to it: every byte written is the raw request,
// every byte read (until the final response head has ended) is the raw
// response. net/http's Transport never pipelines HTTP/1.1, so one
// connection serves one request at a time; the transport attaches a
// request's recorder when it gets the connection (httptrace GotConn) and
// detaches it when the body has been read.
//
// While a recorder is attached, net/http reads each response head only
// once it is whole, as the recorder repaired it (repairHead): a head with
// one line net/http's strict parser refuses is read without that line,
// and archived as it came. Bytes read while no recorder is attached pass
// as they are. Safe for concurrent use: the Transport reads in one
// goroutine and writes in another.
type rawConn struct {
	net.Conn

	mu      sync.Mutex
	rec     *rawRecorder // the exchange in progress; nil while idle
	held    []byte       // bytes for net/http to read before any more from Conn
	heldErr error        // the error for net/http once held is read
}

// Read implements net.Conn, recording the bytes read. It returns a
// response head only once the attached recorder has all of it (reading on
// from Conn until then), repaired; other bytes as they came.
func (c *rawConn) Read(p []byte) (int, error) {
	for {
		c.mu.Lock()
		if len(c.held) > 0 || c.heldErr != nil {
			n := copy(p, c.held)
			c.held = c.held[n:]
			var err error
			if len(c.held) == 0 {
				c.held, err, c.heldErr = nil, c.heldErr, nil
			}
			c.mu.Unlock()
			return n, err
		}
		c.mu.Unlock()
		n, err := c.Conn.Read(p)
		c.mu.Lock()
		if c.rec != nil && n > 0 {
			var through bool
			if c.held, through = c.rec.read(p[:n], c.held); !through {
				n = 0 // taken into held
			}
		}
		if err != nil && c.rec != nil {
			c.held = c.rec.flush(c.held)
		}
		if n > 0 && len(c.held) > 0 {
			// After the bytes a detach gave back while Conn.Read waited.
			c.held, n = append(c.held, p[:n]...), 0
		}
		if n > 0 || len(c.held) == 0 && (err != nil || c.rec == nil) {
			c.mu.Unlock()
			return n, err
		}
		c.heldErr = err
		c.mu.Unlock()
		// A head is still incomplete (nothing held, no error): read on.
	}
}

// Write implements net.Conn, recording the bytes written. They are
// recorded before they are sent: the server may answer, and the request's
// owner detach, before the underlying Write returns. A short write takes
// back what was not sent.
func (c *rawConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	r := c.rec
	if r != nil {
		r.wrote(p)
	}
	c.mu.Unlock()
	n, err := c.Conn.Write(p)
	if n < len(p) && r != nil {
		c.mu.Lock()
		if c.rec == r {
			r.unwrite(len(p) - n)
		}
		c.mu.Unlock()
	}
	return n, err
}

// attach makes r the recorder of c's traffic from now on. A recorder
// attached before to another connection (net/http retried the request on a
// new one) is detached from it and starts over.
func (c *rawConn) attach(r *rawRecorder) {
	if r.conn != nil && r.conn != c {
		r.detach()
	}
	c.mu.Lock()
	if c.rec != nil && c.rec != r {
		c.held = c.rec.flush(c.held)
	}
	r.reset()
	r.conn = c
	c.rec = r
	c.mu.Unlock()
}

// detach stops recording into r. It leaves alone a connection that
// already serves another request (it went back to the idle pool when the
// body ended, before r's request returned). After detach, r is no longer
// written by any connection: its owner may read it. What r held back of an
// incomplete head is given to net/http as it came.
func (r *rawRecorder) detach() {
	c := r.conn
	if c == nil {
		return
	}
	c.mu.Lock()
	if c.rec == r {
		c.held = r.flush(c.held)
		c.rec = nil
	}
	c.mu.Unlock()
	r.conn = nil
}
