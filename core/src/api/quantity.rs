//! `resource.Quantity` (`staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go`, 1.35):
//! a fixed-point number with a suffix format, parsed and printed exactly as the apiserver does.
//!
//! A quantity is held as an exact count of nano-units (`i128`) plus the format its suffix asked
//! for. Parsing rounds anything finer than a nano-unit away from zero (`0.9n` is `1n`) and caps
//! binary-SI values at 2^63-1 units (`9Ei`), as Go does. Printing gives the canonical form:
//! no fractional digits, the largest suffix that loses no precision (`0.5` is `500m`, `1024Mi`
//! is `1Gi`, `1.5Gi` is `1536Mi`). As in Go, a string that was already in canonical form is
//! kept verbatim (`+1` stays `+1`, `1E3` stays `1E3`); arithmetic drops it.
//!
//! Differences from Go, all far outside what resource specs use: magnitudes saturate at
//! `i128::MAX` nano-units (about 1.7e29 units); a decimal exponent above 18 with a `DecimalSI`
//! value prints as `e21`-style exponent notation (1.35 dropped the exponent, a bug fixed later).

use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};
use std::str::FromStr;

/// The text of `ErrFormatWrong`.
pub const FORMAT_WRONG_MESSAGE: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

const NANO: i128 = 1_000_000_000;
/// The binary-SI cap, 2^63-1 units, in nano-units.
const MAX_BINARY_NANOS: i128 = (i64::MAX as i128) * NANO;

/// `resource.Format`: how a quantity prints its suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum QuantityFormat {
    /// `12e6`
    DecimalExponent,
    /// `12Mi` (12 * 2^20)
    BinarySI,
    /// `12M` (12 * 10^6)
    #[default]
    DecimalSI,
}

impl QuantityFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            QuantityFormat::DecimalExponent => "DecimalExponent",
            QuantityFormat::BinarySI => "BinarySI",
            QuantityFormat::DecimalSI => "DecimalSI",
        }
    }
}

/// The errors of `resource.ParseQuantity`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuantityError {
    /// `ErrFormatWrong`
    FormatWrong,
    /// `ErrNumeric`
    Numeric,
    /// `ErrSuffix`
    Suffix,
}

impl fmt::Display for QuantityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            QuantityError::FormatWrong => FORMAT_WRONG_MESSAGE,
            QuantityError::Numeric => "unable to parse numeric part of quantity",
            QuantityError::Suffix => "unable to parse quantity's suffix",
        })
    }
}

impl std::error::Error for QuantityError {}

/// The string a quantity was parsed from, kept when it was already canonical (Go's `q.s`).
#[derive(Clone, Copy)]
struct Text {
    bytes: [u8; 30],
    len: u8,
    /// The base-10 scale of the parsed amount (`int64Amount.scale`), which decides whether
    /// rounding to milli-units keeps the string.
    scale: i32,
}

impl Text {
    fn new(s: &str, scale: i32) -> Option<Text> {
        if s.len() > 30 {
            return None;
        }
        let mut bytes = [0u8; 30];
        bytes[..s.len()].copy_from_slice(s.as_bytes());
        Some(Text {
            bytes,
            len: s.len() as u8,
            scale,
        })
    }

    fn as_str(&self) -> &str {
        // Only ever built from a &str.
        std::str::from_utf8(&self.bytes[..self.len as usize]).unwrap_or("")
    }
}

/// A `resource.Quantity`. Equality and ordering compare values only (`1Gi == 1024Mi`).
#[derive(Clone, Copy)]
pub struct Quantity {
    nanos: i128,
    format: QuantityFormat,
    text: Option<Text>,
}

impl Default for Quantity {
    fn default() -> Self {
        Quantity::zero()
    }
}

impl Quantity {
    /// Zero, in `DecimalSI`.
    pub const fn zero() -> Quantity {
        Quantity {
            nanos: 0,
            format: QuantityFormat::DecimalSI,
            text: None,
        }
    }

    /// `resource.NewQuantity(value, format)`.
    pub fn new(value: i64, format: QuantityFormat) -> Quantity {
        Quantity::from_nanos(value as i128 * NANO, format)
    }

