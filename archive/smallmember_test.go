package archive

import (
	"bytes"
	stdflate "compress/flate"
	stdgzip "compress/gzip"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	kpflate "github.com/klauspost/compress/flate"
	kpgzip "github.com/klauspost/compress/gzip"
)

// sampleRecord is a WARC record as memberPool.compress gets it, rendered.
type sampleRecord struct {
	name string
	data []byte
}

// sampleRecords renders records like those the crawler writes besides
// large pages: request records, metadata records with 1..50 outlinks,
// robots.txt responses of several sizes and redirects. Record ids and
// digests are random, as in real archives.
func sampleRecords() []sampleRecord {
	rng := rand.New(rand.NewPCG(1, 2))
	id := func() string {
		return fmt.Sprintf("<urn:uuid:%08x-%04x-4%03x-%04x-%012x>", rng.Uint32(), rng.Uint32N(1<<16),
			rng.Uint32N(1<<12), 0x8000|rng.Uint32N(1<<14), rng.Uint64N(1<<48))
	}
	digest := func() string {
		var b [20]byte
		for i := range b {
			b[i] = byte(rng.Uint32())
		}
		d, _ := Digest(DigestSHA1, b[:])
		return d
	}
	words := strings.Fields("news sport world science technology culture archive blog posts tags category page article opinion local weather")
	path := func() string {
		var b strings.Builder
		for range 1 + rng.IntN(4) {
			b.WriteString("/" + words[rng.IntN(len(words))])
		}
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "/%d-%s-%s", rng.IntN(100000), words[rng.IntN(len(words))], words[rng.IntN(len(words))])
		}
		return b.String()
	}
	host := "https://www.example-news.org"
	render := func(typ, uri, ctype string, block []byte, extra ...Field) []byte {
		fields := []Field{{"WARC-Type", typ}, {"WARC-Record-ID", id()}, {"WARC-Date", "2026-03-04T05:06:07Z"},
			{"WARC-Target-URI", uri}, {"WARC-IP-Address", "203.0.113.17"}, {"WARC-Concurrent-To", id()},
			{"WARC-Block-Digest", digest()}}
		fields = append(append(fields, extra...), Field{"Content-Type", ctype})
		rec := appendHeader(nil, fields, len(block))
		rec = append(rec, block...)
		return append(rec, recordTrailer...)
	}
	request := func(uri, p string) []byte {
		block := "GET " + p + " HTTP/1.1\r\nHost: www.example-news.org\r\nUser-Agent: crawl/1.0 (+https://crawl.example/bot)\r\n" +
			"Accept: text/html,application/xhtml+xml;q=0.9,*/*;q=0.8\r\nAccept-Encoding: gzip\r\n\r\n"
		return render("request", uri, typeHTTPRequest, []byte(block), Field{"WARC-Payload-Digest", digest()})
	}
	metadata := func(uri string, links int) []byte {
		fields := []Field{{"pace", "2s"}, {"pace-source", "robots.txt Crawl-delay (line 4)"}, {"depth", "3"},
			{"via", host + path()}}
		for range links {
			fields = append(fields, Field{"outlink", host + path()})
		}
		return render("metadata", uri, typeWARCFields, fieldsBlock(fields))
	}
	robots := func(rules int) []byte {
		var body strings.Builder
		body.WriteString("# robots.txt for www.example-news.org\nUser-agent: *\nCrawl-delay: 2\n")
		for range rules {
			fmt.Fprintf(&body, "Disallow: %s\n", path())
		}
		body.WriteString("\nSitemap: " + host + "/sitemap.xml\n")
		block := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n"+
			"Date: Wed, 04 Mar 2026 05:06:07 GMT\r\nCache-Control: max-age=86400\r\nServer: nginx\r\n\r\n%s", body.Len(), body.String())
		return render("response", host+"/robots.txt", typeHTTPResponse, []byte(block), Field{"WARC-Payload-Digest", digest()})
	}
	redirect := func(uri string) []byte {
		block := "HTTP/1.1 301 Moved Permanently\r\nLocation: " + host + path() + "/\r\nContent-Length: 0\r\n" +
			"Date: Wed, 04 Mar 2026 05:06:07 GMT\r\nServer: nginx\r\n\r\n"
		return render("response", uri, typeHTTPResponse, []byte(block), Field{"WARC-Payload-Digest", digest()})
	}
	var recs []sampleRecord
	for i := range 4 {
		p := path()
		recs = append(recs, sampleRecord{fmt.Sprintf("request-%d", i), request(host+p, p)})
	}
	for _, links := range []int{1, 2, 5, 10, 20, 30, 50} {
		recs = append(recs, sampleRecord{fmt.Sprintf("metadata-%d-outlinks", links), metadata(host+path(), links)})
	}
	for _, rules := range []int{0, 5, 20, 60, 150} {
		recs = append(recs, sampleRecord{fmt.Sprintf("robots-%d-rules", rules), robots(rules)})
	}
	recs = append(recs, sampleRecord{"redirect", redirect(host + path())})
	return recs
}

