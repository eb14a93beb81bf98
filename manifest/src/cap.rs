//! At most [`MAX_PER_RULE`] findings of one rule in one file: past that, one
//! `lint/too-many-findings` finding says how many more there were. Findings
//! are limited as they are produced ([`Findings`], which every dialect
//! collects into; the JSON parser and the agentcli checker use a [`Limiter`]),
//! so a file with a million broken elements costs a bounded output and bounded
//! memory, and the first findings still show what is wrong.

use crate::diagnostic::{Finding, Severity};
use crate::rules::Rule;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// Findings of one rule kept per file.
pub const MAX_PER_RULE: usize = 1000;

pub static TOO_MANY_FINDINGS: Rule = Rule::warning(
    "lint/too-many-findings",
    "lint",
    "a rule fired more than 1,000 times in one file: the first 1,000 are shown, then this count of the rest",
);

/// The lint driver's rules.
pub static RULES: &[&Rule] = &[&TOO_MANY_FINDINGS];

/// The summary of `omitted` findings of `rule` left out, placed at the first
/// of them, with the most severe severity among them.
pub fn summary(
    rule: &'static Rule,
    first: &Finding,
    omitted: usize,
    severity: Severity,
) -> Finding {
    Finding::new(
        &TOO_MANY_FINDINGS,
        first.span,
        first.pointer.clone(),
        format!(
            "{omitted} more `{}` finding{} in this file not shown (at most {MAX_PER_RULE} per rule and file)",
            rule.id,
            if omitted == 1 { "" } else { "s" }
        ),
    )
    .with_severity(severity)
    .with_help("fix the first ones and lint again")
}

/// The rule whose findings a `lint/too-many-findings` summary counts, read
/// back from its message (see [`summary`]); `None` for any other message.
///
/// ```
/// use toolsmith_manifest::cap;
/// let m = "4000 more `chai/invalid-type` findings in this file not shown (at most 1000 per rule and file)";
/// assert_eq!(cap::summarised_rule(m), Some("chai/invalid-type"));
/// assert_eq!(cap::summarised_rule("tools must be an array"), None);
/// ```
pub fn summarised_rule(message: &str) -> Option<&str> {
    let (count, rest) = message.split_once(" more `")?;
    if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (rule, _) = rest.split_once("` finding")?;
    Some(rule)
}

/// Counts findings per rule as they are produced and admits the first
/// [`MAX_PER_RULE`] of each, so a rule that fires a million times keeps a
/// thousand findings in memory.
#[derive(Debug, Default)]
pub struct Limiter {
    counts: HashMap<&'static str, Count>,
}

#[derive(Debug)]
struct Count {
    rule: &'static Rule,
    seen: usize,
    first_left_out: Option<Finding>,
    severity: Severity,
}

impl Limiter {
    /// True when `f` is to be kept; otherwise it is counted.
    pub fn admit(&mut self, f: &Finding) -> bool {
        let count = self.counts.entry(f.rule.id).or_insert(Count {
            rule: f.rule,
            seen: 0,
            first_left_out: None,
            severity: Severity::Warning,
        });
        count.seen += 1;
        if count.seen <= MAX_PER_RULE {
            return true;
        }
        if count.first_left_out.is_none() {
            count.first_left_out = Some(f.clone());
        }
        count.severity = count.severity.min(f.severity);
        false
    }

    /// Pushes `f` onto `findings` when it is admitted.
    pub fn push(&mut self, findings: &mut Vec<Finding>, f: Finding) {
        if self.admit(&f) {
            findings.push(f);
        }
    }

    /// One summary per rule that went over the limit.
    pub fn summaries(&self) -> Vec<Finding> {
        let mut out: Vec<Finding> = self
            .counts
            .values()
            .filter_map(|c| {
                let first = c.first_left_out.as_ref()?;
                Some(summary(c.rule, first, c.seen - MAX_PER_RULE, c.severity))
            })
            .collect();
        out.sort_by(|a, b| (a.span, &a.message).cmp(&(b.span, &b.message)));
        out
    }
}

