package config

import (
	"fmt"
	"os"
	"strings"

	"go.yaml.in/yaml/v3"
)

// caseClash returns an Error for the first two keys of one mapping in the
// YAML file that differ only in case ("Workers" and "workers"): viper
// reads keys case-insensitively, so one of them would be dropped without
// a word. A file that cannot be read or parsed gives nil: reading it
// again reports that.
func caseClash(file string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	var doc yaml.Node
	if yaml.Unmarshal(b, &doc) != nil {
		return nil
	}
	if a, b, ok := firstCaseClash(&doc, ""); ok {
		return &Error{Key: a + ", " + b, Source: file,
			Reason: "these keys differ only in case and would set one key: keep one, in lower case as config.yaml writes it"}
	}
	return nil
}

// firstCaseClash walks n and returns the dotted paths (with their lines)
// of the first two keys of a mapping that differ only in case; prefix is
// the path of n.
func firstCaseClash(n *yaml.Node, prefix string) (string, string, bool) {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if a, b, ok := firstCaseClash(c, prefix); ok {
				return a, b, true
			}
		}
	case yaml.MappingNode:
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			lower := strings.ToLower(k.Value)
			if first, ok := seen[lower]; ok && first.Value != k.Value {
				return keyAt(prefix, first), keyAt(prefix, k), true
			}
			seen[lower] = k
			if a, b, ok := firstCaseClash(v, dotted(prefix, k.Value)); ok {
				return a, b, true
			}
		}
	}
	return "", "", false
}

// keyAt is the dotted path of key k under prefix, with its line.
func keyAt(prefix string, k *yaml.Node) string {
	return fmt.Sprintf("%s (line %d)", dotted(prefix, k.Value), k.Line)
}

// dotted is the path of key name under prefix ("" at the top).
func dotted(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}
