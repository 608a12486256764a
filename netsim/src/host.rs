//! Host memory: a byte array, host address = index.

use nic_golden::roce::txn::HostRead;

/// Host memory. Reads past the end give zeros, writes past the end are
/// dropped and counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostMem {
    pub bytes: Vec<u8>,
    pub bad_writes: u64,
}

impl HostMem {
    pub fn new(bytes: Vec<u8>) -> Self {
        HostMem {
            bytes,
            bad_writes: 0,
        }
    }
    pub fn read(&self, addr: u64, len: usize) -> Vec<u8> {
        (0..len as u64)
            .map(|i| {
                addr.checked_add(i)
                    .and_then(|a| self.bytes.get(a as usize).copied())
                    .unwrap_or(0)
            })
            .collect()
    }
    /// Returns whether the write was inside the memory.
    pub fn write(&mut self, addr: u64, data: &[u8]) -> bool {
        let ok = addr
            .checked_add(data.len() as u64)
            .is_some_and(|end| end <= self.bytes.len() as u64);
        if ok {
            self.bytes[addr as usize..addr as usize + data.len()].copy_from_slice(data);
        } else {
            self.bad_writes += 1;
        }
        ok
    }
}

impl HostRead for HostMem {
    fn read(&self, addr: u64, len: usize) -> Vec<u8> {
        HostMem::read(self, addr, len)
    }
}