// inflateBoth decompresses a gzip member with compress/gzip and with
// klauspost's gzip, which both check CRC-32 and ISIZE at the end, and
// requires the same bytes from both and nothing after the member.
func inflateBoth(t testing.TB, member []byte) []byte {
	t.Helper()
	var got [2][]byte
	for i, open := range []func(io.Reader) (io.ReadCloser, error){
		func(r io.Reader) (io.ReadCloser, error) { return stdgzip.NewReader(r) },
		func(r io.Reader) (io.ReadCloser, error) { return kpgzip.NewReader(r) },
	} {
		zr, err := open(bytes.NewReader(member))
		if err != nil {
			t.Fatalf("reader %d: header: %v", i, err)
		}
		b, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("reader %d: %v", i, err)
		}
		got[i] = b
	}
	if !bytes.Equal(got[0], got[1]) {
		t.Fatalf("compress/gzip and klauspost read different bytes (%d, %d)", len(got[0]), len(got[1]))
	}
	return got[0]
}

// checkMember asserts that member is one gzip member holding exactly src,
// with our fixed header and a trailer that states src's CRC-32 and length.
func checkMember(t testing.TB, member, src []byte) {
	t.Helper()
	if len(member) < gzipHeaderLen+gzipTrailerLen || string(member[:gzipHeaderLen]) != smallGzipHeader {
		t.Fatalf("member does not start with the gzip header: % x", member[:min(len(member), gzipHeaderLen)])
	}
	if len(member) > maxSmallMember(len(src)) || len(member) > gzipHeaderLen+storedLen(len(src))+gzipTrailerLen {
		t.Fatalf("member of %d bytes is %d bytes, more than stored blocks", len(src), len(member))
	}
	trailer := member[len(member)-gzipTrailerLen:]
	if crc := binary.LittleEndian.Uint32(trailer); crc != crc32.ChecksumIEEE(src) {
		t.Fatalf("CRC-32 %08x, want %08x", crc, crc32.ChecksumIEEE(src))
	}
	if size := binary.LittleEndian.Uint32(trailer[4:]); size != uint32(len(src)) {
		t.Fatalf("ISIZE %d, want %d", size, len(src))
	}
	if got := inflateBoth(t, member); !bytes.Equal(got, src) {
		t.Fatalf("round trip of %d bytes gave %d different bytes", len(src), len(got))
	}
}

// blockType returns BTYPE of the member's first deflate block.
func blockType(member []byte) int {
	return int(member[gzipHeaderLen]>>1) & 3
}

