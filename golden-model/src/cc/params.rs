//! HPCC++ parameters (what a user sets, in physical units) and the
//! configuration registers the RTL CC module takes (what a driver writes).
//!
//! [`CcParams::regs`] is the driver: it turns the parameters into the
//! fixed-point register values, including the two reciprocals of T the
//! hardware needs (it has no divider for constants). The golden models and
//! `hpccnic cc-replay` all go through it, so every model sees the same
//! quantised parameters.

/// Line rate of a telemetry rate code, in Gb/s (ns-3 `lineRate` field:
/// 0 = 25G, 1 = 50G, 2 = 100G, 3 = 200G, 4 = 400G; 5–7 are unknown).
pub const RATE_GBPS: [f64; 5] = [25.0, 50.0, 100.0, 200.0, 400.0];

/// Rate code of a line rate, if the telemetry format has one.
pub fn rate_code(gbps: f64) -> Option<u8> {
    RATE_GBPS.iter().position(|&g| g == gbps).map(|c| c as u8)
}

/// Bytes per ns of a rate code: 3.125 · 2^code.
pub fn rate_bytes_per_ns(code: u8) -> f64 {
    RATE_GBPS[code as usize] / 8.0
}

/// Which side runs the algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// NewAck (pseudocode lines 21–27): the data sender, on every ACK;
    /// Wc commits once per RTT through lastUpdateSeq.
    #[default]
    Sender,
    /// NewINT (lines 28–34): the data receiver, on every packet carrying
    /// telemetry; Wc commits and the window is sent back at most once per
    /// T, through lastUpdateTime.
    Receiver,
}

/// HPCC++ parameters in physical units (the draft's names).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CcParams {
    /// The variant a driver creates flows with (`CcEvent::variant` of a
    /// CREATE, the NIC's `FLOW_CC_VARIANT`): the CC module keeps it per
    /// flow, and it is not one of its registers.
    pub variant: Variant,
    /// T, the base RTT, in ns.
    pub base_rtt_ns: f64,
    /// eta, the target utilisation.
    pub eta: f64,
    /// maxStage.
    pub max_stage: u32,
    /// W_ai in bytes.
    pub w_ai_bytes: f64,
    /// W_min in bytes (the window never goes below it).
    pub w_min_bytes: f64,
    /// The NIC's line rate: W_init = line rate × T.
    pub line_rate_gbps: f64,
    /// The telemetry `multi` (ns-3: link rate / 25G): a power of two ≤ 16.
    pub int_multi: u32,
    /// Number of flows of the CC module (a power of two).
    pub flows: u32,
}

impl Default for CcParams {
    /// The draft's defaults (T = 5 µs, eta = 95 %, maxStage = 5) at 100G,
    /// W_ai by the rule of thumb for N = 100 flows, W_min = 1 Gb/s × T.
    fn default() -> Self {
        let w_init = 100.0 / 8.0 * 5000.0;
        Self {
            variant: Variant::Sender,
            base_rtt_ns: 5000.0,
            eta: 0.95,
            max_stage: 5,
            w_ai_bytes: w_ai_rule_of_thumb(w_init, 0.95, 100),
            w_min_bytes: 1.0 / 8.0 * 5000.0,
            line_rate_gbps: 100.0,
            int_multi: 4,
            flows: 1024,
        }
    }
}

/// The draft's rule of thumb: W_ai = W_init · (1 − eta) / N, for N the
/// expected number of concurrent flows on a link.
pub fn w_ai_rule_of_thumb(w_init: f64, eta: f64, n: u32) -> f64 {
    w_init * (1.0 - eta) / n.max(1) as f64
}

/// The CC module's configuration registers (fixed point). Field formats
/// are those of `docs/architecture.md` §4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CcRegs {
    /// T in ns, 64 ≤ T < 2^24.
    pub t: u32,
    /// floor(2^inv_t_s / T), in (2^30, 2^31].
    pub inv_t_m: u32,
    /// 31 + floor(log2 T).
    pub inv_t_s: u8,
    /// floor(2^(inv_t_s + 2) / (5·T)): 25.6/T scaled, for the queue term.
    pub uq_m: u32,
    /// eta, UQ0.16.
    pub eta: u16,
    /// maxStage, 0..7.
    pub max_stage: u8,
    /// W_ai, W_min, W_init: UQ24.8 bytes.
    pub w_ai: u32,
    pub w_min: u32,
    pub w_init: u32,
    /// log2(multi), 0..4.
    pub mlog: u8,
}

