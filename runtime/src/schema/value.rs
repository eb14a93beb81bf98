//! JSON values as draft 2020-12 compares them: numbers by mathematical value
//! (`1 == 1.0`, compared exactly across `u64`, `i64` and `f64`), equality of
//! arrays and objects element by element, `multipleOf` in decimal
//! arithmetic, and the JSON pointer tokens of instance locations.

use serde_json::{Number, Value};
use std::cmp::Ordering;

/// Compares two JSON numbers by their mathematical value, exactly.
pub(crate) fn cmp_numbers(a: &Number, b: &Number) -> Ordering {
    match (integer(a), integer(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(x), None) => cmp_int_float(x, b.as_f64().unwrap_or(0.0)),
        (None, Some(y)) => cmp_int_float(y, a.as_f64().unwrap_or(0.0)).reverse(),
        (None, None) => {
            let (x, y) = (a.as_f64().unwrap_or(0.0), b.as_f64().unwrap_or(0.0));
            x.partial_cmp(&y).unwrap_or(Ordering::Equal)
        }
    }
}

/// The number as an integer when serde_json holds it as one.
fn integer(n: &Number) -> Option<i128> {
    n.as_i64()
        .map(i128::from)
        .or_else(|| n.as_u64().map(i128::from))
}

/// `int` against `float`, exactly (no rounding of `int` to `f64`).
fn cmp_int_float(int: i128, float: f64) -> Ordering {
    // 2^127 bounds every i128; JSON has no NaN or infinity.
    const BOUND: f64 = 1.7014118346046923e38;
    if float >= BOUND {
        return Ordering::Less;
    }
    if float < -BOUND {
        return Ordering::Greater;
    }
    let whole = float.trunc();
    // `whole` lies within ±2^127 and has no fraction: the cast is exact.
    let whole_int = whole as i128;
    match int.cmp(&whole_int) {
        Ordering::Equal => 0.0_f64
            .partial_cmp(&(float - whole))
            .unwrap_or(Ordering::Equal),
        other => other,
    }
}

/// Whether `n` is an integer (a number with a zero fractional part: `1.0` is one).
pub(crate) fn is_integer(n: &Number) -> bool {
    integer(n).is_some() || n.as_f64().is_some_and(|f| f.fract() == 0.0)
}

/// JSON equality: numbers by value, arrays element-wise, objects key-wise.
pub(crate) fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => cmp_numbers(x, y) == Ordering::Equal,
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| equal(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| equal(v, w)))
        }
        _ => a == b,
    }
}

/// Whether `items` has two equal elements (JSON equality), in n·log n: each
/// element is written in a canonical form (object keys sorted, numbers by
/// value) and the forms are sorted.
pub(crate) fn has_duplicates(items: &[Value]) -> bool {
    let mut forms: Vec<String> = items
        .iter()
        .map(|item| {
            let mut form = String::new();
            canonical(item, &mut form);
            form
        })
        .collect();
    forms.sort_unstable();
    forms.windows(2).any(|w| w[0] == w[1])
}

/// A text equal for two values exactly when they are equal as JSON.
fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Number(n) => {
            let integral = integer(n).or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 1.7e38)
                    // Integral and within ±2^127: the cast is exact.
                    .map(|f| f as i128)
            });
            match integral {
                Some(i) => out.push_str(&i.to_string()),
                None => out.push_str(&format!("{:e}", n.as_f64().unwrap_or(0.0))),
            }
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut members: Vec<(&String, &Value)> = map.iter().collect();
            members.sort_unstable_by(|a, b| a.0.cmp(b.0));
            out.push('{');
            for (key, item) in members {
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical(item, out);
                out.push(',');
            }
            out.push('}');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// A finite decimal `digits × 10^exponent` with no trailing zero in `digits`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Decimal {
    digits: u128,
    exponent: i32,
}

impl Decimal {
    /// The decimal a JSON number was written as (for a float, its shortest
    /// round-trip decimal form, which is what the schema author wrote).
    pub(crate) fn of(n: &Number) -> Option<Decimal> {
        if let Some(i) = integer(n) {
            return Some(Decimal::normalized(i.unsigned_abs(), 0));
        }
        let f = n.as_f64()?.abs();
        // `{:e}` is the shortest representation that round-trips: `1.5e-3`.
        let text = format!("{f:e}");
        let (mantissa, exponent) = text.split_once('e')?;
        let exponent: i32 = exponent.parse().ok()?;
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits: u128 = format!("{whole}{fraction}").parse().ok()?;
        let exponent = exponent - i32::try_from(fraction.len()).ok()?;
        Some(Decimal::normalized(digits, exponent))
    }

