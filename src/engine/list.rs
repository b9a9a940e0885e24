//! A fixed-capacity ordered list of object ids that is `Copy`, so that the whole game state
//! stays a plain `Copy` value (arrayvec's `ArrayVec` is not `Copy`).
//!
//! Layer: part of [`crate::engine`]; may use `cards` and nothing else of the crate.

use std::fmt;

/// An object slot's id (every card and token of a game has one; [`super::state`] names
/// them): defined with the list that holds them, so that this module depends on nothing.
pub type ObjId = u8;
/// No object.
pub const NO_OBJ: ObjId = u8::MAX;

#[derive(Copy, Clone, PartialEq, Eq)]
pub struct List<const N: usize> {
    len: u8,
    items: [ObjId; N],
}

impl<const N: usize> Default for List<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> fmt::Debug for List<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<const N: usize> List<N> {
    pub const CAPACITY: usize = N;

    pub const fn new() -> Self {
        List {
            len: 0,
            items: [0; N],
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn is_full(&self) -> bool {
        self.len as usize == N
    }

    #[inline]
    pub fn as_slice(&self) -> &[ObjId] {
        &self.items[..self.len as usize]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [ObjId] {
        &mut self.items[..self.len as usize]
    }

    #[inline]
    pub fn iter(&self) -> std::iter::Copied<std::slice::Iter<'_, ObjId>> {
        self.as_slice().iter().copied()
    }

    /// Appends; returns false (and changes nothing) when full.
    #[inline]
    #[must_use]
    pub fn push(&mut self, x: ObjId) -> bool {
        if self.is_full() {
            return false;
        }
        self.items[self.len as usize] = x;
        self.len += 1;
        true
    }

    /// Appends the ids `from..to` in order; returns false (and changes nothing) when they
    /// do not fit. (One capacity test for them all: setup lists a deck this way.)
    #[inline]
    #[must_use]
    pub fn push_range(&mut self, from: ObjId, to: ObjId) -> bool {
        let n = self.len as usize;
        let k = to.saturating_sub(from) as usize;
        if n + k > N {
            return false;
        }
        for (slot, id) in self.items[n..n + k].iter_mut().zip(from..to) {
            *slot = id;
        }
        self.len += k as u8;
        true
    }

    #[inline]
    pub fn pop(&mut self) -> Option<ObjId> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.items[self.len as usize])
    }

    #[inline]
    pub fn first(&self) -> Option<ObjId> {
        self.as_slice().first().copied()
    }

    #[inline]
    pub fn last(&self) -> Option<ObjId> {
        self.as_slice().last().copied()
    }

    #[inline]
    pub fn get(&self, i: usize) -> Option<ObjId> {
        self.as_slice().get(i).copied()
    }

    #[inline]
    pub fn contains(&self, x: ObjId) -> bool {
        self.as_slice().contains(&x)
    }

    #[inline]
    pub fn position(&self, x: ObjId) -> Option<usize> {
        self.as_slice().iter().position(|&y| y == x)
    }

    /// Removes the element at `i`, keeping the order of the rest.
    #[inline]
    pub fn remove(&mut self, i: usize) -> ObjId {
        let n = self.len as usize;
        assert!(i < n, "List::remove index {i} out of range {n}");
        let x = self.items[i];
        // The last element (a deck's top card, the one drawn) leaves nothing to shift.
        if i + 1 < n {
            self.items.copy_within(i + 1..n, i);
        }
        self.len -= 1;
        x
    }

    /// Removes `x` if present, keeping order. Returns whether it was there. (Objects are
    /// listed once, so searching from the end finds the same place, and finds a deck's top
    /// card, the one drawn, at once.)
    #[inline]
    pub fn remove_item(&mut self, x: ObjId) -> bool {
        match self.as_slice().iter().rposition(|&y| y == x) {
            Some(i) => {
                self.remove(i);
                true
            }
            None => false,
        }
    }

    /// Inserts at `i`, shifting the rest right; false when full.
    #[inline]
    #[must_use]
    pub fn insert(&mut self, i: usize, x: ObjId) -> bool {
        let n = self.len as usize;
        if n == N || i > n {
            return false;
        }
        if i < n {
            self.items.copy_within(i..n, i + 1);
        }
        self.items[i] = x;
        self.len += 1;
        true
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl<'a, const N: usize> IntoIterator for &'a List<N> {
    type Item = ObjId;
    type IntoIter = std::iter::Copied<std::slice::Iter<'a, ObjId>>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_through_insert_and_remove() {
        let mut l: List<4> = List::new();
        assert!(l.push(1) && l.push(2) && l.push(3));
        assert!(l.insert(0, 9));
        assert_eq!(l.as_slice(), &[9, 1, 2, 3]);
        assert!(!l.push(5), "full list refuses");
        assert_eq!(l.remove(1), 1);
        assert!(l.remove_item(3));
        assert_eq!(l.as_slice(), &[9, 2]);
        assert_eq!(l.pop(), Some(2));
    }

    #[test]
    fn push_range_appends_in_order_or_refuses() {
        let mut l: List<5> = List::new();
        assert!(l.push(9));
        assert!(l.push_range(3, 6));
        assert_eq!(l.as_slice(), &[9, 3, 4, 5]);
        assert!(!l.push_range(0, 2), "two more do not fit in five");
        assert_eq!(
            l.as_slice(),
            &[9, 3, 4, 5],
            "a refused range changes nothing"
        );
        assert!(l.push_range(7, 7), "an empty range fits");
        assert!(l.push_range(0, 1));
        assert_eq!(l.as_slice(), &[9, 3, 4, 5, 0]);
    }
}