/// Keeps the first [`MAX_PER_RULE`] findings of each rule by position and
/// replaces the rest of each rule with one summary. Findings are returned in
/// position order when anything was left out, unchanged otherwise.
///
/// ```
/// use toolsmith_manifest::{cap, json};
/// let text = format!("{{{}}}", vec!["\"k\":1"; 1500].join(","));
/// let findings = cap::limit(json::parse(&text).findings);
/// assert_eq!(findings.len(), cap::MAX_PER_RULE + 1);
/// assert_eq!(findings[cap::MAX_PER_RULE].rule.id, "lint/too-many-findings");
/// assert!(findings[cap::MAX_PER_RULE].message.starts_with("499 more `json/duplicate-key` findings"));
/// ```
pub fn limit(mut findings: Vec<Finding>) -> Vec<Finding> {
    if findings.len() <= MAX_PER_RULE {
        return findings;
    }
    let mut per_rule: HashMap<&str, usize> = HashMap::new();
    for f in &findings {
        *per_rule.entry(f.rule.id).or_default() += 1;
    }
    if per_rule.values().all(|&n| n <= MAX_PER_RULE) {
        return findings;
    }
    findings.sort_by_key(|f| (f.span.start, f.span.end));
    let mut limiter = Limiter::default();
    let mut kept: Vec<Finding> =
        Vec::with_capacity(findings.len().min(per_rule.len() * MAX_PER_RULE));
    for f in findings {
        limiter.push(&mut kept, f);
    }
    kept.extend(limiter.summaries());
    kept.sort_by_key(|f| (f.span.start, f.span.end));
    kept
}

/// Where a finding sorts among the findings of its rule: by position, then
/// in the order produced (the order [`limit`] keeps them in).
type Key = (usize, usize, u64);

/// A file's findings, limited as they are produced: at most
/// [`MAX_PER_RULE`] of each rule are held (the first by position, whatever
/// order the rule produces them in), and of the rest only their count, their
/// most severe severity and the first of them by position. A rule that fires
/// a million times holds a thousand findings in memory, and
/// [`Findings::limited`] gives what [`limit`] gives over all of them.
///
/// Findings held can be read and changed in place (`iter`, `iter_mut`);
/// [`Findings::retain`] drops held ones only. Work that drops or re-grades
/// findings after they are produced runs between [`Findings::suspend`] and
/// [`Findings::resume`], so that the limit applies to what it leaves.
#[derive(Clone, Default)]
pub struct Findings {
    /// Findings of rules within the limit, in the order pushed.
    items: Vec<Finding>,
    /// The order number of each of `items`.
    seqs: Vec<u64>,
    /// How many of `items` each rule has.
    counts: HashMap<&'static str, usize>,
    /// Rules that went over the limit, in the order they did.
    over: Vec<Over>,
    /// The order number of the next finding.
    next: u64,
    /// While suspended, the order number of the first finding held whole.
    suspended: Option<u64>,
}

/// A rule over the limit: its first findings by position and a tally of the rest.
#[derive(Clone)]
struct Over {
    rule: &'static Rule,
    kept: BTreeMap<Key, Finding>,
    left_out: usize,
    left_out_errors: usize,
    /// The first finding left out, by position: where the summary goes.
    first_left_out: Option<(Key, Finding)>,
    /// The most severe severity left out (at least a warning).
    severity: Severity,
}

impl Over {
    fn admit(&mut self, key: Key, f: Finding) {
        if self.kept.len() < MAX_PER_RULE {
            self.kept.insert(key, f);
            return;
        }
        let out = match self.kept.last_key_value() {
            Some((&last, _)) if key < last => {
                self.kept.insert(key, f);
                self.kept.pop_last()
            }
            _ => Some((key, f)),
        };
        if let Some((key, f)) = out {
            self.leave_out(key, f);
        }
    }