impl CcRegs {
    /// Check the ranges the hardware's arithmetic relies on.
    pub fn validate(&self) -> Result<(), String> {
        if !(64..(1 << 24)).contains(&self.t) {
            return Err(format!("T = {} ns: must be in [64, 2^24)", self.t));
        }
        if self.eta == 0 {
            return Err("eta must be > 0".into());
        }
        if self.max_stage > 7 {
            return Err("maxStage must be ≤ 7".into());
        }
        if self.mlog > 4 {
            return Err("int multi must be a power of two ≤ 16".into());
        }
        if self.w_min > self.w_init || self.w_min == 0 {
            return Err("need 0 < W_min ≤ W_init".into());
        }
        Ok(())
    }
}

/// Fixed-point UQ24.8 of a byte count, saturating.
pub fn to_uq24_8(bytes: f64) -> u32 {
    (bytes * 256.0).round().clamp(0.0, u32::MAX as f64) as u32
}

impl CcParams {
    /// W_init = line rate × T, bytes.
    pub fn w_init_bytes(&self) -> f64 {
        self.line_rate_gbps / 8.0 * self.base_rtt_ns
    }

    /// log2(flows), if `flows` is a power of two.
    pub fn flows_log2(&self) -> Result<u32, String> {
        if self.flows.is_power_of_two() && self.flows >= 2 {
            Ok(self.flows.trailing_zeros())
        } else {
            Err(format!(
                "flows = {}: must be a power of two ≥ 2",
                self.flows
            ))
        }
    }

    /// The parameters the hardware actually runs with: these, quantised
    /// to their register formats (eta to 2^-16, W_ai and W_min to 1/256
    /// byte, T to 1 ns). Give them to the f64 reference to measure the
    /// fixed-point arithmetic alone.
    pub fn effective(&self) -> Result<CcParams, String> {
        let r = self.regs()?;
        Ok(CcParams {
            base_rtt_ns: r.t as f64,
            eta: r.eta as f64 / 65536.0,
            max_stage: r.max_stage as u32,
            w_ai_bytes: r.w_ai as f64 / 256.0,
            w_min_bytes: r.w_min as f64 / 256.0,
            line_rate_gbps: r.w_init as f64 / 256.0 / r.t as f64 * 8.0,
            ..self.clone()
        })
    }

    /// The driver: quantise the parameters into register values.
    pub fn regs(&self) -> Result<CcRegs, String> {
        if !self.int_multi.is_power_of_two() || self.int_multi > 16 {
            return Err(format!(
                "int_multi = {}: must be 1, 2, 4, 8 or 16",
                self.int_multi
            ));
        }
        if !(self.eta > 0.0 && self.eta < 1.0) {
            return Err(format!("eta = {}: must be in (0, 1)", self.eta));
        }
        let t = self.base_rtt_ns.round();
        if !(64.0..16777216.0).contains(&t) {
            return Err(format!(
                "base_rtt_ns = {}: must be in [64, 2^24)",
                self.base_rtt_ns
            ));
        }
        let t = t as u32;
        let k = 31 - t.leading_zeros(); // floor(log2 T)
        let s = 31 + k;
        let regs = CcRegs {
            t,
            inv_t_m: ((1u128 << s) / t as u128) as u32,
            inv_t_s: s as u8,
            uq_m: ((1u128 << (s + 2)) / (5 * t as u128)) as u32,
            eta: ((self.eta * 65536.0).round() as u32).clamp(1, 65535) as u16,
            max_stage: self.max_stage.min(255) as u8,
            w_ai: to_uq24_8(self.w_ai_bytes),
            w_min: to_uq24_8(self.w_min_bytes),
            w_init: to_uq24_8(self.w_init_bytes()),
            mlog: self.int_multi.trailing_zeros() as u8,
        };
        if self.w_init_bytes() * 256.0 >= u32::MAX as f64 {
            return Err("W_init = line rate × T must be < 16 MiB".into());
        }
        regs.validate()?;
        Ok(regs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_regs() {
        let r = CcParams::default().regs().unwrap();
        assert_eq!(r.t, 5000);
        assert_eq!(r.inv_t_s, 31 + 12);
        assert!(r.inv_t_m > (1 << 30) && r.inv_t_m <= (1 << 31));
        assert_eq!(r.w_init, 62500 * 256);
        assert_eq!(r.eta, 62259);
        assert_eq!(r.mlog, 2);
    }

    #[test]
    fn rejects_bad_params() {
        let p = CcParams {
            int_multi: 3,
            ..Default::default()
        };
        assert!(p.regs().is_err());
        let p = CcParams {
            base_rtt_ns: 10.0,
            ..Default::default()
        };
        assert!(p.regs().is_err());
        let p = CcParams {
            eta: 1.0,
            ..Default::default()
        };
        assert!(p.regs().is_err());
    }
}
