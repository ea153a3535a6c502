package wacz

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
)

// IndexPath is where the WACZ holds its CDXJ index (see the package doc for
// the name).
const IndexPath = "indexes/index.cdx"

// A loc is where a response (or revisit) record of an HTML page lies, as
// the index says.
type loc struct {
	file           string // base name of the WARC file
	offset, length int64
	ts             string // 14-digit timestamp
	digest         string // payload digest with its algorithm label
	revisit        bool
	order          int // position in the WARC files (file, then offset)
}

// pageIndex is what the index says about HTML pages.
type pageIndex struct {
	lines    int
	byURL    map[string][]loc // 2xx HTML responses and 2xx revisits
	byDigest map[string]loc   // the first 2xx HTML response of each payload
}

// cdxLine is one parsed line of a CDXJ index.
type cdxLine struct {
	key, ts string
	fields  map[string]json.RawMessage
}

// str returns the string (or number) value of field name; "" if absent.
func (c *cdxLine) str(name string) string {
	raw, ok := c.fields[name]
	if !ok {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(raw))
}

func (c *cdxLine) set(name, value string) {
	b, _ := json.Marshal(value) // a string: cannot fail
	c.fields[name] = b
}

// parseCDXLine reads "KEY TIMESTAMP {JSON}".
func parseCDXLine(line string) (cdxLine, error) {
	key, rest, ok1 := strings.Cut(line, " ")
	ts, js, ok2 := strings.Cut(rest, " ")
	if !ok1 || !ok2 || !strings.HasPrefix(js, "{") {
		return cdxLine{}, errors.New("not a CDXJ line (KEY TIMESTAMP {JSON})")
	}
	c := cdxLine{key: key, ts: ts}
	if err := json.Unmarshal([]byte(js), &c.fields); err != nil {
		return cdxLine{}, err
	}
	return c, nil
}

// render writes the line back as "KEY TIMESTAMP {JSON}" (fields in name
// order, '&' and '<' left as they are).
func (c *cdxLine) render(w io.Writer) error {
	var b bytes.Buffer
	b.WriteString(c.key + " " + c.ts + " ")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c.fields); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes()) // Encode ended it with "\n"
	return err
}

// writeIndex copies the crawl's index into the WACZ as IndexPath, adjusted
// for the WACZ (see the package doc), checks that every line points inside
// a WARC file of the archive, and returns what it says about HTML pages.
func (p *packer) writeIndex(src *source) (*pageIndex, error) {
	sizes := map[string]int64{}
	order := map[string]int{}
	for i, f := range src.warcs {
		st, err := os.Stat(f)
		if err != nil {
			return nil, fmt.Errorf("wacz: %w", err)
		}
		sizes[filepath.Base(f)] = st.Size()
		order[filepath.Base(f)] = i
	}
	in, err := os.Open(src.index)
	if err != nil {
		return nil, fmt.Errorf("wacz: %w", err)
	}
	defer in.Close()
	e, err := p.create(IndexPath, false)
	if err != nil {
		return nil, err
	}
	idx := &pageIndex{byURL: map[string][]loc{}, byDigest: map[string]loc{}}
	br := bufio.NewReaderSize(in, 64<<10)
	for n := 1; ; n++ {
		line, rerr := br.ReadString('\n')
		if line = strings.TrimRight(line, "\r\n"); line != "" {
			if err := idx.copyLine(e, line, sizes, order); err != nil {
				return nil, fmt.Errorf("wacz: %s line %d: %w", src.index, n, err)
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			return nil, fmt.Errorf("wacz: %w", rerr)
		}
	}
	p.list(e)
	return idx, nil
}

// copyLine adjusts one index line, writes it to w and notes a page record.
func (idx *pageIndex) copyLine(w io.Writer, line string, sizes map[string]int64, order map[string]int) error {
	c, err := parseCDXLine(line)
	if err != nil {
		return err
	}
	file := path.Base(filepath.ToSlash(c.str("filename")))
	size, ok := sizes[file]
	if !ok {
		return fmt.Errorf("names %q, which is not a WARC file of the archive", c.str("filename"))
	}
	offset, err1 := strconv.ParseInt(c.str("offset"), 10, 64)
	length, err2 := strconv.ParseInt(c.str("length"), 10, 64)
	if err1 != nil || err2 != nil || offset < 0 || length <= 0 || offset > size-length {
		return fmt.Errorf("offset %q length %q do not lie inside %s (%d bytes)", c.str("offset"), c.str("length"), file, size)
	}
	c.set("filename", file)
	digest := c.str("digest")
	if digest != "" && !strings.Contains(digest, ":") {
		digest = "sha1:" + digest
		c.set("digest", digest)
	}
	if err := c.render(w); err != nil {
		return err
	}
	idx.lines++
	l := loc{file: file, offset: offset, length: length, ts: c.ts, digest: digest, order: order[file]}
	idx.note(c.str("url"), c.str("mime"), c.str("status"), l)
	return nil
}

// note keeps l if it is a 2xx HTML response or a 2xx revisit.
func (idx *pageIndex) note(url, mime, status string, l loc) {
	code, err := strconv.Atoi(status)
	if err != nil || code < 200 || code > 299 {
		return
	}
	switch {
	case mime == "warc/revisit":
		l.revisit = true
	case isHTML(mime):
		if _, ok := idx.byDigest[l.digest]; !ok && l.digest != "" {
			idx.byDigest[l.digest] = l
		}
	default:
		return
	}
	idx.byURL[url] = append(idx.byURL[url], l)
}

// isHTML reports whether the media type (or Content-Type value) is one
// of an HTML page.
func isHTML(contentType string) bool {
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	return mt == "text/html" || mt == "application/xhtml+xml"
}
