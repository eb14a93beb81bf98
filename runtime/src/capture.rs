//! Bounded capture of one output stream: the head and the tail are kept, the
//! middle is counted and dropped, and the text is cut on UTF-8 boundaries.

use std::collections::VecDeque;

/// The retained bytes of one stream.
#[derive(Debug, Clone, Default)]
pub(crate) struct Capture {
    cap: usize,
    head: Vec<u8>,
    tail: VecDeque<u8>,
    dropped: u64,
}

/// A stream rendered as text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Rendered {
    pub text: String,
    pub dropped: u64,
    /// Some bytes were not UTF-8 and were replaced by U+FFFD.
    pub lossy: bool,
}

impl Capture {
    /// A capture that retains at most `cap` bytes (half head, half tail).
    pub fn new(cap: usize) -> Self {
        Capture {
            cap,
            ..Capture::default()
        }
    }

    /// Appends a chunk, dropping from the middle once over the cap.
    pub fn push(&mut self, mut chunk: &[u8]) {
        let head_cap = self.cap / 2;
        let tail_cap = self.cap - head_cap;
        if self.head.len() < head_cap {
            let take = (head_cap - self.head.len()).min(chunk.len());
            self.head.extend_from_slice(&chunk[..take]);
            chunk = &chunk[take..];
        }
        if chunk.len() >= tail_cap {
            self.dropped += (self.tail.len() + chunk.len() - tail_cap) as u64;
            self.tail.clear();
            self.tail.extend(&chunk[chunk.len() - tail_cap..]);
            return;
        }
        let overflow = (self.tail.len() + chunk.len()).saturating_sub(tail_cap);
        self.tail.drain(..overflow);
        self.dropped += overflow as u64;
        self.tail.extend(chunk);
    }

    /// The retained text: head, a marker naming the dropped byte count, tail.
    pub fn render(&self) -> Rendered {
        let tail: Vec<u8> = self.tail.iter().copied().collect();
        if self.dropped == 0 {
            let mut all = self.head.clone();
            all.extend_from_slice(&tail);
            let (text, lossy) = decode(&all);
            return Rendered {
                text,
                dropped: 0,
                lossy,
            };
        }
        let head = cut_head(&self.head);
        let tail = cut_tail(&tail);
        let dropped = self.dropped
            + (self.head.len() - head.len()) as u64
            + (self.tail.len() - tail.len()) as u64;
        let (h, lossy_h) = decode(head);
        let (t, lossy_t) = decode(tail);
        Rendered {
            text: format!("{h}\n[... toolsmith: {dropped} bytes dropped ...]\n{t}"),
            dropped,
            lossy: lossy_h || lossy_t,
        }
    }
}

fn decode(bytes: &[u8]) -> (String, bool) {
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), false),
        Err(_) => (String::from_utf8_lossy(bytes).into_owned(), true),
    }
}

/// Drops an incomplete UTF-8 sequence at the end of the head.
fn cut_head(bytes: &[u8]) -> &[u8] {
    match std::str::from_utf8(bytes) {
        Err(e) if e.error_len().is_none() => &bytes[..e.valid_up_to()],
        _ => bytes,
    }
}

/// Drops continuation bytes at the start of the tail (at most 3).
fn cut_tail(bytes: &[u8]) -> &[u8] {
    let skip = bytes
        .iter()
        .take(3)
        .take_while(|b| (0x80..0xC0).contains(*b))
        .count();
    &bytes[skip..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_output_is_kept_whole() {
        let mut c = Capture::new(16);
        c.push(b"hello ");
        c.push(b"world");
        assert_eq!(
            c.render(),
            Rendered {
                text: "hello world".into(),
                dropped: 0,
                lossy: false
            }
        );
    }

    #[test]
    fn keeps_head_and_tail_and_counts_dropped() {
        let mut c = Capture::new(8);
        for _ in 0..10 {
            c.push(b"0123456789");
        }
        let r = c.render();
        assert_eq!(r.dropped, 92);
        assert!(
            r.text
                .starts_with("0123\n[... toolsmith: 92 bytes dropped ...]\n")
        );
        assert!(r.text.ends_with("6789"));
    }

    #[test]
    fn cuts_on_char_boundaries() {
        let mut c = Capture::new(7);
        for _ in 0..100 {
            c.push("中".as_bytes());
        }
        let r = c.render();
        assert!(!r.lossy, "{r:?}");
        // head keeps 1 char (3 of 3 bytes), tail keeps 1 char (3 of 4 bytes)
        assert!(r.text.starts_with("中\n[..."));
        assert!(r.text.ends_with("...]\n中"));
        assert_eq!(r.dropped, 300 - 6);
    }

    #[test]
    fn invalid_utf8_is_marked() {
        let mut c = Capture::new(16);
        c.push(&[b'a', 0xff, b'b']);
        let r = c.render();
        assert!(r.lossy);
        assert_eq!(r.text, "a\u{fffd}b");
    }
}
