//! Topologies: hosts, switches, the links between them and the routes.
//!
//! - **incast**: N senders and one receiver (host N) on one switch.
//! - **dumbbell**: `left` hosts on switch 0, `right` hosts on switch 1,
//!   one fabric link between the two switches.
//! - **leaf-spine**: `leaves` leaf switches of `hosts_per_leaf` hosts
//!   each, every leaf joined to every one of `spines` spine switches by a
//!   fabric link; ECMP over the spines.
//!
//! Host h has MAC 02:00:00:00:hh:hh and IPv4 10.0.h/256.h%256+1. Routes
//! are every shortest path (BFS from each host): a switch's egress ports
//! toward a host are those whose peer is one hop nearer.

use std::collections::VecDeque;

/// What a switch port connects to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    Host(usize),
    /// (switch, its port).
    Switch(usize, usize),
}

/// One switch port's link (the same both ways).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkSpec {
    pub peer: Peer,
    pub gbps: f64,
    pub delay_ns: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Topology {
    pub kind: &'static str,
    pub hosts: usize,
    /// Ports of each switch.
    pub switches: Vec<Vec<LinkSpec>>,
    /// Each host's (switch, port).
    pub uplink: Vec<(usize, usize)>,
    /// `routes[s][h]`: switch s's egress ports toward host h.
    pub routes: Vec<Vec<Vec<usize>>>,
}

/// IPv4 address of host `h`.
pub fn host_ip(h: usize) -> u32 {
    0x0A00_0001 + h as u32
}

/// The host of an IPv4 address.
pub fn host_of_ip(ip: u32) -> Option<usize> {
    ip.checked_sub(0x0A00_0001).map(|h| h as usize)
}

/// MAC of host `h`.
pub fn host_mac(h: usize) -> u64 {
    0x02_00_00_00_00_00 | (h as u64 & 0xFFFF)
}

/// Link parameters: host links and fabric links (switch to switch).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Links {
    pub host_gbps: f64,
    pub host_delay_ns: f64,
    pub fabric_gbps: f64,
    pub fabric_delay_ns: f64,
}

struct Builder {
    hosts: usize,
    switches: Vec<Vec<LinkSpec>>,
    uplink: Vec<(usize, usize)>,
}

impl Builder {
    fn new(hosts: usize, switches: usize) -> Self {
        Self {
            hosts,
            switches: vec![Vec::new(); switches],
            uplink: vec![(usize::MAX, 0); hosts],
        }
    }
    fn host(&mut self, h: usize, s: usize, l: &Links) {
        self.uplink[h] = (s, self.switches[s].len());
        self.switches[s].push(LinkSpec {
            peer: Peer::Host(h),
            gbps: l.host_gbps,
            delay_ns: l.host_delay_ns,
        });
    }
    fn fabric(&mut self, a: usize, b: usize, l: &Links) {
        let (pa, pb) = (self.switches[a].len(), self.switches[b].len());
        let spec = |peer| LinkSpec {
            peer,
            gbps: l.fabric_gbps,
            delay_ns: l.fabric_delay_ns,
        };
        self.switches[a].push(spec(Peer::Switch(b, pb)));
        self.switches[b].push(spec(Peer::Switch(a, pa)));
    }
    fn done(self, kind: &'static str) -> Topology {
        let routes = routes(self.hosts, &self.switches);
        Topology {
            kind,
            hosts: self.hosts,
            switches: self.switches,
            uplink: self.uplink,
            routes,
        }
    }
}

/// Every shortest path toward each host.
fn routes(hosts: usize, switches: &[Vec<LinkSpec>]) -> Vec<Vec<Vec<usize>>> {
    let mut r = vec![vec![Vec::new(); hosts]; switches.len()];
    for h in 0..hosts {
        // Distance of each switch to host h.
        let mut dist = vec![usize::MAX; switches.len()];
        let mut q = VecDeque::new();
        for (s, ports) in switches.iter().enumerate() {
            if ports.iter().any(|p| p.peer == Peer::Host(h)) {
                dist[s] = 1;
                q.push_back(s);
            }
        }
        while let Some(s) = q.pop_front() {
            for p in &switches[s] {
                if let Peer::Switch(t, _) = p.peer {
                    if dist[t] == usize::MAX {
                        dist[t] = dist[s] + 1;
                        q.push_back(t);
                    }
                }
            }
        }
        for (s, ports) in switches.iter().enumerate() {
            for (k, p) in ports.iter().enumerate() {
                let nearer = match p.peer {
                    Peer::Host(x) => x == h,
                    Peer::Switch(t, _) => dist[t] != usize::MAX && dist[t] + 1 == dist[s],
                };
                if nearer {
                    r[s][h].push(k);
                }
            }
        }
    }
    r
}

