package robots

import "fmt"

// A Reason says why a Verdict came out the way it did.
type Reason uint8

// The reasons a Verdict can give.
const (
	ReasonNoRule       Reason = iota // no rule matched (or no group applies): allowed
	ReasonRule                       // the rule in Verdict.Rule and Verdict.Line decided
	ReasonRobotsTxt                  // "/robots.txt" is always allowed (RFC 9309 2.2.2)
	ReasonUnreachable                // robots.txt was unreachable: everything is disallowed
	ReasonUnauthorized               // robots.txt answered 401/403 and the policy treats that as disallow-all
)

// String describes the reason in words.
func (r Reason) String() string {
	switch r {
	case ReasonNoRule:
		return "no rule matches"
	case ReasonRule:
		return "rule"
	case ReasonRobotsTxt:
		return "/robots.txt is always allowed"
	case ReasonUnreachable:
		return "robots.txt unreachable: disallow all"
	case ReasonUnauthorized:
		return "robots.txt access restricted (401/403): disallow all"
	}
	return fmt.Sprintf("reason(%d)", uint8(r))
}

// A Verdict is the answer to "may this URL be fetched?" together with what
// decided it. It is a plain value.
type Verdict struct {
	Allowed bool   // whether the URL may be fetched
	Rule    string // the deciding line as written, trimmed, without comment; "" if no rule decided
	Line    int    // 1-based line number of Rule; 0 if no rule decided
	Pattern string // the deciding rule's pattern in normal form ('$' included); "" if none
	Agent   string // the user-agent values of the group that applied, comma-separated; "" if none
	Reason  Reason // why
}

// String formats the verdict for a person, e.g.
// `disallowed by line 3 "Disallow: /private" (group foobot)`.
func (v Verdict) String() string {
	word := "allowed"
	if !v.Allowed {
		word = "disallowed"
	}
	group := ""
	if v.Agent != "" {
		group = " (group " + v.Agent + ")"
	}
	if v.Reason == ReasonRule {
		return fmt.Sprintf("%s by line %d %q%s", word, v.Line, v.Rule, group)
	}
	return fmt.Sprintf("%s: %s%s", word, v.Reason, group)
}

// A Warning is a line of robots.txt that did not parse cleanly and what
// was made of it. It is a plain value.
type Warning struct {
	Line    int    // 1-based line number; 0 for the file as a whole
	Text    string // the line as written, trimmed, without comment
	Message string // what was wrong and how it was read
}

// String formats the warning as "line N: message: text".
func (w Warning) String() string {
	if w.Line == 0 {
		return w.Message
	}
	return fmt.Sprintf("line %d: %s: %q", w.Line, w.Message, w.Text)
}
