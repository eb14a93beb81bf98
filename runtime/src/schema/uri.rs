//! URI references as `$id` and `$ref` use them: resolution against a base
//! (RFC 3986 §5.2, with dot-segment removal) and percent-decoding of
//! fragments. Nothing is ever fetched: a resolved URI only names a resource
//! of the schema being compiled.

/// The base URI of a schema whose root has no `$id` (the one the jsonschema
/// crate uses, so that relative `$id`s resolve to the same URIs).
pub(crate) const DEFAULT_BASE: &str = "json-schema:///";

/// The five components of a URI reference.
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn parse(text: &str) -> Parts<'_> {
    let (rest, fragment) = match text.split_once('#') {
        Some((r, f)) => (r, Some(f)),
        None => (text, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    let (scheme, rest) = match rest.find(':') {
        Some(i)
            if i > 0
                && rest[..i].starts_with(|c: char| c.is_ascii_alphabetic())
                && rest[..i]
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
                && !rest[..i].contains('/') =>
        {
            (Some(&rest[..i]), &rest[i + 1..])
        }
        _ => (None, rest),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(r) => {
            let end = r.find('/').unwrap_or(r.len());
            (Some(&r[..end]), &r[end..])
        }
        None => (None, rest),
    };
    Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

/// RFC 3986 §5.2.4.
fn remove_dot_segments(path: &str) -> String {
    let mut input = path.to_owned();
    let mut output = String::new();
    while !input.is_empty() {
        if let Some(r) = input.strip_prefix("../") {
            input = r.to_owned();
        } else if let Some(r) = input.strip_prefix("./") {
            input = r.to_owned();
        } else if input.starts_with("/./") {
            input.replace_range(..3, "/");
        } else if input == "/." {
            input = "/".into();
        } else if input.starts_with("/../") || input == "/.." {
            let cut = if input == "/.." { 3 } else { 4 };
            input.replace_range(..cut, "/");
            let last = output.rfind('/').unwrap_or(0);
            output.truncate(last);
        } else if input == "." || input == ".." {
            input.clear();
        } else {
            let start = usize::from(input.starts_with('/'));
            let end = input[start..].find('/').map_or(input.len(), |i| i + start);
            output.push_str(&input[..end]);
            input.replace_range(..end, "");
        }
    }
    output
}

/// Resolves `reference` against the absolute `base` (RFC 3986 §5.2.2).
pub(crate) fn resolve(base: &str, reference: &str) -> String {
    let r = parse(reference);
    let b = parse(base);
    let (scheme, authority, path, query);
    if r.scheme.is_some() {
        scheme = r.scheme;
        authority = r.authority;
        path = remove_dot_segments(r.path);
        query = r.query;
    } else {
        scheme = b.scheme;
        if r.authority.is_some() {
            authority = r.authority;
            path = remove_dot_segments(r.path);
            query = r.query;
        } else {
            authority = b.authority;
            if r.path.is_empty() {
                path = b.path.to_owned();
                query = r.query.or(b.query);
            } else {
                let merged = if r.path.starts_with('/') {
                    r.path.to_owned()
                } else if b.authority.is_some() && b.path.is_empty() {
                    format!("/{}", r.path)
                } else {
                    match b.path.rfind('/') {
                        Some(i) => format!("{}{}", &b.path[..=i], r.path),
                        None => r.path.to_owned(),
                    }
                };
                path = remove_dot_segments(&merged);
                query = r.query;
            }
        }
    }
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(&path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = r.fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// Splits an absolute URI into the resource part and its fragment (`""`
/// when there is none or it is empty).
pub(crate) fn split_fragment(uri: &str) -> (&str, &str) {
    uri.split_once('#').unwrap_or((uri, ""))
}

/// Percent-decodes a fragment; `None` when the result is not UTF-8 or an
/// escape is malformed.
pub(crate) fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc_3986_examples() {
        let base = "http://a/b/c/d;p?q";
        for (r, want) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("", "http://a/b/c/d;p?q"),
            ("../g", "http://a/b/g"),
            ("../../../g", "http://a/g"),
            ("g;x=1/../y", "http://a/b/c/y"),
            ("urn:x:y#a", "urn:x:y#a"),
        ] {
            assert_eq!(resolve(base, r), want, "{r}");
        }
        assert_eq!(
            resolve(DEFAULT_BASE, "#/$defs/a"),
            "json-schema:///#/$defs/a"
        );
        assert_eq!(
            resolve(DEFAULT_BASE, "item.json"),
            "json-schema:///item.json"
        );
        assert_eq!(resolve("urn:example:root", "#foo"), "urn:example:root#foo");
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("/a%25b%22").as_deref(), Some("/a%b\""));
        assert_eq!(percent_decode("%zz"), None);
        assert_eq!(percent_decode("%"), None);
    }
}