    fn leave_out(&mut self, key: Key, f: Finding) {
        self.left_out += 1;
        self.severity = self.severity.min(f.severity);
        if f.severity == Severity::Error {
            self.left_out_errors += 1;
        }
        if self.first_left_out.as_ref().is_none_or(|(k, _)| key < *k) {
            self.first_left_out = Some((key, f));
        }
    }

    fn summary(&self) -> Option<Finding> {
        let (_, first) = self.first_left_out.as_ref()?;
        Some(summary(self.rule, first, self.left_out, self.severity))
    }
}

impl Findings {
    /// No findings yet.
    pub fn new() -> Findings {
        Findings::default()
    }

    /// Adds `f`: held when it is among the first [`MAX_PER_RULE`] of its
    /// rule by position, otherwise counted.
    pub fn push(&mut self, f: Finding) {
        let seq = self.next;
        self.next += 1;
        self.insert(seq, f);
    }

    fn insert(&mut self, seq: u64, f: Finding) {
        if self.suspended.is_some() {
            self.items.push(f);
            self.seqs.push(seq);
            return;
        }
        let key = (f.span.start, f.span.end, seq);
        if let Some(over) = self.over.iter_mut().find(|o| o.rule.id == f.rule.id) {
            over.admit(key, f);
            return;
        }
        let count = self.counts.entry(f.rule.id).or_default();
        if *count < MAX_PER_RULE {
            *count += 1;
            self.items.push(f);
            self.seqs.push(seq);
            return;
        }
        // The rule goes over the limit: its findings move to their own set.
        self.go_over(f.rule).admit(key, f);
    }

    /// Moves the findings of `rule` held within the limit (not those held
    /// whole while suspended) to a set of their own, and returns it.
    fn go_over(&mut self, rule: &'static Rule) -> &mut Over {
        if let Some(i) = self.over.iter().position(|o| o.rule.id == rule.id) {
            return &mut self.over[i];
        }
        self.counts.remove(rule.id);
        let held_from = self.suspended.unwrap_or(u64::MAX);
        let mut over = Over {
            rule,
            kept: BTreeMap::new(),
            left_out: 0,
            left_out_errors: 0,
            first_left_out: None,
            severity: Severity::Warning,
        };
        let items = std::mem::take(&mut self.items);
        let seqs = std::mem::take(&mut self.seqs);
        for (g, s) in items.into_iter().zip(seqs) {
            if g.rule.id == rule.id && s < held_from {
                over.kept.insert((g.span.start, g.span.end, s), g);
            } else {
                self.items.push(g);
                self.seqs.push(s);
            }
        }
        self.over.push(over);
        let last = self.over.len() - 1;
        &mut self.over[last]
    }

    /// Adds every finding of `other` (produced after those of `self`),
    /// with its count of findings left out.
    pub fn append(&mut self, other: Findings) {
        let base = self.next;
        self.next += other.next;
        for (f, s) in other.items.into_iter().zip(other.seqs) {
            self.insert(base + s, f);
        }
        for o in other.over {
            for ((_, _, s), f) in o.kept {
                self.insert(base + s, f);
            }
            let Some(((start, end, s), first)) = o.first_left_out else {
                continue;
            };
            let key = (start, end, base + s);
            let first_is_error = usize::from(first.severity == Severity::Error);
            let over = self.go_over(o.rule);
            over.leave_out(key, first);
            over.left_out += o.left_out - 1;
            over.left_out_errors += o.left_out_errors - first_is_error;
            over.severity = over.severity.min(o.severity);
        }
    }

    /// Holds every finding pushed from now on whole, until [`Findings::resume`].
    pub fn suspend(&mut self) {
        self.suspended.get_or_insert(self.next);
    }

