//! Reading a file within bounds, and checks on raw bytes before any parser
//! sees them: size, encoding, BOM, binary data.

use crate::diagnostic::Finding;
use crate::rules::Rule;
use crate::source::Span;
use std::io::Read;
use std::path::Path;

/// Default size limit for one manifest file: 8 MiB.
pub const DEFAULT_MAX_SIZE: u64 = 8 * 1024 * 1024;
/// Deepest nesting of arrays and objects a manifest may have.
pub const MAX_DEPTH: usize = 128;

pub static TOO_LARGE: Rule = Rule::error(
    "input/too-large",
    "input",
    "the file is larger than the size limit (default 8 MiB, `--max-size`)",
);
pub static EMPTY: Rule = Rule::error("input/empty", "input", "the file is empty");
pub static INVALID_UTF8: Rule =
    Rule::error("input/invalid-utf8", "input", "the file is not valid UTF-8");
pub static BOM: Rule = Rule::error(
    "input/bom",
    "input",
    "the file starts with a UTF-8 byte order mark, which JSON forbids and several loaders mis-read",
);
pub static BINARY: Rule = Rule::error(
    "input/binary",
    "input",
    "the file contains NUL bytes or other binary data",
);
pub static TOO_DEEP: Rule = Rule::error(
    "input/too-deep",
    "input",
    "arrays and objects are nested deeper than 128 levels",
);
pub static UNREADABLE: Rule = Rule::error(
    "input/unreadable",
    "input",
    "a file that the manifest needs could not be read",
);

/// The input rules.
pub static RULES: &[&Rule] = &[
    &TOO_LARGE,
    &EMPTY,
    &INVALID_UTF8,
    &BOM,
    &BINARY,
    &TOO_DEEP,
    &UNREADABLE,
];

/// Reads at most `max_size + 1` bytes of the file at `path`, or returns the
/// finding that refuses it.
///
/// The file is opened without blocking (`O_NONBLOCK`, and `O_NOCTTY` so that
/// a terminal never becomes the controlling one) and its type checked on the
/// open descriptor (`fstat`), so that a FIFO named `tools.json` neither blocks
/// in `open` nor is read, and a symlink to `/dev/zero` is refused instead of
/// being read until memory runs out: only regular files are read (an
/// `input/unreadable` finding says what the path is instead). A regular file
/// over the limit is refused by its size without reading it; one that grows
/// while it is read is cut at `max_size + 1` bytes and refused too. An I/O
/// error (missing file, permission denied) is returned as such.
///
/// ```
/// use toolsmith_manifest::input::read_bounded;
/// let refused = read_bounded(std::path::Path::new("/dev/null"), 1024).unwrap();
/// let finding = refused.unwrap_err();
/// assert_eq!(finding.rule.id, "input/unreadable");
/// assert!(finding.message.contains("character device"), "{}", finding.message);
/// ```
pub fn read_bounded(path: &Path, max_size: u64) -> std::io::Result<Result<Vec<u8>, Finding>> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        let what = file_type_name(&meta.file_type());
        return Ok(Err(Finding::new(
            &UNREADABLE,
            Span::new(0, 0),
            "",
            format!("not a regular file: this path is {what}; not read"),
        )
        .with_help(
            "name the manifest file itself: toolsmith reads only regular files, since a FIFO or a \
             device can block forever or never end",
        )));
    }
    if meta.len() > max_size {
        return Ok(Err(too_large(meta.len(), max_size)));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(max_size.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_size {
        return Ok(Err(Finding::new(
            &TOO_LARGE,
            Span::new(0, 0),
            "",
            format!("file grew past the limit of {max_size} bytes while it was read; not parsed"),
        )));
    }
    Ok(Ok(bytes))
}

/// What a file that is not a regular one is, for a message.
fn file_type_name(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

/// The finding for a file of `len` bytes over `max_size`.
fn too_large(len: u64, max_size: u64) -> Finding {
    Finding::new(
        &TOO_LARGE,
        Span::new(0, 0),
        "",
        format!("file is {len} bytes, over the limit of {max_size} bytes; not parsed"),
    )
    .with_help("raise the limit with `--max-size BYTES` if this file is really a manifest")
}

/// Decodes a file's bytes into text, or returns the finding that refuses it.
///
/// A leading BOM is not an error here: it stays in the text so that positions
/// keep matching the file; [`check_bom`] reports it and the front ends skip it.
///
/// ```
/// use toolsmith_manifest::input::decode;
/// assert!(decode(b"{}", 1024).is_ok());
/// assert_eq!(decode(b"", 1024).unwrap_err().rule.id, "input/empty");
/// assert_eq!(decode(b"{\xff}", 1024).unwrap_err().span.start, 1);
/// ```
pub fn decode(bytes: &[u8], max_size: u64) -> Result<&str, Finding> {
    if bytes.len() as u64 > max_size {
        return Err(too_large(bytes.len() as u64, max_size));
    }
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Finding::new(
            &EMPTY,
            Span::new(0, 0),
            "",
            if bytes.is_empty() {
                "file is empty".to_string()
            } else {
                "file contains only whitespace".to_string()
            },
        ));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => {
            let at = e.valid_up_to();
            // Point at the last valid character boundary: positions are computed on text.
            return Err(Finding::new(
                &INVALID_UTF8,
                Span::new(at, at),
                "",
                format!(
                    "invalid UTF-8: byte 0x{:02x} at offset {at} is not part of a valid character",
                    bytes[at]
                ),
            )
            .with_help("save the file as UTF-8"));
        }
    };
    if let Some(at) = first_control(text.as_bytes()) {
        let c = text[at..].chars().next().unwrap_or('\0');
        return Err(Finding::new(
            &BINARY,
            Span::new(at, at + c.len_utf8()),
            "",
            format!(
                "binary data: control character U+{:04X} at offset {at}",
                c as u32
            ),
        ));
    }
    Ok(text)
}

