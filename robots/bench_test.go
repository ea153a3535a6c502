package robots

import (
	"fmt"
	"strings"
	"testing"

	"github.com/jimsmart/grobotstxt"
	"github.com/temoto/robotstxt"
)

// benchFile is a robots.txt with the agent and paths a crawler would check.
type benchFile struct {
	name  string
	body  []byte
	agent string
	paths []string
}

func realFiles(b testing.TB) []benchFile {
	return []benchFile{
		{"wiki", readTestdata(b, "wiki-like.txt"), "ExampleBot", []string{
			"/wiki/Main_Page", "/wiki/Special:Random", "/w/index.php?title=Foo&action=edit",
			"/wiki/Wikipedia:Articles_for_deletion/Foo", "/wiki/Go_(programming_language)",
			"/w/load.php?modules=site", "/wiki/Wikipedia_talk%3AArbitration/Case", "/wiki/Talk:Sandbox",
		}},
		{"shop", readTestdata(b, "shop-like.txt"), "ExampleBot", []string{
			"/products/shoe-123", "/c/shoes?sort=price", "/products/shoe/reviews/page-2",
			"/static/app.js", "/cart/", "/sitemap.xml", "/api/public/items.json", "/blog/2026/11/hello",
		}},
		{"extended1996", readTestdata(b, "extended-1996.txt"), "alfred", []string{
			"/index.html", "/images/index.html", "/blackhole/info99.html", "/order.cgi", "/products.html",
		}},
		// The "*" group also holds baidu's 1996 record: an agent it does
		// not name checks through the "*" group made for the records
		// naming "*". (baidu itself is no fair comparison: temoto gives
		// it no rules at all, RFC 9309 the 56 of the group it shares.)
		{"github", readTestdata(b, "github.com.txt"), "ExampleBot", []string{
			"/golang/go", "/golang/go/pulse", "/golang/go/blob/master/README.md?plain=1", "/search?q=x",
			"/owner?tab=achievements&achievement=starstruck", "/gist/abc",
		}},
	}
}

func adversarialFiles() []benchFile {
	var rules strings.Builder
	rules.WriteString("User-agent: *\n")
	for i := range 20000 {
		switch {
		case i%50 == 0:
			fmt.Fprintf(&rules, "Disallow: /*/tag-%d/*.html$\n", i)
		case i%3 == 0:
			fmt.Fprintf(&rules, "Allow: /section-%d/item-%d/public/\n", i%97, i)
		default:
			fmt.Fprintf(&rules, "Disallow: /section-%d/item-%d/\n", i%97, i)
		}
	}
	// Wildcard rules that all start "/*": one node of the radix tree holds
	// them all (their first check once took time quadratic in their number).
	var wild strings.Builder
	wild.WriteString("User-agent: *\n")
	for i := range 20000 {
		fmt.Fprintf(&wild, "Disallow: /*%05x*q=%05x$\n", i*7919%(1<<20), i)
	}
	var groups strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&groups, "User-agent: %s\nDisallow: /private-%d/\nAllow: /private-%d/open\nCrawl-delay: %d\n\n", letterName(i), i, i, i%7)
	}
	return []benchFile{
		{"20k-rules", []byte(rules.String()), "ExampleBot", []string{
			"/section-5/item-1000/page", "/section-12/item-3/public/x", "/blog/post-1", "/a/tag-50/b.html",
		}},
		{"20k-wild-one-node", []byte(wild.String()), "ExampleBot", []string{
			"/a/00007/x?q=00000", "/b/00000/c?q=00001", "/c",
		}},
		{"5k-groups", []byte(groups.String()), letterName(4321) + "/1.0", []string{
			"/private-4321/x", "/private-4321/open/y", "/public",
		}},
	}
}