    /// Applies the limit again, to the findings held whole since
    /// [`Findings::suspend`] too.
    pub fn resume(&mut self) {
        let Some(from) = self.suspended.take() else {
            return;
        };
        let at = self.seqs.partition_point(|&s| s < from);
        let held: Vec<Finding> = self.items.drain(at..).collect();
        let seqs: Vec<u64> = self.seqs.drain(at..).collect();
        for (f, s) in held.into_iter().zip(seqs) {
            self.insert(s, f);
        }
    }

    /// Keeps the held findings for which `keep` is true. A rule over the
    /// limit keeps its count of findings left out.
    pub fn retain(&mut self, mut keep: impl FnMut(&Finding) -> bool) {
        let mut seqs = self.seqs.iter();
        let mut kept_seqs = Vec::with_capacity(self.seqs.len());
        self.items.retain(|f| {
            let s = seqs.next().copied().unwrap_or_default();
            let k = keep(f);
            if k {
                kept_seqs.push(s);
            }
            k
        });
        self.seqs = kept_seqs;
        self.counts.clear();
        let held_from = self.suspended.unwrap_or(u64::MAX);
        for (f, &s) in self.items.iter().zip(&self.seqs) {
            if s < held_from {
                *self.counts.entry(f.rule.id).or_default() += 1;
            }
        }
        for o in &mut self.over {
            o.kept.retain(|_, f| keep(f));
        }
    }

    /// The findings held: those of rules within the limit in the order
    /// pushed, then those of each rule over it by position.
    pub fn iter(&self) -> impl Iterator<Item = &Finding> {
        self.items
            .iter()
            .chain(self.over.iter().flat_map(|o| o.kept.values()))
    }

    /// The findings held, to change in place.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Finding> {
        self.items
            .iter_mut()
            .chain(self.over.iter_mut().flat_map(|o| o.kept.values_mut()))
    }

    /// Number of findings held.
    pub fn len(&self) -> usize {
        self.items.len() + self.over.iter().map(|o| o.kept.len()).sum::<usize>()
    }

    /// True when nothing was found.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.over.is_empty()
    }

    /// Number of findings left out so far.
    pub fn left_out(&self) -> usize {
        self.over.iter().map(|o| o.left_out).sum()
    }

    /// True when any finding, held or left out, is an error.
    pub fn has_errors(&self) -> bool {
        self.over.iter().any(|o| o.left_out_errors > 0)
            || self.iter().any(|f| f.severity == Severity::Error)
    }

    /// Number of errors found, held or left out.
    pub fn errors(&self) -> usize {
        self.iter()
            .filter(|f| f.severity == Severity::Error)
            .count()
            + self.over.iter().map(|o| o.left_out_errors).sum::<usize>()
    }

    /// What is shown: every finding held and, for each rule over the limit,
    /// one `lint/too-many-findings` summary with the count of the rest. The
    /// same as [`limit`] over every finding pushed: in the order pushed when
    /// no rule went over the limit, else by position.
    pub fn limited(&self) -> Vec<Finding> {
        if self.over.is_empty() && self.suspended.is_none() {
            return self.items.clone();
        }
        if self.suspended.is_some() {
            let mut copy = self.clone();
            copy.resume();
            return copy.limited();
        }
        let mut all: Vec<(Key, &Finding)> = self
            .items
            .iter()
            .zip(&self.seqs)
            .map(|(f, &s)| ((f.span.start, f.span.end, s), f))
            .chain(
                self.over
                    .iter()
                    .flat_map(|o| o.kept.iter().map(|(&k, f)| (k, f))),
            )
            .collect();
        all.sort_unstable_by_key(|&(k, _)| k);
        let mut summaries: Vec<Finding> = self.over.iter().filter_map(Over::summary).collect();
        summaries.sort_by(|a, b| (a.span, &a.message).cmp(&(b.span, &b.message)));
        let mut out: Vec<Finding> = Vec::with_capacity(all.len() + summaries.len());
        out.extend(all.into_iter().map(|(_, f)| f.clone()));
        out.extend(summaries);
        out.sort_by_key(|f| (f.span.start, f.span.end));
        out
    }
}

