//! What `kubectl get` prints: the server-side table columns of
//! `pkg/printers/internalversion/printers.go`, laid out the way kubectl's table printer does
//! (`k8s.io/cli-runtime/pkg/printers/tableprinter.go`: upper-cased headers, priority-1 columns only
//! with `-o wide`, `NAMESPACE` first with `-A`, `LABELS` last with `--show-labels`), padded by
//! Go's tabwriter (minimum width 6, padding 3). Ages follow `duration.HumanDuration`.
//!
//! The apiserver always generates its tables with `Wide: true`; kubectl then drops priority-1
//! columns. Hence values that the Go code computes "only when wide" (PriorityClass
//! PREEMPTIONPOLICY) are always present and load-balancer addresses are never clipped.
//!
//! `-o yaml|json|name` live in [`super::output`] and `kubectl describe` in [`super::describe`];
//! both are re-exported here.

use crate::api::value::{Map, Value};
use crate::api::{Object, ResourceInfo};
use crate::kernel::time::EPOCH_UNIX_SECONDS;

pub use super::describe::{describe, describe_with, Related};
pub use super::output::{as_list, name_of, to_json, to_yaml};

// ---------------------------------------------------------------------------------------------
// Durations
// ---------------------------------------------------------------------------------------------

/// `k8s.io/apimachinery/pkg/util/duration.HumanDuration`: ~2-3 significant figures.
pub fn human_duration(ms: u64) -> String {
    human_duration_signed(ms.min(i64::MAX as u64) as i64)
}

/// [`human_duration`] for a signed difference: more than a second in the future is
/// `<invalid>`, less than that is `0s` (tolerated clock skew), as in the Go function.
pub(crate) fn human_duration_signed(ms: i64) -> String {
    // int(d.Seconds()) truncates toward zero.
    let seconds = ms / 1000;
    if seconds < -1 {
        return "<invalid>".to_string();
    } else if seconds < 0 {
        return "0s".to_string();
    } else if seconds < 60 * 2 {
        return format!("{seconds}s");
    }
    let minutes = ms / 60_000;
    if minutes < 10 {
        let s = seconds % 60;
        if s == 0 {
            return format!("{minutes}m");
        }
        return format!("{minutes}m{s}s");
    } else if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = ms / 3_600_000;
    if hours < 8 {
        let m = minutes % 60;
        if m == 0 {
            return format!("{hours}h");
        }
        format!("{hours}h{m}m")
    } else if hours < 48 {
        format!("{hours}h")
    } else if hours < 24 * 8 {
        let h = hours % 24;
        if h == 0 {
            return format!("{}d", hours / 24);
        }
        format!("{}d{}h", hours / 24, h)
    } else if hours < 24 * 365 * 2 {
        format!("{}d", hours / 24)
    } else if hours < 24 * 365 * 8 {
        let dy = (hours / 24) % 365;
        if dy == 0 {
            return format!("{}y", hours / 24 / 365);
        }
        format!("{}y{}d", hours / 24 / 365, dy)
    } else {
        format!("{}y", hours / 24 / 365)
    }
}

/// `translateTimestampSince`: `<unknown>` for a missing (zero) timestamp.
pub(crate) fn age(now_ms: u64, ts: Option<&str>) -> String {
    match ts.and_then(unix_ms) {
        None => "<unknown>".to_string(),
        Some(t) => since(now_ms, t),
    }
}

/// [`human_duration`] of the time from `t` (Unix ms) to virtual time `now_ms`.
fn since(now_ms: u64, t: i64) -> String {
    human_duration_signed(now_unix_ms(now_ms) - t)
}

/// Virtual time as Unix milliseconds.
pub(crate) fn now_unix_ms(now_ms: u64) -> i64 {
    EPOCH_UNIX_SECONDS * 1000 + now_ms as i64
}

// ---------------------------------------------------------------------------------------------
// Timestamps
// ---------------------------------------------------------------------------------------------

/// Unix milliseconds of an RFC 3339 timestamp (`metav1.Time`, `metav1.MicroTime`, any year,
/// `Z` or a numeric offset). Unlike the kernel's parser it does not clamp to the cluster's
/// start, so objects taken from a real cluster keep their real ages.
pub(crate) fn unix_ms(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't') {
        return None;
    }
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, se) = (num(11..13)?, num(14..16)?, num(17..19)?);
    let mut rest = s.get(19..)?;
    let mut frac_ms = 0;
    if let Some(r) = rest.strip_prefix('.') {
        let digits: String = r.chars().take_while(char::is_ascii_digit).collect();
        frac_ms = format!("{:0<3}", &digits[..digits.len().min(3)])
            .parse()
            .ok()?;
        rest = &r[digits.len()..];
    }
    let offset = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.as_bytes().first()? {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let (oh, om) = rest[1..].split_once(':')?;
            sign * (oh.parse::<i64>().ok()? * 3600 + om.parse::<i64>().ok()? * 60)
        }
    };
    let days = days_from_civil(y, mo as u32, d as u32);
    Some((days * 86_400 + h * 3600 + mi * 60 + se - offset) * 1000 + frac_ms)
}

/// `time.RFC3339` in UTC of Unix seconds: `2026-01-01T00:00:00Z`.
pub(crate) fn rfc3339_utc(unix: i64) -> String {
    let (y, m, d) = civil_from_days(unix.div_euclid(86_400));
    let secs = unix.rem_euclid(86_400);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        (secs / 60) % 60,
        secs % 60
    )
}

/// `time.RFC1123Z` in UTC (`Thu, 01 Jan 2026 00:00:00 +0000`); Go's zero time for a
/// missing timestamp.
pub(crate) fn rfc1123z(ts: Option<&str>) -> String {
    let Some(unix) = ts.and_then(unix_ms).map(|ms| ms.div_euclid(1000)) else {
        return "Mon, 01 Jan 0001 00:00:00 +0000".to_string();
    };
    let days = unix.div_euclid(86_400);
    let secs = unix.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    const WEEKDAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let weekday = WEEKDAYS[(days + 4).rem_euclid(7) as usize];
    format!(
        "{weekday}, {d:02} {} {y:04} {:02}:{:02}:{:02} +0000",
        MONTHS[(m - 1) as usize],
        secs / 3600,
        (secs / 60) % 60,
        secs % 60
    )
}

// Howard Hinnant's algorithms for the proleptic Gregorian calendar.
pub(crate) fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
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

// ---------------------------------------------------------------------------------------------
// JSON access
// ---------------------------------------------------------------------------------------------

pub(crate) fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    let mut cur = v;
    for p in path {
        cur = cur.get(p)?;
    }
    if cur.is_null() {
        None
    } else {
        Some(cur)
    }
}

/// The string at `path`, or "" (Go's zero value).
pub(crate) fn sv<'a>(v: &'a Value, path: &[&str]) -> &'a str {
    at(v, path).and_then(Value::as_str).unwrap_or("")
}

pub(crate) fn opt_str<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    at(v, path).and_then(Value::as_str)
}

/// The integer at `path`, or 0.
pub(crate) fn iv(v: &Value, path: &[&str]) -> i64 {
    at(v, path).and_then(int_value).unwrap_or(0)
}

pub(crate) fn int_value(v: &Value) -> Option<i64> {
    v.as_i64()
        .or_else(|| v.as_u64().map(|u| u as i64))
        .or_else(|| v.as_f64().map(|f| f as i64))
}

pub(crate) fn bv(v: &Value, path: &[&str]) -> bool {
    at(v, path).and_then(Value::as_bool).unwrap_or(false)
}

pub(crate) fn av<'a>(v: &'a Value, path: &[&str]) -> &'a [Value] {
    at(v, path)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
}

pub(crate) fn mv<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Map> {
    at(v, path).and_then(Value::as_object)
}

/// A scalar as Go's `%v` would print it (strings unquoted).
pub(crate) fn scalar_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        other => super::output::go_fmt_v(other),
    }
}

/// `intstr.IntOrString.String()`.
pub(crate) fn int_or_string(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(n @ Value::Number(_)) => int_value(n).unwrap_or(0).to_string(),
        _ => "0".to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// Go's sort.Sort
// ---------------------------------------------------------------------------------------------

/// Go's `sort.Sort` / `sort.Slice` (pattern-defeating quicksort, Go 1.19+): not stable, and
/// kubectl's output depends on how it orders equal elements (events with the same
/// `lastTimestamp`, tolerations with the same key), so it is reproduced step by step.
pub(crate) fn go_sort<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    // The xorshift of `breakPatterns` uses shifts 13, 7, 17 since Go 1.24 (golang/go#70144);
    // Go 1.19 to 1.23 used 13, 17, 5. kubectl 1.35 is built with a Go newer than that.
    go_sort_with_shifts(v, less, (13, 7, 17));
}

pub(crate) fn go_sort_with_shifts<T>(
    v: &mut [T],
    less: impl Fn(&T, &T) -> bool,
    shifts: (u32, u32, u32),
) {
    let n = v.len();
    if n <= 1 {
        return;
    }
    // The algorithm sorts the elements' indices (one compiled copy of it, whatever `T` is),
    // making the same comparisons and swaps it would make on the elements; they are then
    // moved into that order.
    let limit = usize::BITS - n.leading_zeros();
    let order = {
        let elements = &*v;
        let mut s = GoSorter {
            v: (0..n).collect(),
            less: &|a: usize, b: usize| less(&elements[a], &elements[b]),
            shifts,
        };
        s.pdqsort(0, n, limit as usize);
        s.v
    };
    crate::api::sorting::permute(v, order);
}

/// Go's pdqsort over the indices of a slice; `less` compares the elements at two indices.
struct GoSorter<'a> {
    v: Vec<usize>,
    less: &'a dyn Fn(usize, usize) -> bool,
    shifts: (u32, u32, u32),
}

#[derive(PartialEq, Eq)]
enum SortedHint {
    Unknown,
    Increasing,
    Decreasing,
}

