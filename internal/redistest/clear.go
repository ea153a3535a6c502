package redistest

import (
	"fmt"
	"strconv"
)

// FlushDB empties the database a single-server URL names (FLUSHDB).
// A Redis Cluster has only database 0, shared by every user of the
// cluster: clear a key prefix of your own there (DeletePrefix).
func FlushDB(raw string) error {
	t, err := Parse(raw)
	if err != nil {
		return err
	}
	if t.Cluster {
		return fmt.Errorf("redistest: FlushDB on a cluster: clear a key prefix instead")
	}
	c, err := t.dial(t.Addrs[0])
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = c.Do("FLUSHDB")
	return err
}

// DeletePrefix deletes every key starting with prefix in the database the
// URL names, on every master of a cluster, one key per DEL (the keys of
// one call may lie in different slots), and returns how many it deleted.
func DeletePrefix(raw, prefix string) (int, error) {
	t, err := Parse(raw)
	if err != nil {
		return 0, err
	}
	masters, err := t.Masters()
	if err != nil {
		return 0, err
	}
	n := 0
	for _, addr := range masters {
		d, err := t.deleteOn(addr, prefix)
		n += d
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// deleteOn deletes the keys starting with prefix on one server.
func (t Target) deleteOn(addr, prefix string) (int, error) {
	c, err := t.dial(addr)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	n, cursor := 0, "0"
	for {
		v, err := c.Do("SCAN", cursor, "MATCH", globEscape(prefix)+"*", "COUNT", strconv.Itoa(1000))
		if err != nil {
			return n, err
		}
		a, _ := v.([]any)
		if len(a) != 2 {
			return n, fmt.Errorf("redistest: SCAN on %s: unexpected reply %v", addr, v)
		}
		keys, _ := a[1].([]any)
		for _, k := range keys {
			if _, err := c.Do("DEL", k.(string)); err != nil {
				return n, err
			}
			n++
		}
		if cursor, _ = a[0].(string); cursor == "0" {
			return n, nil
		}
	}
}

// globEscape escapes the characters SCAN MATCH reads as a pattern.
func globEscape(s string) string {
	var b []byte
	for i := range len(s) {
		switch s[i] {
		case '*', '?', '[', ']', '\\':
			b = append(b, '\\')
		}
		b = append(b, s[i])
	}
	return string(b)
}
