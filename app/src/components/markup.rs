//! What the views written as markup share (the heat map's cells, the node cards, the Flow's
//! rows: as components, a redraw built thousands of elements again).

/// `&`, `<`, `>` and quotes as entities, for text put in markup.
pub fn escape_html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