impl GoSorter<'_> {
    fn less(&self, i: usize, j: usize) -> bool {
        (self.less)(self.v[i], self.v[j])
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.v.swap(i, j);
    }

    fn insertion_sort(&mut self, a: usize, b: usize) {
        for i in a + 1..b {
            let mut j = i;
            while j > a && self.less(j, j - 1) {
                self.swap(j, j - 1);
                j -= 1;
            }
        }
    }

    fn sift_down(&mut self, lo: usize, hi: usize, first: usize) {
        let mut root = lo;
        loop {
            let mut child = 2 * root + 1;
            if child >= hi {
                break;
            }
            if child + 1 < hi && self.less(first + child, first + child + 1) {
                child += 1;
            }
            if !self.less(first + root, first + child) {
                return;
            }
            self.swap(first + root, first + child);
            root = child;
        }
    }

    fn heap_sort(&mut self, a: usize, b: usize) {
        let first = a;
        let hi = b - a;
        let mut i = (hi as isize - 1) / 2;
        while i >= 0 {
            self.sift_down(i as usize, hi, first);
            i -= 1;
        }
        let mut i = hi as isize - 1;
        while i >= 0 {
            self.swap(first, first + i as usize);
            self.sift_down(0, i as usize, first);
            i -= 1;
        }
    }

    fn pdqsort(&mut self, mut a: usize, mut b: usize, mut limit: usize) {
        const MAX_INSERTION: usize = 12;
        let mut was_balanced = true;
        let mut was_partitioned = true;
        loop {
            let length = b - a;
            if length <= MAX_INSERTION {
                self.insertion_sort(a, b);
                return;
            }
            if limit == 0 {
                self.heap_sort(a, b);
                return;
            }
            if !was_balanced {
                self.break_patterns(a, b);
                limit -= 1;
            }
            let (mut pivot, mut hint) = self.choose_pivot(a, b);
            if hint == SortedHint::Decreasing {
                self.reverse_range(a, b);
                pivot = (b - 1) - (pivot - a);
                hint = SortedHint::Increasing;
            }
            if was_balanced
                && was_partitioned
                && hint == SortedHint::Increasing
                && self.partial_insertion_sort(a, b)
            {
                return;
            }
            if a > 0 && !self.less(a - 1, pivot) {
                let mid = self.partition_equal(a, b, pivot);
                a = mid;
                continue;
            }
            let (mid, already_partitioned) = self.partition(a, b, pivot);
            was_partitioned = already_partitioned;
            let (left_len, right_len) = (mid - a, b - mid);
            let balance_threshold = length / 8;
            if left_len < right_len {
                was_balanced = left_len >= balance_threshold;
                self.pdqsort(a, mid, limit);
                a = mid + 1;
            } else {
                was_balanced = right_len >= balance_threshold;
                self.pdqsort(mid + 1, b, limit);
                b = mid;
            }
        }
    }

    fn partition(&mut self, a: usize, b: usize, pivot: usize) -> (usize, bool) {
        self.swap(a, pivot);
        let (mut i, mut j) = (a as isize + 1, b as isize - 1);
        while i <= j && self.less(i as usize, a) {
            i += 1;
        }
        while i <= j && !self.less(j as usize, a) {
            j -= 1;
        }
        if i > j {
            self.swap(j as usize, a);
            return (j as usize, true);
        }
        self.swap(i as usize, j as usize);
        i += 1;
        j -= 1;
        loop {
            while i <= j && self.less(i as usize, a) {
                i += 1;
            }
            while i <= j && !self.less(j as usize, a) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.swap(i as usize, j as usize);
            i += 1;
            j -= 1;
        }
        self.swap(j as usize, a);
        (j as usize, false)
    }

    fn partition_equal(&mut self, a: usize, b: usize, pivot: usize) -> usize {
        self.swap(a, pivot);
        let (mut i, mut j) = (a as isize + 1, b as isize - 1);
        loop {
            while i <= j && !self.less(a, i as usize) {
                i += 1;
            }
            while i <= j && self.less(a, j as usize) {
                j -= 1;
            }
            if i > j {
                break;
            }
            self.swap(i as usize, j as usize);
            i += 1;
            j -= 1;
        }
        i as usize
    }

    fn partial_insertion_sort(&mut self, a: usize, b: usize) -> bool {
        const MAX_STEPS: usize = 5;
        const SHORTEST_SHIFTING: usize = 50;
        let mut i = a + 1;
        for _ in 0..MAX_STEPS {
            while i < b && !self.less(i, i - 1) {
                i += 1;
            }
            if i == b {
                return true;
            }
            if b - a < SHORTEST_SHIFTING {
                return false;
            }
            self.swap(i, i - 1);
            if i - a >= 2 {
                let mut j = i - 1;
                while j >= 1 {
                    if !self.less(j, j - 1) {
                        break;
                    }
                    self.swap(j, j - 1);
                    j -= 1;
                }
            }
            if b - i >= 2 {
                let mut j = i + 1;
                while j < b {
                    if !self.less(j, j - 1) {
                        break;
                    }
                    self.swap(j, j - 1);
                    j += 1;
                }
            }
        }
        false
    }

    fn break_patterns(&mut self, a: usize, b: usize) {
        let length = b - a;
        if length >= 8 {
            let mut random = length as u64;
            let modulus = 1usize << (usize::BITS - length.leading_zeros());
            let mut idx = a + (length / 4) * 2 - 1;
            while idx <= a + (length / 4) * 2 + 1 {
                random ^= random << self.shifts.0;
                random ^= random >> self.shifts.1;
                random ^= random << self.shifts.2;
                let mut other = (random as usize) & (modulus - 1);
                if other >= length {
                    other -= length;
                }
                self.swap(idx, a + other);
                idx += 1;
            }
        }
    }

    fn choose_pivot(&mut self, a: usize, b: usize) -> (usize, SortedHint) {
        const SHORTEST_NINTHER: usize = 50;
        const MAX_SWAPS: usize = 4 * 3;
        let l = b - a;
        let mut swaps = 0usize;
        let mut i = a + l / 4;
        let mut j = a + l / 4 * 2;
        let mut k = a + l / 4 * 3;
        if l >= 8 {
            if l >= SHORTEST_NINTHER {
                i = self.median(i - 1, i, i + 1, &mut swaps);
                j = self.median(j - 1, j, j + 1, &mut swaps);
                k = self.median(k - 1, k, k + 1, &mut swaps);
            }
            j = self.median(i, j, k, &mut swaps);
        }
        match swaps {
            0 => (j, SortedHint::Increasing),
            MAX_SWAPS => (j, SortedHint::Decreasing),
            _ => (j, SortedHint::Unknown),
        }
    }

    fn order2(&self, a: usize, b: usize, swaps: &mut usize) -> (usize, usize) {
        if self.less(b, a) {
            *swaps += 1;
            (b, a)
        } else {
            (a, b)
        }
    }

    fn median(&self, a: usize, b: usize, c: usize, swaps: &mut usize) -> usize {
        let (a, b) = self.order2(a, b, swaps);
        let (b, c) = self.order2(b, c, swaps);
        let _ = c;
        let (_a, b) = self.order2(a, b, swaps);
        b
    }

    fn reverse_range(&mut self, a: usize, b: usize) {
        let (mut i, mut j) = (a, b - 1);
        while i < j {
            self.swap(i, j);
            i += 1;
            j -= 1;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Labels and selectors
// ---------------------------------------------------------------------------------------------

/// `labels.FormatLabels`: `a=b,c=d` sorted by key, or `<none>`.
pub(crate) fn format_labels(m: Option<&Map>) -> String {
    let s = labels_string(m);
    if s.is_empty() {
        "<none>".to_string()
    } else {
        s
    }
}

fn labels_string(m: Option<&Map>) -> String {
    let Some(m) = m else { return String::new() };
    let mut keys: Vec<&str> = m.keys().map(|k| k.as_str()).collect();
    crate::api::sorting::sort(&mut keys);
    keys.iter()
        .map(|k| format!("{}={}", k, scalar_text(&m[*k])))
        .collect::<Vec<_>>()
        .join(",")
}

/// `metav1.LabelSelectorAsSelector(sel).String()`: "" for a nil or empty selector.
pub(crate) fn selector_string(sel: Option<&Value>) -> String {
    let Some(sel) = sel else {
        return String::new();
    };
    let mut reqs: Vec<(String, String)> = Vec::new();
    if let Some(ml) = sel.get("matchLabels").and_then(Value::as_object) {
        for (k, v) in ml {
            reqs.push((k.to_string(), format!("{}={}", k, scalar_text(v))));
        }
    }
    for expr in sel
        .get("matchExpressions")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[])
    {
        let key = sv(expr, &["key"]).to_string();
        let mut values: Vec<String> = av(expr, &["values"]).iter().map(scalar_text).collect();
        crate::api::sorting::sort(&mut values);
        values.dedup();
        let text = match sv(expr, &["operator"]) {
            "In" => format!("{key} in ({})", values.join(",")),
            "NotIn" => format!("{key} notin ({})", values.join(",")),
            "Exists" => key.clone(),
            "DoesNotExist" => format!("!{key}"),
            _ => return "<error>".to_string(),
        };
        reqs.push((key, text));
    }
    crate::api::sorting::sort_by(&mut reqs, &|a, b| a.0.cmp(&b.0));
    reqs.into_iter().map(|r| r.1).collect::<Vec<_>>().join(",")
}

/// `metav1.FormatLabelSelector`: like [`selector_string`] but `<none>` when empty.
pub(crate) fn format_label_selector(sel: Option<&Value>) -> String {
    let s = selector_string(sel);
    if s.is_empty() {
        "<none>".to_string()
    } else {
        s
    }
}

// ---------------------------------------------------------------------------------------------
// Go's text/tabwriter
// ---------------------------------------------------------------------------------------------

/// Aligns tab-separated cells exactly as Go's `text/tabwriter` (and `liggitt/tabwriter`) do with
/// the given minimum cell width and padding, space padding and no flags: columns are aligned per
/// block of consecutive lines that have a cell in that column, the last cell of a line is never
/// padded, and empty cells inside a column are padded like any other.
pub(crate) fn tabwrite(text: &str, minwidth: usize, padding: usize) -> String {
    let lines: Vec<Vec<&str>> = text.split('\n').map(|l| l.split('\t').collect()).collect();
    let mut tw = TabWriter {
        lines: &lines,
        minwidth,
        padding,
        out: String::with_capacity(text.len() * 2),
        widths: Vec::new(),
    };
    tw.format(0, lines.len());
    tw.out
}

struct TabWriter<'a> {
    lines: &'a [Vec<&'a str>],
    minwidth: usize,
    padding: usize,
    out: String,
    widths: Vec<usize>,
}

impl TabWriter<'_> {
    fn format(&mut self, line0: usize, line1: usize) {
        let column = self.widths.len();
        let mut line0 = line0;
        let mut this = line0;
        while this < line1 {
            if column + 1 >= self.lines[this].len() {
                this += 1;
                continue;
            }
            // A cell exists in this column: print the lines before the block, then the block.
            self.write_lines(line0, this);
            line0 = this;
            let mut width = self.minwidth;
            while this < line1 {
                let line = &self.lines[this];
                if column + 1 >= line.len() {
                    break;
                }
                let w = line[column].chars().count() + self.padding;
                if w > width {
                    width = w;
                }
                this += 1;
            }
            self.widths.push(width);
            self.format(line0, this);
            self.widths.pop();
            line0 = this;
            // Go's loop increments past the line that ended the block; that line has no
            // cell in this column, so skipping the check is harmless.
            this += 1;
        }
        self.write_lines(line0, line1);
    }

    fn write_lines(&mut self, line0: usize, line1: usize) {
        for i in line0..line1 {
            let line = &self.lines[i];
            for (j, cell) in line.iter().enumerate() {
                self.out.push_str(cell);
                if j < self.widths.len() {
                    let w = cell.chars().count();
                    for _ in w..self.widths[j] {
                        self.out.push(' ');
                    }
                }
            }
            if i + 1 < self.lines.len() {
                self.out.push('\n');
            }
        }
    }
}

/// `printers.WriteEscaped`: terminal escape characters are made visible.
pub(crate) fn escape_terminal(s: &str) -> String {
    if !s.contains(['\x1b', '\r']) {
        return s.to_string();
    }
    s.replace('\x1b', "^[").replace('\r', "\\r")
}

// ---------------------------------------------------------------------------------------------
// Tables
// ---------------------------------------------------------------------------------------------

/// The flags of `kubectl get` that change the table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableOptions {
    /// `-o wide`: also the priority-1 columns.
    pub wide: bool,
    /// `-A`: a NAMESPACE column first (ignored for cluster-scoped resources, as kubectl does).
    pub with_namespace: bool,
    /// `--show-labels`: a LABELS column last.
    pub show_labels: bool,
    /// `--no-headers`.
    pub no_headers: bool,
    /// With several resource types, kubectl names rows `pod/web-x`: the prefix (`pod`).
    pub kind_prefix: Option<String>,
}

struct Col {
    name: &'static str,
    /// Priority 1: only with `-o wide`.
    wide: bool,
}

const fn c(name: &'static str) -> Col {
    Col { name, wide: false }
}

const fn w(name: &'static str) -> Col {
    Col { name, wide: true }
}

