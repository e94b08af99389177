//! Virtual time: milliseconds since the simulated cluster started, and the wall-clock
//! timestamps objects carry (the cluster "starts" at a fixed instant so output is stable).

/// Milliseconds of virtual time.
pub type Millis = u64;

/// Unix time (seconds) of virtual time 0: 2026-01-01T00:00:00Z.
pub const EPOCH_UNIX_SECONDS: i64 = 1_767_225_600;

/// `2026-01-01T00:00:07Z` for virtual time 7000, as `metav1.Time` serializes (whole seconds).
pub fn rfc3339(ms: Millis) -> String {
    rfc3339_unix(EPOCH_UNIX_SECONDS + (ms / 1000) as i64)
}

/// `metav1.MicroTime` (used by Leases and events.k8s.io): six fractional digits.
pub fn rfc3339_micro(ms: Millis) -> String {
    let secs = rfc3339_unix(EPOCH_UNIX_SECONDS + (ms / 1000) as i64);
    format!("{}.{:03}000Z", secs.trim_end_matches('Z'), ms % 1000)
}

fn rfc3339_unix(unix: i64) -> String {
    let days = unix.div_euclid(86_400);
    let secs = unix.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        (secs / 60) % 60,
        secs % 60
    )
}

/// Parses a timestamp written by [`rfc3339`] or [`rfc3339_micro`] back to virtual milliseconds
/// (clamped at 0 for instants before the cluster started).
pub fn parse_rfc3339(s: &str) -> Option<Millis> {
    let b = s.as_bytes();
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, se) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let mut frac_ms = 0i64;
    if b[19] == b'.' {
        let digits: String = s[20..].chars().take_while(|c| c.is_ascii_digit()).collect();
        let padded = format!("{:0<3}", &digits[..digits.len().min(3)]);
        frac_ms = padded.parse().ok()?;
    }
    let unix = days_from_civil(y, mo as u32, d as u32) * 86_400 + h * 3600 + mi * 60 + se;
    let ms = (unix - EPOCH_UNIX_SECONDS) * 1000 + frac_ms;
    Some(ms.max(0) as Millis)
}

// Howard Hinnant's algorithms for the proleptic Gregorian calendar.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Parses a Go-style duration as scenarios write it: `30s`, `1m30s`, `500ms`, `2h`, `1.5s`.
pub fn parse_duration(s: &str) -> Result<Millis, String> {
    let bad = || {
        format!(
            "invalid duration {s:?}: expected a number with a unit such as 500ms, 30s, 5m or 1h"
        )
    };
    let s_trim = s.trim();
    if s_trim.is_empty() {
        return Err(bad());
    }
    if s_trim == "0" {
        return Ok(0);
    }
    let mut total = 0f64;
    let mut rest = s_trim;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if num_len == 0 {
            return Err(bad());
        }
        let n: f64 = rest[..num_len].parse().map_err(|_| bad())?;
        rest = &rest[num_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let factor = match &rest[..unit_len] {
            "ms" => 1.0,
            "s" => 1000.0,
            "m" => 60_000.0,
            "h" => 3_600_000.0,
            _ => return Err(bad()),
        };
        rest = &rest[unit_len..];
        total += n * factor;
    }
    if !total.is_finite() || total > 1.0e15 {
        return Err(bad());
    }
    Ok(total.round() as Millis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_round_trip() {
        assert_eq!(rfc3339(0), "2026-01-01T00:00:00Z");
        assert_eq!(rfc3339(86_400_000 * 59 + 3_723_000), "2026-03-01T01:02:03Z");
        assert_eq!(rfc3339_micro(1234), "2026-01-01T00:00:01.234000Z");
        assert_eq!(
            parse_rfc3339("2026-03-01T01:02:03Z"),
            Some(86_400_000 * 59 + 3_723_000)
        );
        assert_eq!(parse_rfc3339("2026-01-01T00:00:01.234000Z"), Some(1234));
        assert_eq!(parse_rfc3339("yesterday"), None);
    }

    #[test]
    fn durations_parse_like_go() {
        assert_eq!(parse_duration("30s"), Ok(30_000));
        assert_eq!(parse_duration("1m30s"), Ok(90_000));
        assert_eq!(parse_duration("500ms"), Ok(500));
        assert_eq!(parse_duration("1.5s"), Ok(1500));
        assert!(parse_duration("10").is_err());
        assert!(parse_duration("5 minutes").is_err());
    }
}
