//! The graph's index: an open-addressing hash table of node ids whose keys live in the
//! nodes, so each key is stored once (4 bytes a slot, at most ¾ full).

use crate::book::key::NodeKey;

/// No id in the slot.
const EMPTY: u32 = u32::MAX;

/// A hash table of `u32` ids keyed by [`NodeKey`]s kept elsewhere: every lookup is
/// given `key_of`, which reads the key of an id.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeyTable {
    /// A power of two of slots (or none), each an id or [`EMPTY`].
    slots: Vec<u32>,
    len: usize,
}

impl KeyTable {
    /// A table that holds `n` ids without growing.
    pub(crate) fn with_capacity(n: usize) -> KeyTable {
        let mut t = KeyTable::default();
        t.slots = vec![EMPTY; slots_for(n)];
        t
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
            self.grow(&key_of);
        }
        match self.probe(key, &key_of) {
            Some(Ok(id)) => (id, false),
            Some(Err(slot)) => {
                self.slots[slot] = new;
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
        let mut i = key.hash64() as usize & mask;
        loop {
            match self.slots[i] {
                EMPTY => return Some(Err(i)),
                id if key_of(id) == *key => return Some(Ok(id)),
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn grow(&mut self, key_of: &impl Fn(u32) -> NodeKey) {
        let n = (self.slots.len() * 2).max(16);
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; n]);
        let mask = n - 1;
        for id in old.into_iter().filter(|&id| id != EMPTY) {
            let mut i = key_of(id).hash64() as usize & mask;
            while self.slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = id;
        }
    }
}

/// The slots for `n` ids at most ¾ full: a power of two.
fn slots_for(n: usize) -> usize {
    (n.saturating_mul(4) / 3 + 1).next_power_of_two().max(16)
}

/// A set of node keys: the keys in a vector, found through a [`KeyTable`].
#[derive(Clone, Debug, Default)]
pub(crate) struct KeySet {
    keys: Vec<NodeKey>,
    table: KeyTable,
}

impl KeySet {
    /// Adds `key`; whether it was new.
    pub(crate) fn insert(&mut self, key: NodeKey) -> bool {
        let new = u32::try_from(self.keys.len()).unwrap_or(EMPTY - 1);
        let keys = &self.keys;
        let (_, added) = self.table.get_or_insert(&key, new, |id| {
            keys.get(id as usize).copied().unwrap_or(key)
        });
        if added {
            self.keys.push(key);
        }
        added
    }

    /// The number of keys.
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn keys_of_every_position_two_plies_deep_are_found_once() {
        let start = Chess::default();
        let mut set = KeySet::default();
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
        let added = all.iter().filter(|&&k| set.insert(k)).count();
        assert_eq!(added, distinct.len());
        assert_eq!(set.len(), distinct.len());
        assert!(all.iter().all(|&k| !set.insert(k)));
    }
}