func randomBytes(seed uint64, n int) []byte {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// roundTripCases are the inputs of the round trip tests, with the block
// type the encoder must choose (-1: any) and, if set, a size bound that
// proves matches are used.
func roundTripCases() []struct {
	name   string
	src    []byte
	btype  int
	maxLen int
} {
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	var periodic []byte
	for i := range 5000 {
		periodic = append(periodic, "abcdefghij"[i%7])
	}
	type tc = struct {
		name   string
		src    []byte
		btype  int
		maxLen int
	}
	cases := []tc{
		// Too short for a dynamic header to pay off.
		{"empty", nil, fixedBlock, 20},
		{"one byte", []byte{'x'}, fixedBlock, 21},
		// 256 distinct bytes cost 8 or 9 bits each in any code.
		{"all 256 byte values", all, storedBlock, 0},
		{"all byte values twice", append(append([]byte{}, all...), all...), -1, 300},
		{"RFC1951 3.2.5 distance 1 overlap, 258-byte matches", bytes.Repeat([]byte{'a'}, 10000), -1, 120},
		{"period 7 overlap", periodic, -1, 80},
		{"match ends at input end", []byte("abcdefgh-abcdefgh"), -1, 0},
		{"4-byte repeats", []byte("abcd abcd abcd abcd"), -1, 0},
		{"random falls back to stored", randomBytes(1, 3000), storedBlock, 0},
		{"random, two stored blocks", randomBytes(2, 70000), storedBlock, 0},
		{"bytes >= 144 (9-bit codes)", bytes.Repeat([]byte{200, 255, 144, 1}, 2), -1, 0},
		{"long zero runs in the code lengths", append(bytes.Repeat([]byte{'a', 'b'}, 100), 250, 251), -1, 0},
	}
	for _, r := range sampleRecords() {
		// WARC records: text whose statistics pay for a dynamic header.
		cases = append(cases, tc{r.name, r.data, dynamicBlock, 0})
	}
	return cases
}

func TestSmallMemberRoundTrip(t *testing.T) {
	e := newSmallEncoder()
	for _, tc := range roundTripCases() {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			buf.WriteString("prefix")
			e.writeMember(&buf, tc.src)
			if !strings.HasPrefix(buf.String(), "prefix") {
				t.Fatal("writeMember overwrote what the buffer held")
			}
			member := buf.Bytes()[len("prefix"):]
			checkMember(t, member, tc.src)
			if bt := blockType(member); tc.btype >= 0 && bt != tc.btype {
				t.Errorf("block type %d, want %d", bt, tc.btype)
			}
			if tc.maxLen > 0 && len(member) > tc.maxLen {
				t.Errorf("member is %d bytes, want at most %d", len(member), tc.maxLen)
			}
		})
	}
}

// inflateRaw decompresses a raw deflate stream with compress/flate and
// klauspost's flate and requires both to read the same bytes.
func inflateRaw(t testing.TB, stream []byte) []byte {
	t.Helper()
	a, err := io.ReadAll(stdflate.NewReader(bytes.NewReader(stream)))
	if err != nil {
		t.Fatalf("compress/flate: %v", err)
	}
	b, err := io.ReadAll(kpflate.NewReader(bytes.NewReader(stream)))
	if err != nil {
		t.Fatalf("klauspost flate: %v", err)
	}
	if !bytes.Equal(a, b) {
		t.Fatal("compress/flate and klauspost read different bytes")
	}
	return a
}

// checkBlockTypes encodes src as each block type (RFC 1951 section 3.2.3)
// and checks each round trip, and that the encoder's own choice is the
// smallest of them, so its size accounting is exact.
func checkBlockTypes(t testing.TB, e *smallEncoder, src []byte) {
	t.Helper()
	smallest := -1
	for _, btype := range []int{storedBlock, fixedBlock, dynamicBlock} {
		stream := e.appendDeflate(nil, src, btype)
		if got := inflateRaw(t, stream); !bytes.Equal(got, src) {
			t.Fatalf("block type %d: round trip of %d bytes gave %d different bytes", btype, len(src), len(got))
		}
		if smallest < 0 || len(stream) < smallest {
			smallest = len(stream)
		}
	}
	if best := e.appendDeflate(nil, src, bestBlock); len(best) != smallest {
		t.Fatalf("chosen block is %d bytes, the smallest type %d", len(best), smallest)
	}
}

