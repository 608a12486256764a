//! DCQCN parameters (what a user sets, in physical units) and the
//! registers of the reaction point (`hdl/src/cc/dcqcn.rs`), the
//! [`DcqcnCfg`] record.
//!
//! [`DcqcnParams::regs`] is the driver: it turns times into cycles at the
//! NIC's clock and rates into UQ8.24 bytes/ns. The golden twin, the f64
//! reference and `hpccnic cc-replay --algo dcqcn` all go through it.
//!
//! Defaults are the DCQCN configuration of the HPCC paper's ns-3 scripts
//! (`../shared/notes/hpcc-reference.md`): g = 1/256, α period 1 µs,
//! decrease period 4 µs, rate-increase timer 300 µs, F = 1 fast-recovery
//! stage, R_ai = 5 Mb/s and R_hai = 50 Mb/s per 25G of line rate, minimum
//! rate 100 Mb/s, no byte counter.

pub use crate::cc::DcqcnCfg;

/// 1.0 in α's format, UQ1.20.
pub const ALPHA_ONE: u32 = 1 << 20;
/// Fraction bits of the rates Rc, Rt, R_ai, R_hai, R_min, R_line (bytes
/// per ns, UQ8.24).
pub const RATE_FRAC: u32 = 24;
/// The `cfg_window` that means no window.
pub const WINDOW_UNLIMITED: u32 = u32::MAX;

/// DCQCN in physical units.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DcqcnParams {
    /// The NIC's line rate: where Rc and Rt start and what they recover to.
    pub line_rate_gbps: f64,
    /// The NIC clock, ns per cycle (6.4 at 156.25 MHz; the network
    /// simulator's 64/link_gbps).
    pub ns_per_cycle: f64,
    /// g = 2^−g_log2 (1/256: 8; ns-3's attribute default 1/16: 4).
    pub g_log2: u8,
    /// The α update period, µs.
    pub alpha_period_us: f64,
    /// The rate-decrease period: at most one cut per period, µs.
    pub dec_period_us: f64,
    /// The rate-increase timer, µs.
    pub inc_period_us: f64,
    /// The byte counter: an increase stage per this many bytes sent; 0: off.
    pub byte_reset: u32,
    /// F, the fast-recovery stages.
    pub f: u8,
    /// R_ai, Mb/s.
    pub r_ai_mbps: f64,
    /// R_hai, Mb/s.
    pub r_hai_mbps: f64,
    /// The minimum rate, Mb/s.
    pub r_min_mbps: f64,
    /// The rate on the first CNP: Rc = min(Rc, this), Gb/s.
    pub r_first_cnp_gbps: f64,
    /// α on the first CNP.
    pub alpha_init: f64,
    /// The window the flow's updates carry, bytes; `None`: no window.
    pub window_bytes: Option<f64>,
}

impl Default for DcqcnParams {
    fn default() -> Self {
        Self::for_line_rate(100.0, 6.4)
    }
}

impl DcqcnParams {
    /// The defaults at a line rate (R_ai and R_hai scale as bw/25G).
    pub fn for_line_rate(line_rate_gbps: f64, ns_per_cycle: f64) -> Self {
        let scale = line_rate_gbps / 25.0;
        Self {
            line_rate_gbps,
            ns_per_cycle,
            g_log2: 8,
            alpha_period_us: 1.0,
            dec_period_us: 4.0,
            inc_period_us: 300.0,
            byte_reset: 0,
            f: 1,
            r_ai_mbps: 5.0 * scale,
            r_hai_mbps: 50.0 * scale,
            r_min_mbps: 100.0,
            r_first_cnp_gbps: line_rate_gbps,
            alpha_init: 1.0,
            window_bytes: None,
        }
    }

