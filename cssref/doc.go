// Package cssref finds the references of a CSS style sheet to other
// resources, the ones a browser loads to render a page that uses it
// (url(), @import, image-set()), and rewrites their URLs in place.
//
// A sheet is read in the encoding a browser reads it in (Encoding),
// tokenized as CSS Syntax Level 3 tokenizes it, and its tokens
// read just far enough to tell a reference from text that looks like one:
// "url(" inside a comment or a string is none, an escaped ")" does not end
// an unquoted url().
//
// Specifications followed:
//   - CSS Syntax Module Level 3: section 3.2 (the encoding of a sheet: a
//     byte order mark, the Content-Type charset, an @charset rule, the
//     referring document's encoding, else UTF-8), section 3.3 (newlines
//     and NUL as the preprocessing reads them), section 4.3 (the
//     tokenizer: 4.3.2 comments, 4.3.4 ident-like tokens and url(, 4.3.5
//     strings, 4.3.6 url tokens, 4.3.7 and 4.3.8 escapes, 4.3.14 bad
//     urls) and section 5.4.8 (a block ends at its own closer only).
//   - CSS Values and Units Level 4 section 4.5: url() with or without
//     quotes; an empty url() is an invalid resource (4.5.1).
//   - CSS Cascading and Inheritance Level 4 section 2.1: an @import
//     precedes every rule but @charset and @layer statements, else it is
//     ignored.
//   - CSS Images Level 4 section 2.4: a string in image-set() is a URL.
//   - CSS Namespaces Level 3 section 3: the URL of @namespace names a
//     namespace; nothing is loaded from it.
//   - CSSOM section 2.1, "serialize a string", for the text of a URL
//     rewritten in a string; in an unquoted url() what section 4.3.6 of
//     CSS Syntax Level 3 makes a bad url is escaped.
//
// Deviations and decisions:
//   - The sheet is tokenized, not parsed into rules: a url() is a
//     reference whatever declaration holds it, so one in a declaration a
//     browser drops (an unknown property, a rule in a block where it is
//     not allowed) is found too, as wget finds it. Only the placement of
//     @import and the prelude of @namespace are told from the rules.
//   - Every URL of an image-set() is a reference, as every candidate of an
//     <img srcset> is for the crawler: a browser loads one, chosen by the
//     screen it draws on.
package cssref