/// Offset of the first control character other than tab, LF and CR: C0
/// controls, DEL and the C1 controls (U+0080–U+009F, encoded `C2 80`–`C2 9F`).
/// A byte scan: this runs over every file, so it first tests 64-byte blocks
/// with a branch-free test (which the compiler vectorises) and looks at each
/// byte only in a block that may hold one.
fn first_control(bytes: &[u8]) -> Option<usize> {
    let mut start = 0;
    for block in bytes.chunks(64) {
        let suspect = block.iter().fold(false, |acc, &b| {
            acc | ((b < 0x20) & (b != b'\n') & (b != b'\r') & (b != b'\t'))
                | (b == 0x7F)
                | (b == 0xC2)
        });
        if suspect {
            let found = (start..start + block.len()).find(|&i| is_control_at(bytes, i));
            if found.is_some() {
                return found;
            }
        }
        start += block.len();
    }
    None
}

/// True when a control character (see [`first_control`]) starts at `bytes[i]`.
fn is_control_at(bytes: &[u8], i: usize) -> bool {
    let Some(&b) = bytes.get(i) else {
        return false;
    };
    let c1 = b == 0xC2 && bytes.get(i + 1).is_some_and(|n| (0x80..=0x9F).contains(n));
    let c0 = (b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t')) || b == 0x7F;
    c0 || c1
}

/// The finding for a leading BOM, if the text has one.
pub fn check_bom(text: &str) -> Option<Finding> {
    text.starts_with('\u{feff}').then(|| {
        Finding::new(
            &BOM,
            Span::new(0, 3),
            "",
            "file starts with a UTF-8 byte order mark (U+FEFF)",
        )
        .with_help("remove the BOM: JSON (RFC 8259) forbids it and serde_json rejects it")
    })
}

#[cfg(test)]
mod tests {
    use super::first_control;

    #[test]
    fn control_characters_are_found_in_any_block_and_across_block_ends() {
        let text = "a\tb\r\n".repeat(40);
        assert_eq!(first_control(text.as_bytes()), None);
        for at in [0, 63, 64, 65, 150] {
            let mut bytes = text.clone().into_bytes();
            bytes[at] = 0x01;
            assert_eq!(first_control(&bytes), Some(at), "C0 at {at}");
            let mut bytes = text.clone().into_bytes();
            bytes[at] = 0xC2;
            bytes[at + 1] = 0x85;
            assert_eq!(first_control(&bytes), Some(at), "C1 at {at}");
            bytes[at + 1] = 0xA9;
            assert_eq!(first_control(&bytes), None, "© at {at}");
        }
    }
}