func BenchmarkParse(b *testing.B) {
	for _, f := range append(realFiles(b), adversarialFiles()...) {
		b.Run(f.name+"/ours", func(b *testing.B) {
			b.SetBytes(int64(len(f.body)))
			b.ReportAllocs()
			for b.Loop() {
				Parse(f.body)
			}
		})
		b.Run(f.name+"/temoto", func(b *testing.B) {
			b.SetBytes(int64(len(f.body)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := robotstxt.FromBytes(f.body); err != nil {
					b.Fatal(err)
				}
			}
		})
		// grobotstxt (Google's parser, ported) hands each line to a
		// handler and keeps nothing itself: with a handler that keeps
		// nothing either, this is the least a parse with it costs. It
		// reads a string, made once outside the loop, as Parse does not
		// copy the body.
		body := string(f.body)
		b.Run(f.name+"/grobotstxt", func(b *testing.B) {
			b.SetBytes(int64(len(f.body)))
			b.ReportAllocs()
			for b.Loop() {
				grobotstxt.Parse(body, discardLines{})
			}
		})
	}
}

// discardLines is a grobotstxt.ParseHandler that keeps nothing.
type discardLines struct{}

func (discardLines) HandleRobotsStart()                      {}
func (discardLines) HandleRobotsEnd()                        {}
func (discardLines) HandleUserAgent(int, string)             {}
func (discardLines) HandleAllow(int, string)                 {}
func (discardLines) HandleDisallow(int, string)              {}
func (discardLines) HandleSitemap(int, string)               {}
func (discardLines) HandleUnknownAction(int, string, string) {}

// BenchmarkParseAndFirstCheck includes compiling the agent's group, which
// Parse leaves to the first Allowed call.
func BenchmarkParseAndFirstCheck(b *testing.B) {
	for _, f := range append(realFiles(b), adversarialFiles()...) {
		b.Run(f.name+"/ours", func(b *testing.B) {
			b.SetBytes(int64(len(f.body)))
			b.ReportAllocs()
			for b.Loop() {
				Parse(f.body).Group(f.agent).Allowed(f.paths[0])
			}
		})
		b.Run(f.name+"/temoto", func(b *testing.B) {
			b.SetBytes(int64(len(f.body)))
			b.ReportAllocs()
			for b.Loop() {
				r, _ := robotstxt.FromBytes(f.body)
				r.TestAgent(f.paths[0], f.agent)
			}
		})
	}
}

// BenchmarkCheck measures one check: finding the agent's group and matching
// a path, as Robots.Allowed and temoto's TestAgent do. Both sides get the
// same path strings. A crawler asks with one agent, so our lookup is
// answered by the remembered last agent; BenchmarkGroupLookup measures the
// lookup without that.
func BenchmarkCheck(b *testing.B) {
	for _, f := range append(realFiles(b), adversarialFiles()...) {
		ours := Parse(f.body)
		theirs, err := robotstxt.FromBytes(f.body)
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range f.paths { // the verdicts agree where the semantics do
			ours.Allowed(f.agent, p)
		}
		b.Run(f.name+"/ours", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				ours.Group(f.agent).Allowed(f.paths[i])
				if i++; i == len(f.paths) {
					i = 0
				}
			}
		})
		b.Run(f.name+"/temoto", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				theirs.TestAgent(f.paths[i], f.agent)
				if i++; i == len(f.paths) {
					i = 0
				}
			}
		})
	}
}

// BenchmarkAdversarialWildcards matches a pattern with 100 '*' against
// paths of growing length that almost match: time per octet must stay flat.
func BenchmarkAdversarialWildcards(b *testing.B) {
	body := []byte("User-agent: *\nDisallow: /" + strings.Repeat("*a", 100) + "*b\nAllow: /*" + strings.Repeat("a", 40) + "c$\n")
	ours := Parse(body).Group("bot")
	theirs, err := robotstxt.FromBytes(body)
	if err != nil {
		b.Fatal(err)
	}
	tg := theirs.FindGroup("bot")
	for _, n := range []int{1 << 10, 8 << 10, 64 << 10} {
		path := "/" + strings.Repeat("a", n)
		b.Run(fmt.Sprintf("%dKiB/ours", n>>10), func(b *testing.B) {
			b.SetBytes(int64(len(path)))
			b.ReportAllocs()
			for b.Loop() {
				if !ours.Allowed(path).Allowed {
					b.Fatal("should be allowed")
				}
			}
		})
		b.Run(fmt.Sprintf("%dKiB/temoto", n>>10), func(b *testing.B) {
			b.SetBytes(int64(len(path)))
			b.ReportAllocs()
			for b.Loop() {
				tg.Test(path)
			}
		})
	}
}

// letterName returns a distinct product token for i: digits are not part
// of product tokens (RFC 9309 2.2.1), so names use letters only.
func letterName(i int) string {
	name := []byte("Bot")
	for {
		name = append(name, byte('a'+i%26))
		i /= 26
		if i == 0 {
			return string(name)
		}
	}
}

// BenchmarkCheckCachedGroup measures one check against a group found once,
// as a crawler does per host: Group.Allowed against temoto's Group.Test.
func BenchmarkCheckCachedGroup(b *testing.B) {
	for _, f := range append(realFiles(b), adversarialFiles()...) {
		ours := Parse(f.body).Group(f.agent)
		theirs, err := robotstxt.FromBytes(f.body)
		if err != nil {
			b.Fatal(err)
		}
		tg := theirs.FindGroup(f.agent)
		b.Run(f.name+"/ours", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				ours.Allowed(f.paths[i])
				if i++; i == len(f.paths) {
					i = 0
				}
			}
		})
		b.Run(f.name+"/temoto", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				tg.Test(f.paths[i])
				if i++; i == len(f.paths) {
					i = 0
				}
			}
		})
	}
}

// BenchmarkGroupLookup measures finding a group with agents that alternate
// between two crawlers, so that our remembered last agent never answers:
// the product-token index against temoto's FindGroup.
func BenchmarkGroupLookup(b *testing.B) {
	for _, f := range append(realFiles(b), adversarialFiles()...) {
		ours := Parse(f.body)
		theirs, err := robotstxt.FromBytes(f.body)
		if err != nil {
			b.Fatal(err)
		}
		agents := [2]string{f.agent, "OtherBot/3.0"}
		b.Run(f.name+"/ours", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				ours.Group(agents[i])
				i ^= 1
			}
		})
		b.Run(f.name+"/temoto", func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				theirs.FindGroup(agents[i])
				i ^= 1
			}
		})
	}
}
