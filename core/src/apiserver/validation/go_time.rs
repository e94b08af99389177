//! How a `metav1.Time` field decodes: `Time.UnmarshalJSON` takes `null` as the zero time and
//! otherwise runs Go's `time.Parse(time.RFC3339, s)`, whose errors the apiserver returns as
//! they are: `parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`,
//! `parsing time "2024-13-01T00:00:00Z": month out of range`, `... extra text: "..."`.
//!
//! This is Go's layout-driven parser (`time/format.go`, `parse`) walked over the one layout,
//! element by element, with its digit rules (a two-digit month, day, minute and second; one or
//! two digits for the hour; an optional fraction after the seconds) and its range checks.

/// The layout, as Go names it in its messages.
const RFC3339: &str = "2006-01-02T15:04:05Z07:00";

/// Go's error for `s`, or `None` when `time.Parse(time.RFC3339, s)` accepts it.
pub fn parse_error(s: &str) -> Option<String> {
    parse(s).err().map(|e| e.message(s))
}

enum ParseError {
    /// `cannot parse <value> as <element>`: the value left when the element did not match.
    Element {
        value: String,
        element: &'static str,
    },
    /// A message of its own (`: month out of range`, `: extra text: "..."`).
    Message(String),
}

impl ParseError {
    fn message(&self, s: &str) -> String {
        match self {
            ParseError::Element { value, element } => format!(
                "parsing time {} as {}: cannot parse {} as {}",
                quote(s),
                quote(RFC3339),
                quote(value),
                quote(element)
            ),
            ParseError::Message(m) => format!("parsing time {}{m}", quote(s)),
        }
    }
}

fn bad(value: &str, element: &'static str) -> ParseError {
    ParseError::Element {
        value: value.to_string(),
        element,
    }
}

fn out_of_range(what: &str) -> ParseError {
    ParseError::Message(format!(": {what} out of range"))
}

fn digit(s: &[u8], i: usize) -> bool {
    s.get(i).is_some_and(u8::is_ascii_digit)
}

/// Go's `getnum`: one or two leading digits (exactly two when `fixed`).
fn getnum(s: &str, fixed: bool) -> Option<(u32, &str)> {
    let b = s.as_bytes();
    if !digit(b, 0) {
        return None;
    }
    if !digit(b, 1) {
        if fixed {
            return None;
        }
        return Some((u32::from(b[0] - b'0'), &s[1..]));
    }
    Some((
        u32::from(b[0] - b'0') * 10 + u32::from(b[1] - b'0'),
        &s[2..],
    ))
}

/// Go's `skip` of a literal: the value after it, or the value where it stopped matching.
fn skip<'a>(value: &'a str, literal: &'static str) -> Result<&'a str, ParseError> {
    let mut rest = value;
    for c in literal.bytes() {
        if rest.as_bytes().first() != Some(&c) {
            return Err(bad(rest, literal));
        }
        rest = &rest[1..];
    }
    Ok(rest)
}

/// Go's `atoi` of the year's four bytes: an optional sign, then digits only.
fn year_of(p: &str) -> Option<i64> {
    let digits = p.strip_prefix(['-', '+']).unwrap_or(p);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let n: i64 = digits.parse().ok()?;
    Some(if p.starts_with('-') { -n } else { n })
}

fn days_in(month: u32, year: i64) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

fn parse(value: &str) -> Result<(), ParseError> {
    // 2006: four bytes that are a number.
    if value.len() < 4 || !value.is_char_boundary(4) {
        return Err(bad(value, "2006"));
    }
    let year = year_of(&value[..4]).ok_or_else(|| bad(value, "2006"))?;
    let v = skip(&value[4..], "-")?;
    // 01
    let (month, v) = getnum(v, true).ok_or_else(|| bad(v, "01"))?;
    if !(1..=12).contains(&month) {
        return Err(out_of_range("month"));
    }
    let v = skip(v, "-")?;
    // 02: any one- or two-digit day here; it is checked against the month at the end.
    let (day, v) = getnum(v, true).ok_or_else(|| bad(v, "02"))?;
    let v = skip(v, "T")?;
    // 15
    let (hour, v) = getnum(v, false).ok_or_else(|| bad(v, "15"))?;
    if hour >= 24 {
        return Err(out_of_range("hour"));
    }
    let v = skip(v, ":")?;
    // 04
    let (minute, v) = getnum(v, true).ok_or_else(|| bad(v, "04"))?;
    if minute >= 60 {
        return Err(out_of_range("minute"));
    }
    let v = skip(v, ":")?;
    // 05, and a fraction the layout does not name but Go accepts after the seconds.
    let (second, mut v) = getnum(v, true).ok_or_else(|| bad(v, "05"))?;
    if second >= 60 {
        return Err(out_of_range("second"));
    }
    let b = v.as_bytes();
    if b.len() >= 2 && matches!(b[0], b'.' | b',') && digit(b, 1) {
        let n = 2 + b[2..].iter().take_while(|c| c.is_ascii_digit()).count();
        v = &v[n..];
    }
    // Z07:00: `Z`, or a sign, two digits, a colon and two digits.
    let v = if let Some(rest) = v.strip_prefix('Z') {
        rest
    } else {
        let b = v.as_bytes();
        if b.len() < 6 || b[3] != b':' || !v.is_char_boundary(6) {
            return Err(bad(v, "Z07:00"));
        }
        let (Some((hh, _)), Some((mm, _))) = (getnum(&v[1..3], true), getnum(&v[4..6], true))
        else {
            return Err(bad(v, "Z07:00"));
        };
        // Go checks the ranges before the sign (and the minute's message wins).
        if mm > 60 {
            return Err(out_of_range("time zone offset minute"));
        }
        if hh > 24 {
            return Err(out_of_range("time zone offset hour"));
        }
        if b[0] != b'+' && b[0] != b'-' {
            return Err(bad(v, "Z07:00"));
        }
        &v[6..]
    };
    if !v.is_empty() {
        return Err(ParseError::Message(format!(": extra text: {}", quote(v))));
    }
    if day < 1 || day > days_in(month, year) {
        return Err(out_of_range("day"));
    }
    Ok(())
}