/// What `kubectl get <resource>` prints for these objects (stdout), ending with a newline; empty
/// when there are no objects (kubectl then prints [`no_resources_found`] on stderr).
pub fn print_table(
    resource: &ResourceInfo,
    objects: &[Object],
    opts: &TableOptions,
    now_ms: u64,
) -> String {
    if objects.is_empty() {
        return String::new();
    }
    let (cols, rows) = table(resource, objects, now_ms);
    let with_ns = opts.with_namespace && resource.namespaced;
    let mut text = String::new();
    if !opts.no_headers {
        let mut header: Vec<String> = Vec::new();
        if with_ns {
            header.push("NAMESPACE".to_string());
        }
        for col in cols.iter().filter(|c| opts.wide || !c.wide) {
            header.push(col.name.to_string());
        }
        if opts.show_labels {
            header.push("LABELS".to_string());
        }
        text.push_str(&header.join("\t"));
        text.push('\n');
    }
    for (obj, row) in objects.iter().zip(rows) {
        let mut cells: Vec<String> = Vec::new();
        if with_ns {
            cells.push(crate::api::meta::namespace(obj).unwrap_or("").to_string());
        }
        for (i, (col, cell)) in cols.iter().zip(row).enumerate() {
            if opts.wide || !col.wide {
                match (&opts.kind_prefix, i) {
                    (Some(kind), 0) => cells.push(format!("{kind}/{cell}")),
                    _ => cells.push(cell),
                }
            }
        }
        if opts.show_labels {
            cells.push(format_labels(crate::api::meta::labels(obj)));
        }
        let cells: Vec<String> = cells.iter().map(|c| table_cell(c)).collect();
        text.push_str(&cells.join("\t"));
        text.push('\n');
    }
    tabwrite(&text, 6, 3)
}

/// A string cell as the table printer writes it: cut at the first line break (with `...`),
/// terminal escapes made visible.
fn table_cell(s: &str) -> String {
    match s.find(['\x0c', '\n', '\r']) {
        Some(i) => format!("{}...", escape_terminal(&s[..i])),
        None => escape_terminal(s),
    }
}

/// kubectl's stderr line when a list is empty: `No resources found in default namespace.` for a
/// namespaced list in one namespace, `No resources found` otherwise (cluster-scoped or `-A`).
pub fn no_resources_found(namespace: Option<&str>) -> String {
    match namespace {
        Some(ns) => format!("No resources found in {ns} namespace."),
        None => "No resources found".to_string(),
    }
}

fn table(resource: &ResourceInfo, objects: &[Object], now: u64) -> (Vec<Col>, Vec<Vec<String>>) {
    let row_fn: fn(&Object, u64) -> Vec<String>;
    let cols: Vec<Col> = match (resource.group, resource.kind) {
        ("", "Pod") => {
            row_fn = pod_row;
            vec![
                c("NAME"),
                c("READY"),
                c("STATUS"),
                c("RESTARTS"),
                c("AGE"),
                w("IP"),
                w("NODE"),
                w("NOMINATED NODE"),
                w("READINESS GATES"),
            ]
        }
        ("apps", "Deployment") => {
            row_fn = deployment_row;
            vec![
                c("NAME"),
                c("READY"),
                c("UP-TO-DATE"),
                c("AVAILABLE"),
                c("AGE"),
                w("CONTAINERS"),
                w("IMAGES"),
                w("SELECTOR"),
            ]
        }
        ("apps", "ReplicaSet") | ("", "ReplicationController") => {
            row_fn = if resource.kind == "ReplicaSet" {
                replicaset_row
            } else {
                rc_row
            };
            vec![
                c("NAME"),
                c("DESIRED"),
                c("CURRENT"),
                c("READY"),
                c("AGE"),
                w("CONTAINERS"),
                w("IMAGES"),
                w("SELECTOR"),
            ]
        }
        ("apps", "StatefulSet") => {
            row_fn = statefulset_row;
            vec![
                c("NAME"),
                c("READY"),
                c("AGE"),
                w("CONTAINERS"),
                w("IMAGES"),
            ]
        }
        ("apps", "DaemonSet") => {
            row_fn = daemonset_row;
            vec![
                c("NAME"),
                c("DESIRED"),
                c("CURRENT"),
                c("READY"),
                c("UP-TO-DATE"),
                c("AVAILABLE"),
                c("NODE SELECTOR"),
                c("AGE"),
                w("CONTAINERS"),
                w("IMAGES"),
                w("SELECTOR"),
            ]
        }
        ("apps", "ControllerRevision") => {
            row_fn = controllerrevision_row;
            vec![c("NAME"), c("CONTROLLER"), c("REVISION"), c("AGE")]
        }
        ("batch", "Job") => {
            row_fn = job_row;
            vec![
                c("NAME"),
                c("STATUS"),
                c("COMPLETIONS"),
                c("DURATION"),
                c("AGE"),
                w("CONTAINERS"),
                w("IMAGES"),
                w("SELECTOR"),
            ]
        }
        ("batch", "CronJob") => {
            row_fn = cronjob_row;
            vec![
                c("NAME"),
                c("SCHEDULE"),
                c("TIMEZONE"),
                c("SUSPEND"),
                c("ACTIVE"),
                c("LAST SCHEDULE"),
                c("AGE"),
                w("CONTAINERS"),
                w("IMAGES"),
                w("SELECTOR"),
            ]
        }
        ("", "Service") => {
            row_fn = service_row;
            vec![
                c("NAME"),
                c("TYPE"),
                c("CLUSTER-IP"),
                c("EXTERNAL-IP"),
                c("PORT(S)"),
                c("AGE"),
                w("SELECTOR"),
            ]
        }
        ("", "Node") => {
            row_fn = node_row;
            vec![
                c("NAME"),
                c("STATUS"),
                c("ROLES"),
                c("AGE"),
                c("VERSION"),
                w("INTERNAL-IP"),
                w("EXTERNAL-IP"),
                w("OS-IMAGE"),
                w("KERNEL-VERSION"),
                w("CONTAINER-RUNTIME"),
            ]
        }
        ("", "Namespace") => {
            row_fn = |o, now| {
                vec![
                    name(o),
                    sv(o, &["status", "phase"]).to_string(),
                    creation_age(o, now),
                ]
            };
            vec![c("NAME"), c("STATUS"), c("AGE")]
        }
        ("", "Event") => {
            row_fn = event_row;
            vec![
                c("LAST SEEN"),
                c("TYPE"),
                c("REASON"),
                c("OBJECT"),
                w("SUBOBJECT"),
                w("SOURCE"),
                c("MESSAGE"),
                w("FIRST SEEN"),
                w("COUNT"),
                w("NAME"),
            ]
        }
        ("", "Endpoints") => {
            row_fn = |o, now| vec![name(o), format_endpoints(o), creation_age(o, now)];
            vec![c("NAME"), c("ENDPOINTS"), c("AGE")]
        }
        ("discovery.k8s.io", "EndpointSlice") => {
            row_fn = endpointslice_row;
            vec![
                c("NAME"),
                c("ADDRESSTYPE"),
                c("PORTS"),
                c("ENDPOINTS"),
                c("AGE"),
            ]
        }
        ("", "ConfigMap") => {
            row_fn = |o, now| {
                let n = mv(o, &["data"]).map_or(0, Map::len)
                    + mv(o, &["binaryData"]).map_or(0, Map::len);
                vec![name(o), n.to_string(), creation_age(o, now)]
            };
            vec![c("NAME"), c("DATA"), c("AGE")]
        }
        ("", "Secret") => {
            row_fn = |o, now| {
                vec![
                    name(o),
                    sv(o, &["type"]).to_string(),
                    mv(o, &["data"]).map_or(0, Map::len).to_string(),
                    creation_age(o, now),
                ]
            };
            vec![c("NAME"), c("TYPE"), c("DATA"), c("AGE")]
        }
        ("", "ServiceAccount") => {
            row_fn = |o, now| {
                vec![
                    name(o),
                    av(o, &["secrets"]).len().to_string(),
                    creation_age(o, now),
                ]
            };
            vec![c("NAME"), c("SECRETS"), c("AGE")]
        }
        ("", "ResourceQuota") => {
            row_fn = resourcequota_row;
            vec![c("NAME"), c("REQUEST"), c("LIMIT"), c("AGE")]
        }
        ("", "PersistentVolume") => {
            row_fn = pv_row;
            vec![
                c("NAME"),
                c("CAPACITY"),
                c("ACCESS MODES"),
                c("RECLAIM POLICY"),
                c("STATUS"),
                c("CLAIM"),
                c("STORAGECLASS"),
                c("VOLUMEATTRIBUTESCLASS"),
                c("REASON"),
                c("AGE"),
                w("VOLUMEMODE"),
            ]
        }
        ("", "PersistentVolumeClaim") => {
            row_fn = pvc_row;
            vec![
                c("NAME"),
                c("STATUS"),
                c("VOLUME"),
                c("CAPACITY"),
                c("ACCESS MODES"),
                c("STORAGECLASS"),
                c("VOLUMEATTRIBUTESCLASS"),
                c("AGE"),
                w("VOLUMEMODE"),
            ]
        }
        ("coordination.k8s.io", "Lease") => {
            row_fn = |o, now| {
                vec![
                    name(o),
                    sv(o, &["spec", "holderIdentity"]).to_string(),
                    creation_age(o, now),
                ]
            };
            vec![c("NAME"), c("HOLDER"), c("AGE")]
        }
        ("rbac.authorization.k8s.io", "RoleBinding" | "ClusterRoleBinding") => {
            row_fn = rolebinding_row;
            vec![
                c("NAME"),
                c("ROLE"),
                c("AGE"),
                w("USERS"),
                w("GROUPS"),
                w("SERVICEACCOUNTS"),
            ]
        }
        // No printer in printers.go: the apiserver's default table (rest.DefaultTableConvertor).
        ("rbac.authorization.k8s.io", "Role" | "ClusterRole") | ("", "LimitRange") => {
            row_fn = |o, _| {
                let created = opt_str(o, &["metadata", "creationTimestamp"])
                    .and_then(unix_ms)
                    .map(|ms| rfc3339_utc(ms.div_euclid(1000)))
                    .unwrap_or_else(|| "0001-01-01T00:00:00Z".to_string());
                vec![name(o), created]
            };
            vec![c("NAME"), c("CREATED AT")]
        }
        ("scheduling.k8s.io", "PriorityClass") => {
            row_fn = |o, now| {
                vec![
                    name(o),
                    iv(o, &["value"]).to_string(),
                    bv(o, &["globalDefault"]).to_string(),
                    creation_age(o, now),
                    sv(o, &["preemptionPolicy"]).to_string(),
                ]
            };
            vec![
                c("NAME"),
                c("VALUE"),
                c("GLOBAL-DEFAULT"),
                c("AGE"),
                c("PREEMPTIONPOLICY"),
            ]
        }
        ("networking.k8s.io", "Ingress") => {
            row_fn = ingress_row;
            vec![
                c("NAME"),
                c("CLASS"),
                c("HOSTS"),
                c("ADDRESS"),
                c("PORTS"),
                c("AGE"),
            ]
        }
        ("networking.k8s.io", "NetworkPolicy") => {
            row_fn = |o, now| {
                vec![
                    name(o),
                    format_label_selector(Some(
                        at(o, &["spec", "podSelector"]).unwrap_or(&Value::Null),
                    )),
                    creation_age(o, now),
                ]
            };
            vec![c("NAME"), c("POD-SELECTOR"), c("AGE")]
        }
        ("policy", "PodDisruptionBudget") => {
            row_fn = |o, now| {
                let or_na = |p: &str| match at(o, &["spec", p]) {
                    Some(v) => int_or_string(Some(v)),
                    None => "N/A".to_string(),
                };
                vec![
                    name(o),
                    or_na("minAvailable"),
                    or_na("maxUnavailable"),
                    iv(o, &["status", "disruptionsAllowed"]).to_string(),
                    creation_age(o, now),
                ]
            };
            vec![
                c("NAME"),
                c("MIN AVAILABLE"),
                c("MAX UNAVAILABLE"),
                c("ALLOWED DISRUPTIONS"),
                c("AGE"),
            ]
        }
        ("storage.k8s.io", "StorageClass") => {
            row_fn = storageclass_row;
            vec![
                c("NAME"),
                c("PROVISIONER"),
                c("RECLAIMPOLICY"),
                c("VOLUMEBINDINGMODE"),
                c("ALLOWVOLUMEEXPANSION"),
                c("AGE"),
            ]
        }
        _ => {
            row_fn = |o, now| vec![name(o), creation_age(o, now)];
            vec![c("NAME"), c("AGE")]
        }
    };
    let rows = objects.iter().map(|o| row_fn(o, now)).collect();
    (cols, rows)
}