    /// An exact count of nano-units in the given format.
    pub const fn from_nanos(nanos: i128, format: QuantityFormat) -> Quantity {
        Quantity {
            nanos,
            format,
            text: None,
        }
    }

    /// `resource.NewMilliQuantity(value, DecimalSI)`: `500` is `500m`, CPU style.
    pub fn from_milli(milli: i64) -> Quantity {
        Quantity::from_nanos(milli as i128 * 1_000_000, QuantityFormat::DecimalSI)
    }

    /// `resource.NewQuantity(bytes, BinarySI)`: memory style, `1073741824` is `1Gi`.
    pub fn from_bytes(bytes: i64) -> Quantity {
        Quantity::new(bytes, QuantityFormat::BinarySI)
    }

    /// `resource.NewQuantity(value, DecimalSI)`: counts such as `pods: 110`.
    pub fn from_value(value: i64) -> Quantity {
        Quantity::new(value, QuantityFormat::DecimalSI)
    }

    /// `resource.ParseQuantity`. Whitespace is not trimmed (the JSON decoder trims it).
    pub fn parse(s: &str) -> Result<Quantity, QuantityError> {
        parse_quantity(s)
    }

    /// The exact value in nano-units.
    pub fn nanos(&self) -> i128 {
        self.nanos
    }

    pub fn format(&self) -> QuantityFormat {
        self.format
    }

    pub fn is_zero(&self) -> bool {
        self.nanos == 0
    }

    pub fn is_negative(&self) -> bool {
        self.nanos < 0
    }

    /// -1, 0 or 1.
    pub fn sign(&self) -> i32 {
        self.nanos.signum() as i32
    }

    /// `Value()`: the value rounded up (away from zero) to an integer, saturating at the i64 range.
    pub fn value(&self) -> i64 {
        self.scaled_value(0)
    }

    /// `MilliValue()`: ceil(q * 1000) away from zero, saturating at the i64 range.
    pub fn milli_value(&self) -> i64 {
        self.scaled_value(-3)
    }

    /// `ScaledValue(scale)`: ceil(q / 10^scale) away from zero, saturating at the i64 range.
    pub fn scaled_value(&self, scale: i32) -> i64 {
        let shift = scale as i64 + 9;
        let v = if shift <= 0 {
            match pow10(-shift) {
                Some(p) => self.nanos.checked_mul(p).unwrap_or(if self.nanos < 0 {
                    i128::MIN
                } else {
                    i128::MAX
                }),
                None if self.nanos == 0 => 0,
                None if self.nanos < 0 => i128::MIN,
                None => i128::MAX,
            }
        } else {
            match pow10(shift) {
                Some(p) => div_away(self.nanos, p),
                None => self.nanos.signum(),
            }
        };
        v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
    }

    /// Compares with an integer, as `CmpInt64`.
    pub fn cmp_i64(&self, y: i64) -> Ordering {
        self.nanos.cmp(&(y as i128 * NANO))
    }

    /// `RoundUp(Milli)`, what `SetDefaults_ResourceList` does to every quantity in a resource
    /// list: round up (away from zero) to a whole milli-unit.
    pub fn round_up_milli(&mut self) {
        let rounded = div_away(self.nanos, 1_000_000) * 1_000_000;
        if rounded != self.nanos {
            self.nanos = rounded;
            self.text = None;
        } else if matches!(self.text, Some(t) if t.scale < -3) {
            self.text = None;
        }
    }

    /// The canonical string, ignoring any kept input string (Go's `CanonicalizeBytes`).
    pub fn canonical(&self) -> String {
        canonical_string(self.nanos, self.format)
    }

    /// The quantity as it appears in JSON: a string.
    pub fn to_json(&self) -> crate::api::value::Value {
        crate::api::value::Value::String(self.to_string())
    }

    /// Reads a quantity from JSON as the apiserver's decoder accepts it: a string (surrounding
    /// whitespace trimmed) or a bare number.
    pub fn from_json(v: &crate::api::value::Value) -> Result<Quantity, QuantityError> {
        match v {
            crate::api::value::Value::String(s) => Quantity::parse(s.trim()),
            crate::api::value::Value::Number(n) => Quantity::parse(&n.to_string()),
            crate::api::value::Value::Null => Ok(Quantity::zero()),
            _ => Err(QuantityError::FormatWrong),
        }
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.text {
            Some(t) => f.write_str(t.as_str()),
            None => f.write_str(&canonical_string(self.nanos, self.format)),
        }
    }
}

