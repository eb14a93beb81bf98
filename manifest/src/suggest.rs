//! "Did you mean" suggestions for misspelled names (keys, type names, fields).

/// The candidate closest to `word`, if one is close enough to be a likely typo:
/// equal ignoring ASCII case, `_` and `-` (`flag_if_true` → `flagIfTrue`), or
/// within an edit distance (transpositions count once) of about a third of the
/// longer word (at least 1, at most 3). Work is bounded: words over 64
/// characters and lists of over 50 candidates get no suggestion.
///
/// ```
/// use toolsmith_manifest::suggest::closest;
/// let types = ["array", "boolean", "integer", "null", "number", "object", "string"];
/// assert_eq!(closest("strin", types), Some("string"));
/// assert_eq!(closest("Object", types), Some("object"));
/// assert_eq!(closest("nmuber", types), Some("number"));
/// assert_eq!(closest("banana", types), None);
/// assert_eq!(closest("flag_if_true", ["flag", "flagIfTrue"]), Some("flagIfTrue"));
/// ```
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    const MAX_LEN: usize = 64;
    const MAX_CANDIDATES: usize = 50;
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_' && *c != '-')
            .flat_map(char::to_lowercase)
            .collect()
    };
    let candidates: Vec<&'a str> = candidates.into_iter().take(MAX_CANDIDATES + 1).collect();
    if word.len() > MAX_LEN || candidates.len() > MAX_CANDIDATES {
        return None;
    }
    let normalized = norm(word);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        if candidate == word || candidate.len() > MAX_LEN {
            continue;
        }
        let distance = strsim::osa_distance(&normalized, &norm(candidate));
        let longer = word.chars().count().max(candidate.chars().count());
        if distance <= (longer / 3).clamp(1, 3) && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}