fn name(o: &Object) -> String {
    crate::api::meta::name(o).to_string()
}

fn creation_age(o: &Object, now: u64) -> String {
    age(now, opt_str(o, &["metadata", "creationTimestamp"]))
}

/// `layoutContainerCells`: names and images joined by commas.
fn containers_cells(o: &Object, spec_path: &[&str]) -> (String, String) {
    let mut path: Vec<&str> = spec_path.to_vec();
    path.push("containers");
    let containers = av(o, &path);
    let names: Vec<&str> = containers.iter().map(|c| sv(c, &["name"])).collect();
    let images: Vec<&str> = containers.iter().map(|c| sv(c, &["image"])).collect();
    (names.join(","), images.join(","))
}

// --- pods -------------------------------------------------------------------------------------

/// The columns `printPod` computes.
pub(crate) struct PodSummary {
    pub ready: usize,
    pub total: usize,
    pub reason: String,
    pub restarts: i64,
    /// The latest `lastState.terminated.finishedAt` that counts, in Unix ms.
    pub last_restart_ms: Option<i64>,
}

/// The STATUS column of `kubectl get pods` (`printPod`, facts 6.4): `Running`, `Pending`,
/// `ContainerCreating`, `Init:0/1`, `CrashLoopBackOff`, `Completed`, `Terminating`, ...
pub fn pod_status(pod: &Object) -> String {
    pod_summary(pod).reason
}

pub(crate) fn pod_summary(pod: &Object) -> PodSummary {
    let mut restarts: i64 = 0;
    let mut restartable_restarts: i64 = 0;
    let mut total = av(pod, &["spec", "containers"]).len();
    let mut ready = 0usize;
    let mut last_restart: Option<i64> = None;
    let mut last_restartable_restart: Option<i64> = None;

    let phase = sv(pod, &["status", "phase"]);
    let mut reason = phase.to_string();
    let status_reason = sv(pod, &["status", "reason"]);
    if !status_reason.is_empty() {
        reason = status_reason.to_string();
    }
    for cond in av(pod, &["status", "conditions"]) {
        if sv(cond, &["type"]) == "PodScheduled" && sv(cond, &["reason"]) == "SchedulingGated" {
            reason = "SchedulingGated".to_string();
        }
    }

    let init_specs = av(pod, &["spec", "initContainers"]);
    let restartable = |name: &str| {
        init_specs
            .iter()
            .any(|c| sv(c, &["name"]) == name && sv(c, &["restartPolicy"]) == "Always")
    };
    total += init_specs
        .iter()
        .filter(|c| sv(c, &["restartPolicy"]) == "Always")
        .count();

    let later = |cur: Option<i64>, ts: Option<&str>| -> Option<i64> {
        match ts.and_then(unix_ms) {
            Some(t) if cur.is_none_or(|c| c < t) => Some(t),
            _ => cur,
        }
    };

    let mut initializing = false;
    let init_statuses = av(pod, &["status", "initContainerStatuses"]);
    for (i, cs) in init_statuses.iter().enumerate() {
        let cname = sv(cs, &["name"]);
        restarts += iv(cs, &["restartCount"]);
        let finished = opt_str(cs, &["lastState", "terminated", "finishedAt"]);
        if at(cs, &["lastState", "terminated"]).is_some() {
            last_restart = later(last_restart, finished);
        }
        let is_restartable = restartable(cname);
        if is_restartable {
            restartable_restarts += iv(cs, &["restartCount"]);
            if at(cs, &["lastState", "terminated"]).is_some() {
                last_restartable_restart = later(last_restartable_restart, finished);
            }
        }
        let terminated = at(cs, &["state", "terminated"]);
        let waiting_reason = sv(cs, &["state", "waiting", "reason"]);
        if terminated.is_some_and(|t| iv(t, &["exitCode"]) == 0) {
            continue;
        }
        if is_restartable && bv(cs, &["started"]) {
            if bv(cs, &["ready"]) {
                ready += 1;
            }
            continue;
        }
        if let Some(t) = terminated {
            let r = sv(t, &["reason"]);
            reason = if r.is_empty() {
                let signal = iv(t, &["signal"]);
                if signal != 0 {
                    format!("Init:Signal:{signal}")
                } else {
                    format!("Init:ExitCode:{}", iv(t, &["exitCode"]))
                }
            } else {
                format!("Init:{r}")
            };
        } else if at(cs, &["state", "waiting"]).is_some()
            && !waiting_reason.is_empty()
            && waiting_reason != "PodInitializing"
        {
            reason = format!("Init:{waiting_reason}");
        } else {
            reason = format!("Init:{}/{}", i, init_specs.len());
        }
        initializing = true;
        break;
    }

    let initialized = av(pod, &["status", "conditions"])
        .iter()
        .any(|c| sv(c, &["type"]) == "Initialized" && sv(c, &["status"]) == "True");
    if !initializing || initialized {
        restarts = restartable_restarts;
        last_restart = last_restartable_restart;
        let mut has_running = false;
        for cs in av(pod, &["status", "containerStatuses"]).iter().rev() {
            restarts += iv(cs, &["restartCount"]);
            if at(cs, &["lastState", "terminated"]).is_some() {
                last_restart = later(
                    last_restart,
                    opt_str(cs, &["lastState", "terminated", "finishedAt"]),
                );
            }
            let waiting_reason = sv(cs, &["state", "waiting", "reason"]);
            let terminated = at(cs, &["state", "terminated"]);
            if at(cs, &["state", "waiting"]).is_some() && !waiting_reason.is_empty() {
                reason = waiting_reason.to_string();
            } else if let Some(t) = terminated {
                let r = sv(t, &["reason"]);
                reason = if !r.is_empty() {
                    r.to_string()
                } else if iv(t, &["signal"]) != 0 {
                    format!("Signal:{}", iv(t, &["signal"]))
                } else {
                    format!("ExitCode:{}", iv(t, &["exitCode"]))
                };
            } else if bv(cs, &["ready"]) && at(cs, &["state", "running"]).is_some() {
                has_running = true;
                ready += 1;
            }
        }
        if reason == "Completed" && has_running {
            let pod_ready = av(pod, &["status", "conditions"])
                .iter()
                .any(|c| sv(c, &["type"]) == "Ready" && sv(c, &["status"]) == "True");
            reason = if pod_ready { "Running" } else { "NotReady" }.to_string();
        }
    }

    if at(pod, &["metadata", "deletionTimestamp"]).is_some() {
        if status_reason == "NodeLost" {
            reason = "Unknown".to_string();
        } else if phase != "Succeeded" && phase != "Failed" {
            reason = "Terminating".to_string();
        }
    }

    PodSummary {
        ready,
        total,
        reason,
        restarts,
        last_restart_ms: last_restart,
    }
}

fn pod_row(pod: &Object, now: u64) -> Vec<String> {
    let s = pod_summary(pod);
    let restarts = match s.last_restart_ms {
        Some(t) if s.restarts != 0 => format!("{} ({} ago)", s.restarts, since(now, t)),
        _ => s.restarts.to_string(),
    };
    let or_none = |s: &str| {
        if s.is_empty() {
            "<none>".to_string()
        } else {
            s.to_string()
        }
    };
    let ip = av(pod, &["status", "podIPs"])
        .first()
        .map(|p| sv(p, &["ip"]))
        .unwrap_or("");
    let gates = av(pod, &["spec", "readinessGates"]);
    let readiness = if gates.is_empty() {
        "<none>".to_string()
    } else {
        let conds = av(pod, &["status", "conditions"]);
        let true_count = gates
            .iter()
            .filter(|g| {
                let t = sv(g, &["conditionType"]);
                conds
                    .iter()
                    .find(|c| sv(c, &["type"]) == t)
                    .is_some_and(|c| sv(c, &["status"]) == "True")
            })
            .count();
        format!("{}/{}", true_count, gates.len())
    };
    vec![
        name(pod),
        format!("{}/{}", s.ready, s.total),
        s.reason,
        restarts,
        creation_age(pod, now),
        or_none(ip),
        or_none(sv(pod, &["spec", "nodeName"])),
        or_none(sv(pod, &["status", "nominatedNodeName"])),
        readiness,
    ]
}

// --- workloads --------------------------------------------------------------------------------

fn deployment_row(o: &Object, now: u64) -> Vec<String> {
    let (names, images) = containers_cells(o, &["spec", "template", "spec"]);
    vec![
        name(o),
        format!(
            "{}/{}",
            iv(o, &["status", "readyReplicas"]),
            iv(o, &["spec", "replicas"])
        ),
        iv(o, &["status", "updatedReplicas"]).to_string(),
        iv(o, &["status", "availableReplicas"]).to_string(),
        creation_age(o, now),
        names,
        images,
        selector_string(at(o, &["spec", "selector"])),
    ]
}

fn replicaset_row(o: &Object, now: u64) -> Vec<String> {
    let (names, images) = containers_cells(o, &["spec", "template", "spec"]);
    vec![
        name(o),
        iv(o, &["spec", "replicas"]).to_string(),
        iv(o, &["status", "replicas"]).to_string(),
        iv(o, &["status", "readyReplicas"]).to_string(),
        creation_age(o, now),
        names,
        images,
        format_label_selector(at(o, &["spec", "selector"])),
    ]
}

fn rc_row(o: &Object, now: u64) -> Vec<String> {
    let (names, images) = containers_cells(o, &["spec", "template", "spec"]);
    vec![
        name(o),
        iv(o, &["spec", "replicas"]).to_string(),
        iv(o, &["status", "replicas"]).to_string(),
        iv(o, &["status", "readyReplicas"]).to_string(),
        creation_age(o, now),
        names,
        images,
        format_labels(mv(o, &["spec", "selector"])),
    ]
}

fn statefulset_row(o: &Object, now: u64) -> Vec<String> {
    let (names, images) = containers_cells(o, &["spec", "template", "spec"]);
    vec![
        name(o),
        format!(
            "{}/{}",
            iv(o, &["status", "readyReplicas"]),
            iv(o, &["spec", "replicas"])
        ),
        creation_age(o, now),
        names,
        images,
    ]
}

fn daemonset_row(o: &Object, now: u64) -> Vec<String> {
    let (names, images) = containers_cells(o, &["spec", "template", "spec"]);
    let st = |f: &str| iv(o, &["status", f]).to_string();
    vec![
        name(o),
        st("desiredNumberScheduled"),
        st("currentNumberScheduled"),
        st("numberReady"),
        st("updatedNumberScheduled"),
        st("numberAvailable"),
        format_labels(mv(o, &["spec", "template", "spec", "nodeSelector"])),
        creation_age(o, now),
        names,
        images,
        format_label_selector(at(o, &["spec", "selector"])),
    ]
}

fn controllerrevision_row(o: &Object, now: u64) -> Vec<String> {
    let controller = match crate::api::meta::controller_ref(o) {
        Some(r) => {
            let api_version = sv(r, &["apiVersion"]);
            let group = match api_version.split_once('/') {
                Some((g, _)) => g,
                None => "",
            };
            let kind = sv(r, &["kind"]);
            let gk = if group.is_empty() {
                kind.to_string()
            } else {
                format!("{kind}.{group}")
            };
            if gk.is_empty() {
                sv(r, &["name"]).to_string()
            } else {
                format!("{}/{}", gk.to_ascii_lowercase(), sv(r, &["name"]))
            }
        }
        None => "<none>".to_string(),
    };
    vec![
        name(o),
        controller,
        iv(o, &["revision"]).to_string(),
        creation_age(o, now),
    ]
}

fn has_condition(o: &Object, t: &str) -> bool {
    av(o, &["status", "conditions"])
        .iter()
        .find(|c| sv(c, &["type"]) == t)
        .is_some_and(|c| sv(c, &["status"]) == "True")
}

