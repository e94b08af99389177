//! YAML highlighting for the editor: each line split into classed spans. Deliberately small:
//! comments, document markers, keys, strings, numbers and booleans, list dashes.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tok {
    Plain,
    Comment,
    Marker,
    Key,
    Str,
    Num,
    Bool,
    Dash,
}

impl Tok {
    pub fn class(self) -> &'static str {
        match self {
            Tok::Plain => "",
            Tok::Comment => "t-comment",
            Tok::Marker => "t-marker",
            Tok::Key => "t-key",
            Tok::Str => "t-str",
            Tok::Num => "t-num",
            Tok::Bool => "t-bool",
            Tok::Dash => "t-dash",
        }
    }
}

/// Where a ` #` comment starts outside quotes.
fn comment_start(s: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    let mut prev = ' ';
    for (i, c) in s.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' && (prev == ' ' || prev == '\t' || i == 0) => return Some(i),
            None => {}
        }
        prev = c;
    }
    None
}

fn scalar(v: &str) -> Tok {
    let t = v.trim();
    if t.starts_with('"') || t.starts_with('\'') {
        Tok::Str
    } else if matches!(t, "true" | "false" | "null" | "~" | "yes" | "no") {
        Tok::Bool
    } else if !t.is_empty() && t.parse::<f64>().is_ok() {
        Tok::Num
    } else {
        Tok::Plain
    }
}

/// The spans of one line; their texts concatenate to the line.
pub fn line(s: &str) -> Vec<(Tok, String)> {
    let mut out: Vec<(Tok, String)> = Vec::new();
    let (code, comment) = match comment_start(s) {
        Some(i) => (&s[..i], Some(&s[i..])),
        None => (s, None),
    };
    if code.trim() == "---" || code.trim() == "..." {
        out.push((Tok::Marker, code.to_string()));
    } else {
        let indent = code.len() - code.trim_start().len();
        let mut rest = &code[indent..];
        if indent > 0 {
            out.push((Tok::Plain, code[..indent].to_string()));
        }
        while let Some(r) = rest
            .strip_prefix("- ")
            .or(if rest == "-" { Some("") } else { None })
        {
            out.push((Tok::Dash, rest[..rest.len() - r.len()].to_string()));
            rest = r;
        }
        // `key: value` (a key has no quote or flow character before its colon).
        let key_end = rest
            .find(": ")
            .or_else(|| rest.ends_with(':').then(|| rest.len() - 1))
            .filter(|&i| !rest[..i].contains(['"', '\'', '{', '[', ',']));
        match key_end {
            Some(i) => {
                out.push((Tok::Key, rest[..=i].to_string()));
                let value = &rest[i + 1..];
                if !value.is_empty() {
                    out.push((scalar(value), value.to_string()));
                }
            }
            None if !rest.is_empty() => out.push((scalar(rest), rest.to_string())),
            None => {}
        }
    }
    if let Some(c) = comment {
        out.push((Tok::Comment, c.to_string()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<(Tok, &str)> {
        let spans = line(s);
        let joined: String = spans.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(joined, s);
        spans
            .into_iter()
            .map(|(t, s)| (t, Box::leak(s.into_boxed_str()) as &str))
            .collect()
    }

    #[test]
    fn keys_values_comments_and_markers() {
        assert_eq!(toks("---"), [(Tok::Marker, "---")]);
        assert_eq!(
            toks("kind: Deployment"),
            [(Tok::Key, "kind:"), (Tok::Plain, " Deployment")]
        );
        assert_eq!(
            toks("  replicas: 3 # three"),
            [
                (Tok::Plain, "  "),
                (Tok::Key, "replicas:"),
                (Tok::Num, " 3 "),
                (Tok::Comment, "# three")
            ]
        );
        assert_eq!(
            toks("- name: nginx"),
            [
                (Tok::Dash, "- "),
                (Tok::Key, "name:"),
                (Tok::Plain, " nginx")
            ]
        );
        assert_eq!(
            toks("    image: \"a#b\""),
            [
                (Tok::Plain, "    "),
                (Tok::Key, "image:"),
                (Tok::Str, " \"a#b\"")
            ]
        );
        assert_eq!(toks("# all comment"), [(Tok::Comment, "# all comment")]);
        assert_eq!(toks("spec:"), [(Tok::Key, "spec:")]);
        assert_eq!(toks(""), []);
    }
}
