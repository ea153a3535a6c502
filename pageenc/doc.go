// Package pageenc reads the links of an HTML page in the character
// encoding a browser reads the page in, so that the crawler requests, and
// the mirror rewrites, the URLs a reader's browser asks for.
//
// A browser decodes a page before it parses it, so a link's path is the
// UTF-8 of its characters however the page was encoded, while its query
// is sent in the page's own encoding. A crawler that parses the raw
// octets of a Latin-1 page requests "/caf%E9.html" where every browser
// requests "/caf%C3%A9.html" (and a replay tool is asked for that), and
// "&eacute;" in the same page becomes a second URL for the one page.
//
// Specs followed:
//   - HTML Standard 13.2.3, determining the character encoding: a byte
//     order mark, then the Content-Type charset, then a <meta> charset in
//     the first 1024 bytes (golang.org/x/net/html/charset.DetermineEncoding);
//     labels are the WHATWG Encoding Standard's (ISO-8859-1 and ASCII mean
//     windows-1252).
//   - URL Standard, basic URL parser, query state: the query is encoded
//     in the document's encoding (UTF-8 for a UTF-16 document), and a
//     character the encoding cannot hold is sent as "%26%23" N "%3B"
//     ("&#N;" percent-encoded).
//   - HTML Standard, "parse a srcset attribute": the image candidates of
//     a srcset or imagesrcset value (SrcsetSpans).
//
// Deviations:
//   - Every candidate of a srcset is a URL to keep, including one whose
//     descriptors the standard finds invalid (a browser drops it); a
//     browser loads one candidate, chosen by the screen it draws on.
//   - A page that declares nothing is read as UTF-8 when all its bytes
//     are valid UTF-8 and as windows-1252 otherwise; browsers guess from
//     the locale and the content, which mostly comes to the same. A
//     <meta> charset after the first 1024 bytes is not read (the prescan
//     stops there; a browser may reload the page when its parser meets
//     one later).
//   - A stateful encoding (ISO-2022-JP) encodes each character of a query
//     on its own, with its own escape sequences; a browser encodes the run
//     of them at once. Both decode to the same characters.
package pageenc
