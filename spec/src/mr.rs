//! Memory regions (`docs/roce.md` §8a): what a peer may read or write in
//! host memory. One source for the R_Key layout, the access rights, the
//! verdicts of the check (`hdl/src/roce/mr_check.rs`) and its table size.
//!
//! A region is a byte range [`base`, `base` + `len`) of host memory, an
//! R_Key, a protection domain and access rights. A WRITE FIRST/ONLY or a
//! READ REQUEST is granted only if the region its R_Key names is valid,
//! holds that very R_Key, is in the flow's protection domain, grants the
//! right, and holds [VA, VA + DMA length) whole.

/// log2 of the region table's entries in `hpcc_nic_core`: 16 regions.
pub const MR_LOG2: usize = 4;
/// Bits of a protection domain.
pub const PD_BITS: usize = 16;
/// An R_Key's region index starts at this bit; the bits below are a
/// free tag the driver changes each time it registers the entry again, so
/// a key of an earlier registration no longer matches. The whole 32-bit
/// key is stored and compared.
pub const KEY_INDEX_SHIFT: u32 = 8;

/// The table entry an R_Key names, in a table of 2^`log2` entries.
pub const fn key_index(rkey: u32, log2: usize) -> u32 {
    (rkey >> KEY_INDEX_SHIFT) & ((1u32 << log2) - 1)
}

/// An R_Key for entry `index` with tag `tag`.
pub const fn rkey(index: u32, tag: u8) -> u32 {
    (index << KEY_INDEX_SHIFT) | tag as u32
}

/// `regs::MR_ATTR`: the protection domain in bits 15..0, the rights
/// from this bit.
pub const ATTR_RIGHTS_SHIFT: u32 = 16;

/// Access rights (`MrWrite.rights`).
pub mod right {
    /// A peer may WRITE into the region.
    pub const REMOTE_WRITE: u8 = 1;
    /// A peer may READ the region.
    pub const REMOTE_READ: u8 = 2;
}

/// The check's verdict on a record (`RxMeta.mr`), which the dispatcher
/// turns into a NAK (`nic_spec::roce::syndrome`).
pub mod verdict {
    /// Granted, or no RETH to check (the parser's records carry 0).
    pub const GRANTED: u8 = 0;
    /// Remote access error: NAK syndrome 0x62.
    pub const ACCESS: u8 = 1;
    /// Invalid request: NAK syndrome 0x61.
    pub const INVALID: u8 = 2;
}

/// Why a checked record was refused, in the order the check tries them;
/// the first that applies is counted (`MrCheckStats`).
pub mod reason {
    /// The payload is longer than the RETH's DMA length (invalid request).
    pub const LEN: &str = "bad_len";
    /// No valid region holds the R_Key.
    pub const KEY: &str = "bad_key";
    /// The region is in another protection domain than the flow.
    pub const PD: &str = "bad_pd";
    /// The region does not grant the operation's right.
    pub const RIGHT: &str = "bad_right";
    /// [VA, VA + DMA length) is not inside the region.
    pub const RANGE: &str = "bad_range";
}

/// The reference check: the verdict on a record with a RETH (`write`:
/// a WRITE FIRST/ONLY, else a READ REQUEST) for a region, or `None`
/// where the region is not valid. Exact integer arithmetic: no
/// wrap-around at 2^64.
pub fn verdict_of(
    write: bool,
    len: u32,
    va: u64,
    rkey: u32,
    dlen: u32,
    flow_pd: Option<u16>,
    region: Option<&Region>,
) -> (u8, Option<&'static str>) {
    if dlen == 0 && len == 0 {
        return (verdict::GRANTED, None);
    }
    if write && len > dlen {
        return (verdict::INVALID, Some(reason::LEN));
    }
    let Some(r) = region.filter(|r| r.rkey == rkey) else {
        return (verdict::ACCESS, Some(reason::KEY));
    };
    if Some(r.pd) != flow_pd {
        return (verdict::ACCESS, Some(reason::PD));
    }
    let need = if write {
        right::REMOTE_WRITE
    } else {
        right::REMOTE_READ
    };
    if r.rights & need == 0 {
        return (verdict::ACCESS, Some(reason::RIGHT));
    }
    let (va, dlen, base, end) = (
        va as u128,
        dlen as u128,
        r.base as u128,
        r.base as u128 + r.len as u128,
    );
    if va < base || va + dlen > end {
        return (verdict::ACCESS, Some(reason::RANGE));
    }
    (verdict::GRANTED, None)
}

/// A region as the driver registers it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Region {
    pub base: u64,
    pub len: u64,
    pub rkey: u32,
    pub pd: u16,
    pub rights: u8,
}

impl Region {
    /// Its range ends at or below 2^64 (the only regions the table takes).
    pub const fn fits(&self) -> bool {
        self.base.checked_add(self.len).is_some() || self.base as u128 + self.len as u128 == 1 << 64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_in_order() {
        let r = Region {
            base: 0x1000,
            len: 0x1000,
            rkey: rkey(3, 7),
            pd: 5,
            rights: right::REMOTE_WRITE,
        };
        let k = rkey(3, 7);
        assert_eq!(
            verdict_of(true, 64, 0x1000, k, 64, Some(5), Some(&r)),
            (verdict::GRANTED, None)
        );
        assert_eq!(
            verdict_of(true, 65, 0x1000, k, 64, Some(5), Some(&r)).1,
            Some(reason::LEN)
        );
        assert_eq!(
            verdict_of(true, 64, 0x1000, k ^ 1, 64, Some(5), Some(&r)).1,
            Some(reason::KEY)
        );
        assert_eq!(
            verdict_of(true, 64, 0x1000, k, 64, Some(5), None).1,
            Some(reason::KEY)
        );
        assert_eq!(
            verdict_of(true, 64, 0x1000, k, 64, Some(4), Some(&r)).1,
            Some(reason::PD)
        );
        assert_eq!(
            verdict_of(false, 0, 0x1000, k, 64, Some(5), Some(&r)).1,
            Some(reason::RIGHT)
        );
        assert_eq!(
            verdict_of(true, 8, 0xFF8, k, 8, Some(5), Some(&r)).1,
            Some(reason::RANGE)
        );
        assert_eq!(
            verdict_of(true, 8, 0x1FF8, k, 8, Some(5), Some(&r)),
            (verdict::GRANTED, None)
        );
        assert_eq!(
            verdict_of(true, 8, 0x1FF8, k, 9, Some(5), Some(&r)).1,
            Some(reason::RANGE)
        );
        assert_eq!(
            verdict_of(true, 8, u64::MAX - 7, k, 16, Some(5), Some(&r)).1,
            Some(reason::RANGE)
        );
        assert_eq!(
            verdict_of(false, 0, 0, 0, 0, None, None),
            (verdict::GRANTED, None)
        );
        assert_eq!(key_index(rkey(3, 7), MR_LOG2), 3);
        assert!(Region {
            base: u64::MAX,
            len: 1,
            ..r
        }
        .fits());
        assert!(!Region {
            base: u64::MAX,
            len: 2,
            ..r
        }
        .fits());
    }
}
