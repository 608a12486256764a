//! Flow-size distributions: a CDF file of `size_bytes cdf_percent` lines
//! (the format of the HPCC simulator's `traffic_gen`), sampled by inverse
//! transform with linear interpolation between points.
//!
//! A file is refused (with the line) unless sizes and percentages never
//! go down, percentages stay in 0..=100, and the last point is 100 %.
//! `#` starts a comment.

use rand::Rng;

#[derive(Clone, Debug, PartialEq)]
pub struct Cdf {
    /// (size in bytes, cumulative probability 0..=1).
    pub points: Vec<(f64, f64)>,
}

impl Cdf {
    pub fn parse(text: &str) -> Result<Cdf, String> {
        let mut points: Vec<(f64, f64)> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let f: Vec<&str> = line.split_whitespace().collect();
            let num = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite());
            let (Some(size), Some(pct), 2) = (
                f.first().and_then(|s| num(s)),
                f.get(1).and_then(|s| num(s)),
                f.len(),
            ) else {
                return Err(format!(
                    "line {}: want `size_bytes cdf_percent`, got {line:?}",
                    n + 1
                ));
            };
            if size < 0.0 || !(0.0..=100.0).contains(&pct) {
                return Err(format!(
                    "line {}: size {size} must be ≥ 0 and percent {pct} in 0..=100",
                    n + 1
                ));
            }
            if let Some(&(s0, p0)) = points.last() {
                if size < s0 || pct / 100.0 < p0 {
                    return Err(format!(
                        "line {}: the CDF goes down ({size} {pct} after {s0} {})",
                        n + 1,
                        p0 * 100.0
                    ));
                }
            }
            points.push((size, pct / 100.0));
        }
        match points.last() {
            None => Err("no points".into()),
            Some(&(_, p)) if p < 1.0 => Err(format!("the CDF ends at {} %, not 100 %", p * 100.0)),
            _ => Ok(Cdf { points }),
        }
    }

    /// One size, bytes (at least 1).
    pub fn sample<R: Rng>(&self, rng: &mut R) -> u64 {
        let u: f64 = rng.gen();
        let mut prev = (0.0, 0.0);
        for &(s, p) in &self.points {
            if u <= p {
                let (s0, p0) = prev;
                let x = if p > p0 {
                    s0 + (s - s0) * (u - p0) / (p - p0)
                } else {
                    s
                };
                return (x.round() as u64).max(1);
            }
            prev = (s, p);
        }
        (self.points.last().unwrap().0 as u64).max(1)
    }

    /// The mean size, bytes (piecewise linear).
    pub fn mean(&self) -> f64 {
        let mut prev = (0.0, 0.0);
        let mut m = 0.0;
        for &(s, p) in &self.points {
            m += (p - prev.1) * (s + prev.0) / 2.0;
            prev = (s, p);
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn parses_samples_and_refuses_bad_files() {
        let c = Cdf::parse("0 0\n# a comment\n100 50\n300 100\n").unwrap();
        assert_eq!(c.mean(), 0.5 * 50.0 + 0.5 * 200.0);
        let mut rng = rand::rngs::StdRng::seed_from_u64(1);
        let n = 20_000;
        let m: f64 = (0..n).map(|_| c.sample(&mut rng) as f64).sum::<f64>() / n as f64;
        assert!((m - c.mean()).abs() < 3.0, "{m}");
        assert!(Cdf::parse("0 0\n100 97\n").unwrap_err().contains("not 100"));
        assert!(Cdf::parse("0 0\n100 50\n50 60\n100 100")
            .unwrap_err()
            .contains("line 3"));
        assert!(Cdf::parse("10 abc").unwrap_err().contains("line 1"));
        assert!(Cdf::parse("").is_err());
        assert!(Cdf::parse("5 120").is_err());
    }

    #[test]
    fn shipped_distributions_are_valid() {
        for f in ["websearch.cdf", "hadoop.cdf"] {
            let p = format!("{}/../examples/netsim/{f}", env!("CARGO_MANIFEST_DIR"));
            let c = Cdf::parse(&std::fs::read_to_string(&p).unwrap()).unwrap();
            assert!(c.mean() > 10_000.0, "{f}: {}", c.mean());
        }
    }
}
