//! The node's CNI plugin (a bridge plugin with host-local IPAM): `ADD` creates the veth pair
//! into the sandbox's network namespace and hands out the next free address of the node's
//! podCIDR, `DEL` removes them and frees the address.

use std::collections::BTreeSet;

/// host-local IPAM over one IPv4 range: addresses from `.2` (the bridge holds `.1`) up to the
/// last before the broadcast, handed out round-robin and never twice while in use.
#[derive(Clone, Debug)]
pub struct Ipam {
    pub cidr: String,
    network: u32,
    prefix: u32,
    first: u32,
    last: u32,
    /// The last address handed out (the next search starts after it).
    last_reserved: Option<u32>,
    in_use: BTreeSet<u32>,
}

fn parse_ipv4(s: &str) -> Option<u32> {
    let mut out = 0u32;
    let mut n = 0;
    for part in s.split('.') {
        out = (out << 8) | part.parse::<u8>().ok()? as u32;
        n += 1;
    }
    (n == 4).then_some(out)
}

fn format_ipv4(ip: u32) -> String {
    format!(
        "{}.{}.{}.{}",
        ip >> 24,
        (ip >> 16) & 255,
        (ip >> 8) & 255,
        ip & 255
    )
}

impl Ipam {
    /// The range of a podCIDR such as `10.244.1.0/24` (a bad one falls back to that).
    pub fn new(cidr: &str) -> Ipam {
        let parsed = cidr.split_once('/').and_then(|(ip, len)| {
            let len: u32 = len.parse().ok().filter(|l| (8..=30).contains(l))?;
            Some((parse_ipv4(ip)?, len))
        });
        let (ip, prefix) = parsed.unwrap_or((parse_ipv4("10.244.1.0").expect("ip"), 24));
        let mask = u32::MAX << (32 - prefix);
        let network = ip & mask;
        let broadcast = network | !mask;
        Ipam {
            cidr: format!("{}/{prefix}", format_ipv4(network)),
            network,
            prefix,
            first: network + 2,
            last: broadcast - 1,
            last_reserved: None,
            in_use: BTreeSet::new(),
        }
    }

    /// The bridge's address (the pods' gateway).
    pub fn gateway(&self) -> String {
        format_ipv4(self.network + 1)
    }

    pub fn prefix(&self) -> u32 {
        self.prefix
    }

    /// The next free address, or `None` when the range is exhausted.
    pub fn allocate(&mut self) -> Option<String> {
        let size = self.last - self.first + 1;
        let start = match self.last_reserved {
            Some(l) if l < self.last => l + 1,
            _ => self.first,
        };
        for i in 0..size {
            let ip = self.first + (start - self.first + i) % size;
            if self.in_use.insert(ip) {
                self.last_reserved = Some(ip);
                return Some(format_ipv4(ip));
            }
        }
        None
    }

    pub fn release(&mut self, ip: &str) {
        if let Some(v) = parse_ipv4(ip) {
            self.in_use.remove(&v);
        }
    }

    pub fn in_use(&self) -> usize {
        self.in_use.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hands_out_addresses_from_dot_two_and_never_twice() {
        let mut ipam = Ipam::new("10.244.2.0/24");
        assert_eq!(ipam.gateway(), "10.244.2.1");
        assert_eq!(ipam.allocate().as_deref(), Some("10.244.2.2"));
        assert_eq!(ipam.allocate().as_deref(), Some("10.244.2.3"));
        ipam.release("10.244.2.2");
        assert_eq!(ipam.allocate().as_deref(), Some("10.244.2.4"));
        let mut small = Ipam::new("10.0.0.0/30");
        assert_eq!(small.allocate().as_deref(), Some("10.0.0.2"));
        assert_eq!(small.allocate(), None);
        small.release("10.0.0.2");
        assert_eq!(small.allocate().as_deref(), Some("10.0.0.2"));
    }
}
