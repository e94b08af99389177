//! The lines of a big text that its editor shows: only those in view. A textarea holding tens
//! of thousands of lines is a text and a line break per line in the page's layout tree, and
//! every redraw of the page beside it laid them out and walked them again (most of a frame at
//! the limits size), so a big text is shown a window at a time until someone edits it.

/// The height of an editor line: the 13 px font at line height 1.5 (the stylesheet's).
pub const LINE_PX: f64 = 19.5;
/// The editor's padding above the first line.
pub const PAD_PX: f64 = 8.0;
/// The view's height assumed before it is measured: the window covers at least this much.
const MIN_VIEW_PX: f64 = 2_000.0;

/// Where each line starts, as byte offsets into the text.
pub fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// The lines in view, `first..end` (0-based), scrolled `scroll_top` px in a view `height` px
/// tall, of `lines` in all; one line more either side, so no edge shows empty while scrolling.
pub fn visible_lines(scroll_top: f64, height: f64, lines: usize) -> std::ops::Range<usize> {
    let first = ((scroll_top - PAD_PX) / LINE_PX).floor().max(0.0) as usize;
    let first = first.saturating_sub(1).min(lines);
    let count = (height.max(MIN_VIEW_PX) / LINE_PX).ceil() as usize + 2;
    first..(first + count).min(lines)
}

/// The text of lines `range`, joined by line breaks (without the last line's).
pub fn lines_text<'t>(text: &'t str, starts: &[usize], range: std::ops::Range<usize>) -> &'t str {
    let Some(&from) = starts.get(range.start) else {
        return "";
    };
    let to = starts.get(range.end).map_or(text.len(), |&next| next - 1);
    &text[from..to.max(from)]
}

/// The text offset (in UTF-16 units, as a textarea's selection counts) of `column` on `line`,
/// clamped to the line's end: where a click in the window puts the caret.
pub fn caret_offset(text: &str, starts: &[usize], line: usize, column: usize) -> u32 {
    let line = line.min(starts.len().saturating_sub(1));
    let start = starts.get(line).copied().unwrap_or(0);
    let line_text = lines_text(text, starts, line..line + 1);
    let end = line_text
        .char_indices()
        .nth(column)
        .map_or(start + line_text.len(), |(i, _)| start + i);
    text[..end].encode_utf16().count() as u32
}

/// The scroll height of the whole text in the view: every line and the padding around.
pub fn content_height(lines: usize) -> f64 {
    lines as f64 * LINE_PX + 2.0 * PAD_PX
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_covers_the_lines_in_view_and_one_either_side() {
        // At the top: from the first line, enough for the assumed view height.
        let w = visible_lines(0.0, 400.0, 10_000);
        assert_eq!(w.start, 0);
        assert_eq!(w.end, (MIN_VIEW_PX / LINE_PX).ceil() as usize + 2);
        // Scrolled to line 1,000: the line above it is in the window too.
        let w = visible_lines(PAD_PX + 1_000.0 * LINE_PX, 3_000.0, 10_000);
        assert_eq!(w.start, 999);
        assert_eq!(w.len(), (3_000.0 / LINE_PX).ceil() as usize + 2);
        // Near the end it stops at the last line; past it, it is empty.
        assert_eq!(
            visible_lines(PAD_PX + 9_990.0 * LINE_PX, 400.0, 10_000).end,
            10_000
        );
        assert!(visible_lines(1e9, 400.0, 10).is_empty());
    }

    #[test]
    fn the_window_text_is_its_lines() {
        let text = "a\nbb\n\nccc";
        let starts = line_starts(text);
        assert_eq!(starts, [0, 2, 5, 6]);
        assert_eq!(lines_text(text, &starts, 0..1), "a");
        assert_eq!(lines_text(text, &starts, 1..3), "bb\n");
        assert_eq!(lines_text(text, &starts, 2..4), "\nccc");
        assert_eq!(lines_text(text, &starts, 0..4), text);
        assert_eq!(lines_text(text, &starts, 4..6), "");
        // A text ending in a line break has an empty last line.
        let starts = line_starts("a\n");
        assert_eq!(lines_text("a\n", &starts, 1..2), "");
    }

    #[test]
    fn a_click_puts_the_caret_on_its_line_at_most_at_its_end() {
        let text = "ab\nçdé\nxyz";
        let starts = line_starts(text);
        assert_eq!(caret_offset(text, &starts, 0, 1), 1);
        // UTF-16 units, not bytes: ç and é are one unit each.
        assert_eq!(caret_offset(text, &starts, 1, 2), 5);
        // Past the end of the line: its end; past the last line: the last line.
        assert_eq!(caret_offset(text, &starts, 1, 40), 6);
        assert_eq!(caret_offset(text, &starts, 9, 1), 8);
    }
}