    /// The registers, or what is out of range.
    pub fn regs(&self) -> Result<DcqcnCfg, String> {
        let rate = |name: &str, gbps: f64| -> Result<u32, String> {
            let v = (gbps / 8.0 * (1u64 << RATE_FRAC) as f64).round();
            if !(0.0..=u32::MAX as f64).contains(&v) || !gbps.is_finite() {
                return Err(format!("{name}: {gbps} Gb/s is outside 0..2 Tb/s"));
            }
            Ok(v as u32)
        };
        if !(self.ns_per_cycle > 0.0 && self.ns_per_cycle.is_finite()) {
            return Err(format!("ns_per_cycle: {} is not > 0", self.ns_per_cycle));
        }
        let period = |name: &str, us: f64| -> Result<u32, String> {
            let c = (us * 1000.0 / self.ns_per_cycle).round();
            if !(1.0..=((1u32 << 24) - 1) as f64).contains(&c) {
                return Err(format!(
                    "{name}: {us} µs is {c} cycles at {} ns/cycle, outside 1..2^24",
                    self.ns_per_cycle
                ));
            }
            Ok(c as u32)
        };
        if self.g_log2 > 15 {
            return Err(format!("g_log2: {} is above 15", self.g_log2));
        }
        if self.f > 7 {
            return Err(format!("f: {} is above 7", self.f));
        }
        if !(0.0..=1.0).contains(&self.alpha_init) {
            return Err(format!("alpha_init: {} is outside [0, 1]", self.alpha_init));
        }
        let r_line = rate("line_rate_gbps", self.line_rate_gbps)?;
        let r_min = rate("r_min_mbps", self.r_min_mbps / 1000.0)?;
        if r_min == 0 || r_min > r_line {
            return Err(format!(
                "r_min_mbps: {} is not in (0, line rate]",
                self.r_min_mbps
            ));
        }
        let window = match self.window_bytes {
            None => WINDOW_UNLIMITED,
            Some(b) => {
                let v = (b * 256.0).round();
                if !(256.0..(u32::MAX as f64)).contains(&v) {
                    return Err(format!("window_bytes: {b} is outside 1..16 MiB"));
                }
                v as u32
            }
        };
        Ok(DcqcnCfg {
            g_log2: self.g_log2,
            alpha_period: period("alpha_period_us", self.alpha_period_us)?,
            dec_period: period("dec_period_us", self.dec_period_us)?,
            inc_period: period("inc_period_us", self.inc_period_us)?,
            byte_reset: self.byte_reset,
            f: self.f,
            r_ai: rate("r_ai_mbps", self.r_ai_mbps / 1000.0)?,
            r_hai: rate("r_hai_mbps", self.r_hai_mbps / 1000.0)?,
            r_min,
            r_line,
            r_first: rate("r_first_cnp_gbps", self.r_first_cnp_gbps)?,
            alpha_init: (self.alpha_init * ALPHA_ONE as f64).round() as u32,
            window,
        })
    }
}

impl DcqcnCfg {
    /// The values as the ports take them (widths masked).
    pub fn masked(&self) -> Self {
        Self {
            g_log2: self.g_log2 & 0xf,
            alpha_period: self.alpha_period & 0xff_ffff,
            dec_period: self.dec_period & 0xff_ffff,
            inc_period: self.inc_period & 0xff_ffff,
            f: self.f & 7,
            alpha_init: self.alpha_init & 0x1f_ffff,
            ..*self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_quantise() {
        let r = DcqcnParams::default().regs().unwrap();
        assert_eq!(r.r_line, 25 << 23); // 12.5 B/ns
        assert_eq!(r.alpha_period, 156); // 1 µs at 6.4 ns
        assert_eq!(r.inc_period, 46_875);
        assert_eq!(r.alpha_init, ALPHA_ONE);
        assert_eq!(r.window, WINDOW_UNLIMITED);
        // R_ai: 20 Mb/s at 100G = 0.0025 B/ns.
        assert_eq!(r.r_ai, (0.0025f64 * (1u64 << 24) as f64).round() as u32);
    }

    #[test]
    fn bad_params_are_named() {
        let mut p = DcqcnParams {
            g_log2: 16,
            ..Default::default()
        };
        assert!(p.regs().unwrap_err().starts_with("g_log2"));
        p.g_log2 = 8;
        p.inc_period_us = 1e9;
        assert!(p.regs().unwrap_err().starts_with("inc_period_us"));
        p.inc_period_us = 300.0;
        p.r_min_mbps = 0.0;
        assert!(p.regs().unwrap_err().starts_with("r_min_mbps"));
    }
}