func TestSmallMemberBlockTypes(t *testing.T) {
	e := newSmallEncoder()
	for _, tc := range roundTripCases() {
		t.Run(tc.name, func(t *testing.T) { checkBlockTypes(t, e, tc.src) })
	}
}

// TestSmallMemberWindow proves RFC 1951 section 3.2.5's distance limit: a
// repeat exactly 32768 bytes back is matched, one 32769 bytes back is not
// (an inflater would reject the distance).
func TestSmallMemberWindow(t *testing.T) {
	e := newSmallEncoder()
	for _, tc := range []struct {
		gap     int
		matched bool
	}{{32768, true}, {32769, false}} {
		chunk := randomBytes(3, 2000)
		src := append(append(append([]byte{}, chunk...), bytes.Repeat([]byte{'-'}, tc.gap-len(chunk))...), chunk...)
		member := e.appendMember(nil, src)
		checkMember(t, member, src)
		// Unmatched, the 2000 random bytes cost about 2000 bytes twice.
		if matched := len(member) < 3500; matched != tc.matched {
			t.Errorf("gap %d: %d bytes out, matched %v, want %v", tc.gap, len(member), matched, tc.matched)
		}
	}
}

// TestLengthSymbolRFC1951_3_2_5 checks every match length against the
// table of length codes in RFC 1951 section 3.2.5.
func TestLengthSymbolRFC1951_3_2_5(t *testing.T) {
	table := []struct{ code, extraBits, base int }{
		{257, 0, 3}, {258, 0, 4}, {259, 0, 5}, {260, 0, 6}, {261, 0, 7}, {262, 0, 8}, {263, 0, 9}, {264, 0, 10},
		{265, 1, 11}, {266, 1, 13}, {267, 1, 15}, {268, 1, 17}, {269, 2, 19}, {270, 2, 23}, {271, 2, 27},
		{272, 2, 31}, {273, 3, 35}, {274, 3, 43}, {275, 3, 51}, {276, 3, 59}, {277, 4, 67}, {278, 4, 83},
		{279, 4, 99}, {280, 4, 115}, {281, 5, 131}, {282, 5, 163}, {283, 5, 195}, {284, 5, 227}, {285, 0, 258},
	}
	for length := 3; length <= 258; length++ {
		row := table[0]
		for _, r := range table {
			if r.base <= length && (r.code != 284 || length < 258) {
				row = r
			}
		}
		sym, eb, ev := lengthSymbol(length)
		if int(sym) != row.code || int(eb) != row.extraBits || row.base+int(ev) != length || ev >= 1<<eb && eb > 0 {
			t.Errorf("length %d: symbol %d, %d extra bits = %d; want %d, %d extra bits = %d",
				length, sym, eb, ev, row.code, row.extraBits, length-row.base)
		}
	}
}

// TestDistanceSymbolRFC1951_3_2_5 checks every distance against the table
// of distance codes in RFC 1951 section 3.2.5.
func TestDistanceSymbolRFC1951_3_2_5(t *testing.T) {
	table := []struct{ extraBits, base int }{
		{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 5}, {1, 7}, {2, 9}, {2, 13}, {3, 17}, {3, 25},
		{4, 33}, {4, 49}, {5, 65}, {5, 97}, {6, 129}, {6, 193}, {7, 257}, {7, 385}, {8, 513}, {8, 769},
		{9, 1025}, {9, 1537}, {10, 2049}, {10, 3073}, {11, 4097}, {11, 6145}, {12, 8193}, {12, 12289},
		{13, 16385}, {13, 24577},
	}
	for dist := 1; dist <= 32768; dist++ {
		code := 0
		for c, r := range table {
			if r.base <= dist {
				code = c
			}
		}
		sym, eb, ev := distanceSymbol(dist)
		if int(sym) != code || int(eb) != table[code].extraBits || table[code].base+int(ev) != dist {
			t.Fatalf("distance %d: code %d, %d extra bits = %d; want %d, %d extra bits = %d",
				dist, sym, eb, ev, code, table[code].extraBits, dist-table[code].base)
		}
	}
}

