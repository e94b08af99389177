//! Fluent message files compiled in without their comment lines: the comments are written for
//! translators, and the page would otherwise download them with its wasm.
//!
//! In Fluent a line that starts with `#` is a comment (`#`, `##` or `###`); a message's own
//! lines never start at column 0 with `#`, so dropping those lines keeps every message.

/// Whether the line starting at byte `at` of `src` is a comment.
const fn comment_at(src: &[u8], at: usize) -> bool {
    at < src.len() && src[at] == b'#'
}

/// The length of `src` without its comment lines (each with its line break).
pub const fn uncommented_len(src: &str) -> usize {
    let src = src.as_bytes();
    let (mut i, mut len, mut start) = (0, 0, true);
    let mut skipping = false;
    while i < src.len() {
        if start {
            skipping = comment_at(src, i);
        }
        if !skipping {
            len += 1;
        }
        start = src[i] == b'\n';
        i += 1;
    }
    len
}

/// `src` without its comment lines, as bytes; `N` is [`uncommented_len`] of it.
pub const fn uncommented<const N: usize>(src: &str) -> [u8; N] {
    let src = src.as_bytes();
    let mut out = [0u8; N];
    let (mut i, mut o, mut start) = (0, 0, true);
    let mut skipping = false;
    while i < src.len() {
        if start {
            skipping = comment_at(src, i);
        }
        if !skipping {
            out[o] = src[i];
            o += 1;
        }
        start = src[i] == b'\n';
        i += 1;
    }
    out
}

/// `include_str!` of a Fluent file without its comment lines, worked out at compile time.
#[macro_export]
macro_rules! include_ftl {
    ($path:literal) => {{
        const SOURCE: &str = include_str!($path);
        const BYTES: [u8; $crate::ftl_source::uncommented_len(SOURCE)] =
            $crate::ftl_source::uncommented(SOURCE);
        const TEXT: &str = match ::core::str::from_utf8(&BYTES) {
            Ok(text) => text,
            Err(_) => panic!("a Fluent file is UTF-8 with its comments left out"),
        };
        TEXT
    }};
}

#[cfg(test)]
mod tests {
    const TEXT: &str = include_ftl!("../../locales/en/ui.ftl");

    #[test]
    fn comment_lines_are_left_out_and_every_other_line_kept() {
        const SRC: &str =
            "# about\n## group\nhello = Hello\n    { $name }\n\nbye = Bye # not a comment\n# end";
        const LEN: usize = super::uncommented_len(SRC);
        let out = super::uncommented::<LEN>(SRC);
        assert_eq!(
            std::str::from_utf8(&out).unwrap(),
            "hello = Hello\n    { $name }\n\nbye = Bye # not a comment\n"
        );
        let file = include_str!("../../locales/en/ui.ftl");
        let kept: Vec<&str> = file.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(TEXT.lines().collect::<Vec<_>>(), kept);
        assert!(TEXT.len() < file.len());
    }
}
