// Package robots parses robots.txt files and answers the questions a polite
// crawler asks of them: which group applies to my agent, may I fetch this
// URL (and which rule on which line says so), and how fast and when may I
// fetch. It is pure: it knows nothing of HTTP, and time-dependent answers
// take the current time as a parameter.
//
// # Specifications followed
//
//   - RFC 9309, the Robots Exclusion Protocol: groups and product-token
//     matching, with groups naming one token merged (section 2.2.1); Allow
//     and Disallow, longest match, percent-encoding normalisation and the
//     implicit allow of /robots.txt (section 2.2.2); '*', '$' and '#'
//     (section 2.2.3); the status-code policy, FromFetch and Classify
//     (section 2.3.1: successful access, redirects, unavailable and
//     unreachable status, parsing errors); caching (section 2.4); the
//     parsing limit of at least 500 KiB (section 2.5).
//   - "A Standard for Robot Exclusion" (Koster, 1994): the original format
//     ("The Format").
//   - "A Method for Web Robots Control" (Koster, 1996 Internet-Draft): its
//     %xx matching table (section 3.2.2, "The Allow and Disallow lines"),
//     which RFC 9309 keeps.
//   - The 1996 extended standard, "An Extended Standard for Robot
//     Exclusion" (Conner, 1996): its record ("The Format": one or more
//     User-agent lines followed by other directives), which scopes the
//     extension lines, and its Request-rate, Visit-time, Comment and
//     Robot-version directives, exposed as typed values
//     (Group.RequestRates, Group.VisitTimes, Group.Comments,
//     Group.RobotVersion, Group.Pace, Group.VisitAllowed, Group.NextVisit,
//     Group.PaceRecords).
//   - Common extensions: Crawl-delay (fractional seconds) and the file-wide
//     Sitemap.
//
// # Parsing
//
// Parse never fails. It skips a UTF-8 byte order mark (also a leading part
// of one), splits lines at CR, LF or CRLF, drops '#' comments wherever they
// start, trims white space around keys and values and compares keys
// case-insensitively. Every line it cannot use becomes a Warning with its
// line number. A user-agent line opens a group; consecutive user-agent
// lines share one; the group stays open for more user-agent lines until its
// first Allow or Disallow line (RFC 9309 section 2.1, as in Google's
// parser: an extension line between user-agent lines does not end the
// group, section 2.2.4), and its Allow and Disallow lines apply to every
// agent it names. Rules before the first user-agent line are ignored. The
// extension lines are scoped by records instead (see "Records").
//
// # Records
//
// Crawl-delay, Request-rate, Visit-time, Comment and Robot-version apply
// to the agents of their 1996 record: the user-agent lines directly above
// them. A user-agent line that follows any other directive (known or not;
// Sitemap and Host, which are file-wide, excepted) starts a new record, as
// the 1996 extended standard's "series of rule sets" has it and as
// Protego, crawler-commons, Yandex and Bing read Crawl-delay. So in
//
//	User-agent: spbot
//	Crawl-delay: 2000
//	User-agent: *
//	Crawl-delay: 20
//	Disallow: /wp-admin/
//
// one RFC 9309 group holds both agents and Disallow: /wp-admin/ applies to
// both, but spbot waits 2000 s and every other robot 20 s. An agent's
// extension directives are those of every record naming its product token
// (merged as RFC 9309 section 2.2.1 merges groups: the longest
// Crawl-delay, with a warning naming both lines when two records disagree;
// every Request-rate, Visit-time and Comment; the first Robot-version); an
// agent no user-agent line names gets those of the records naming "*".
// Group.PaceRecords lists the records, Group.AgentLines the user-agent
// lines of the access group, both with line numbers. A group that holds
// one record, as nearly every group does, costs nothing more; an agent
// named in a group of several gets, on first use, a view of that group
// with its own pace (its rules compiled once more).
//
// Parse reads every line's key, the groups with their user-agents, and the
// Sitemaps; each group remembers where its lines are. Its Allow, Disallow
// and extension lines are read when the group is first used (Robots.Group,
// Robots.Groups or Robots.Warnings; once, under a sync.Once), as Google's
// parser only reads the groups that apply to the crawler asking: a crawler
// that uses one group of a file with many pays for that group only. The
// warnings about those lines appear then, so Robots.Warnings reads every
// group first. Parse keeps the body it is given, without copying it: the
// caller must not modify it afterwards (a crawler reads each robots.txt
// into a buffer of its own, so the copy, a third of a small file's parse
// with its garbage, bought nothing).
//
// # Matching
//
// The agent is reduced to its product token (leading [a-zA-Z_-]) on both
// sides and compared case-insensitively; every group naming it is merged;
// otherwise the "*" groups (merged) apply; otherwise everything is allowed.
// The URL's path, parameters and query are matched, never reordered. Both
// the pattern and the path are normalised: octets outside US-ASCII, controls,
// space and characters RFC 3986 allows nowhere are percent-encoded; %xx
// escapes get upper-case hex and are decoded when they stand for an
// unreserved character; reserved characters stay apart from their escapes
// ("%2F" never equals "/"). In the path, '*' and '$' are compared encoded,
// so a pattern's "%2A" and "%24" match them literally. Rule length (for
// "longest match wins") is the length in octets of the normalised pattern,
// '*' and the final '$' included, as in Google's matcher.
//
// Each group's rules are compiled on the first Allowed call for that group
// (under a sync.Once, so a file with 5,000 groups pays only for the groups
// a crawler asks about) into a radix tree over their literal prefixes (the
// parts before the first '*') plus, for the part after a '*', a greedy
// left-to-right segment search (Knuth-Morris-Pratt; leftmost matches are
// correct for patterns whose only wildcard is '*'). The tree is built by
// inserting the literals one by one, each from the deepest node the
// previous literal shares (rules come in families), in time linear in the
// patterns' octets times the children scanned at a branch (at most 256);
// the builder holds no pointers. A check walks the path once for all
// literal prefixes and at most once more for each wildcard rule it has to
// try (rules that need an octet the path lacks are skipped), never
// backtracks, so its time is linear in the path's length whatever the
// patterns, and it does not allocate unless a path needs rewriting into a
// normal form longer than 1 KiB (never for paths of up to 341 octets,
// which normalising at most triples). Of rules of the
// same length and kind the earliest line decides. Rules, a group's
// user-agent values and its name hold no pointers (they are spans of the
// body, or of one arena for rewritten patterns and joined names), which
// keeps parsing cheap for the garbage collector: a third off 5,000 groups.
//
// A node takes 32 octets; its children are numbered consecutively and found
// by comparing the next octet with their first octets, up to eight packed
// in one word (a 256-entry index for more); labels are compared eight
// octets at a time. The walk compares the path as written with the labels,
// which are in normal form: if every '%' it matched starts an escape that
// normalisation keeps and the octet where it left the tree is plain (or the
// fragment's '#'), the path's normal form leaves the tree at the same place,
// so no normalising pass is needed; otherwise, and before wildcard rules are
// tried, the path is normalised (without a copy if it already is in normal
// form). A group's second check replaces its compiled rules by a hot copy
// (behind an atomic pointer, so checks never wait) with the Verdict of every
// rule, which a check then copies, and, for trees of 32 nodes or more, a
// jump table: from an anchor node, the next k octets of the path (k, at most
// eight, being the distance to the nearest node with rules), read as one
// word, lead to the node whose label holds the k-th octet; the walk compares
// the rest of that label and goes on from there, so it passes prefixes such
// as "/wiki/" in a step or two. A group checked once pays for neither.
// Robots.Footprint counts the bytes all this holds, for caches bounded by bytes.
//
// Group lookup is one probe of an open-addressing table of product tokens
// (pointer-free, hashed with the case folded on the fly, so the agent is
// never copied or lower-cased). Robots
// also remembers the last agent asked about and its group (a sequence lock
// of atomics, so it neither allocates nor blocks): a crawler asks with the
// same agent for every URL, and then Robots.Allowed costs one string
// comparison more than Group.Allowed.
//
// Parse reads each line once, in one reader: a line whose key ends at a
// ':' is read key first, and an Allow, Disallow or extension line inside
// a group ends there, its value read when the group is first used; the
// value, the comment and the warnings are read only where they are
// needed.
//
// Product tokens are [a-zA-Z_-] only (RFC 9309 2.2.1), so any other octet
// ends them, on both sides: "User-agent: MJ12bot" is read as the token
// "MJ" (as Google's parser reads it), and Group reduces the agent it is
// asked about the same way, so the agents "MJ12bot", "MJ" and "MJ99" all
// get that group, and "Bot2" gets the group of "User-agent: Bot1". Google's
// parser does not reduce the crawler's own name: for it "MJ12bot" matches
// no group. A crawler's name should therefore be a valid product token.
// Robots.GroupNamed answers for robots whose names hold digits, as a site
// owner asks about them ("crawl robots check --agent MJ12bot"): it reads
// the name and every user-agent line with their digits, so "User-agent:
// MJ12bot" names MJ12bot and no other robot.
//
// # Conservative readings of malformed values
//
//   - Crawl-delay: a negative value counts by its magnitude; a number and
//     a Request-rate time unit ("1m", "2 min", "1h") is read in that unit
//     with a warning that Crawl-delay is in seconds; any other value that
//     is not a number (NaN included) is the longest time span written in
//     it (numbers in seconds or their unit, "," between digits as grouping),
//     at least FallbackDelay (10 s); a value above
//     MaxDelay (24 h), infinity and a number too large for a float64
//     ("1e400") included, is capped at MaxDelay. Several Crawl-delay lines
//     in a record: the longest wins; in several records naming one agent,
//     the longest too, with a warning.
//   - Request-rate that does not start with a number is one document per
//     FallbackDelay (10 s).
//   - Request-rate "10" (no period) is one document per 10 seconds, not ten
//     per second. A count of 0 is read as 1; a period of 0 as one unit;
//     negative numbers by their magnitude; an unreadable window as no window
//     (the rate applies all day). A fractional count "0.5/1m" becomes 1 per
//     2 minutes; a count above 10^9 is read as 10^9.
//   - Request-rate whose count is followed by text that is neither '/'
//     and a period nor a window ("1 per 10s", "1,000/1h", "1e3/1h",
//     "1:10", "1m") is unreadable: one document per the slowest sane
//     reading of its numbers, at least FallbackDelay. Readings: the count
//     with the unit right after it as one document's period ("1m" is one
//     per minute); every later number with its unit (or seconds), and
//     every unit word alone ("per minute"), as the period of the count;
//     ',' and '_' between digits of a later number are digit grouping. So
//     "1 per 10s" is one per 10 s and "1,000/1h" one per hour (the count
//     reads as 1).
//   - Request-rate whose period cannot be read, "100/" or "100/soon", is
//     one document per the count read as seconds, at least FallbackDelay:
//     unreadable like a Crawl-delay that is not a number, and never faster
//     than "Request-rate: 100". A period is one word (the 1996 grammar puts
//     white space only between the rate and its window), so "1/ 0600-0700"
//     has no period and the window 06:00-07:00, and is one document per 10 s
//     in that window. A number followed by an unknown unit ("10x") or by
//     something that is not a unit ("5.5.5", "1e3") is read in hours.
//   - The period is kept as written ("100/48h" is 100 per 48 h, one every
//     28m48s); an interval (period / count) above MaxDelay is capped at it:
//     "1/2d" is one document every 24 h.
//   - Visit-time and Request-rate windows are in UTC ("<time> is in UT (or
//     GMT)", 1996 extended standard): a "UTC", "GMT", "UT" or "Z" after the
//     line or glued to each time, in any case, only says so; "HH:MM",
//     "HHMM to HHMM" and an en dash are read too. A numeric offset
//     ("+0100", "UTC-5") is read exactly, into UTC, with a warning. Another
//     word ("CET", "weekdays", "except") leaves the hours unknown: a
//     Visit-time keeps only its first window, read as UTC (a window, not
//     none; a later one may be what the word excludes), a Request-rate
//     applies all day; both with a warning.
//   - Visit-time with no readable pair of times is ignored with a warning:
//     no window can be invented for it (the frontier keeps windows, and
//     has no "never" to keep instead).
//   - A window's last minute is inside it (Window.Contains, Window.Span):
//     1300-1659 is 13:00:00 to 16:59:59, so that the 1996 example's
//     1300-1659, 1700-0459 and 0500-1259 tile the day.
//   - Among Request-rate lines without a window the slowest wins; a
//     windowed rate applies only inside its window; Pace returns the
//     slowest of Crawl-delay and every rate in force.
//
// # Deviations and decisions
//
//   - Access rules and pace are grouped differently: Allow and Disallow by
//     RFC 9309 groups (section 2.1; an extension line does not end a
//     group, section 2.2.4), the extension lines by the 1996 extended
//     standard's records (see "Records"). RFC 9309 says nothing of
//     Crawl-delay; reading it by RFC 9309 groups would give every robot
//     "User-agent: spbot / Crawl-delay: 2000 / User-agent: *"'s 2000 s.
//   - The 1996 extended standard's in-order Allow/Disallow evaluation for
//     Robot-version 2.0 groups, and its "explicit" and regular-expression
//     patterns, are not used: every group is matched by RFC 9309 longest
//     match. Robot-version is reported only.
//   - The 1994 standard's first-match and substring user-agent matching are
//     replaced by RFC 9309 product-token equality.
//   - Robots.GroupNamed reads names and user-agent lines with digits,
//     which RFC 9309 section 2.2.1 does not allow in a product token, to
//     answer for robots that carry such names anyway (MJ12bot, 360Spider).
//   - RFC 9309 says to obey "the first" "*" group; like Google's parser,
//     all "*" groups are merged, as groups naming the same agent are.
//   - The RFC's table row "/foo/bar?baz=http://foo.bar" is read as "reserved
//     characters are compared as written": ":" and "/" in a query are not
//     encoded, so the rule matches the URL exactly as written, and "%3A"
//     matches only "%3A".
//   - Unlike Google's parser, the URL side is normalised too: "/foo/bar/ツ"
//     matches a rule for "/foo/bar/%E3%83%84", and "%62%61%7A" matches "baz"
//     (RFC 9309 2.2.2 table).
//   - Accepted like Google's parser, with a warning: a line without ':' made
//     of exactly two words ("Disallow /x"), and the misspellings "useragent",
//     "user agent", "disalow", "dissalow", "dissallow", "diasllow",
//     "disallaw" and "site-map". Google's "/index.html" means "/" special
//     case is not implemented.
//   - A pattern that starts with neither '/' nor '*' is matched as written
//     (so it matches no path) and warned about.
//   - A body longer than MaxSize is cut after the last whole line within
//     the limit (a line whose content ends at the limit is whole, its line
//     end being the first octet past it); if no line ends by then, nothing
//     is parsed.
package robots