impl Topology {
    /// N senders (hosts 0..N) and a receiver (host N) on one switch.
    pub fn incast(senders: usize, l: &Links) -> Self {
        let mut b = Builder::new(senders + 1, 1);
        for h in 0..=senders {
            b.host(h, 0, l);
        }
        b.done("incast")
    }

    /// `left` hosts on switch 0 (hosts 0..left), `right` on switch 1.
    pub fn dumbbell(left: usize, right: usize, l: &Links) -> Self {
        let mut b = Builder::new(left + right, 2);
        for h in 0..left {
            b.host(h, 0, l);
        }
        for h in left..left + right {
            b.host(h, 1, l);
        }
        b.fabric(0, 1, l);
        b.done("dumbbell")
    }

    /// Leaves 0..leaves, spines after them; leaf k has hosts
    /// k·hosts_per_leaf ..
    pub fn leaf_spine(leaves: usize, spines: usize, hosts_per_leaf: usize, l: &Links) -> Self {
        let mut b = Builder::new(leaves * hosts_per_leaf, leaves + spines);
        for h in 0..leaves * hosts_per_leaf {
            b.host(h, h / hosts_per_leaf, l);
        }
        for leaf in 0..leaves {
            for s in 0..spines {
                b.fabric(leaf, leaves + s, l);
            }
        }
        b.done("leaf-spine")
    }

    /// Name of switch s's port p ("s0.p3>h16": toward host 16).
    pub fn port_name(&self, s: usize, p: usize) -> String {
        match self.switches[s][p].peer {
            Peer::Host(h) => format!("s{s}.p{p}>h{h}"),
            Peer::Switch(t, _) => format!("s{s}.p{p}>s{t}"),
        }
    }

    /// Links on the path from host a to host b (first ECMP choice), the
    /// host's uplink included: (gbps, delay_ns) of each.
    pub fn path(&self, a: usize, b: usize) -> Vec<(f64, f64)> {
        let (mut s, p) = self.uplink[a];
        let up = self.switches[s][p];
        let mut v = vec![(up.gbps, up.delay_ns)];
        for _ in 0..self.switches.len() + 1 {
            let Some(&k) = self.routes[s][b].first() else {
                break;
            };
            let l = self.switches[s][k];
            v.push((l.gbps, l.delay_ns));
            match l.peer {
                Peer::Host(_) => break,
                Peer::Switch(t, _) => s = t,
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const L: Links = Links {
        host_gbps: 100.0,
        host_delay_ns: 1000.0,
        fabric_gbps: 400.0,
        fabric_delay_ns: 500.0,
    };

    #[test]
    fn incast_routes_each_host_to_its_port() {
        let t = Topology::incast(16, &L);
        assert_eq!(t.hosts, 17);
        assert_eq!(t.switches[0].len(), 17);
        for h in 0..17 {
            assert_eq!(t.routes[0][h], vec![h]);
        }
        assert_eq!(t.path(3, 16).len(), 2);
    }

    #[test]
    fn leaf_spine_spreads_over_every_spine() {
        let t = Topology::leaf_spine(4, 2, 8, &L);
        assert_eq!(t.hosts, 32);
        // Leaf 0 toward host 9 (leaf 1): both spine ports.
        assert_eq!(t.routes[0][9].len(), 2);
        // Toward its own host 3: its port only.
        assert_eq!(t.routes[0][3], vec![3]);
        // A spine toward host 9: the one port to leaf 1.
        assert_eq!(t.routes[4][9].len(), 1);
        assert_eq!(t.path(0, 9).len(), 4);
        assert_eq!(host_of_ip(host_ip(31)), Some(31));
    }

    #[test]
    fn dumbbell_has_one_fabric_link() {
        let t = Topology::dumbbell(3, 2, &L);
        assert_eq!(t.routes[0][4], vec![3]);
        assert_eq!(t.port_name(0, 3), "s0.p3>s1");
        assert_eq!(t.path(0, 4).len(), 3);
    }
}
