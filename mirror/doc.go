// Package mirror keeps a browsable copy of an archive on disk, as wget
// --mirror --convert-links (-k) makes one: the decoded body of each 2xx
// response in a file at its URL's own path (see Path), with the links of
// its HTML pages and style sheets rewritten at Close to lead to the
// mirrored files, so that the copy can be opened from disk or served by
// a static web server from its original paths. A Mirror is an
// archive.Mirror: archive.Open makes it through Options.NewMirror under
// Dir/mirror and hands it every response it archives.
//
// Specifications followed:
//   - RFC 3986: section 2.1 (percent-encoding), 2.2 (reserved
//     characters), 5.2 (resolving references, 5.2.4 dot segments) and 6.2
//     (normalisation: 6.2.2.1 case, 6.2.2.2 percent-encoding, 6.2.2.3
//     path segments, 6.2.3 scheme-based) for which URLs share a file.
//   - RFC 9112 section 7.1 (chunked transfer coding), RFC 9110 section
//     8.4.1 (gzip, deflate content codings) and RFC 7932 (br) for decoding
//     bodies, with the decoder the crawl reads pages with
//     (wire.DecodeCodings); RFC 9110
//     section 10.2.2 for the fragment of a redirect's Location.
//   - The HTML Living Standard: "document base URL" (the first <base
//     href>), the attributes that hold URLs, and the tokenizer's reading of
//     a start tag (package golang.org/x/net/html), whose attribute values
//     are rewritten in place; "parse a srcset attribute" for the
//     candidates of srcset and imagesrcset (package pageenc).
//   - CSS Syntax Level 3 (through package cssref) for the references of
//     style sheets, <style> elements and style attributes: section 3.2
//     for a sheet's encoding, section 4.3 for its tokens.
//
// Deviations and decisions:
//   - The mirror stores decoded bodies (chunked, gzip, deflate, br) of 2xx
//     responses; bodies in other codings (zstd, ...) or larger than 256 MiB
//     decoded stay in the WARC only. A body cut short (WARC-Truncated) is
//     mirrored as far as it came and decoded, as a browser shows it, unless
//     the fetch failed (archive.Exchange.Failed: a reset or timeout
//     mid-body); a later whole fetch of the URL replaces the file.
//   - Link rewriting covers href/src of the usual tags, img lowsrc, the
//     background of body, table, td and th, object data and video poster,
//     the URL in a meta refresh's content, every candidate of the srcset
//     of <img> and <source> and of a <link>'s imagesrcset, the url()s of a
//     style attribute, and the url()s, @import and image-set() URLs of a
//     <style> element (of type CSS) and of a style sheet (a text/css file,
//     or an untyped one whose path ends ".css"); a <base href> is honoured
//     and then removed, as the rewritten links are relative to the file.
//     Only the URL text of a rewritten attribute or reference changes (as
//     with wget -k): the case of tags, quoting, entities, CSS comments and
//     escapes elsewhere, and every octet of a page or sheet in another
//     charset stay as received; of duplicate link attributes the first is
//     the link, as for a browser.
//   - A style sheet is read in the encoding its byte order mark, its
//     Content-Type or its @charset rule names, else as UTF-8: the mirror
//     does not know which page referred to it, whose encoding a browser
//     (and the crawler, within one run) falls back to.
//   - Links are read as the crawler read them (package pageenc): in the
//     page's encoding, the path in UTF-8 and the query in that encoding,
//     tabs and newlines dropped and back-slashes read as slashes. Links to
//     pages not mirrored become absolute URLs (as wget -k makes them),
//     links to a URL that redirected lead to its target's file.
//   - File names are the URL's path decoded, as a web server decodes a
//     request (wget's choice): "/3/tutorial/index.html",
//     "/3/genindex-A.html", "/img/caf%C3%A9%20noir.png" are stored as
//     "3/tutorial/index.html", "3/genindex-A.html", "img/café noir.png",
//     and a directory URL "/dir/" as "dir/index.html". A query follows a
//     '?' as wget writes it, and the path's extension is repeated after it
//     as wget --adjust-extension (-E) does: "/s.css?2022.1" is
//     "s.css?2022.1.css", so a static server, or a browser reading the
//     file from disk, types it by its extension (text/css). The rewritten
//     link percent-encodes the '?' ("s.css%3F2022.1.css"), so a browser
//     asks for that file, not for "s.css" with a query.
//   - Names are safe, and escaped with %XX only where they must be: a
//     control character, a C1 control, a bidirectional or invisible
//     formatting character, a byte that is not UTF-8, '/', '\', ':', '%'
//     itself, a '?' in the path (it starts the query) and a segment of
//     dots only ("%2E%2E"); no name starts with '.' or '-' (a mirrored
//     "/.htaccess" is "%2Ehtaccess", "/-rf" is "%2Drf"), so a web server
//     serving the mirror, or a shell listing it, sees no hidden or live
//     configuration file and no option. Names are at most 200 bytes (cut
//     and hashed, "@h<hash>") and paths 2000 ("@long/<hash>").
//   - Names are case-sensitive: the mirror is made for POSIX file systems,
//     as wget is by default; on a case-insensitive one (macOS, Windows),
//     "/A" and "/a" would share a file. Windows device names (CON, NUL,
//     ...) and the characters Windows refuses ("*<>|) are not renamed.
//   - URLs that RFC 3986 6.2.2.1 and 6.2.2.2 make equal (case of scheme,
//     host and escapes, escaped unreserved characters), or that differ by
//     an empty port ("host:", 6.2.3), share one file; all others get their
//     own: https hosts live in "host@https", a reserved character the URL
//     percent-encoded is written "%%XX", apart from the literal one ("a+b"
//     and "a%%2Bb"), and a query keeps the URL's own escapes. A link is
//     matched to a file after the rest of 6.2.2 and 6.2.3 too (dot
//     segments, default port, empty query), so it finds the file of a URL
//     that differs from it only so.
//   - A suffix is added only where two URLs would have one name, and the
//     same whatever order they come in: a path that is both a file and a
//     directory prefix ("/a" and "/a/b") keeps the directory and stores
//     the file as "a@f"; a directory URL and the URL that names its
//     index.html ("/d/" and "/d/index.html") leave "d/index.html" to the
//     latter and store the directory's page as "d/index@d.html". A URL
//     whose own name would end like one of these marks has that '@'
//     written %40 ("/a@f" is "a%40f"); every other '@' stays
//     ("logo@2x.png").
//   - Files are written through root/@tmp and renamed into place, not
//     synced: the WARC records hold what a power loss takes from the
//     mirror. New empties root/@tmp, so it must be called holding the
//     output directory's lock, as archive.Open does.
package mirror
