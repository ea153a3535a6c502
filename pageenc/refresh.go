package pageenc

import "strings"

// IsRefresh reports whether a <meta> element's http-equiv value declares
// a refresh (HTML Standard 4.2.5.3: "refresh", ASCII case-insensitive).
func IsRefresh(httpEquiv string) bool {
	return strings.EqualFold(strings.TrimSpace(httpEquiv), "refresh")
}

// RefreshURL returns the URL of a refresh declaration's content ("5;
// URL=next.html", <meta http-equiv="refresh">), parsed as the HTML
// Standard's shared declarative refresh steps (4.2.5.3) do; "" when it
// names none (a page reloading itself) or is not a refresh declaration.
func RefreshURL(content string) string {
	start, end := RefreshURLSpan(content)
	return content[start:end]
}

// RefreshURLSpan returns where in content the URL RefreshURL reads
// lies, quotes and surrounding spaces left out; start == end when there
// is none.
func RefreshURLSpan(content string) (start, end int) {
	s, i := content, 0
	skipSpace := func() {
		for i < len(s) && isHTMLSpace(s[i]) {
			i++
		}
	}
	skipSpace()
	digits := i
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i == digits && (i == len(s) || s[i] != '.') {
		return 0, 0 // no time: not a refresh declaration
	}
	for i < len(s) && ('0' <= s[i] && s[i] <= '9' || s[i] == '.') {
		i++
	}
	if i < len(s) && s[i] != ';' && s[i] != ',' && !isHTMLSpace(s[i]) {
		return 0, 0
	}
	skipSpace()
	if i < len(s) && (s[i] == ';' || s[i] == ',') {
		i++
	}
	skipSpace()
	if i == len(s) {
		return 0, 0
	}
	start = i // where the URL starts unless "URL =" precedes it
	if strings.HasPrefix(strings.ToLower(s[i:min(i+3, len(s))]), "url") {
		i += 3
		skipSpace()
		if i < len(s) && s[i] == '=' {
			i++
			skipSpace()
			start = i
		}
	}
	end = len(s)
	if start < end && (s[start] == '\'' || s[start] == '"') {
		q := s[start]
		start++
		if k := strings.IndexByte(s[start:], q); k >= 0 {
			end = start + k
		}
	}
	for end > start && isHTMLSpace(s[end-1]) {
		end--
	}
	for start < end && isHTMLSpace(s[start]) {
		start++
	}
	return start, end
}