impl fmt::Debug for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Quantity({} {})", self, self.format.as_str())
    }
}

impl FromStr for Quantity {
    type Err = QuantityError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Quantity::parse(s)
    }
}

impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        self.nanos == other.nanos
    }
}

impl Eq for Quantity {}

impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Quantity {
    fn cmp(&self, other: &Self) -> Ordering {
        self.nanos.cmp(&other.nanos)
    }
}

impl std::hash::Hash for Quantity {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.nanos.hash(state)
    }
}

/// `q.Add(y)`: saturating; a zero quantity takes the format of what is added to it.
impl AddAssign for Quantity {
    fn add_assign(&mut self, y: Quantity) {
        if self.nanos == 0 {
            self.format = y.format;
        }
        self.nanos = self.nanos.saturating_add(y.nanos);
        self.text = None;
    }
}

/// `q.Sub(y)`: saturating; a zero quantity takes the format of what is subtracted from it.
impl SubAssign for Quantity {
    fn sub_assign(&mut self, y: Quantity) {
        if self.nanos == 0 {
            self.format = y.format;
        }
        self.nanos = self.nanos.saturating_sub(y.nanos);
        self.text = None;
    }
}

impl Add for Quantity {
    type Output = Quantity;
    fn add(mut self, y: Quantity) -> Quantity {
        self += y;
        self
    }
}

impl Sub for Quantity {
    type Output = Quantity;
    fn sub(mut self, y: Quantity) -> Quantity {
        self -= y;
        self
    }
}

impl Neg for Quantity {
    type Output = Quantity;
    fn neg(self) -> Quantity {
        Quantity {
            nanos: self.nanos.saturating_neg(),
            format: self.format,
            text: None,
        }
    }
}

impl serde::Serialize for Quantity {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Quantity {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = crate::api::value::Value::deserialize(d)?;
        Quantity::from_json(&v).map_err(serde::de::Error::custom)
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing

/// The pieces `parseQuantityString` cuts a quantity into.
struct Scanned<'a> {
    positive: bool,
    /// Digits before the point, leading zeros stripped, `"0"` when none are left.
    num: &'a str,
    /// Digits after the point.
    denom: &'a str,
    suffix: &'a str,
}

/// A port of `parseQuantityString`, a scanner more permissive than the regular expression.
fn scan(s: &str) -> Result<Scanned<'_>, QuantityError> {
    let b = s.as_bytes();
    let end = b.len();
    let mut positive = true;
    let mut pos = 0;
    let done = |positive, num, denom, suffix| {
        Ok(Scanned {
            positive,
            num,
            denom,
            suffix,
        })
    };
    if pos < end {
        match b[0] {
            b'-' => {
                positive = false;
                pos += 1;
            }
            b'+' => pos += 1,
            _ => {}
        }
    }
    // Leading zeros.
    let mut i = pos;
    loop {
        if i >= end {
            return done(positive, "0", "", "");
        }
        if b[i] == b'0' {
            pos += 1;
            i += 1;
        } else {
            break;
        }
    }
    // Numerator.
    let mut i = pos;
    let mut num;
    loop {
        if i >= end {
            return done(positive, &s[pos..end], "", "");
        }
        if b[i].is_ascii_digit() {
            i += 1;
        } else {
            num = &s[pos..i];
            pos = i;
            break;
        }
    }
    if num.is_empty() {
        num = "0";
    }
    // Denominator.
    let mut denom = "";
    if pos < end && b[pos] == b'.' {
        pos += 1;
        let mut i = pos;
        loop {
            if i >= end {
                return done(positive, num, &s[pos..end], "");
            }
            if b[i].is_ascii_digit() {
                i += 1;
            } else {
                denom = &s[pos..i];
                pos = i;
                break;
            }
        }
    }
    // Suffix: letters, an optional sign, digits.
    let suffix_start = pos;
    let mut i = pos;
    loop {
        if i >= end {
            return done(positive, num, denom, &s[suffix_start..end]);
        }
        if b"eEinumkKMGTP".contains(&b[i]) {
            i += 1;
        } else {
            pos = i;
            break;
        }
    }
    if pos < end && (b[pos] == b'-' || b[pos] == b'+') {
        pos += 1;
    }
    let mut i = pos;
    loop {
        if i >= end {
            return done(positive, num, denom, &s[suffix_start..end]);
        }
        if b[i].is_ascii_digit() {
            i += 1;
        } else {
            break;
        }
    }
    Err(QuantityError::FormatWrong)
}