fn job_row(o: &Object, now: u64) -> Vec<String> {
    let succeeded = iv(o, &["status", "succeeded"]);
    let completions = match at(o, &["spec", "completions"]).and_then(int_value) {
        Some(n) => format!("{succeeded}/{n}"),
        None => {
            let parallelism = iv(o, &["spec", "parallelism"]);
            if parallelism > 1 {
                format!("{succeeded}/1 of {parallelism}")
            } else {
                format!("{succeeded}/1")
            }
        }
    };
    let start = opt_str(o, &["status", "startTime"]).and_then(unix_ms);
    let completion = opt_str(o, &["status", "completionTime"]).and_then(unix_ms);
    let duration = match (start, completion) {
        (None, _) => String::new(),
        (Some(s), None) => since(now, s),
        (Some(s), Some(c)) => human_duration_signed(c - s),
    };
    let status = if has_condition(o, "Complete") {
        "Complete"
    } else if has_condition(o, "Failed") {
        "Failed"
    } else if at(o, &["metadata", "deletionTimestamp"]).is_some() {
        "Terminating"
    } else if has_condition(o, "Suspended") {
        "Suspended"
    } else if has_condition(o, "FailureTarget") {
        "FailureTarget"
    } else {
        "Running"
    };
    let (names, images) = containers_cells(o, &["spec", "template", "spec"]);
    vec![
        name(o),
        status.to_string(),
        completions,
        duration,
        creation_age(o, now),
        names,
        images,
        format_label_selector(at(o, &["spec", "selector"])),
    ]
}

fn cronjob_row(o: &Object, now: u64) -> Vec<String> {
    let last = match opt_str(o, &["status", "lastScheduleTime"]) {
        Some(t) => age(now, Some(t)),
        None => "<none>".to_string(),
    };
    let suspend = match at(o, &["spec", "suspend"]).and_then(Value::as_bool) {
        Some(true) => "True",
        Some(false) => "False",
        None => "<unset>",
    };
    let (names, images) = containers_cells(o, &["spec", "jobTemplate", "spec", "template", "spec"]);
    vec![
        name(o),
        sv(o, &["spec", "schedule"]).to_string(),
        opt_str(o, &["spec", "timeZone"])
            .unwrap_or("<none>")
            .to_string(),
        suspend.to_string(),
        av(o, &["status", "active"]).len().to_string(),
        last,
        creation_age(o, now),
        names,
        images,
        format_label_selector(at(o, &["spec", "jobTemplate", "spec", "selector"])),
    ]
}

// --- services and endpoints -------------------------------------------------------------------

fn load_balancer_ingress(o: &Object, path: &[&str]) -> String {
    let mut result: Vec<String> = av(o, path)
        .iter()
        .filter_map(|i| {
            let ip = sv(i, &["ip"]);
            let host = sv(i, &["hostname"]);
            if !ip.is_empty() {
                Some(ip.to_string())
            } else if !host.is_empty() {
                Some(host.to_string())
            } else {
                None
            }
        })
        .collect();
    crate::api::sorting::sort(&mut result);
    result.dedup();
    result.join(",")
}

fn service_external_ip(o: &Object) -> String {
    let external: Vec<&str> = av(o, &["spec", "externalIPs"])
        .iter()
        .filter_map(Value::as_str)
        .collect();
    match sv(o, &["spec", "type"]) {
        "ClusterIP" | "NodePort" => {
            if external.is_empty() {
                "<none>".to_string()
            } else {
                external.join(",")
            }
        }
        "LoadBalancer" => {
            let lb = load_balancer_ingress(o, &["status", "loadBalancer", "ingress"]);
            if !external.is_empty() {
                let mut results: Vec<&str> = Vec::new();
                if !lb.is_empty() {
                    results.extend(lb.split(','));
                }
                results.extend(external.iter().copied());
                results.join(",")
            } else if !lb.is_empty() {
                lb
            } else {
                "<pending>".to_string()
            }
        }
        "ExternalName" => sv(o, &["spec", "externalName"]).to_string(),
        _ => "<unknown>".to_string(),
    }
}

fn service_row(o: &Object, now: u64) -> Vec<String> {
    let cluster_ip = av(o, &["spec", "clusterIPs"])
        .first()
        .and_then(Value::as_str)
        .unwrap_or("<none>")
        .to_string();
    let ports: Vec<String> = av(o, &["spec", "ports"])
        .iter()
        .map(|p| {
            let port = iv(p, &["port"]);
            let proto = sv(p, &["protocol"]);
            let node_port = iv(p, &["nodePort"]);
            if node_port > 0 {
                format!("{port}:{node_port}/{proto}")
            } else {
                format!("{port}/{proto}")
            }
        })
        .collect();
    let ports = if ports.is_empty() {
        "<none>".to_string()
    } else {
        ports.join(",")
    };
    vec![
        name(o),
        sv(o, &["spec", "type"]).to_string(),
        cluster_ip,
        service_external_ip(o),
        ports,
        creation_age(o, now),
        format_labels(mv(o, &["spec", "selector"])),
    ]
}

