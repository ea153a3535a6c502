package archive_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/crawlproject/crawl/archive"
)

func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "crawl-example")
	defer os.RemoveAll(dir)

	w, err := archive.Open(archive.Options{
		Dir:      dir,
		Software: "crawl/1.0",
		Info:     []archive.Field{{Name: "operator", Value: "ops@example.org"}, {Name: "min-delay", Value: "1s"}},
		Dedupe:   true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	err = w.WriteExchange(archive.Exchange{
		TargetURI: "http://example.com/",
		Date:      time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		IP:        "192.0.2.1",
		Request:   []byte("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n"),
		Response:  []byte("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5\r\n\r\nhello"),
		Metadata:  []archive.Field{{Name: "pace", Value: "1s"}, {Name: "outlink", Value: "http://example.com/a"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := w.Close(); err != nil {
		fmt.Println(err)
		return
	}
	index, _ := os.ReadFile(filepath.Join(dir, archive.IndexName))
	fmt.Println(string(index[:57]))
	// Output: com,example)/ 20260102030405 {"url":"http://example.com/"
}

func ExampleNewReader() {
	dir, _ := os.MkdirTemp("", "crawl-example")
	defer os.RemoveAll(dir)
	w, _ := archive.Open(archive.Options{Dir: dir})
	w.WriteExchange(archive.Exchange{
		TargetURI: "http://example.com/",
		Request:   []byte("GET / HTTP/1.1\r\nHost: example.com\r\n\r\n"),
		Response:  []byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"),
	})
	w.Close()

	files, _ := filepath.Glob(filepath.Join(dir, "*.warc.gz"))
	f, _ := os.Open(files[0])
	defer f.Close()
	r := archive.NewReader(f)
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(rec.Type(), rec.Get("WARC-Target-URI"), rec.VerifyBlockDigest(), rec.VerifyPayloadDigest())
	}
	// Output:
	// warcinfo  <nil> <nil>
	// request http://example.com/ <nil> <nil>
	// response http://example.com/ <nil> <nil>
}

func ExampleRebuildIndex() {
	dir, _ := os.MkdirTemp("", "crawl-example")
	defer os.RemoveAll(dir)
	w, _ := archive.Open(archive.Options{Dir: dir})
	w.Close()
	fmt.Println(archive.RebuildIndex(dir))
	// Output: <nil>
}
