package crawler

import (
	"bytes"
	"net/url"

	"golang.org/x/net/html"

	"github.com/crawlproject/crawl/config"
)

// readTags reads a page's links and requisites from its tags, in document
// order, as the collector's callbacks read them from its document tree:
// for a page colly could not make a tree of. The tokenizer keeps no stack
// of elements, so no nesting is too deep for it. <base> and <meta> are
// taken first, as the callbacks take them before any link.
func (j *job) readTags(page *url.URL, body []byte, token string, cfg config.Config) {
	each := func(fn func(tag string, attr func(string) string, text string)) {
		z := html.NewTokenizer(bytes.NewReader(body))
		for {
			switch tt := z.Next(); tt {
			case html.ErrorToken:
				return
			case html.StartTagToken, html.SelfClosingTagToken:
				name, more := z.TagName()
				tag := string(name)
				attrs := map[string]string{}
				for more {
					var k, v []byte
					k, v, more = z.TagAttr()
					if _, dup := attrs[string(k)]; !dup {
						attrs[string(k)] = string(v)
					}
				}
				var text string
				if tag == "style" && tt == html.StartTagToken && z.Next() == html.TextToken {
					text = string(z.Text()) // raw text: the style sheet as written
				}
				fn(tag, func(k string) string { return attrs[k] }, text)
			}
		}
	}
	each(func(tag string, attr func(string) string, _ string) {
		switch tag {
		case "base":
			if href := attr("href"); href != "" {
				j.noteBase(page, href)
			}
		case "meta":
			if name := attr("name"); name != "" {
				j.robots.noteMeta(name, attr("content"), token)
			}
		}
	})
	each(func(tag string, attr func(string) string, text string) {
		if ref, ok := pageRef(tag, attr); ok {
			j.noteLink(page, ref, attr("rel"), cfg)
		}
		if cfg.Fetch.Requisites {
			j.noteRequisite(page, tag, attr, text, cfg.Scope.MaxLinks)
		}
	})
}