    fn normalized(mut digits: u128, mut exponent: i32) -> Decimal {
        if digits == 0 {
            return Decimal {
                digits: 0,
                exponent: 0,
            };
        }
        while digits.is_multiple_of(10) {
            digits /= 10;
            exponent += 1;
        }
        Decimal { digits, exponent }
    }

    /// Whether the value is zero.
    pub(crate) fn is_zero(self) -> bool {
        self.digits == 0
    }

    /// Whether `self / divisor` is an integer (`divisor` non-zero), exactly.
    pub(crate) fn is_multiple_of(self, divisor: Decimal) -> bool {
        if self.digits == 0 {
            return true;
        }
        if divisor.digits == 0 {
            return false;
        }
        let shift = self.exponent - divisor.exponent;
        if shift < 0 {
            // self.digits would have to be divisible by 10^-shift, but it has
            // no trailing zero.
            return false;
        }
        // (digits × 10^shift) mod divisor.digits, one decimal step at a
        // time: JSON numbers have at most 20 significant digits, so
        // `rest × 10` stays far below u128::MAX.
        let m = divisor.digits;
        let mut rest = self.digits % m;
        for _ in 0..shift {
            if rest == 0 {
                break;
            }
            rest = rest * 10 % m;
        }
        rest == 0
    }
}

/// One reference token of a JSON pointer (`~` → `~0`, `/` → `~1`).
pub(crate) fn push_token(pointer: &mut String, token: &str) {
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn n(v: Value) -> Number {
        match v {
            Value::Number(n) => n,
            _ => unreachable!(),
        }
    }

    #[test]
    fn numbers_compare_exactly_across_representations() {
        assert!(equal(&json!(1), &json!(1.0)));
        assert!(equal(&json!([1, {"a": 2}]), &json!([1.0, {"a": 2.0}])));
        assert!(!equal(&json!(1), &json!(true)));
        // 2^53 + 1 is not the float 2^53.
        assert_eq!(
            cmp_numbers(
                &n(json!(9007199254740993u64)),
                &n(json!(9007199254740992.0))
            ),
            Ordering::Greater
        );
        assert_eq!(cmp_numbers(&n(json!(-1)), &n(json!(-0.5))), Ordering::Less);
        assert_eq!(
            cmp_numbers(&n(json!(u64::MAX)), &n(json!(-1))),
            Ordering::Greater
        );
        assert!(is_integer(&n(json!(1.0))));
        assert!(!is_integer(&n(json!(1.5))));
    }

    #[test]
    fn multiple_of_is_decimal() {
        let d = |v: Value| Decimal::of(&n(v)).unwrap();
        assert!(d(json!(0.3)).is_multiple_of(d(json!(0.1))));
        assert!(d(json!(0.0075)).is_multiple_of(d(json!(0.0001))));
        assert!(!d(json!(0.00751)).is_multiple_of(d(json!(0.0001))));
        assert!(d(json!(10)).is_multiple_of(d(json!(2.5))));
        assert!(!d(json!(7)).is_multiple_of(d(json!(2))));
        assert!(!d(json!(1e300)).is_multiple_of(d(json!(7e-5))));
        assert!(d(json!(1e300)).is_multiple_of(d(json!(5e-5))));
        assert!(d(json!(0)).is_multiple_of(d(json!(0.3))));
        assert!(d(json!(u64::MAX)).is_multiple_of(d(json!(5))));
        assert!(d(json!(-4.5)).is_multiple_of(d(json!(1.5))));
    }

    #[test]
    fn duplicates_by_json_equality() {
        assert!(has_duplicates(&[json!(1), json!(1.0)]));
        assert!(has_duplicates(&[json!({"a": [1]}), json!({"a": [1.0]})]));
        assert!(!has_duplicates(&[json!(1), json!(true), json!("1")]));
        assert!(!has_duplicates(&[json!([1]), json!([true])]));
        assert!(has_duplicates(&[
            json!({"a": 1, "b": [2.0]}),
            json!({"b": [2], "a": 1.0})
        ]));
        assert!(!has_duplicates(&[
            json!(0.5),
            json!(1),
            json!("1"),
            json!([1]),
            json!({"1": 1})
        ]));
        assert!(has_duplicates(&[
            json!(1e20),
            json!(100000000000000000000.0)
        ]));
        assert!(!has_duplicates(&[
            json!(9007199254740993u64),
            json!(9007199254740992.0)
        ]));
    }
}
