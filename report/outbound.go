package report

import (
	"slices"
	"sort"
)

// maxOutboundRows bounds the table of hosts linked but not crawled.
const maxOutboundRows = 500

// outbound is the one compact table of the hosts the crawl only declined
// links to (out of scope): each a row with its link count, none a
// section of its own. A crawl of one site with links to 290 others gave
// 290 host sections and a 200,000-pixel page before the one crawled host.
type outbound struct {
	Rows         []outboundRow // most linked first, at most maxOutboundRows
	Hosts, Links int           // in all, the rows left out included
	MoreHosts    int           // hosts past maxOutboundRows
	MoreLinks    int           // their links
	SkipsID      string        // the anchor of the out-of-scope skips
}

// outboundRow is one host linked but not crawled: how many links to it
// were out of scope (each repeat logged counted), and the first of them.
type outboundRow struct {
	Host    string
	Links   int
	Example string
}

// declinedLink reports whether a skip for reason says no more of its host
// than that a page linked it: out of scope, or not a URL at all.
func declinedLink(reason string) bool { return reason == "out-of-scope" || reason == "invalid-url" }

// contactedBySkips lists in first-seen order the hosts of skips that have
// a skip other than a declined link (declinedLink), as the crawl's summary
// tells its own hosts apart: a host whose every skip is a declined link had
// nothing to do with the crawl but being linked.
func contactedBySkips(skips []skip) []string {
	contacted := make(map[string]bool)
	var order []string
	for _, k := range skips {
		h := hostOf(k.Host, k.URL)
		if h == "" {
			continue
		}
		was, seen := contacted[h]
		if !seen {
			order = append(order, h)
		}
		contacted[h] = was || !declinedLink(k.Reason)
	}
	return slices.DeleteFunc(order, func(h string) bool { return !contacted[h] })
}

// add counts host's out-of-scope skips in o.
func (o *outbound) add(host string, skips []skip) {
	row := outboundRow{Host: host}
	for _, k := range skips {
		if k.Reason != "out-of-scope" {
			continue
		}
		if row.Example == "" {
			row.Example = k.URL
		}
		row.Links += weight(k)
	}
	if row.Links == 0 {
		return
	}
	o.Hosts++
	o.Links += row.Links
	o.Rows = append(o.Rows, row)
}

// finish orders the rows, most linked first (then by host), and keeps
// the first maxOutboundRows.
func (o *outbound) finish() {
	o.SkipsID = reasonID("out-of-scope")
	sort.Slice(o.Rows, func(i, j int) bool {
		a, b := o.Rows[i], o.Rows[j]
		return a.Links > b.Links || a.Links == b.Links && a.Host < b.Host
	})
	if len(o.Rows) > maxOutboundRows {
		for _, r := range o.Rows[maxOutboundRows:] {
			o.MoreHosts++
			o.MoreLinks += r.Links
		}
		o.Rows = o.Rows[:maxOutboundRows]
	}
}