/// The time package's `quote`: `\` and `"` escaped, bytes outside printable ASCII as `\xNN`.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c.is_ascii() && c >= ' ' && c != '\u{7f}' {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::parse_error;

    #[test]
    fn rfc3339_times_parse_as_go_parses_them() {
        for ok in [
            "2024-01-02T03:04:05Z",
            "2024-01-02T03:04:05.123456789Z",
            "2024-01-02T03:04:05,5Z",
            "2024-01-02T03:04:05+01:00",
            "2024-01-02T3:04:05Z",
            "2024-02-29T03:04:05Z",
            "0000-01-01T00:00:00Z",
            "2024-01-02T03:04:05+24:00",
        ] {
            assert_eq!(parse_error(ok), None, "{ok}");
        }
    }

    #[test]
    fn go_says_which_element_did_not_parse() {
        let err = |s: &str| parse_error(s).unwrap();
        assert_eq!(
            err("not-a-time"),
            r#"parsing time "not-a-time" as "2006-01-02T15:04:05Z07:00": cannot parse "not-a-time" as "2006""#
        );
        assert_eq!(
            err(""),
            r#"parsing time "" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "2006""#
        );
        assert_eq!(
            err("2024-01-02"),
            r#"parsing time "2024-01-02" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T""#
        );
        assert_eq!(
            err("2024-1-02T03:04:05Z"),
            r#"parsing time "2024-1-02T03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse "1-02T03:04:05Z" as "01""#
        );
        assert_eq!(
            err("2024-01-02 03:04:05Z"),
            r#"parsing time "2024-01-02 03:04:05Z" as "2006-01-02T15:04:05Z07:00": cannot parse " 03:04:05Z" as "T""#
        );
        assert_eq!(
            err("2024-01-02T03:04:05"),
            r#"parsing time "2024-01-02T03:04:05" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00""#
        );
        assert_eq!(
            err("2024-01-02T03:04:05+0130"),
            r#"parsing time "2024-01-02T03:04:05+0130" as "2006-01-02T15:04:05Z07:00": cannot parse "+0130" as "Z07:00""#
        );
    }

    #[test]
    fn go_reports_ranges_and_extra_text() {
        let err = |s: &str| parse_error(s).unwrap();
        assert_eq!(
            err("2024-13-01T00:00:00Z"),
            r#"parsing time "2024-13-01T00:00:00Z": month out of range"#
        );
        assert_eq!(
            err("2024-02-30T03:04:05Z"),
            r#"parsing time "2024-02-30T03:04:05Z": day out of range"#
        );
        assert_eq!(
            err("2024-01-02T24:04:05Z"),
            r#"parsing time "2024-01-02T24:04:05Z": hour out of range"#
        );
        assert_eq!(
            err("2024-01-02T03:04:60Z"),
            r#"parsing time "2024-01-02T03:04:60Z": second out of range"#
        );
        assert_eq!(
            err("2024-01-02T03:04:05Z[UTC]"),
            r#"parsing time "2024-01-02T03:04:05Z[UTC]": extra text: "[UTC]""#
        );
        assert_eq!(
            err("2024-01-02T03:04:05\u{e9}"),
            r#"parsing time "2024-01-02T03:04:05\xc3\xa9" as "2006-01-02T15:04:05Z07:00": cannot parse "\xc3\xa9" as "Z07:00""#
        );
    }
}
