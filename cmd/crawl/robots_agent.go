package main

import (
	"fmt"
	"strings"

	"github.com/crawlproject/crawl/config"
	"github.com/crawlproject/crawl/crawllog"
	"github.com/crawlproject/crawl/robots"
)

// askedAgent is the robot a robots command answers for.
type askedAgent struct {
	name string // matched against User-agent lines (robots.Robots.GroupNamed)
	note string // how name was found when it is not --agent as typed; "" when it is
}

// noteLine is the line the text output starts with when name is not
// --agent as typed: "agent: MJ12bot (the robot's product token in ...)".
func (a askedAgent) noteLine() string {
	if a.note == "" {
		return ""
	}
	return "agent: " + crawllog.Printable(a.name) + " (" + crawllog.Printable(a.note) + ")\n"
}

// defaultAgent is the robot a robots command asks about without --agent:
// the crawl's own, cfg's agent.token (config default "crawl").
func defaultAgent(cfg config.Config) askedAgent {
	return askedAgent{name: cfg.Agent.Token, note: "agent.token of the crawl's config, as no --agent was given"}
}

// parseAgent reads --agent: a robot's name as a robots.txt may hold it,
// digits included ("MJ12bot", "360Spider"), optionally with a version
// ("FooBot/2.1" asks about FooBot), or a whole User-Agent header (one
// with a '/' or a comment), reduced to the robot's product token
// (userAgentRobot). "" gives the zero askedAgent (defaultAgent applies);
// anything else is a usage error.
func parseAgent(sub, flag string) (askedAgent, error) {
	if flag == "" {
		return askedAgent{}, nil
	}
	if !strings.ContainsAny(flag, " \t();") {
		switch name := productName(flag); {
		case name == "":
			return askedAgent{}, badAgent(sub, flag)
		case name != flag:
			return askedAgent{name: name, note: fmt.Sprintf("the product token of %q", flag)}, nil
		default:
			return askedAgent{name: name}, nil
		}
	}
	if !strings.ContainsAny(flag, "/(") {
		return askedAgent{}, badAgent(sub, flag)
	}
	name := userAgentRobot(flag)
	if name == "" {
		return askedAgent{}, usagef("robots %s: --agent %q names no robot: no product follows \"compatible;\" in a comment and every product is a browser's (Mozilla, AppleWebKit, ...); give the robot's name", sub, flag)
	}
	return askedAgent{name: name, note: fmt.Sprintf("the robot's product token in the User-Agent %q", flag)}, nil
}

// badAgent is the usage error for an --agent that is neither a robot's
// name nor a User-Agent header.
func badAgent(sub, flag string) error {
	return usagef("robots %s: --agent %q is not a robot's name: letters, digits, '_' and '-', a version may follow after '/' (MJ12bot/1.4), or a whole User-Agent header naming one", sub, flag)
}

// userAgentRobot returns the robot's name in a User-Agent header, a list
// of products ("Name/version") and comments ("(...)", RFC 9110 section
// 10.1.5): the first product after a "compatible" item of a comment, the
// place a robot that presents itself as a browser puts its own ("Mozilla/5.0
// (compatible; MJ12bot/v1.4.8; +http://mj12bot.com/)" gives MJ12bot), else
// the first product that is not a browser's ("Googlebot/2.1
// (+http://www.google.com/bot.html)" gives Googlebot). It is "" when there
// is neither.
func userAgentRobot(ua string) string {
	products, comments := splitUserAgent(ua)
	for _, c := range comments {
		items := strings.Split(c, ";")
		for i, it := range items {
			if !strings.EqualFold(strings.TrimSpace(it), "compatible") {
				continue
			}
			for _, next := range items[i+1:] {
				if name := productName(strings.TrimSpace(next)); name != "" && !isBrowserProduct(name) {
					return name
				}
			}
		}
	}
	for _, p := range products {
		if name := productName(p); name != "" && !isBrowserProduct(name) {
			return name
		}
	}
	return ""
}

// splitUserAgent splits a User-Agent header into its products (the words
// outside parentheses) and the text of its top-level comments (nested
// parentheses and quoted pairs kept as written).
func splitUserAgent(ua string) (products, comments []string) {
	depth, start := 0, 0
	for i := 0; i < len(ua); i++ {
		c := ua[i]
		switch {
		case depth > 0 && c == '\\':
			i++
		case c == '(':
			if depth == 0 {
				products = appendWord(products, ua[start:i])
				start = i + 1
			}
			depth++
		case c == ')' && depth > 0:
			depth--
			if depth == 0 {
				comments = append(comments, ua[start:i])
				start = i + 1
			}
		case depth == 0 && (c == ' ' || c == '\t'):
			products = appendWord(products, ua[start:i])
			start = i + 1
		}
	}
	if depth == 0 {
		products = appendWord(products, ua[start:])
	} else {
		comments = append(comments, ua[start:])
	}
	return products, comments
}

// appendWord appends w to words unless it is empty.
func appendWord(words []string, w string) []string {
	if w == "" {
		return words
	}
	return append(words, w)
}

// productName returns the name of s when s is one product, a name of
// letters, digits, '_' and '-' with an optional "/version"; else "".
func productName(s string) string {
	name, version, hasVersion := strings.Cut(s, "/")
	if name == "" || robots.NameToken(name) != name || hasVersion && !isHTTPToken(version) {
		return ""
	}
	return name
}

// isBrowserProduct reports whether name, in any case, is a product that
// browsers (and robots that present themselves as one) put in a
// User-Agent: never a robot's name.
func isBrowserProduct(name string) bool {
	switch strings.ToLower(name) {
	case "mozilla", "applewebkit", "chrome", "chromium", "headlesschrome", "safari", "mobile", "gecko",
		"firefox", "khtml", "version", "edg", "edge", "edga", "edgios", "opr", "opera", "presto",
		"trident", "msie", "crios", "fxios", "samsungbrowser", "yabrowser", "ucbrowser", "like", "compatible":
		return true
	}
	return false
}
