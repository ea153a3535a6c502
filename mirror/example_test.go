package mirror_test

import (
	"fmt"
	"net/url"

	"github.com/crawlproject/crawl/mirror"
)

func ExamplePath() {
	for _, raw := range []string{
		"http://example.com/3/tutorial/index.html",
		"http://example.com/3/genindex-A.html",
		"http://example.com/3/_static/pydoctheme.css?2022.1",
		"http://example.com/3/",
		"https://example.com/img/caf%C3%A9%20noir.png",
		"http://example.com/docs/../%2e%2e/.htaccess",
	} {
		u, _ := url.Parse(raw)
		p, _ := mirror.Path("/out/mirror", u)
		fmt.Println(p)
	}
	// Output:
	// /out/mirror/example.com/3/tutorial/index.html
	// /out/mirror/example.com/3/genindex-A.html
	// /out/mirror/example.com/3/_static/pydoctheme.css?2022.1.css
	// /out/mirror/example.com/3/index.html
	// /out/mirror/example.com@https/img/café noir.png
	// /out/mirror/example.com/docs/%2E%2E/%2E%2E/%2Ehtaccess
}
