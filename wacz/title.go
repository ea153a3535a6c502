package wacz

import (
	"bufio"
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/crawlproject/crawl/archive"
	"github.com/crawlproject/crawl/pageenc"
	"github.com/crawlproject/crawl/wire"
)

// maxTitleScan is the most of a decoded body searched for the title.
const maxTitleScan = 1 << 20

// maxTitle is the longest title kept, in bytes.
const maxTitle = 1024

// titleReader reads the titles of pages from their WARC records. It keeps
// the last WARC file it read open: pages come mostly in file order.
type titleReader struct {
	dir      string
	byDigest map[string]loc
	name     string
	f        *os.File
}

// title returns the title of the page whose record is at l; "" when the
// record cannot be read or the page has none. A revisit takes the title of
// the response with its payload digest.
func (t *titleReader) title(l loc) string {
	if l.revisit {
		orig, ok := t.byDigest[l.digest]
		if !ok {
			return ""
		}
		l = orig
	}
	block, err := t.block(l)
	if err != nil {
		return ""
	}
	return responseTitle(block)
}

// block reads the block of the record at l.
func (t *titleReader) block(l loc) ([]byte, error) {
	if t.name != l.file {
		t.close()
		f, err := os.Open(filepath.Join(t.dir, archiveDir, l.file))
		if err != nil {
			return nil, err
		}
		t.name, t.f = l.file, f
	}
	rec, err := archive.NewReader(io.NewSectionReader(t.f, l.offset, l.length)).Next()
	if err != nil {
		return nil, err
	}
	return rec.Block, nil
}

func (t *titleReader) close() {
	if t.f != nil {
		t.f.Close()
		t.f, t.name = nil, ""
	}
}

// responseTitle returns the title of the HTML page in the HTTP response
// message block, read in the page's encoding.
func responseTitle(block []byte) string {
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(block)), nil)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	body, ok := decodedBody(resp) // a body cut short still has its head
	if !ok {
		return ""
	}
	if len(body) == maxTitleScan {
		body = trimPartialRune(body)
	}
	enc := pageenc.Of(body, resp.Header.Get("Content-Type"))
	return htmlTitle(enc.Decode(body))
}

// decodedBody returns up to maxTitleScan bytes of the body with its
// content codings undone as the crawl undid them for reading the page
// (wire.DecodeContent: gzip, deflate, br); the transfer coding is undone
// by http.ReadResponse. ok is false for a coding the crawler cannot undo,
// or a body of which nothing decodes.
func decodedBody(resp *http.Response) (body []byte, ok bool) {
	raw, _ := io.ReadAll(resp.Body) // what came of a body cut short
	body, _, err := wire.DecodeContent(resp.Header, raw, maxTitleScan, "page body")
	// A body with no content coding comes back whole.
	return body[:min(len(body), maxTitleScan)], err == nil || len(body) > 0
}

// trimPartialRune drops an incomplete UTF-8 sequence from the end of b, so
// that a body cut at maxTitleScan is not taken for another encoding.
func trimPartialRune(b []byte) []byte {
	for i := 1; i < utf8.UTFMax && i <= len(b); i++ {
		if utf8.RuneStart(b[len(b)-i]) {
			if !utf8.FullRune(b[len(b)-i:]) {
				return b[:len(b)-i]
			}
			break
		}
	}
	return b
}

// htmlTitle returns the text of the first title element of the UTF-8 HTML
// page outside svg, with ASCII whitespace stripped and collapsed (HTML
// Standard, document.title), cut to maxTitle bytes.
func htmlTitle(page []byte) string {
	z := html.NewTokenizer(bytes.NewReader(page))
	svg := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "svg":
				svg++
			case "title":
				if svg == 0 {
					return titleText(z)
				}
			}
		case html.EndTagToken:
			if name, _ := z.TagName(); string(name) == "svg" && svg > 0 {
				svg--
			}
		}
	}
}

// titleText reads the text of the title element whose start tag z just
// read.
func titleText(z *html.Tokenizer) string {
	var b strings.Builder
	for z.Next() == html.TextToken {
		b.Write(z.Text())
	}
	t := strings.Join(strings.FieldsFunc(b.String(), func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r'
	}), " ")
	if len(t) > maxTitle {
		t = strings.ToValidUTF8(t[:maxTitle], "")
	}
	return t
}
