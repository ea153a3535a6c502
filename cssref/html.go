package cssref

import "strings"

// IsCSSType reports whether a <style> element whose type attribute has the
// value typeAttr ("" when it has none) holds CSS: the value, its
// surrounding whitespace trimmed, is empty or "text/css" in any case.
// The rules of any other <style> are no references.
func IsCSSType(typeAttr string) bool {
	t := strings.TrimSpace(typeAttr)
	return t == "" || strings.EqualFold(t, "text/css")
}

// InStyleAttr reports whether r, a reference Scan found in the
// declarations of a style attribute, is one there: every reference but
// an @import's, as no @import is valid in a style attribute (CSS Style
// Attributes section 2).
func InStyleAttr(r Ref) bool { return !r.Import }
