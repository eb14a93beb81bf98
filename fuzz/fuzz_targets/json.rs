//! `json::parse` on arbitrary text: never panics, spans stay in the text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let parsed = toolsmith_manifest::json::parse(text);
        for f in &parsed.findings {
            assert!(f.span.start <= f.span.end && f.span.end <= text.len());
        }
    }
});
