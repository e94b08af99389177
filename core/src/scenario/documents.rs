//! Splitting multi-document YAML the way kubectl does, keeping each document's position in
//! the file so every error can point at a line and column of what the user wrote.

use super::limits::{self, MAX_YAML_NODES};
use std::fmt;

/// One YAML document of a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Document<'a> {
    /// 0-based index among the non-empty documents.
    pub index: usize,
    /// 1-based line in the file where the document's text starts.
    pub start_line: usize,
    /// 1-based column of that line where the text starts: 4 after a `---` separator.
    pub start_column: usize,
    pub text: &'a str,
}

impl Document<'_> {
    /// The line (in the file) of the document's first line that is not blank or a comment.
    pub fn content_line(&self) -> usize {
        for (i, l) in self.text.lines().enumerate() {
            let t = l.trim();
            if !t.is_empty() && !t.starts_with('#') && t != "---" {
                return self.start_line + i;
            }
        }
        self.start_line
    }
}

/// A problem in the input, with its place in the file (1-based; 0 when not known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => write!(f, "{}: {}", self.file, self.message),
            (l, 0) => write!(f, "{}:{}: {}", self.file, l, self.message),
            (l, c) => write!(f, "{}:{}:{}: {}", self.file, l, c, self.message),
        }
    }
}

impl std::error::Error for SourceError {}

fn is_separator(line: &str) -> bool {
    line == "---"
        || line.starts_with("--- ")
        || line.starts_with("---\t")
        || line.starts_with("---#")
}

fn is_blank_or_comment(text: &str) -> bool {
    text.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#') || t == "..."
    })
}

/// The non-empty documents of `text`, split at `---` lines (a document holding only comments
/// or whitespace is skipped, as kubectl does).
pub fn split(text: &str) -> Vec<Document<'_>> {
    let mut docs = Vec::new();
    let mut start = 0usize;
    let mut start_line = 1usize;
    let mut offset = 0usize;
    fn push<'a>(docs: &mut Vec<Document<'a>>, body: &'a str, line: usize, column: usize) {
        if !is_blank_or_comment(body) {
            docs.push(Document {
                index: docs.len(),
                start_line: line,
                start_column: column,
                text: body,
            });
        }
    }
    let mut start_column = 1usize;
    for (line_no, line) in (1usize..).zip(text.split_inclusive('\n')) {
        let bare = line.trim_end_matches(['\n', '\r']);
        if is_separator(bare) {
            push(&mut docs, &text[start..offset], start_line, start_column);
            // Content after `--- ` on the same line belongs to the next document.
            start = offset + 3;
            start_line = line_no;
            start_column = 4;
        }
        offset += line.len();
    }
    push(
        &mut docs,
        &text[start.min(text.len())..],
        start_line,
        start_column,
    );
    docs
}

/// Parses one document into JSON, with errors placed in the whole file, within the limits of
/// [`super::limits`] (a budget of [`MAX_YAML_NODES`] for this document alone).
pub fn parse_document(
    file: &str,
    doc: &Document<'_>,
) -> Result<crate::api::value::Value, SourceError> {
    let mut budget = MAX_YAML_NODES;
    parse_document_within(file, doc, &mut budget)
}

/// [`parse_document`] spending `budget`, the YAML nodes left for the whole file.
pub fn parse_document_within(
    file: &str,
    doc: &Document<'_>,
    budget: &mut usize,
) -> Result<crate::api::value::Value, SourceError> {
    // (line, column) in the document, both 1-based, to (line, column) in the file.
    let place = |line: usize, column: usize| {
        let column = if line == 1 && column > 0 {
            column + doc.start_column - 1
        } else {
            column
        };
        (doc.start_line + line - 1, column)
    };
    if let Err((offset, message)) = limits::prescan(doc.text) {
        let (l, c) = limits::line_column(doc.text, offset);
        let (line, column) = place(l, c);
        return Err(SourceError {
            file: file.to_string(),
            line,
            column,
            message,
        });
    }
    let de = serde_yaml::Deserializer::from_str(doc.text);
    limits::to_json(de, budget).map_err(|e| {
        let (line, column) = match e.location() {
            Some(loc) => place(loc.line(), loc.column()),
            None => (doc.content_line(), 0),
        };
        SourceError {
            file: file.to_string(),
            line,
            column,
            message: yaml_message(&e),
        }
    })
}

/// serde_yaml appends " at line L column C" to its messages; the position is reported apart.
/// Its limits get messages that say what happened.
fn yaml_message(e: &serde_yaml::Error) -> String {
    let s = e.to_string();
    let s = match s.find(" at line ") {
        Some(i) => s[..i].to_string(),
        None => s,
    };
    let too_many = limits::too_many_nodes_message();
    if s.ends_with(&too_many) {
        // Without the path serde_yaml puts in front.
        return too_many;
    }
    match s.as_str() {
        "recursion limit exceeded" => limits::too_deep_message(),
        "repetition limit exceeded" => limits::excessive_aliasing_message(),
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_documents_and_keeps_their_lines() {
        let text = "# leading comment\n---\na: 1\n---\n# only a comment\n---\nb: 2\nc: 3\n";
        let docs = split(text);
        assert_eq!(docs.len(), 2);
        assert_eq!(docs[0].start_line, 2);
        assert_eq!(docs[1].start_line, 6);
        assert_eq!(docs[1].index, 1);
        let v = parse_document("f.yaml", &docs[1]).unwrap();
        assert_eq!(v["c"], 3);
    }

    #[test]
    fn yaml_errors_point_at_the_line_in_the_whole_file() {
        let text = "a: 1\n---\nkind: Pod\nmetadata:\n  name: [oops\n";
        let docs = split(text);
        let err = parse_document("pod.yaml", &docs[1]).unwrap_err();
        assert_eq!(err.file, "pod.yaml");
        assert!(err.line >= 5, "{err}");
        assert!(err
            .to_string()
            .starts_with(&format!("pod.yaml:{}:", err.line)));
    }

    #[test]
    fn a_file_without_separators_is_one_document() {
        let docs = split("kind: Pod\n");
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].start_line, 1);
        assert!(split("").is_empty());
        assert!(split("\n# nothing\n").is_empty());
    }
}
