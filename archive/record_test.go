package archive

import (
	"strings"
	"testing"
	"time"
)

// Known digests computed independently (python hashlib + base64.b32encode).
func TestDigestRFC4648Base32(t *testing.T) {
	tests := []struct{ algo, in, want string }{
		{DigestSHA1, "", "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ"},
		{DigestSHA1, "abc", "sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5"},
		{DigestSHA256, "", "sha256:4OYMIQUY7QOBJGX36TEJS35ZEQT24QPEMSNZGTFESWMRW6CSXBKQ===="},
		{DigestSHA256, "abc", "sha256:XJ4BNP4PAHH6UQKBIDPF3LRCEOYAGYNDSYLXVHFUCD7WD4QACWWQ===="},
	}
	for _, tt := range tests {
		got, err := Digest(tt.algo, []byte(tt.in))
		if err != nil || got != tt.want {
			t.Errorf("Digest(%s, %q) = %q, %v; want %q", tt.algo, tt.in, got, err, tt.want)
		}
	}
	if _, err := Digest("md5", nil); err == nil {
		t.Error("Digest(md5) succeeded; want error")
	}
}

// The exact bytes of each record, written by hand: field order, CRLFs,
// Content-Length, digests (WARC 1.1 sections 4, 5, 6).
func TestWARC11RecordBytesGolden(t *testing.T) {
	dir := t.TempDir()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	w, err := Open(Options{Dir: dir, Software: "crawl/1.0", Dedupe: true, Now: fixedClock(now), newID: seqIDs(),
		Info: []Field{{"operator", "ops@example.org"}, {"crawl-delay", "2s"}}})
	if err != nil {
		t.Fatal(err)
	}
	resp := "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 11\r\n\r\nhello world"
	e := Exchange{
		TargetURI: "http://example.com/page",
		Date:      now,
		IP:        "192.0.2.7",
		Request:   []byte("GET /page HTTP/1.1\r\nHost: example.com\r\nUser-Agent: crawl/1.0\r\n\r\n"),
		Response:  []byte(resp),
		Metadata:  []Field{{"pace", "2s"}, {"pace-source", "crawl-delay"}, {"outlink", "http://example.com/next"}},
	}
	if err := w.WriteExchange(e); err != nil {
		t.Fatal(err)
	}
	e2 := Exchange{
		TargetURI: "http://example.com/copy",
		Date:      now.Add(time.Second),
		Request:   []byte("GET /copy HTTP/1.1\r\nHost: example.com\r\nUser-Agent: crawl/1.0\r\n\r\n"),
		Response:  []byte(resp),
	}
	if err := w.WriteExchange(e2); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	files := warcFiles(t, dir)
	if len(files) != 1 || !strings.HasSuffix(files[0], "crawl-20260102030405-00001.warc.gz") {
		t.Fatalf("files = %v", files)
	}
	want := []string{
		"WARC/1.1\r\n" +
			"WARC-Type: warcinfo\r\n" +
			"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n" +
			"WARC-Date: 2026-01-02T03:04:05Z\r\n" +
			"WARC-Filename: crawl-20260102030405-00001.warc.gz\r\n" +
			"WARC-Block-Digest: sha1:DIIV4CFANGT7GD6ODG7IFXGQ2CDAARSA\r\n" +
			"Content-Type: application/warc-fields\r\n" +
			"Content-Length: 188\r\n" +
			"\r\n" +
			"software: crawl/1.0\r\n" +
			"format: WARC File Format 1.1\r\n" +
			"conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n" +
			"operator: ops@example.org\r\n" +
			"crawl-delay: 2s\r\n" +
			"\r\n\r\n",

		"WARC/1.1\r\n" +
			"WARC-Type: request\r\n" +
			"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000002>\r\n" +
			"WARC-Date: 2026-01-02T03:04:05Z\r\n" +
			"WARC-Target-URI: http://example.com/page\r\n" +
			"WARC-IP-Address: 192.0.2.7\r\n" +
			"WARC-Concurrent-To: <urn:uuid:00000000-0000-4000-8000-000000000003>\r\n" +
			"WARC-Block-Digest: sha1:KD7DO66BYDLMKQJJ2V4YZIM3XKF6EWJ4\r\n" +
			"WARC-Payload-Digest: sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ\r\n" +
			"Content-Type: application/http;msgtype=request\r\n" +
			"Content-Length: 64\r\n" +
			"\r\n" +
			"GET /page HTTP/1.1\r\nHost: example.com\r\nUser-Agent: crawl/1.0\r\n\r\n" +
			"\r\n\r\n",

		"WARC/1.1\r\n" +
			"WARC-Type: response\r\n" +
			"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000003>\r\n" +
			"WARC-Date: 2026-01-02T03:04:05Z\r\n" +
			"WARC-Target-URI: http://example.com/page\r\n" +
			"WARC-IP-Address: 192.0.2.7\r\n" +
			"WARC-Concurrent-To: <urn:uuid:00000000-0000-4000-8000-000000000002>\r\n" +
			"WARC-Block-Digest: sha1:WXFJNW2CO2AGGLLU2ELVF6EQUN6FJDVC\r\n" +
			"WARC-Payload-Digest: sha1:FKXGYNOJJ7H3IFO35FPUBC445EPOQRXN\r\n" +
			"Content-Type: application/http;msgtype=response\r\n" +
			"Content-Length: 90\r\n" +
			"\r\n" +
			"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 11\r\n\r\nhello world" +
			"\r\n\r\n",

		"WARC/1.1\r\n" +
			"WARC-Type: metadata\r\n" +
			"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000004>\r\n" +
			"WARC-Date: 2026-01-02T03:04:05Z\r\n" +
			"WARC-Target-URI: http://example.com/page\r\n" +
			"WARC-Concurrent-To: <urn:uuid:00000000-0000-4000-8000-000000000003>\r\n" +
			"WARC-Block-Digest: sha1:FWMBQLW2XP3GLS2BGRULVTGF46J2FI7Y\r\n" +
			"Content-Type: application/warc-fields\r\n" +
			"Content-Length: 70\r\n" +
			"\r\n" +
			"pace: 2s\r\npace-source: crawl-delay\r\noutlink: http://example.com/next\r\n" +
			"\r\n\r\n",

		"WARC/1.1\r\n" +
			"WARC-Type: request\r\n" +
			"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000005>\r\n" +
			"WARC-Date: 2026-01-02T03:04:06Z\r\n" +
			"WARC-Target-URI: http://example.com/copy\r\n" +
			"WARC-Concurrent-To: <urn:uuid:00000000-0000-4000-8000-000000000006>\r\n" +
			"WARC-Block-Digest: sha1:NAZGUYLFNPLQUYA2RRKI7RLVDYX45SS7\r\n" +
			"WARC-Payload-Digest: sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ\r\n" +
			"Content-Type: application/http;msgtype=request\r\n" +
			"Content-Length: 64\r\n" +
			"\r\n" +
			"GET /copy HTTP/1.1\r\nHost: example.com\r\nUser-Agent: crawl/1.0\r\n\r\n" +
			"\r\n\r\n",

		"WARC/1.1\r\n" +
			"WARC-Type: revisit\r\n" +
			"WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000006>\r\n" +
			"WARC-Date: 2026-01-02T03:04:06Z\r\n" +
			"WARC-Target-URI: http://example.com/copy\r\n" +
			"WARC-Concurrent-To: <urn:uuid:00000000-0000-4000-8000-000000000005>\r\n" +
			"WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest\r\n" +
			"WARC-Refers-To: <urn:uuid:00000000-0000-4000-8000-000000000003>\r\n" +
			"WARC-Refers-To-Target-URI: http://example.com/page\r\n" +
			"WARC-Refers-To-Date: 2026-01-02T03:04:05Z\r\n" +
			"WARC-Block-Digest: sha1:OZBEYSLSOOLIF5P6IRH6GEAAGBP34MKY\r\n" +
			"WARC-Payload-Digest: sha1:FKXGYNOJJ7H3IFO35FPUBC445EPOQRXN\r\n" +
			"Content-Type: application/http;msgtype=response\r\n" +
			"Content-Length: 79\r\n" +
			"\r\n" +
			"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: 11\r\n\r\n" +
			"\r\n\r\n",
	}
	got := gzipMembers(t, files[0])
	if len(got) != len(want) {
		t.Fatalf("%d gzip members, want %d (one per record)", len(got), len(want))
	}
	for i := range want {
		if string(got[i]) != want[i] {
			t.Errorf("record %d:\n got %q\nwant %q", i, got[i], want[i])
		}
	}
}