impl fmt::Debug for Findings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()?;
        let left_out = self.left_out();
        if left_out > 0 {
            write!(f, " and {left_out} left out")?;
        }
        Ok(())
    }
}

impl Extend<Finding> for Findings {
    fn extend<I: IntoIterator<Item = Finding>>(&mut self, iter: I) {
        for f in iter {
            self.push(f);
        }
    }
}

impl From<Vec<Finding>> for Findings {
    fn from(findings: Vec<Finding>) -> Findings {
        let mut out = Findings::new();
        out.extend(findings);
        out
    }
}

impl std::ops::Index<usize> for Findings {
    type Output = Finding;
    /// The `i`th finding held, in [`Findings::iter`]'s order.
    fn index(&self, i: usize) -> &Finding {
        match self.items.get(i) {
            Some(f) => f,
            None => self
                .iter()
                .nth(i)
                .unwrap_or_else(|| panic!("finding {i} of {}", self.len())),
        }
    }
}

impl<'a> IntoIterator for &'a Findings {
    type Item = &'a Finding;
    type IntoIter = Box<dyn Iterator<Item = &'a Finding> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl<'a> IntoIterator for &'a mut Findings {
    type Item = &'a mut Finding;
    type IntoIter = Box<dyn Iterator<Item = &'a mut Finding> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter_mut())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::{Input, Options, lint};

    /// Findings of two rules over the limit and one within it, with
    /// severities mixed, in the order `order` gives their indices.
    fn mixed(order: impl Iterator<Item = usize>) -> Vec<Finding> {
        use crate::source::Span;
        static OTHER: Rule = Rule::error("test/other", "test", "another rule");
        static FEW: Rule = Rule::warning("test/few", "test", "a rule within the limit");
        order
            .map(|i| {
                let rule = match i % 7 {
                    0 => &FEW,
                    1 | 2 => &OTHER,
                    _ => &TOO_MANY_FINDINGS,
                };
                // Pairs of findings share a position, so that ties count.
                let at = i / 2;
                let f = Finding::new(
                    rule,
                    Span::new(at, at + 1),
                    format!("/{i}"),
                    format!("m{i}"),
                );
                if i % 5 == 0 {
                    f.with_severity(Severity::Error)
                } else {
                    f
                }
            })
            .collect()
    }

    #[test]
    fn findings_limited_as_produced_give_what_limiting_all_of_them_gives() {
        let n = 5000;
        // In position order, reversed, and scattered (a step prime to n).
        let orders: [Vec<usize>; 3] = [
            (0..n).collect(),
            (0..n).rev().collect(),
            (0..n).map(|i| (i * 2_003) % n).collect(),
        ];
        for order in orders {
            let all = mixed(order.into_iter());
            let expected = limit(all.clone());
            assert!(expected.len() < all.len());
            let pushed = Findings::from(all.clone());
            assert_eq!(pushed.len(), 2 * MAX_PER_RULE + n.div_ceil(7));
            assert_eq!(pushed.limited(), expected);
            assert_eq!(
                pushed.errors(),
                all.iter().filter(|f| f.severity == Severity::Error).count()
            );
            // Collected in two parts, the second appended to the first.
            let (a, b) = all.split_at(1234);
            let mut first = Findings::from(a.to_vec());
            first.append(Findings::from(b.to_vec()));
            assert_eq!(first.limited(), expected);
            // Held whole while suspended, limited when resumed.
            let mut held = Findings::from(a.to_vec());
            held.suspend();
            held.extend(b.iter().cloned());
            assert_eq!(held.limited(), expected);
            held.resume();
            assert_eq!(held.limited(), expected);
        }
    }

    #[test]
    fn findings_within_the_limit_stay_in_the_order_produced() {
        let all = mixed((0..900).rev());
        let pushed = Findings::from(all.clone());
        assert_eq!(pushed.limited(), all);
        assert_eq!(pushed.iter().cloned().collect::<Vec<_>>(), all);
    }

