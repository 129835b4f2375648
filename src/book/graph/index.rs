//! The graph's index: an open-addressing hash table of node ids whose keys live in the
//! nodes, so each key is stored once. A slot holds the id and the high 32 bits of the
//! key's hash (8 bytes, at most ¾ full); those bits also choose the slot, so a probe
//! reads a key only when they match and growing reads no key at all.

use crate::book::key::NodeKey;

/// No id in the slot.
const EMPTY: u32 = u32::MAX;

/// An empty slot: no id, hash bits 0.
const FREE: u64 = EMPTY as u64;

/// A slot: the high 32 bits of the hash above the id.
const fn slot(hash: u64, id: u32) -> u64 {
    (hash & !0xffff_ffff) | id as u64
}

const fn slot_id(slot: u64) -> u32 {
    slot as u32
}

/// Where the search for a slot starts: the hash bits it keeps.
const fn home(slot: u64, mask: usize) -> usize {
    (slot >> 32) as usize & mask
}

/// A hash table of `u32` ids keyed by [`NodeKey`]s kept elsewhere: every lookup is
/// given `key_of`, which reads the key of an id.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeyTable {
    /// A power of two of slots (or none): [`slot`]s or [`FREE`].
    slots: Vec<u64>,
    len: usize,
}

impl KeyTable {
    /// A table that holds `n` ids without growing.
    pub(crate) fn with_capacity(n: usize) -> KeyTable {
        KeyTable {
            slots: vec![FREE; slots_for(n)],
            len: 0,
        }
    }

    /// The id whose key is `key`.
    pub(crate) fn get(&self, key: &NodeKey, key_of: impl Fn(u32) -> NodeKey) -> Option<u32> {
        match self.probe(key, &key_of) {
            Some(Ok(id)) => Some(id),
            _ => None,
        }
    }

    /// The id whose key is `key`, or `new` put in (then `true`): `key_of(new)` must be
    /// `key` once the caller has stored it.
    pub(crate) fn get_or_insert(
        &mut self,
        key: &NodeKey,
        new: u32,
        key_of: impl Fn(u32) -> NodeKey,
    ) -> (u32, bool) {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
        match self.probe(key, &key_of) {
            Some(Ok(id)) => (id, false),
            Some(Err(i)) => {
                self.slots[i] = slot(key.hash64(), new);
                self.len += 1;
                (new, true)
            }
            // Cannot happen: the table just grew.
            None => (new, false),
        }
    }

    /// The id with `key` (`Ok`) or the empty slot where it belongs (`Err`); `None`
    /// when the table has no slot.
    fn probe(&self, key: &NodeKey, key_of: &impl Fn(u32) -> NodeKey) -> Option<Result<u32, usize>> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let hash = key.hash64();
        let tag = slot(hash, 0);
        let mut i = home(tag, mask);
        loop {
            match self.slots[i] {
                FREE => return Some(Err(i)),
                s if s & !0xffff_ffff == tag && key_of(slot_id(s)) == *key => {
                    return Some(Ok(slot_id(s)));
                }
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let n = (self.slots.len() * 2).max(16);
        let old = std::mem::replace(&mut self.slots, vec![FREE; n]);
        let mask = n - 1;
        for s in old.into_iter().filter(|&s| s != FREE) {
            let mut i = home(s, mask);
            while self.slots[i] != FREE {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
    }
}

/// The slots for `n` ids at most ¾ full: a power of two.
fn slots_for(n: usize) -> usize {
    (n.saturating_mul(4) / 3 + 1).next_power_of_two().max(16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn every_position_two_plies_deep_gets_one_id() {
        let start = Chess::default();
        let mut all = Vec::new();
        for a in start.legal_moves() {
            let mut p = start.clone();
            p.play_unchecked(a);
            for b in p.legal_moves() {
                let mut q = p.clone();
                q.play_unchecked(b);
                all.push(NodeKey::from_position(&q));
            }
        }
        let distinct: std::collections::HashSet<NodeKey> = all.iter().copied().collect();
        let mut table = KeyTable::default();
        let mut keys: Vec<NodeKey> = Vec::new();
        let mut insert = |key: NodeKey, keys: &mut Vec<NodeKey>| {
            let new = u32::try_from(keys.len()).unwrap();
            let stored = keys.clone();
            let (id, added) = table.get_or_insert(&key, new, |id| {
                stored.get(id as usize).copied().unwrap_or(key)
            });
            if added {
                keys.push(key);
            }
            assert_eq!(keys[id as usize], key);
            added
        };
        let added = all.iter().filter(|&&k| insert(k, &mut keys)).count();
        assert_eq!(added, distinct.len());
        assert_eq!(keys.len(), distinct.len());
        assert!(all.iter().all(|&k| !insert(k, &mut keys)));
    }
}