/// `quantitySuffixer.interpret`: (base, exponent, format).
fn interpret(suffix: &str) -> Option<(u32, i32, QuantityFormat)> {
    use QuantityFormat::*;
    let dec = |e| Some((10, e, DecimalSI));
    let bin = |e| Some((2, e, BinarySI));
    match suffix {
        "" => dec(0),
        "n" => dec(-9),
        "u" => dec(-6),
        "m" => dec(-3),
        "k" => dec(3),
        "M" => dec(6),
        "G" => dec(9),
        "T" => dec(12),
        "P" => dec(15),
        "E" => dec(18),
        "Ki" => bin(10),
        "Mi" => bin(20),
        "Gi" => bin(30),
        "Ti" => bin(40),
        "Pi" => bin(50),
        "Ei" => bin(60),
        s if s.len() > 1 && (s.starts_with('e') || s.starts_with('E')) => {
            // strconv.ParseInt(s[1:], 10, 64), then a wrapping int32 conversion.
            let exp = go_parse_int(&s[1..])?;
            Some((10, exp as i32, DecimalExponent))
        }
        _ => None,
    }
}

/// `strconv.ParseInt(s, 10, 64)`.
fn go_parse_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse::<i64>().ok()
}

fn parse_quantity(s: &str) -> Result<Quantity, QuantityError> {
    if s.is_empty() {
        return Err(QuantityError::FormatWrong);
    }
    if s == "0" {
        return Ok(Quantity {
            nanos: 0,
            format: QuantityFormat::DecimalSI,
            text: Text::new(s, 0),
        });
    }
    let sc = scan(s)?;
    let (base, exponent, mut format) = interpret(sc.suffix).ok_or(QuantityError::Suffix)?;

    // Go's fast path decides whether the input string is kept as the canonical form.
    let mut text = None;
    let (precision, scale) = match format {
        QuantityFormat::DecimalSI | QuantityFormat::DecimalExponent => (
            18i64 - (sc.num.len() + sc.denom.len()) as i64,
            exponent as i64 - sc.denom.len() as i64,
        ),
        QuantityFormat::BinarySI => {
            if exponent >= 0 && sc.denom.is_empty() {
                (15 - sc.num.len() as i64 - (exponent as i64 * 3 / 10) - 1, 0)
            } else {
                (-1, 0)
            }
        }
    };
    if precision >= 0 && scale >= -9 {
        // shifted := num + denom, parsed as an int64 (at most 18 digits here).
        let mut value: i64 = 0;
        for c in sc.num.bytes().chain(sc.denom.bytes()) {
            value = value * 10 + (c - b'0') as i64;
        }
        let mantissa: i64 = if base == 2 { 1i64 << exponent } else { 1 };
        if value.checked_mul(mantissa).is_some() {
            let canonical = if base == 2 {
                exponent % 10 == 0 && value & 0x07 != 0
            } else {
                let digits = || sc.num.bytes().chain(sc.denom.bytes());
                let n = sc.num.len() + sc.denom.len();
                let ends_000 = n >= 3 && digits().skip(n - 3).all(|c| c == b'0');
                scale % 3 == 0 && !ends_000 && !sc.num.starts_with('0')
            };
            if canonical {
                text = Text::new(s, scale as i32);
            }
        }
    }

    let mut nanos = magnitude_nanos(sc.num, sc.denom, base, exponent);
    if format == QuantityFormat::BinarySI {
        if nanos > MAX_BINARY_NANOS {
            nanos = MAX_BINARY_NANOS;
            text = None;
        }
        if nanos > 0 && nanos < NANO {
            format = QuantityFormat::DecimalSI;
        }
    }
    if !sc.positive {
        nanos = -nanos;
    }
    Ok(Quantity {
        nanos,
        format,
        text,
    })
}

