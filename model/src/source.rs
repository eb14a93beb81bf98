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
///
/// Positions cost O(log n) each: the line is found by binary search, and the
/// column is the byte distance when the text is ASCII, or else a count of the
/// characters since the nearest of the checkpoints taken every
/// [`CHECKPOINT`] bytes (built on the first non-ASCII lookup). Many findings
/// on one long line therefore cost no more than findings on many lines.
#[derive(Clone)]
pub struct Source {
    path: String,
    text: String,
    line_starts: Vec<usize>,
    /// True when the whole text is ASCII (every column is a byte distance).
    ascii: bool,
    /// Characters before byte `i * CHECKPOINT`, for every `i`.
    checkpoints: std::sync::OnceLock<Vec<usize>>,
}

/// Bytes between two character-count checkpoints of a non-ASCII text.
const CHECKPOINT: usize = 1024;

impl PartialEq for Source {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path && self.text == other.text
    }
}

impl Eq for Source {}

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
            ascii: text.is_ascii(),
            text,
            line_starts,
            checkpoints: std::sync::OnceLock::new(),
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
        let column = if self.ascii || offset - start <= CHECKPOINT {
            self.chars_between(start, offset)
        } else {
            self.chars_before(offset) - self.chars_before(start)
        } + 1;
        Position { line, column }
    }

    /// Characters in `text[from..to]` (both character boundaries).
    fn chars_between(&self, from: usize, to: usize) -> usize {
        if self.ascii {
            return to - from;
        }
        count_chars(&self.text.as_bytes()[from..to])
    }

    /// Characters before byte `offset` (a character boundary), from the
    /// nearest checkpoint at or before it.
    fn chars_before(&self, offset: usize) -> usize {
        let checkpoints = self.checkpoints.get_or_init(|| {
            let mut counted = 0;
            let mut out = Vec::with_capacity(self.text.len() / CHECKPOINT + 1);
            for block in self.text.as_bytes().chunks(CHECKPOINT) {
                out.push(counted);
                counted += count_chars(block);
            }
            out.push(counted);
            out
        });
        let block = offset / CHECKPOINT;
        checkpoints[block] + count_chars(&self.text.as_bytes()[block * CHECKPOINT..offset])
    }

    /// Byte offset where a 1-based line starts (the text's end past the last line).
    pub fn line_start(&self, line: usize) -> usize {
        self.line_starts
            .get(line.wrapping_sub(1))
            .copied()
            .unwrap_or(self.text.len())
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

/// Characters whose UTF-8 encoding starts in `bytes`: the bytes that are not
/// continuation bytes (`10xxxxxx`). Branch-free, so it vectorises.
fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The straightforward definition the fast paths must agree with.
    fn slow(text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let before = &text[..offset];
        let line = before.matches('\n').count() + 1;
        let start = before.rfind('\n').map_or(0, |i| i + 1);
        Position {
            line,
            column: text[start..offset].chars().count() + 1,
        }
    }

    #[test]
    fn positions_agree_with_counting_characters_on_long_mixed_lines() {
        let mut text = String::new();
        for i in 0..3000 {
            text.push(match i % 7 {
                0 => 'é',
                1 => '\n',
                2 => '😀',
                _ => 'a',
            });
            if i % 500 == 0 {
                text.push_str(&"x".repeat(2500));
            }
        }
        let src = Source::new("t", text.as_str());
        for offset in (0..text.len() + 3).step_by(7) {
            assert_eq!(src.position(offset), slow(&text, offset), "offset {offset}");
        }
        let ascii = "ab\ncd\n".repeat(1000);
        let src = Source::new("t", ascii.as_str());
        for offset in 0..ascii.len() + 1 {
            assert_eq!(src.position(offset), slow(&ascii, offset));
        }
    }

    #[test]
    fn equality_ignores_the_cache() {
        let a = Source::new("p", "é\n".repeat(2000));
        let b = a.clone();
        a.position(3000);
        assert_eq!(a, b);
    }
}