/// `net.JoinHostPort`.
pub(crate) fn join_host_port(host: &str, port: i64) -> String {
    if host.contains(':') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

/// `formatEndpoints(endpoints, nil)`.
fn format_endpoints(o: &Object) -> String {
    let subsets = av(o, &["subsets"]);
    if subsets.is_empty() {
        return "<none>".to_string();
    }
    let max = 3usize;
    let mut list: Vec<String> = Vec::new();
    let mut more = false;
    let mut count = 0usize;
    for ss in subsets {
        let addresses = av(ss, &["addresses"]);
        let ports = av(ss, &["ports"]);
        if ports.is_empty() {
            count += addresses.len();
            for a in addresses {
                if list.len() == max {
                    more = true;
                    break;
                }
                list.push(sv(a, &["ip"]).to_string());
            }
            continue;
        }
        for port in ports {
            count += addresses.len();
            for a in addresses {
                if list.len() == max {
                    more = true;
                    break;
                }
                list.push(join_host_port(sv(a, &["ip"]), iv(port, &["port"])));
            }
        }
    }
    let ret = list.join(",");
    if more {
        format!("{} + {} more...", ret, count - max)
    } else {
        ret
    }
}

fn list_with_more(list: Vec<String>, more: bool, count: usize, max: usize) -> String {
    let ret = list.join(",");
    if more {
        return format!("{} + {} more...", ret, count - max);
    }
    if ret.is_empty() {
        "<unset>".to_string()
    } else {
        ret
    }
}

fn endpointslice_row(o: &Object, now: u64) -> Vec<String> {
    let max = 3;
    let (mut ports, mut more, mut count) = (Vec::new(), false, 0);
    for p in av(o, &["ports"]) {
        if ports.len() < max {
            let num = match at(p, &["port"]).and_then(int_value) {
                Some(n) => n.to_string(),
                None => opt_str(p, &["name"]).unwrap_or("*").to_string(),
            };
            ports.push(num);
        } else if ports.len() == max {
            more = true;
        }
        count += 1;
    }
    let ports = list_with_more(ports, more, count, max);
    let (mut eps, mut more, mut count) = (Vec::new(), false, 0);
    for e in av(o, &["endpoints"]) {
        for a in av(e, &["addresses"]) {
            if eps.len() < max {
                eps.push(scalar_text(a));
            } else if eps.len() == max {
                more = true;
            }
            count += 1;
        }
    }
    let eps = list_with_more(eps, more, count, max);
    vec![
        name(o),
        sv(o, &["addressType"]).to_string(),
        ports,
        eps,
        creation_age(o, now),
    ]
}

fn ingress_row(o: &Object, now: u64) -> Vec<String> {
    let rules = av(o, &["spec", "rules"]);
    let max = 3;
    let mut list: Vec<&str> = Vec::new();
    let mut more = false;
    for r in rules {
        if list.len() == max {
            more = true;
        }
        let host = sv(r, &["host"]);
        if !more && !host.is_empty() {
            list.push(host);
        }
    }
    let hosts = if list.is_empty() {
        "*".to_string()
    } else if more {
        format!("{} + {} more...", list.join(","), rules.len() - max)
    } else {
        list.join(",")
    };
    let ports = if av(o, &["spec", "tls"]).is_empty() {
        "80"
    } else {
        "80, 443"
    };
    vec![
        name(o),
        opt_str(o, &["spec", "ingressClassName"])
            .unwrap_or("<none>")
            .to_string(),
        hosts,
        load_balancer_ingress(o, &["status", "loadBalancer", "ingress"]),
        ports.to_string(),
        creation_age(o, now),
    ]
}

// --- nodes ------------------------------------------------------------------------------------

/// `findNodeRoles`: `node-role.kubernetes.io/<role>` keys and `kubernetes.io/role` values, sorted.
pub(crate) fn node_roles(o: &Object) -> Vec<String> {
    let mut roles: Vec<String> = Vec::new();
    if let Some(labels) = crate::api::meta::labels(o) {
        for (k, v) in labels {
            if let Some(role) = k.strip_prefix("node-role.kubernetes.io/") {
                if !role.is_empty() {
                    roles.push(role.to_string());
                }
            } else if k == "kubernetes.io/role" {
                let v = scalar_text(v);
                if !v.is_empty() {
                    roles.push(v);
                }
            }
        }
    }
    crate::api::sorting::sort(&mut roles);
    roles.dedup();
    roles
}

fn node_address(o: &Object, t: &str) -> String {
    av(o, &["status", "addresses"])
        .iter()
        .find(|a| sv(a, &["type"]) == t)
        .map(|a| sv(a, &["address"]).to_string())
        .unwrap_or_else(|| "<none>".to_string())
}

fn node_row(o: &Object, now: u64) -> Vec<String> {
    let mut status: Vec<&str> = Vec::new();
    if let Some(ready) = av(o, &["status", "conditions"])
        .iter()
        .rev()
        .find(|c| sv(c, &["type"]) == "Ready")
    {
        status.push(if sv(ready, &["status"]) == "True" {
            "Ready"
        } else {
            "NotReady"
        });
    }
    if status.is_empty() {
        status.push("Unknown");
    }
    if bv(o, &["spec", "unschedulable"]) {
        status.push("SchedulingDisabled");
    }
    let roles = node_roles(o);
    let roles = if roles.is_empty() {
        "<none>".to_string()
    } else {
        roles.join(",")
    };
    let info = |f: &str| {
        let s = sv(o, &["status", "nodeInfo", f]);
        if s.is_empty() {
            "<unknown>".to_string()
        } else {
            s.to_string()
        }
    };
    vec![
        name(o),
        status.join(","),
        roles,
        creation_age(o, now),
        sv(o, &["status", "nodeInfo", "kubeletVersion"]).to_string(),
        node_address(o, "InternalIP"),
        node_address(o, "ExternalIP"),
        info("osImage"),
        info("kernelVersion"),
        info("containerRuntimeVersion"),
    ]
}

// --- events -----------------------------------------------------------------------------------

fn event_row(o: &Object, now: u64) -> Vec<String> {
    let first = match opt_str(o, &["firstTimestamp"]) {
        Some(t) => age(now, Some(t)),
        None => age(now, opt_str(o, &["eventTime"])),
    };
    let mut last = match opt_str(o, &["lastTimestamp"]) {
        Some(t) => age(now, Some(t)),
        None => first.clone(),
    };
    let mut count = iv(o, &["count"]);
    if at(o, &["series"]).is_some() {
        last = age(now, opt_str(o, &["series", "lastObservedTime"]));
        count = iv(o, &["series", "count"]);
    } else if count == 0 {
        count = 1;
    }
    let kind = sv(o, &["involvedObject", "kind"]).to_ascii_lowercase();
    let obj_name = sv(o, &["involvedObject", "name"]);
    let target = if obj_name.is_empty() {
        kind
    } else {
        format!("{kind}/{obj_name}")
    };
    let component = match sv(o, &["source", "component"]) {
        "" => sv(o, &["reportingComponent"]),
        c => c,
    };
    let host = match sv(o, &["source", "host"]) {
        "" => sv(o, &["reportingInstance"]),
        h => h,
    };
    let source = if host.is_empty() {
        component.to_string()
    } else {
        format!("{component}, {host}")
    };
    vec![
        last,
        sv(o, &["type"]).to_string(),
        sv(o, &["reason"]).to_string(),
        target,
        sv(o, &["involvedObject", "fieldPath"]).to_string(),
        source,
        sv(o, &["message"]).trim().to_string(),
        first,
        count.to_string(),
        name(o),
    ]
}

// --- the rest ---------------------------------------------------------------------------------

fn quantity_text(v: Option<&Value>) -> String {
    match v {
        None => "0".to_string(),
        Some(v) => super::describe::canonical_quantity(&scalar_text(v)),
    }
}

fn resourcequota_row(o: &Object, now: u64) -> Vec<String> {
    let hard = mv(o, &["status", "hard"]);
    let used = mv(o, &["status", "used"]);
    let mut names: Vec<&str> = hard
        .map(|h| h.keys().map(|k| k.as_str()).collect())
        .unwrap_or_default();
    crate::api::sorting::sort(&mut names);
    let mut requests: Vec<String> = Vec::new();
    let mut limits: Vec<String> = Vec::new();
    for r in names {
        let text = format!(
            "{}: {}/{}",
            r,
            quantity_text(used.and_then(|u| u.get(r))),
            quantity_text(hard.and_then(|h| h.get(r)))
        );
        let pieces: Vec<&str> = r.split('.').collect();
        if pieces.len() > 1 && pieces[0] == "limits" {
            limits.push(text);
        } else {
            requests.push(text);
        }
    }
    vec![
        name(o),
        requests.join(", "),
        limits.join(", "),
        creation_age(o, now),
    ]
}

fn access_modes(modes: &[Value]) -> String {
    let has = |m: &str| modes.iter().any(|v| v.as_str() == Some(m));
    let mut out = Vec::new();
    for (mode, short) in [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ] {
        if has(mode) {
            out.push(short);
        }
    }
    out.join(",")
}

fn storage_class_of(o: &Object) -> String {
    if let Some(v) = crate::api::meta::annotations(o)
        .and_then(|a| a.get("volume.beta.kubernetes.io/storage-class"))
    {
        return scalar_text(v);
    }
    sv(o, &["spec", "storageClassName"]).to_string()
}

fn pv_row(o: &Object, now: u64) -> Vec<String> {
    let claim = match at(o, &["spec", "claimRef"]) {
        Some(r) => format!("{}/{}", sv(r, &["namespace"]), sv(r, &["name"])),
        None => String::new(),
    };
    let phase = if at(o, &["metadata", "deletionTimestamp"]).is_some() {
        "Terminating"
    } else {
        sv(o, &["status", "phase"])
    };
    vec![
        name(o),
        quantity_text(at(o, &["spec", "capacity", "storage"])),
        access_modes(av(o, &["spec", "accessModes"])),
        sv(o, &["spec", "persistentVolumeReclaimPolicy"]).to_string(),
        phase.to_string(),
        claim,
        storage_class_of(o),
        opt_str(o, &["spec", "volumeAttributesClassName"])
            .unwrap_or("<unset>")
            .to_string(),
        sv(o, &["status", "reason"]).to_string(),
        creation_age(o, now),
        opt_str(o, &["spec", "volumeMode"])
            .unwrap_or("<unset>")
            .to_string(),
    ]
}

fn pvc_row(o: &Object, now: u64) -> Vec<String> {
    let phase = if at(o, &["metadata", "deletionTimestamp"]).is_some() {
        "Terminating"
    } else {
        sv(o, &["status", "phase"])
    };
    let volume = sv(o, &["spec", "volumeName"]);
    let (capacity, modes) = if volume.is_empty() {
        (String::new(), String::new())
    } else {
        (
            quantity_text(at(o, &["status", "capacity", "storage"])),
            access_modes(av(o, &["status", "accessModes"])),
        )
    };
    vec![
        name(o),
        phase.to_string(),
        volume.to_string(),
        capacity,
        modes,
        storage_class_of(o),
        opt_str(o, &["spec", "volumeAttributesClassName"])
            .unwrap_or("<unset>")
            .to_string(),
        creation_age(o, now),
        opt_str(o, &["spec", "volumeMode"])
            .unwrap_or("<unset>")
            .to_string(),
    ]
}

fn rolebinding_row(o: &Object, now: u64) -> Vec<String> {
    let (mut users, mut groups, mut sas) = (Vec::new(), Vec::new(), Vec::new());
    for s in av(o, &["subjects"]) {
        match sv(s, &["kind"]) {
            "ServiceAccount" => sas.push(format!("{}/{}", sv(s, &["namespace"]), sv(s, &["name"]))),
            "User" => users.push(sv(s, &["name"]).to_string()),
            "Group" => groups.push(sv(s, &["name"]).to_string()),
            _ => {}
        }
    }
    vec![
        name(o),
        format!(
            "{}/{}",
            sv(o, &["roleRef", "kind"]),
            sv(o, &["roleRef", "name"])
        ),
        creation_age(o, now),
        users.join(", "),
        groups.join(", "),
        sas.join(", "),
    ]
}

fn storageclass_row(o: &Object, now: u64) -> Vec<String> {
    let is_default = crate::api::meta::annotations(o).is_some_and(|a| {
        a.get("storageclass.kubernetes.io/is-default-class")
            .or_else(|| a.get("storageclass.beta.kubernetes.io/is-default-class"))
            .and_then(Value::as_str)
            == Some("true")
    });
    let mut n = name(o);
    if is_default {
        n.push_str(" (default)");
    }
    vec![
        n,
        sv(o, &["provisioner"]).to_string(),
        opt_str(o, &["reclaimPolicy"])
            .unwrap_or("Delete")
            .to_string(),
        opt_str(o, &["volumeBindingMode"])
            .unwrap_or("Immediate")
            .to_string(),
        bv(o, &["allowVolumeExpansion"]).to_string(),
        creation_age(o, now),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::resources::lookup;
    use crate::json;

    fn opts() -> TableOptions {
        TableOptions::default()
    }

    #[test]
    fn human_duration_follows_every_branch() {
        let s = 1000u64;
        let m = 60 * s;
        let h = 60 * m;
        let d = 24 * h;
        let y = 365 * d;
        for (ms, want) in [
            (0, "0s"),
            (999, "0s"),
            (10 * s, "10s"),
            (119 * s + 999, "119s"),
            (2 * m, "2m"),
            (5 * m + 2 * s, "5m2s"),
            (9 * m + 59 * s, "9m59s"),
            (10 * m + 30 * s, "10m"),
            (179 * m, "179m"),
            (3 * h, "3h"),
            (3 * h + 30 * m, "3h30m"),
            (7 * h + 59 * m, "7h59m"),
            (8 * h + 30 * m, "8h"),
            (47 * h, "47h"),
            (2 * d, "2d"),
            (2 * d + 5 * h, "2d5h"),
            (7 * d + 23 * h, "7d23h"),
            (8 * d, "8d"),
            (729 * d, "729d"),
            (2 * y, "2y"),
            (2 * y + 10 * d, "2y10d"),
            (7 * y + 364 * d, "7y364d"),
            (8 * y + 100 * d, "8y"),
        ] {
            assert_eq!(human_duration(ms), want, "{ms}");
        }
        assert_eq!(human_duration_signed(-1500), "0s");
        assert_eq!(human_duration_signed(-2000), "<invalid>");
    }

    #[test]
    fn tabwriter_aligns_like_go() {
        assert_eq!(
            tabwrite("NAME\tREADY\tAGE\nnginx-abc\t1/1\t5s\n", 6, 3),
            "NAME        READY   AGE\nnginx-abc   1/1     5s\n"
        );
        // Minimum width 6 applies to narrow columns.
        assert_eq!(tabwrite("a\t0\tb\n", 6, 3), "a     0     b\n");
        // A line without tabs ends a column block.
        assert_eq!(
            tabwrite("Name:\tx\nLong Title:\ty\nBlock\nA:\tz\n", 0, 2),
            "Name:        x\nLong Title:  y\nBlock\nA:  z\n"
        );
        // Empty cells are padded; the last cell is not.
        assert_eq!(
            tabwrite("a\t\tb\nccc\tdd\t\n", 0, 2),
            "a        b\nccc  dd  \n"
        );
    }

    fn pod(name: &str, status: Value) -> Value {
        json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "default", "creationTimestamp": "2026-01-01T00:00:00Z",
                         "labels": {"app": "web", "pod-template-hash": "abc"}},
            "spec": {"containers": [{"name": "nginx", "image": "nginx:1.25"}], "nodeName": "node-1"},
            "status": status
        })
    }

    #[test]
    fn pods_table_with_wide_namespace_and_labels() {
        let pods = vec![
            pod(
                "web-1",
                json!({"phase": "Running", "podIPs": [{"ip": "10.244.1.2"}],
                   "conditions": [{"type": "Ready", "status": "True"}],
                   "containerStatuses": [{"name": "nginx", "ready": true, "restartCount": 2,
                       "state": {"running": {"startedAt": "2026-01-01T00:01:00Z"}},
                       "lastState": {"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": "2026-01-01T00:00:50Z"}}}]}),
            ),
            pod("web-2", json!({"phase": "Pending"})),
        ];
        let res = lookup("pods").unwrap();
        assert_eq!(
            print_table(res, &pods, &opts(), 80_000),
            "NAME    READY   STATUS    RESTARTS      AGE\n\
             web-1   1/1     Running   2 (30s ago)   80s\n\
             web-2   0/1     Pending   0             80s\n"
        );
        let wide = TableOptions {
            wide: true,
            with_namespace: true,
            show_labels: true,
            no_headers: false,
            ..Default::default()
        };
        assert_eq!(
            print_table(res, &pods, &wide, 80_000),
            "NAMESPACE   NAME    READY   STATUS    RESTARTS      AGE   IP           NODE     NOMINATED NODE   READINESS GATES   LABELS\n\
             default     web-1   1/1     Running   2 (30s ago)   80s   10.244.1.2   node-1   <none>           <none>            app=web,pod-template-hash=abc\n\
             default     web-2   0/1     Pending   0             80s   <none>       node-1   <none>           <none>            app=web,pod-template-hash=abc\n"
        );
        let no_headers = TableOptions {
            no_headers: true,
            ..opts()
        };
        assert_eq!(
            print_table(res, &pods[1..], &no_headers, 80_000),
            "web-2   0/1   Pending   0     80s\n"
        );
        assert_eq!(print_table(res, &[], &opts(), 0), "");
    }

    fn status_of(spec_extra: Value, status: Value) -> String {
        let mut p = pod("p", status);
        if let Some(m) = spec_extra.as_object() {
            for (k, v) in m {
                p["spec"][k] = v.clone();
            }
        }
        pod_status(&p)
    }

    #[test]
    fn pod_status_column_follows_print_pod() {
        let waiting = |r: &str| json!({"name": "nginx", "ready": false, "restartCount": 0, "state": {"waiting": {"reason": r}}});
        assert_eq!(
            status_of(
                json!({}),
                json!({"phase": "Pending", "containerStatuses": [waiting("ContainerCreating")]})
            ),
            "ContainerCreating"
        );
        assert_eq!(
            status_of(
                json!({}),
                json!({"phase": "Running", "containerStatuses": [waiting("CrashLoopBackOff")]})
            ),
            "CrashLoopBackOff"
        );
        assert_eq!(
            status_of(
                json!({}),
                json!({"phase": "Failed", "containerStatuses": [{"name": "nginx", "state": {"terminated": {"exitCode": 3}}}]})
            ),
            "ExitCode:3"
        );
        assert_eq!(
            status_of(
                json!({}),
                json!({"phase": "Succeeded", "containerStatuses": [{"name": "nginx", "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}}]})
            ),
            "Completed"
        );
        assert_eq!(
            status_of(json!({}), json!({"phase": "Failed", "reason": "Evicted"})),
            "Evicted"
        );
        assert_eq!(
            status_of(
                json!({}),
                json!({"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "SchedulingGated"}]})
            ),
            "SchedulingGated"
        );
        // Init containers.
        let init = json!({"initContainers": [{"name": "init", "image": "busybox"}]});
        assert_eq!(
            status_of(
                init.clone(),
                json!({"phase": "Pending", "initContainerStatuses": [
                {"name": "init", "state": {"waiting": {"reason": "PodInitializing"}}}]})
            ),
            "Init:0/1"
        );
        assert_eq!(
            status_of(
                init.clone(),
                json!({"phase": "Pending", "initContainerStatuses": [
                {"name": "init", "state": {"waiting": {"reason": "ErrImagePull"}}}]})
            ),
            "Init:ErrImagePull"
        );
        assert_eq!(
            status_of(
                init.clone(),
                json!({"phase": "Pending", "initContainerStatuses": [
                {"name": "init", "state": {"terminated": {"exitCode": 1, "reason": "Error"}}}]})
            ),
            "Init:Error"
        );
        assert_eq!(
            status_of(
                init.clone(),
                json!({"phase": "Pending", "initContainerStatuses": [
                {"name": "init", "state": {"terminated": {"exitCode": 137, "signal": 9}}}]})
            ),
            "Init:Signal:9"
        );
        assert_eq!(
            status_of(
                init,
                json!({"phase": "Pending",
                "initContainerStatuses": [{"name": "init", "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}}],
                "containerStatuses": [waiting("PodInitializing")]})
            ),
            "PodInitializing"
        );
        // Completed with a container still running.
        let two = json!({"containers": [{"name": "a"}, {"name": "b"}]});
        let st = json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "False"}], "containerStatuses": [
            {"name": "a", "ready": false, "state": {"terminated": {"exitCode": 0, "reason": "Completed"}}},
            {"name": "b", "ready": true, "state": {"running": {}}}]});
        assert_eq!(status_of(two, st), "NotReady");
        // Terminating and NodeLost.
        let mut p = pod("p", json!({"phase": "Running"}));
        p["metadata"]["deletionTimestamp"] = json!("2026-01-01T00:01:00Z");
        assert_eq!(pod_status(&p), "Terminating");
        p["status"]["reason"] = json!("NodeLost");
        assert_eq!(pod_status(&p), "Unknown");
        // A started sidecar counts as ready and in the total.
        let sidecar = json!({"initContainers": [{"name": "side", "restartPolicy": "Always"}]});
        let mut p = pod(
            "p",
            json!({"phase": "Running",
            "conditions": [{"type": "Initialized", "status": "True"}],
            "initContainerStatuses": [{"name": "side", "started": true, "ready": true, "restartCount": 1,
                "state": {"running": {}}, "lastState": {"terminated": {"exitCode": 1, "finishedAt": "2026-01-01T00:00:10Z"}}}],
            "containerStatuses": [{"name": "nginx", "ready": true, "restartCount": 0, "state": {"running": {}}}]}),
        );
        p["spec"]["initContainers"] = sidecar["initContainers"].clone();
        let s = pod_summary(&p);
        assert_eq!(
            (s.ready, s.total, s.reason.as_str(), s.restarts),
            (2, 2, "Running", 1)
        );
        assert_eq!(s.last_restart_ms, Some(EPOCH_UNIX_SECONDS * 1000 + 10_000));
    }

    #[test]
    fn deployments_and_replicasets() {
        let d = json!({"metadata": {"name": "web", "creationTimestamp": "2026-01-01T00:00:00Z"},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}},
                     "template": {"spec": {"containers": [{"name": "nginx", "image": "nginx:1.25"}, {"name": "side", "image": "busybox"}]}}},
            "status": {"readyReplicas": 2, "updatedReplicas": 3, "availableReplicas": 2}});
        let wide = TableOptions {
            wide: true,
            ..opts()
        };
        assert_eq!(
            print_table(lookup("deploy").unwrap(), &[d], &wide, 3_600_000),
            "NAME   READY   UP-TO-DATE   AVAILABLE   AGE   CONTAINERS   IMAGES               SELECTOR\n\
             web    2/3     3            2           60m   nginx,side   nginx:1.25,busybox   app=web\n"
        );
        let rs = json!({"metadata": {"name": "web-7c5ddbdf54", "creationTimestamp": "2026-01-01T00:00:00Z"},
            "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web", "pod-template-hash": "7c5ddbdf54"}},
                     "template": {"spec": {"containers": [{"name": "nginx", "image": "nginx:1.25"}]}}},
            "status": {"replicas": 3, "readyReplicas": 3}});
        assert_eq!(
            print_table(lookup("rs").unwrap(), std::slice::from_ref(&rs), &opts(), 10_000),
            "NAME             DESIRED   CURRENT   READY   AGE\nweb-7c5ddbdf54   3         3         3       10s\n"
        );
        assert_eq!(
            print_table(lookup("rs").unwrap(), &[rs], &wide, 10_000),
            "NAME             DESIRED   CURRENT   READY   AGE   CONTAINERS   IMAGES       SELECTOR\n\
             web-7c5ddbdf54   3         3         3       10s   nginx        nginx:1.25   app=web,pod-template-hash=7c5ddbdf54\n"
        );
    }

    #[test]
    fn services() {
        let svc = |name: &str, spec: Value, status: Value| json!({"metadata": {"name": name, "creationTimestamp": "2026-01-01T00:00:00Z"}, "spec": spec, "status": status});
        let list = vec![
            svc(
                "kubernetes",
                json!({"type": "ClusterIP", "clusterIP": "10.96.0.1", "clusterIPs": ["10.96.0.1"],
                    "ports": [{"port": 443, "protocol": "TCP", "targetPort": 6443}]}),
                json!({}),
            ),
            svc(
                "web",
                json!({"type": "NodePort", "clusterIPs": ["10.96.12.7"], "selector": {"app": "web"},
                    "ports": [{"port": 80, "nodePort": 30080, "protocol": "TCP"}, {"port": 443, "nodePort": 30443, "protocol": "TCP"}]}),
                json!({}),
            ),
            svc(
                "lb",
                json!({"type": "LoadBalancer", "clusterIPs": ["10.96.3.3"], "ports": [{"port": 80, "nodePort": 31000, "protocol": "TCP"}]}),
                json!({"loadBalancer": {}}),
            ),
            svc(
                "db",
                json!({"type": "ClusterIP", "clusterIP": "None", "clusterIPs": ["None"]}),
                json!({}),
            ),
        ];
        let wide = TableOptions {
            wide: true,
            ..opts()
        };
        let row = |c: [&str; 7]| {
            format!(
                "{:<13}{:<15}{:<13}{:<14}{:<29}{:<6}{}\n",
                c[0], c[1], c[2], c[3], c[4], c[5], c[6]
            )
        };
        assert_eq!(
            print_table(lookup("svc").unwrap(), &list, &wide, 120_000),
            row([
                "NAME",
                "TYPE",
                "CLUSTER-IP",
                "EXTERNAL-IP",
                "PORT(S)",
                "AGE",
                "SELECTOR"
            ]) + &row([
                "kubernetes",
                "ClusterIP",
                "10.96.0.1",
                "<none>",
                "443/TCP",
                "2m",
                "<none>"
            ]) + &row([
                "web",
                "NodePort",
                "10.96.12.7",
                "<none>",
                "80:30080/TCP,443:30443/TCP",
                "2m",
                "app=web"
            ]) + &row([
                "lb",
                "LoadBalancer",
                "10.96.3.3",
                "<pending>",
                "80:31000/TCP",
                "2m",
                "<none>"
            ]) + &row([
                "db",
                "ClusterIP",
                "None",
                "<none>",
                "<none>",
                "2m",
                "<none>"
            ])
        );
    }

    #[test]
    fn nodes() {
        let node = |name: &str, ready: &str, labels: Value, unsched: bool| {
            json!({"metadata": {"name": name, "creationTimestamp": "2026-01-01T00:00:00Z", "labels": labels},
                "spec": {"unschedulable": unsched},
                "status": {"conditions": [{"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": ready}],
                    "addresses": [{"type": "InternalIP", "address": "172.18.0.2"}, {"type": "Hostname", "address": name}],
                    "nodeInfo": {"kubeletVersion": "v1.35.0", "osImage": "Debian GNU/Linux 12 (bookworm)",
                                 "kernelVersion": "6.8.0", "containerRuntimeVersion": "containerd://2.1.0"}}})
        };
        let nodes = vec![
            node(
                "control-plane",
                "True",
                json!({"node-role.kubernetes.io/control-plane": ""}),
                false,
            ),
            node("node-1", "False", json!({}), false),
            node("node-2", "True", json!({}), true),
        ];
        assert_eq!(
            print_table(lookup("nodes").unwrap(), &nodes, &opts(), 86_400_000 * 3),
            "NAME            STATUS                     ROLES           AGE   VERSION\n\
             control-plane   Ready                      control-plane   3d    v1.35.0\n\
             node-1          NotReady                   <none>          3d    v1.35.0\n\
             node-2          Ready,SchedulingDisabled   <none>          3d    v1.35.0\n"
        );
        let wide = TableOptions {
            wide: true,
            with_namespace: true,
            ..opts()
        };
        assert_eq!(
            print_table(lookup("nodes").unwrap(), &nodes[1..2], &wide, 5_000),
            "NAME     STATUS     ROLES    AGE   VERSION   INTERNAL-IP   EXTERNAL-IP   OS-IMAGE                         KERNEL-VERSION   CONTAINER-RUNTIME\n\
             node-1   NotReady   <none>   5s    v1.35.0   172.18.0.2    <none>        Debian GNU/Linux 12 (bookworm)   6.8.0            containerd://2.1.0\n"
        );
    }

    #[test]
    fn namespaces_configmaps_secrets_serviceaccounts_leases() {
        let meta = |n: &str| json!({"name": n, "creationTimestamp": "2026-01-01T00:00:00Z"});
        let ns = json!({"metadata": meta("default"), "status": {"phase": "Active"}});
        assert_eq!(
            print_table(lookup("ns").unwrap(), &[ns], &opts(), 1_000),
            "NAME      STATUS   AGE\ndefault   Active   1s\n"
        );
        let cm = json!({"metadata": meta("kube-root-ca.crt"), "data": {"ca.crt": "x"}});
        assert_eq!(
            print_table(lookup("cm").unwrap(), &[cm], &opts(), 1_000),
            "NAME               DATA   AGE\nkube-root-ca.crt   1      1s\n"
        );
        let secret = json!({"metadata": meta("creds"), "type": "Opaque", "data": {"a": "eA==", "b": "eQ=="}});
        assert_eq!(
            print_table(lookup("secrets").unwrap(), &[secret], &opts(), 1_000),
            "NAME    TYPE     DATA   AGE\ncreds   Opaque   2      1s\n"
        );
        let sa = json!({"metadata": meta("default")});
        assert_eq!(
            print_table(lookup("sa").unwrap(), &[sa], &opts(), 1_000),
            "NAME      SECRETS   AGE\ndefault   0         1s\n"
        );
        let lease = json!({"metadata": meta("node-1"), "spec": {"holderIdentity": "node-1"}});
        let empty = json!({"metadata": meta("kube-scheduler"), "spec": {}});
        assert_eq!(
            print_table(lookup("leases").unwrap(), &[lease, empty], &opts(), 1_000),
            "NAME             HOLDER   AGE\nnode-1           node-1   1s\nkube-scheduler            1s\n"
        );
    }

    #[test]
    fn events() {
        let ev = json!({"metadata": {"name": "web-1.18a2b3c4d5e6f7a8", "namespace": "default"},
            "involvedObject": {"kind": "Pod", "name": "web-1", "namespace": "default", "fieldPath": "spec.containers{nginx}"},
            "reason": "Pulled", "type": "Normal", "message": "Container image \"nginx:1.25\" already present on machine\n",
            "source": {"component": "kubelet", "host": "node-1"},
            "firstTimestamp": "2026-01-01T00:00:05Z", "lastTimestamp": "2026-01-01T00:00:05Z", "count": 1});
        let ev2 = json!({"metadata": {"name": "web.1"},
            "involvedObject": {"kind": "Deployment", "name": "web"},
            "reason": "ScalingReplicaSet", "type": "Normal", "message": "Scaled up replica set web-7c5ddbdf54 from 0 to 3",
            "source": {"component": "deployment-controller"},
            "firstTimestamp": "2026-01-01T00:00:01Z", "lastTimestamp": "2026-01-01T00:00:01Z", "count": 1});
        let res = lookup("events").unwrap();
        assert_eq!(
            print_table(res, &[ev2.clone(), ev.clone()], &opts(), 65_000),
            "LAST SEEN   TYPE     REASON              OBJECT           MESSAGE\n\
             64s         Normal   ScalingReplicaSet   deployment/web   Scaled up replica set web-7c5ddbdf54 from 0 to 3\n\
             60s         Normal   Pulled              pod/web-1        Container image \"nginx:1.25\" already present on machine\n"
        );
        let wide = TableOptions {
            wide: true,
            ..opts()
        };
        assert_eq!(
            print_table(res, &[ev], &wide, 65_000),
            "LAST SEEN   TYPE     REASON   OBJECT      SUBOBJECT                SOURCE            MESSAGE                                                   FIRST SEEN   COUNT   NAME\n\
             60s         Normal   Pulled   pod/web-1   spec.containers{nginx}   kubelet, node-1   Container image \"nginx:1.25\" already present on machine   60s          1       web-1.18a2b3c4d5e6f7a8\n"
        );
    }

    #[test]
    fn endpoints_and_slices() {
        let ep = json!({"metadata": {"name": "web", "creationTimestamp": "2026-01-01T00:00:00Z"},
            "subsets": [{"addresses": [{"ip": "10.244.1.2"}, {"ip": "10.244.2.3"}, {"ip": "10.244.3.4"}, {"ip": "10.244.1.5"}],
                         "ports": [{"port": 80, "protocol": "TCP"}]}]});
        let empty =
            json!({"metadata": {"name": "none", "creationTimestamp": "2026-01-01T00:00:00Z"}});
        let row = |a: &str, b: &str, c: &str| format!("{a:<7}{b:<56}{c}\n");
        assert_eq!(
            print_table(lookup("ep").unwrap(), &[ep, empty], &opts(), 1_000),
            row("NAME", "ENDPOINTS", "AGE")
                + &row(
                    "web",
                    "10.244.1.2:80,10.244.2.3:80,10.244.3.4:80 + 1 more...",
                    "1s"
                )
                + &row("none", "<none>", "1s")
        );
        let slice = json!({"metadata": {"name": "web-abcde", "creationTimestamp": "2026-01-01T00:00:00Z"},
            "addressType": "IPv4", "ports": [{"name": "", "port": 80, "protocol": "TCP"}],
            "endpoints": [{"addresses": ["10.244.1.2"]}, {"addresses": ["10.244.2.3"]}]});
        let bare = json!({"metadata": {"name": "x", "creationTimestamp": "2026-01-01T00:00:00Z"}, "addressType": "IPv4"});
        assert_eq!(
            print_table(
                lookup("endpointslices").unwrap(),
                &[slice, bare],
                &opts(),
                1_000
            ),
            "NAME        ADDRESSTYPE   PORTS     ENDPOINTS               AGE\n\
             web-abcde   IPv4          80        10.244.1.2,10.244.2.3   1s\n\
             x           IPv4          <unset>   <unset>                 1s\n"
        );
    }

    #[test]
    fn rbac_quota_priorityclass_limitrange() {
        let meta = |n: &str| json!({"name": n, "creationTimestamp": "2026-01-01T00:00:07Z"});
        let role = json!({"metadata": meta("pod-reader")});
        assert_eq!(
            print_table(
                lookup("roles").unwrap(),
                std::slice::from_ref(&role),
                &opts(),
                10_000
            ),
            "NAME         CREATED AT\npod-reader   2026-01-01T00:00:07Z\n"
        );
        assert_eq!(
            print_table(lookup("clusterroles").unwrap(), &[role], &opts(), 10_000),
            "NAME         CREATED AT\npod-reader   2026-01-01T00:00:07Z\n"
        );
        let rb = json!({"metadata": meta("read-pods"), "roleRef": {"kind": "Role", "name": "pod-reader"},
            "subjects": [{"kind": "User", "name": "jane"}, {"kind": "ServiceAccount", "name": "default", "namespace": "dev"}]});
        let wide = TableOptions {
            wide: true,
            ..opts()
        };
        assert_eq!(
            print_table(lookup("rolebindings").unwrap(), &[rb], &wide, 10_000),
            "NAME        ROLE              AGE   USERS   GROUPS   SERVICEACCOUNTS\n\
             read-pods   Role/pod-reader   3s    jane             dev/default\n"
        );
        let q = json!({"metadata": meta("compute"), "status": {
            "hard": {"requests.cpu": "2", "limits.memory": "4Gi", "pods": "10"},
            "used": {"requests.cpu": "500m", "pods": "3"}}});
        let row = |a: &str, b: &str, c: &str, d: &str| format!("{a:<10}{b:<35}{c:<23}{d}\n");
        assert_eq!(
            print_table(lookup("quota").unwrap(), &[q], &opts(), 10_000),
            row("NAME", "REQUEST", "LIMIT", "AGE")
                + &row(
                    "compute",
                    "pods: 3/10, requests.cpu: 500m/2",
                    "limits.memory: 0/4Gi",
                    "3s"
                )
        );
        let pc = json!({"metadata": meta("system-node-critical"), "value": 2000001000, "globalDefault": false,
            "preemptionPolicy": "PreemptLowerPriority"});
        assert_eq!(
            print_table(lookup("pc").unwrap(), &[pc], &opts(), 10_000),
            "NAME                   VALUE        GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY\n\
             system-node-critical   2000001000   false            3s    PreemptLowerPriority\n"
        );
        let lr = json!({"metadata": meta("limits")});
        assert_eq!(
            print_table(lookup("limits").unwrap(), &[lr], &opts(), 10_000),
            "NAME     CREATED AT\nlimits   2026-01-01T00:00:07Z\n"
        );
    }

    #[test]
    fn jobs_statefulsets_daemonsets_and_fallback() {
        let meta = json!({"name": "pi", "creationTimestamp": "2026-01-01T00:00:00Z"});
        let job = json!({"metadata": meta, "spec": {"completions": 1, "parallelism": 1,
                "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "u"}},
                "template": {"spec": {"containers": [{"name": "pi", "image": "perl"}]}}},
            "status": {"succeeded": 1, "startTime": "2026-01-01T00:00:00Z", "completionTime": "2026-01-01T00:00:12Z",
                "conditions": [{"type": "SuccessCriteriaMet", "status": "True"}, {"type": "Complete", "status": "True"}]}});
        assert_eq!(
            print_table(lookup("jobs").unwrap(), &[job], &opts(), 60_000),
            "NAME   STATUS     COMPLETIONS   DURATION   AGE\npi     Complete   1/1           12s        60s\n"
        );
        let sts = json!({"metadata": {"name": "db", "creationTimestamp": "2026-01-01T00:00:00Z"},
            "spec": {"replicas": 3}, "status": {"readyReplicas": 1}});
        assert_eq!(
            print_table(lookup("sts").unwrap(), &[sts], &opts(), 60_000),
            "NAME   READY   AGE\ndb     1/3     60s\n"
        );
        let ds = json!({"metadata": {"name": "kube-proxy", "creationTimestamp": "2026-01-01T00:00:00Z"},
            "spec": {"template": {"spec": {"nodeSelector": {"kubernetes.io/os": "linux"}}}},
            "status": {"desiredNumberScheduled": 3, "currentNumberScheduled": 3, "numberReady": 3,
                       "updatedNumberScheduled": 3, "numberAvailable": 3}});
        assert_eq!(
            print_table(lookup("ds").unwrap(), &[ds], &opts(), 60_000),
            "NAME         DESIRED   CURRENT   READY   UP-TO-DATE   AVAILABLE   NODE SELECTOR            AGE\n\
             kube-proxy   3         3         3       3            3           kubernetes.io/os=linux   60s\n"
        );
        let other = json!({"metadata": {"name": "x", "creationTimestamp": "2026-01-01T00:00:00Z"}});
        let fake = ResourceInfo {
            group: "example.com",
            version: "v1",
            kind: "Widget",
            plural: "widgets",
            singular: "widget",
            short_names: &[],
            namespaced: true,
            etcd_prefix: "widgets",
        };
        assert_eq!(
            print_table(&fake, &[other], &opts(), 1_000),
            "NAME   AGE\nx      1s\n"
        );
        assert_eq!(
            no_resources_found(Some("default")),
            "No resources found in default namespace."
        );
        assert_eq!(no_resources_found(None), "No resources found");
    }

    #[test]
    fn timestamps_from_a_real_cluster_keep_their_age() {
        assert_eq!(age(0, Some("2024-01-01T00:00:00Z")), "2y1d");
        assert_eq!(age(0, Some("2026-01-01T00:59:30+01:00")), "30s");
        assert_eq!(age(5_500, Some("2026-01-01T00:00:01.250000Z")), "4s");
        assert_eq!(age(0, None), "<unknown>");
        assert_eq!(age(0, Some("2026-01-01T00:00:05Z")), "<invalid>");
        assert_eq!(rfc3339_utc(EPOCH_UNIX_SECONDS + 61), "2026-01-01T00:01:01Z");
        let role =
            json!({"metadata": {"name": "r", "creationTimestamp": "2024-06-01T12:00:00+02:00"}});
        assert_eq!(
            print_table(lookup("roles").unwrap(), &[role], &opts(), 0),
            "NAME   CREATED AT\nr      2024-06-01T10:00:00Z\n"
        );
    }

    #[test]
    fn go_sort_sorts_and_keeps_gos_order_of_equal_elements() {
        // Small inputs use insertion sort, which keeps equal elements in order.
        let mut v: Vec<(u32, u32)> = vec![(2, 0), (1, 1), (2, 2), (1, 3)];
        go_sort(&mut v, |a, b| a.0 < b.0);
        assert_eq!(v, vec![(1, 1), (1, 3), (2, 0), (2, 2)]);
        // Larger inputs are sorted by key; the order of ties is pdqsort's.
        let mut v: Vec<(u32, u32)> = (0..200).map(|i| ((i * 7919) % 97, i)).collect();
        go_sort(&mut v, |a, b| a.0 < b.0);
        assert!(v.windows(2).all(|w| w[0].0 <= w[1].0));
        let mut sorted: Vec<u32> = v.iter().map(|p| p.1).collect();
        sorted.sort();
        assert_eq!(sorted, (0..200).collect::<Vec<_>>());
        // Reverse-sorted and all-equal inputs take the other paths.
        let mut r: Vec<u32> = (0..100).rev().collect();
        go_sort(&mut r, |a, b| a < b);
        assert_eq!(r, (0..100).collect::<Vec<_>>());
        let mut e: Vec<(u8, usize)> = (0..64).map(|i| (0, i)).collect();
        go_sort(&mut e, |a, b| a.0 < b.0);
        assert_eq!(e.len(), 64);
    }

    #[test]
    fn selectors_format_like_metav1() {
        let sel = json!({"matchLabels": {"b": "2", "a": "1"},
            "matchExpressions": [{"key": "env", "operator": "In", "values": ["prod", "dev"]},
                                 {"key": "tier", "operator": "DoesNotExist"}]});
        assert_eq!(
            selector_string(Some(&sel)),
            "a=1,b=2,env in (dev,prod),!tier"
        );
        assert_eq!(format_label_selector(Some(&json!({}))), "<none>");
        assert_eq!(format_label_selector(None), "<none>");
    }
}