    #[test]
    fn findings_dropped_while_suspended_are_not_counted() {
        // 5,000 findings, the 3,000 of one rule dropped before the limit
        // applies: that rule gets no summary.
        let all = mixed(0..5000);
        let mut held = Findings::new();
        held.suspend();
        held.extend(all.iter().cloned());
        held.retain(|f| f.rule.id != TOO_MANY_FINDINGS.id);
        held.resume();
        let expected = limit(
            all.into_iter()
                .filter(|f| f.rule.id != TOO_MANY_FINDINGS.id)
                .collect(),
        );
        assert_eq!(held.limited(), expected);
        // One summary: for `test/other`, the one rule still over the limit.
        let summaries: Vec<_> = held
            .limited()
            .into_iter()
            .filter(|f| f.rule.id == TOO_MANY_FINDINGS.id)
            .collect();
        assert_eq!(summaries.len(), 1, "{summaries:#?}");
        assert!(summaries[0].message.contains("`test/other`"));
    }

    #[test]
    fn five_thousand_invalid_chai_tools_hold_a_thousand_findings_and_count_the_rest() {
        use crate::dialect::chai;
        use crate::document::Document;
        use crate::options::Options;
        let numbers: Vec<String> = (0..5000).map(|i| (i % 10).to_string()).collect();
        let text = format!("[{}]", numbers.join(","));
        let path = std::path::Path::new("tools.json");
        let mut doc = Document::from_text("tools.json", path, &text);
        doc.parse_json();
        chai::check_split(&mut doc, None, None, &Options::default());
        // Limited as produced: a thousand held, the rest only counted.
        let held = |id: &str| doc.findings.iter().filter(|f| f.rule.id == id).count();
        assert_eq!(held("chai/invalid-type"), MAX_PER_RULE);
        assert_eq!(doc.findings.left_out(), 4000);
        assert!(doc.has_errors());
        let shown = doc.diagnostics();
        let of = |id: &str| shown.iter().filter(|d| d.rule == id).collect::<Vec<_>>();
        assert_eq!(of("chai/invalid-type").len(), MAX_PER_RULE);
        let summaries = of(TOO_MANY_FINDINGS.id);
        assert_eq!(summaries.len(), 1, "{summaries:#?}");
        assert_eq!(
            summaries[0].message,
            "4000 more `chai/invalid-type` findings in this file not shown (at most 1000 per rule and file)"
        );
        assert_eq!(summaries[0].severity, Severity::Error);
        assert_eq!(summaries[0].pointer, "/1000");
        assert_eq!(
            summarised_rule(&summaries[0].message),
            Some("chai/invalid-type")
        );
    }

    #[test]
    fn thousands_of_broken_tools_give_a_thousand_findings_per_rule_and_one_count() {
        let dir = std::env::temp_dir().join(format!("toolsmith-cap-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tools.json");
        let n = 5000;
        std::fs::write(
            &path,
            format!("{{\"tools\":[{}]}}", vec!["{}"; n].join(",")),
        )
        .unwrap();
        let report = lint(&[Input::new(&path)], &Options::default()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        let summaries: Vec<_> = report
            .diagnostics
            .iter()
            .filter(|d| d.rule == TOO_MANY_FINDINGS.id)
            .collect();
        assert_eq!(summaries.len(), 3, "{summaries:#?}");
        for s in &summaries {
            assert!(
                s.message
                    .starts_with(&format!("{} more `agentcli/", n - MAX_PER_RULE))
            );
        }
        let errors = summaries
            .iter()
            .filter(|s| s.severity == Severity::Error)
            .count();
        assert_eq!(errors, 2, "name-required and command-empty are errors");
        assert_eq!(report.diagnostics.0.len(), 3 * (MAX_PER_RULE + 1));
        // The count sits at the first tool left out.
        let first = summaries.iter().map(|s| s.pointer.as_str()).min().unwrap();
        assert!(first.starts_with("/tools/1000"), "{first}");
    }
}
