package mirror_test

import (
	"fmt"
	"net/url"

	"github.com/crawlproject/crawl/mirror"
)

func ExamplePath() {
	u, _ := url.Parse("http://example.com/docs/../%2e%2e/Guide?page=2")
	p, _ := mirror.Path("/out/mirror", u)
	fmt.Println(p)
	// Output: /out/mirror/example.com/docs/%2E%2E/%2E%2E/Guide@c8dd65d0952ed@qbc7c7eb0ad0a
}