// TestFixedCodesRFC1951_3_2_6 checks the literal/length code table against
// RFC 1951 section 3.2.6 (codes are stored bit-reversed).
func TestFixedCodesRFC1951_3_2_6(t *testing.T) {
	e := newSmallEncoder()
	code := func(s int) string {
		n := int(e.fixedLit.bits[s])
		var b strings.Builder
		for i := range n {
			b.WriteByte('0' + byte(e.fixedLit.enc[s]>>i&1)) // first bit sent = most significant
		}
		return b.String()
	}
	for _, tc := range []struct {
		sym  int
		want string
	}{
		{0, "00110000"}, {143, "10111111"}, {144, "110010000"}, {255, "111111111"},
		{256, "0000000"}, {279, "0010111"}, {280, "11000000"}, {287, "11000111"},
	} {
		if got := code(tc.sym); got != tc.want {
			t.Errorf("symbol %d: code %s, want %s", tc.sym, got, tc.want)
		}
	}
	if e.fixedDist.enc[1] != 5<<16|0b10000 || e.fixedDist.enc[29] != 5<<16|0b10111 {
		t.Errorf("distance codes 1, 29 bit-reversed: %05b %05b", e.fixedDist.enc[1], e.fixedDist.enc[29])
	}
}

// TestSmallMemberDoesNotAllocate: once its token buffer has grown, the
// encoder allocates nothing per member (dst has room).
func TestSmallMemberDoesNotAllocate(t *testing.T) {
	e := newSmallEncoder()
	rec := sampleRecords()[0].data
	var buf bytes.Buffer
	e.writeMember(&buf, rec)
	if n := testing.AllocsPerRun(100, func() {
		buf.Reset()
		e.writeMember(&buf, rec)
	}); n != 0 {
		t.Errorf("writeMember allocates %v times per member", n)
	}
}

func FuzzSmallMember(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("a"))
	f.Add(bytes.Repeat([]byte("ab"), 300))
	f.Add(randomBytes(4, 700))
	for _, r := range sampleRecords()[:3] {
		f.Add(r.data)
	}
	e := newSmallEncoder()
	f.Fuzz(func(t *testing.T, src []byte) {
		checkMember(t, e.appendMember(nil, src), src)
		checkBlockTypes(t, e, src)
	})
}

// klauspostMember compresses src as one member with klauspost's gzip.
func klauspostMember(tb testing.TB, src []byte, level int) []byte {
	var buf bytes.Buffer
	zw, err := kpgzip.NewWriterLevel(&buf, level)
	if err != nil {
		tb.Fatal(err)
	}
	zw.Write(src)
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkSmallMember compresses each sample record (request records of
// ~700 bytes, metadata records with 1..50 outlinks, robots.txt responses,
// a redirect) with smallEncoder ("ours") and with klauspost's gzip at its
// default level 5, reporting the member size: the measurements behind
// smallRecordLimit.
func BenchmarkSmallMember(b *testing.B) {
	for _, r := range sampleRecords() {
		b.Run(fmt.Sprintf("%s-%dB/ours", r.name, len(r.data)), func(b *testing.B) {
			e := newSmallEncoder()
			var buf bytes.Buffer
			b.SetBytes(int64(len(r.data)))
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				e.writeMember(&buf, r.data)
			}
			b.ReportMetric(float64(buf.Len()), "out-bytes")
		})
		b.Run(fmt.Sprintf("%s-%dB/klauspost-5", r.name, len(r.data)), func(b *testing.B) {
			zw, _ := kpgzip.NewWriterLevel(nil, kpgzip.DefaultCompression)
			var buf bytes.Buffer
			b.SetBytes(int64(len(r.data)))
			b.ReportAllocs()
			for b.Loop() {
				buf.Reset()
				zw.Reset(&buf)
				zw.Write(r.data)
				zw.Close()
			}
			b.ReportMetric(float64(buf.Len()), "out-bytes")
		})
	}
}
