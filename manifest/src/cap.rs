//! At most [`MAX_PER_RULE`] findings of one rule in one file: past that, one
//! `lint/too-many-findings` finding says how many more there were. A file
//! with a million broken elements then costs a bounded output (and, where the
//! producing rule uses a [`Limiter`], bounded memory), and the first findings
//! still show what is wrong.

use crate::diagnostic::{Finding, Severity};
use crate::rules::Rule;
use std::collections::HashMap;

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

/// [`limit`] over borrowed findings: the same result, but only the kept
/// findings are copied (a file with a million findings is not duplicated to
/// keep a thousand of them).
pub fn limit_borrowed(findings: &[Finding]) -> Vec<Finding> {
    if findings.len() <= MAX_PER_RULE {
        return findings.to_vec();
    }
    let mut per_rule: HashMap<&str, usize> = HashMap::new();
    for f in findings {
        *per_rule.entry(f.rule.id).or_default() += 1;
    }
    if per_rule.values().all(|&n| n <= MAX_PER_RULE) {
        return findings.to_vec();
    }
    // A stable sort of the indices: the order `limit` sorts the findings in.
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_by_key(|&i| (findings[i].span.start, findings[i].span.end));
    let mut limiter = Limiter::default();
    let mut kept: Vec<Finding> =
        Vec::with_capacity(findings.len().min(per_rule.len() * MAX_PER_RULE));
    for i in order {
        if limiter.admit(&findings[i]) {
            kept.push(findings[i].clone());
        }
    }
    kept.extend(limiter.summaries());
    kept.sort_by_key(|f| (f.span.start, f.span.end));
    kept
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::{Input, Options, lint};

    #[test]
    fn limiting_borrowed_findings_gives_what_limiting_owned_ones_gives() {
        use crate::source::Span;
        static OTHER: Rule = Rule::error("test/other", "test", "another rule");
        // Two rules over the limit, out of span order, with severities mixed.
        let findings: Vec<Finding> = (0..2500)
            .rev()
            .map(|i| {
                let rule = if i % 3 == 0 {
                    &OTHER
                } else {
                    &TOO_MANY_FINDINGS
                };
                let f = Finding::new(rule, Span::new(i, i + 1), format!("/{i}"), "m");
                if i % 7 == 0 {
                    f.with_severity(Severity::Error)
                } else {
                    f
                }
            })
            .collect();
        let borrowed = limit_borrowed(&findings);
        assert!(borrowed.len() < findings.len());
        assert_eq!(borrowed, limit(findings));
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
