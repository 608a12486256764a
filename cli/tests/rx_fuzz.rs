//! `hpccnic rx-fuzz`, the short run of `make test` (`make fuzz` runs
//! 10^6 frames): the RTL receive path on Verilator with the golden
//! models in lockstep takes every mutation, floods included, with no
//! difference, no stall, every frame accounted for, no flow touched by a
//! dropped frame, the control flow's good frames accepted in bounded
//! time, and no host write or READ outside a region that grants it (the
//! checks themselves are unit-tested in `nic_netsim::rx_fuzz`).

use serde_json::Value;
use std::process::Command;

#[test]
fn a_short_fuzz_run_is_clean() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("rx_fuzz");
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("summary.json");
    let o = Command::new(env!("CARGO_BIN_EXE_hpccnic"))
        .args([
            "rx-fuzz",
            "--frames",
            "30000",
            "--seed",
            "11",
            "--flood-every",
            "500",
            "--json",
            json.to_str().unwrap(),
            "--failure-pcap",
            dir.join("failure.pcap").to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{out}{err}");
    let s: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(s["mismatches"], 0);
    assert_eq!(s["stalls"], 0);
    // The region checks ran: the WRITEs and READs granted were checked
    // against the table, none outside it.
    assert_eq!(s["outside_a_region"], 0);
    assert!(s["host_writes_checked"].as_u64().unwrap() > 1000, "{s}");
    assert!(s["read_reqs_checked"].as_u64().unwrap() > 30, "{s}");
    assert!(s["frames"].as_u64().unwrap() >= 30000);
    assert!(s["floods"].as_u64().unwrap() >= 50, "{s}");
    assert!(s["control_frames"].as_u64().unwrap() >= 25000, "{s}");
    // Every mutation was applied, and the frames reached every check.
    let m = s["mutations"].as_object().unwrap();
    assert_eq!(m.len(), 33, "mutations applied: {m:?}");
    let v = s["verdicts"].as_object().unwrap();
    for r in [
        "accepted",
        "bad_fcs",
        "trunc",
        "bad_eth",
        "bad_ip",
        "bad_port",
        "bad_opcode",
        "bad_len",
        "bad_tlm",
        "bad_icrc",
        "drop_full",
        "unknown_flow",
        "oos",
        "dup",
        "bad_psn",
        "bad_va",
        "refused",
        "bad_op",
    ] {
        assert!(
            v.get(r).and_then(Value::as_u64).unwrap_or(0) > 0,
            "no frame was {r}: {v:?}"
        );
    }
}