/// The magnitude in nano-units, rounded up to a whole nano-unit, saturating at `i128::MAX`.
fn magnitude_nanos(num: &str, denom: &str, base: u32, exponent: i32) -> i128 {
    let denom = denom.trim_end_matches('0');
    let int_part = num.trim_start_matches('0');
    let digits_len = int_part.len() + denom.len();
    if int_part.bytes().chain(denom.bytes()).all(|c| c == b'0') {
        return 0;
    }
    if digits_len > 38 {
        return i128::MAX;
    }
    let mut m: i128 = 0;
    for c in int_part.bytes().chain(denom.bytes()) {
        m = m * 10 + (c - b'0') as i128;
    }
    let (e10, e2) = if base == 2 {
        (0i64, exponent)
    } else {
        (exponent as i64, 0)
    };
    if e2 > 0 {
        m = match 1i128.checked_shl(e2 as u32).and_then(|p| m.checked_mul(p)) {
            Some(v) => v,
            None => return i128::MAX,
        };
    }
    let k = e10 - denom.len() as i64 + 9;
    if k >= 0 {
        pow10(k).and_then(|p| m.checked_mul(p)).unwrap_or(i128::MAX)
    } else {
        match pow10(-k) {
            Some(p) => div_away(m, p),
            None => 1,
        }
    }
}

fn pow10(k: i64) -> Option<i128> {
    if !(0..=38).contains(&k) {
        return None;
    }
    Some(10i128.pow(k as u32))
}

/// Division rounding away from zero.
fn div_away(n: i128, d: i128) -> i128 {
    let q = n / d;
    if n % d == 0 {
        q
    } else if n < 0 {
        q - 1
    } else {
        q + 1
    }
}

// ---------------------------------------------------------------------------------------------
// Canonical form

