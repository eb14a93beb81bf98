//! "Did you mean" suggestions for misspelled names (keys, type names, fields).

/// The candidate closest to `word`, if one is close enough to be a likely typo:
/// equal ignoring ASCII case, or within an edit distance (transpositions count once) of about a third of
/// the word's length (at least 1, at most 3).
///
/// ```
/// use toolsmith_manifest::suggest::closest;
/// let types = ["array", "boolean", "integer", "null", "number", "object", "string"];
/// assert_eq!(closest("strin", types), Some("string"));
/// assert_eq!(closest("Object", types), Some("object"));
/// assert_eq!(closest("nmuber", types), Some("number"));
/// assert_eq!(closest("banana", types), None);
/// ```
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase();
    let limit = (word.chars().count() / 3).clamp(1, 3);
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| (strsim::osa_distance(&lower, &c.to_lowercase()), c))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}
