package config

// The environment side of Load: CRAWL_* variable names, lists, and the
// variables that name no key.

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// NonConfigEnv returns the CRAWL_* environment variables that name no
// config key yet are not refused by Load, because the tests and CI read
// them: CRAWL_REQUIRE_INTEROP, CRAWL_REQUIRE_BROWSER and
// CRAWL_REQUIRE_REDIS (.ci/run sets them to make the interop, browser and
// Redis tests fail instead of skip), CRAWL_CHROMIUM (the browser the
// report test runs), and CRAWL_TEST_REDIS, CRAWL_TEST_REDIS_CLUSTER and
// CRAWL_TEST_REDIS_SERVER (the Redis servers the tests use, and the
// redis-server they start). Any other CRAWL_* variable that names no key
// is an error.
func NonConfigEnv() []string {
	return []string{"CRAWL_REQUIRE_INTEROP", "CRAWL_REQUIRE_BROWSER", "CRAWL_CHROMIUM",
		"CRAWL_REQUIRE_REDIS", "CRAWL_TEST_REDIS", "CRAWL_TEST_REDIS_CLUSTER", "CRAWL_TEST_REDIS_SERVER"}
}

// unknownEnv reports each CRAWL_* variable in envMap that names no key in
// keys and is not one of NonConfigEnv, suggesting the closest key's
// variable when one is a small typo away.
func unknownEnv(envMap map[string]string, keys []string) []error {
	known := map[string]bool{}
	for _, k := range keys {
		known[envName(k)] = true
	}
	for _, n := range NonConfigEnv() {
		known[n] = true
	}
	var names []string
	for n := range envMap {
		if !known[n] {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	var errs []error
	for _, n := range names {
		reason := "no such key"
		if k := closestKey(n, keys); k != "" {
			reason += fmt.Sprintf(" (did you mean %s, for %s?)", envName(k), k)
		}
		reason += "; config.yaml lists every key"
		errs = append(errs, &Error{Key: echoKey(n), Source: "environment", Reason: reason})
	}
	return errs
}

// closestKey returns the key whose variable is nearest to name by edit
// distance, if it is near enough to be a typo, else "".
func closestKey(name string, keys []string) string {
	suffix := strings.TrimPrefix(name, EnvPrefix+"_")
	best, bestD := "", -1
	for _, k := range keys {
		d := editDistance(suffix, strings.TrimPrefix(envName(k), EnvPrefix+"_"))
		if bestD < 0 || d < bestD {
			best, bestD = k, d
		}
	}
	if bestD <= 2 && bestD < len(suffix)/2 || bestD == 3 && len(suffix) >= 12 {
		return best
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func envName(key string) string {
	return EnvPrefix + "_" + strings.ToUpper(strings.ReplaceAll(key, ".", "_"))
}

// envList reads a list-valued environment variable: a JSON array of
// strings (["a","b"]), or else one item per line. It never splits at commas,
// which regular expressions such as {1,4} contain. Lines are trimmed of
// surrounding white space and blank lines are dropped; an item that needs
// surrounding spaces is written as a JSON array.
func envList(val string) ([]string, error) {
	if strings.HasPrefix(strings.TrimSpace(val), "[") {
		var list []string
		if err := json.Unmarshal([]byte(val), &list); err != nil {
			return nil, fmt.Errorf("%s starts with '[' but is not a JSON array of strings (%s); write [\"a\",\"b\"] or one item per line", quoteValue(val), echoMessage(err.Error()))
		}
		return list, nil
	}
	list := []string{}
	for line := range strings.Lines(val) {
		if line = strings.TrimSpace(line); line != "" {
			list = append(list, line)
		}
	}
	return list, nil
}
