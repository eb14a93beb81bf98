//! Source text with a line index: byte offsets to 1-based line and column.

/// A 1-based line and column. Columns count Unicode scalar values, as SARIF's
/// `unicodeCodePoints` column kind does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column in characters.
    pub column: usize,
}

/// A half-open byte range `[start, end)` into a source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (bytes).
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }

    /// This span moved `by` bytes to the right (used for frontmatter, which is
    /// parsed from a slice of the file).
    pub const fn shift(self, by: usize) -> Self {
        Span::new(self.start + by, self.end + by)
    }
}

/// The text of one file and the byte offsets where its lines start.
///
/// ```
/// use toolsmith_model::source::{Source, Position};
/// let src = Source::new("a.json", "{\n  \"é\": 1\n}");
/// assert_eq!(src.position(8), Position { line: 2, column: 6 });
/// assert_eq!(src.line_text(2), "  \"é\": 1");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Source {
    path: String,
    text: String,
    line_starts: Vec<usize>,
}

impl std::fmt::Debug for Source {
    /// Only the path and the size: a diagnostic's `Debug` output must not dump whole files.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Source")
            .field("path", &self.path)
            .field("bytes", &self.text.len())
            .finish()
    }
}

impl Source {
    /// Index `text`, to be reported as `path`.
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Source {
            path: path.into(),
            text,
            line_starts,
        }
    }

    /// The path as it will be printed.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The whole text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Line and column of a byte offset (clamped to the text, and moved back to
    /// a character boundary).
    pub fn position(&self, offset: usize) -> Position {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.line_starts.partition_point(|&s| s <= offset);
        let start = self.line_starts[line - 1];
        let column = self.text[start..offset].chars().count() + 1;
        Position { line, column }
    }

    /// The text of a 1-based line, without its line terminator.
    pub fn line_text(&self, line: usize) -> &str {
        let Some(&start) = self.line_starts.get(line.wrapping_sub(1)) else {
            return "";
        };
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |&next| next - 1);
        self.text[start..end].trim_end_matches('\r')
    }

    /// Number of lines.
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}
