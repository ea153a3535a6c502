package wiretest

import (
	"fmt"
	"strings"
)

// HostileRobots returns a robots.txt of about size octets for every agent:
// "Disallow: /secret" and then one rule per line, prefix rules or, with
// wild, rules with wildcards and an end anchor. RFC 9309 section 2.5 asks
// crawlers to parse at least 500 KiB of it.
func HostileRobots(size int, wild bool) string {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /secret\n")
	for i := 0; b.Len() < size; i++ {
		if wild {
			fmt.Fprintf(&b, "Disallow: /*%x*q=%x$\n", i*2654435761%(1<<32), i)
		} else {
			fmt.Fprintf(&b, "Disallow: /%x/%x\n", i*2654435761%(1<<32), i)
		}
	}
	return b.String()
}
