package cssref_test

import (
	"fmt"

	"github.com/crawlproject/crawl/cssref"
	"github.com/crawlproject/crawl/pageenc"
)

func ExampleScan() {
	sheet := []byte(`@import "basic.css";
/* url(not-a-reference.png) */
.banner { background: url(img/banner.png) no-repeat; content: "url(nor-this)" }`)
	for _, r := range cssref.Scan(sheet) {
		fmt.Println(r.URL, r.Import)
	}
	// Output:
	// basic.css true
	// img/banner.png false
}

func ExampleEncoding() {
	sheet := []byte(`@charset "iso-8859-1"; a { background: url(caf\xe9.png) }`)
	fmt.Println(cssref.Encoding(sheet, "text/css", pageenc.Encoding{}).Name())
	// Output: windows-1252
}

func ExampleRewrite() {
	sheet := []byte(`a { background: url( "img/a.png" ) } /* url(img/a.png) */`)
	out, _ := cssref.Rewrite(sheet, pageenc.Encoding{}, func(r cssref.Ref) (string, bool) {
		return "../files/" + r.URL, true
	})
	fmt.Println(string(out))
	// Output: a { background: url( "../files/img/a.png" ) } /* url(img/a.png) */
}