func TestWARC11Section6_3TruncatedResponse(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(Options{Dir: dir, newID: seqIDs()})
	if err != nil {
		t.Fatal(err)
	}
	e := page("http://example.com/big", "/big", "partial")
	e.Truncated = TruncatedLength
	if err := w.WriteExchange(e); err != nil {
		t.Fatal(err)
	}
	e.Truncated = "because"
	if err := w.WriteExchange(e); err == nil {
		t.Error("unknown truncation reason accepted")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readAll(t, warcFiles(t, dir)...)
	if got := recs[2].Get("WARC-Truncated"); recs[2].Type() != "response" || got != "length" {
		t.Errorf("response WARC-Truncated = %q (type %s), want length", got, recs[2].Type())
	}
}

func TestWARC11Section4HeaderValuesCannotBreakLines(t *testing.T) {
	dir := t.TempDir()
	w, err := Open(Options{Dir: dir, Info: []Field{{"evil\r\nWARC-Type", "x\r\nWARC-Type: response"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Exchange{
		{TargetURI: "http://a/\r\nX: y", Request: []byte("x"), Response: []byte("y")},
		{TargetURI: "http://a/ b", Request: []byte("x"), Response: []byte("y")},
		{TargetURI: "http://a/", IP: "1.2.3.4\r\n", Request: []byte("x"), Response: []byte("y")},
		{TargetURI: "http://a/", Request: nil, Response: []byte("y")},
		{TargetURI: "", Request: []byte("x"), Response: []byte("y")},
	} {
		if err := w.WriteExchange(bad); err == nil {
			t.Errorf("WriteExchange(%q, ip %q) accepted", bad.TargetURI, bad.IP)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs := readAll(t, warcFiles(t, dir)...)
	if len(recs) != 1 {
		t.Fatalf("%d records, want only warcinfo", len(recs))
	}
	if !strings.Contains(string(recs[0].Block), "evil--WARC-Type: x  WARC-Type: response\r\n") {
		t.Errorf("warcinfo block %q: CR/LF not neutralised", recs[0].Block)
	}
}
