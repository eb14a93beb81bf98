//! A manifest file read from disk: its text, its tree and its findings so far.

use crate::cap::Findings;
use crate::diagnostic::Diagnostic;
use crate::input;
use crate::json;
use crate::source::Source;
use crate::tree::Node;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One input file and everything known about it.
#[derive(Debug)]
pub struct Document {
    /// Where the file really is.
    pub path: PathBuf,
    /// The text (empty when the file could not be decoded) and its printed path.
    pub source: Arc<Source>,
    /// The parsed tree (JSON documents, or a skill's frontmatter mapping).
    pub root: Option<Node>,
    /// Findings for this file, in no particular order, limited as they are
    /// produced (see [`Findings`]).
    pub findings: Findings,
    /// False when the bytes were refused before parsing (size, encoding, binary).
    pub decoded: bool,
}

impl Document {
    /// Reads (see [`input::read_bounded`]) and decodes a file; `display` is
    /// the path printed in diagnostics. Input problems (size, type, encoding)
    /// become findings; an I/O error is returned.
    pub fn read(display: &str, path: &Path, max_size: u64) -> std::io::Result<Document> {
        match input::read_bounded(path, max_size)? {
            Ok(bytes) => Ok(Document::from_bytes(display, path, &bytes, max_size)),
            Err(refusal) => {
                let mut doc = Document::from_text(display, path, "");
                doc.decoded = false;
                doc.findings.push(refusal);
                Ok(doc)
            }
        }
    }

    /// Decodes bytes already in memory.
    pub fn from_bytes(display: &str, path: &Path, bytes: &[u8], max_size: u64) -> Document {
        match input::decode(bytes, max_size) {
            Ok(text) => {
                let mut doc = Document::from_text(display, path, text);
                doc.findings.extend(input::check_bom(text));
                doc
            }
            Err(finding) => {
                // Keep the valid prefix so the position can be shown with its line.
                let prefix = match std::str::from_utf8(bytes) {
                    Ok(t) if finding.rule.id != input::TOO_LARGE.id => t,
                    Ok(_) => "",
                    Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""),
                };
                let mut doc = Document::from_text(display, path, prefix);
                doc.decoded = false;
                doc.findings.push(finding);
                doc
            }
        }
    }

    /// A document over text (no input checks).
    pub fn from_text(display: &str, path: &Path, text: &str) -> Document {
        Document {
            path: path.to_path_buf(),
            source: Arc::new(Source::new(display, text)),
            root: None,
            findings: Findings::new(),
            decoded: true,
        }
    }

    /// Parses the text as JSON into `root`, adding syntax findings.
    pub fn parse_json(&mut self) {
        if !self.decoded {
            return;
        }
        let parsed = json::parse(self.source.text());
        self.root = parsed.root;
        self.findings.extend(parsed.findings);
    }

    /// Reads a JSON file and parses it.
    pub fn read_json(display: &str, path: &Path, max_size: u64) -> std::io::Result<Document> {
        let mut doc = Document::read(display, path, max_size)?;
        doc.parse_json();
        Ok(doc)
    }

    /// Positions the findings: at most [`crate::cap::MAX_PER_RULE`] of each rule,
    /// then one `lint/too-many-findings` with the count of the rest.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        self.findings
            .limited()
            .into_iter()
            .map(|f| f.locate_shared(&self.source))
            .collect()
    }

    /// True when any finding is an error (one left out by the limit too).
    pub fn has_errors(&self) -> bool {
        self.findings.has_errors()
    }
}