fn canonical_string(nanos: i128, format: QuantityFormat) -> String {
    if nanos == 0 {
        return "0".to_string();
    }
    let mut format = format;
    if format == QuantityFormat::BinarySI {
        let small = nanos > -1024 * NANO && nanos < 1024 * NANO;
        if small || nanos % NANO != 0 {
            format = QuantityFormat::DecimalSI;
        }
    }
    let negative = nanos < 0;
    let mag = nanos.unsigned_abs();
    let mut out = String::new();
    if negative {
        out.push('-');
    }
    match format {
        QuantityFormat::BinarySI => {
            let mut v = mag / NANO as u128;
            let mut times = 0;
            while times < 6 && v >= 1024 && v.is_multiple_of(1024) {
                v /= 1024;
                times += 1;
            }
            out.push_str(&v.to_string());
            out.push_str(["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"][times]);
        }
        QuantityFormat::DecimalSI | QuantityFormat::DecimalExponent => {
            let mut m = mag;
            let mut exp: i32 = -9;
            while m >= 10 && m.is_multiple_of(10) {
                m /= 10;
                exp += 1;
            }
            let mut digits = m.to_string();
            while exp.rem_euclid(3) != 0 {
                digits.push('0');
                exp -= 1;
            }
            out.push_str(&digits);
            let si = match exp {
                -9 => Some("n"),
                -6 => Some("u"),
                -3 => Some("m"),
                0 => Some(""),
                3 => Some("k"),
                6 => Some("M"),
                9 => Some("G"),
                12 => Some("T"),
                15 => Some("P"),
                18 => Some("E"),
                _ => None,
            };
            match (format, si) {
                (QuantityFormat::DecimalSI, Some(s)) => out.push_str(s),
                _ if exp == 0 => {}
                _ => out.push_str(&format!("e{exp}")),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        Quantity::parse(s)
            .unwrap_or_else(|e| panic!("{s}: {e}"))
            .to_string()
    }

    #[test]
    fn canonical_forms() {
        for (input, want) in [
            ("0.5", "500m"),
            ("1000m", "1"),
            ("1024Mi", "1Gi"),
            ("1.5Gi", "1536Mi"),
            ("128974848", "128974848"),
            ("129e6", "129e6"),
            ("129M", "129M"),
            ("123Mi", "123Mi"),
            ("100m", "100m"),
            ("1.5", "1500m"),
            ("0.1", "100m"),
            ("250m", "250m"),
            ("2", "2"),
            ("1000M", "1G"),
            (".001Ki", "1024m"),
            (".000001Ki", "1024u"),
            (".000000001Ki", "1024n"),
            (".000000000001Ki", "2n"),
            ("1Ki", "1Ki"),
            ("8Ki", "8Ki"),
            ("1025", "1025"),
            ("5000m", "5"),
            ("300Mi", "300Mi"),
            ("307200Ki", "300Mi"),
            ("1025024Mi", "1001Gi"),
            ("1024Gi", "1Ti"),
            ("0.001T", "1G"),
            ("1000u", "1m"),
            ("1.08", "1080m"),
            ("1080000000n", "1080m"),
            (".001e12", "1e9"),
            ("0.001e0", "1e-3"),
            ("1000e-12", "1e-9"),
            ("00", "0"),
            ("0", "0"),
            ("0Mi", "0"),
            ("-0", "0"),
            ("3.001n", "4n"),
            ("0.9n", "1n"),
            ("0.00000012345", "124n"),
            ("9Ei", "9223372036854775807"),
            ("100.035k", "100.035k"),
            ("100.0350k", "100035"),
            ("1.", "1."),
            ("1.G", "1.G"),
            ("1.0", "1"),
            ("12E", "12E"),
            ("0.5Mi", "512Ki"),
            ("-1.5Gi", "-1536Mi"),
            ("-0.5", "-500m"),
            ("-1024Mi", "-1Gi"),
            ("1000E", "1e21"),
        ] {
            assert_eq!(canon(input), want, "{input}");
        }
    }

    #[test]
    fn canonical_input_strings_are_kept() {
        // Go keeps the input when it is already in canonical form, sign and case included.
        for s in ["+1", "1E3", "1e3", "01", "1Gi", "-1Gi", "100m", "1.500k"] {
            assert_eq!(canon(s), s);
        }
        let mut q = Quantity::parse("+1").unwrap();
        q += Quantity::zero();
        assert_eq!(q.to_string(), "1");
    }

    #[test]
    fn formats() {
        use QuantityFormat::*;
        for (s, f) in [
            ("1", DecimalSI),
            ("1Ki", BinarySI),
            ("1e3", DecimalExponent),
            ("1E-3", DecimalExponent),
            ("0.000000000001Ki", DecimalSI),
            ("0.5Mi", BinarySI),
            ("5n", DecimalSI),
        ] {
            assert_eq!(Quantity::parse(s).unwrap().format(), f, "{s}");
        }
    }

    #[test]
    fn values() {
        let q = Quantity::parse("1.5Gi").unwrap();
        assert_eq!(q.value(), 1610612736);
        assert_eq!(Quantity::parse("500m").unwrap().milli_value(), 500);
        assert_eq!(Quantity::parse("500m").unwrap().value(), 1);
        assert_eq!(Quantity::parse("1n").unwrap().value(), 1);
        assert_eq!(Quantity::parse("-1n").unwrap().value(), -1);
        assert_eq!(Quantity::parse("1n").unwrap().milli_value(), 1);
        assert_eq!(Quantity::parse("2").unwrap().milli_value(), 2000);
        assert_eq!(Quantity::parse("128Mi").unwrap().value(), 134217728);
        assert_eq!(Quantity::parse("9Ei").unwrap().value(), i64::MAX);
        assert_eq!(
            Quantity::parse("9223372036854775807Ki").unwrap().value(),
            i64::MAX
        );
        assert_eq!(
            Quantity::parse("1E").unwrap().value(),
            1_000_000_000_000_000_000
        );
        assert_eq!(Quantity::parse("100E").unwrap().value(), i64::MAX);
        assert_eq!(Quantity::parse("3").unwrap().scaled_value(3), 1);
        assert_eq!(Quantity::parse("1.2e3").unwrap().value(), 1200);
        assert_eq!(Quantity::parse("1.3E+6").unwrap().value(), 1_300_000);
    }

    #[test]
    fn arithmetic_and_comparison() {
        let a = Quantity::parse("1Gi").unwrap();
        let b = Quantity::parse("1024Mi").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.cmp(&Quantity::parse("1G").unwrap()), Ordering::Greater);
        let mut z = Quantity::zero();
        z += Quantity::parse("512Mi").unwrap();
        assert_eq!(z.format(), QuantityFormat::BinarySI);
        z += Quantity::parse("512Mi").unwrap();
        assert_eq!(z.to_string(), "1Gi");
        let c = Quantity::from_milli(250) + Quantity::from_milli(750);
        assert_eq!(c.to_string(), "1");
        let d = Quantity::from_milli(250) - Quantity::from_milli(750);
        assert!(d.is_negative());
        assert_eq!(d.to_string(), "-500m");
        assert_eq!((-d).to_string(), "500m");
        assert_eq!(Quantity::from_bytes(134217728).to_string(), "128Mi");
        assert_eq!(Quantity::from_bytes(1000).to_string(), "1k");
        assert_eq!(Quantity::from_value(110).to_string(), "110");
        assert_eq!(Quantity::from_milli(4000).to_string(), "4");
        assert_eq!(a.cmp_i64(1 << 30), Ordering::Equal);
    }

    #[test]
    fn round_up_to_milli() {
        let mut q = Quantity::parse("0.5m").unwrap();
        q.round_up_milli();
        assert_eq!(q.to_string(), "1m");
        let mut q = Quantity::parse("100m").unwrap();
        q.round_up_milli();
        assert_eq!(q.to_string(), "100m");
        let mut q = Quantity::parse("1500u").unwrap();
        q.round_up_milli();
        assert_eq!(q.to_string(), "2m");
        let mut q = Quantity::parse("-1500u").unwrap();
        q.round_up_milli();
        assert_eq!(q.to_string(), "-2m");
        let mut q = Quantity::parse("1.500m").unwrap();
        assert_eq!(q.to_string(), "1.500m");
        q.round_up_milli();
        assert_eq!(q.to_string(), "2m");
    }

    #[test]
    fn errors() {
        for s in ["", "1.1.M", "1+1.0M", "aoeu", " 1", "1 ", "1Gb", "x", "1.."] {
            assert_eq!(
                Quantity::parse(s).unwrap_err().to_string(),
                FORMAT_WRONG_MESSAGE,
                "{s:?}"
            );
        }
        for s in [
            "0.1mi", ".5i", "1i", "-3.01i", "1e", "1e+", "1k3", "-3.01e-",
        ] {
            assert_eq!(
                Quantity::parse(s).unwrap_err(),
                QuantityError::Suffix,
                "{s:?}"
            );
        }
        assert_eq!(
            QuantityError::Suffix.to_string(),
            "unable to parse quantity's suffix"
        );
        assert_eq!(
            QuantityError::Numeric.to_string(),
            "unable to parse numeric part of quantity"
        );
        assert_eq!(
            FORMAT_WRONG_MESSAGE,
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"
        );
    }

    #[test]
    fn odd_but_valid_inputs() {
        // The scanner is more permissive than its regular expression.
        for (s, nanos) in [
            (".", 0),
            ("+", 0),
            ("-", 0),
            (".5", 500_000_000),
            ("1.", NANO),
        ] {
            assert_eq!(Quantity::parse(s).unwrap().nanos(), nanos, "{s:?}");
        }
    }

    #[test]
    fn json_forms() {
        use crate::json;
        assert_eq!(
            Quantity::from_json(&json!(0.5)).unwrap().to_string(),
            "500m"
        );
        assert_eq!(Quantity::from_json(&json!(2)).unwrap().to_string(), "2");
        assert_eq!(
            Quantity::from_json(&json!(" 1Gi ")).unwrap().to_string(),
            "1Gi"
        );
        assert!(Quantity::from_json(&json!(true)).is_err());
        let q: Quantity = crate::api::value::from_value(json!("1.5Gi")).unwrap();
        assert_eq!(crate::api::value::to_value(q).unwrap(), json!("1536Mi"));
    }
}
