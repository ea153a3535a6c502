package pageenc

// SrcsetURLs returns the URLs of the image candidates of a srcset (or
// imagesrcset) attribute value, in order.
func SrcsetURLs(srcset string) []string {
	var urls []string
	for _, sp := range SrcsetSpans(srcset) {
		urls = append(urls, srcset[sp[0]:sp[1]])
	}
	return urls
}

// SrcsetSpans returns where each image candidate's URL lies in a srcset
// value, as the HTML Standard's "parse a srcset attribute" splits it:
// candidates are separated by whitespace and commas; a URL runs to the
// next whitespace, its trailing commas dropped; the descriptors after it
// ("2x", "300w") run to a comma outside parentheses. Every candidate
// counts, whatever its descriptors: a browser loads one of them, chosen by
// the screen it draws on, so a copy of the page keeps them all (as wget
// does); one whose descriptors the standard finds invalid is kept too.
func SrcsetSpans(srcset string) [][2]int {
	var spans [][2]int
	s, i := srcset, 0
	for {
		for i < len(s) && (isHTMLSpace(s[i]) || s[i] == ',') {
			i++
		}
		if i >= len(s) {
			return spans
		}
		start := i
		for i < len(s) && !isHTMLSpace(s[i]) {
			i++
		}
		end := i
		if s[end-1] == ',' {
			for s[end-1] == ',' {
				end--
			}
			spans = append(spans, [2]int{start, end})
			continue // no descriptors
		}
		spans = append(spans, [2]int{start, end})
		i = skipDescriptors(s, i)
	}
}

// skipDescriptors returns where the descriptors that start at i end: past
// the comma that ends them outside parentheses, or at the end of s (the
// descriptor tokenizer of "parse a srcset attribute").
func skipDescriptors(s string, i int) int {
	inParens := false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case inParens:
			inParens = c != ')'
		case c == '(':
			inParens = true
		case c == ',':
			return i + 1
		}
	}
	return i
}

// isHTMLSpace reports whether c is ASCII whitespace (Infra Standard: tab,
// LF, FF, CR, space).
func isHTMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
