//! Fluent message files compiled in without their comment lines: the comments are written for
//! translators, and the page would otherwise download them with its wasm.
//!
//! In Fluent a line that starts with `#` is a comment (`#`, `##` or `###`); a message's own
//! lines never start at column 0 with `#`, so dropping those lines keeps every message.

/// Copies the bytes of `src` outside its comment lines (each with its line break) into `out`,
/// as many as fit, and tells how many there are.
const fn copy_uncommented(src: &str, out: &mut [u8]) -> usize {
    let src = src.as_bytes();
    let (mut i, mut len, mut start, mut comment) = (0, 0, true, false);
    while i < src.len() {
        if start {
            comment = src[i] == b'#';
        }
        if !comment {
            if len < out.len() {
                out[len] = src[i];
            }
            len += 1;
        }
        start = src[i] == b'\n';
        i += 1;
    }
    len
}

/// The length of `src` without its comment lines.
pub const fn uncommented_len(src: &str) -> usize {
    copy_uncommented(src, &mut [])
}

/// `src` without its comment lines, as bytes; `N` is [`uncommented_len`] of it.
pub const fn uncommented<const N: usize>(src: &str) -> [u8; N] {
    let mut out = [0u8; N];
    copy_uncommented(src, &mut out);
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
