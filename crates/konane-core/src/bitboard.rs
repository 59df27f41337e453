//! Bitboards: one bit per square, square index `row * cols + col`.
//!
//! The move generator is generic over [`Bits`] so that a board of up to 64 squares runs on
//! a plain `u64`, up to 128 on `u128`, and up to 256 (16x16) on [`U256`], all with the same code.

use core::fmt::Debug;
use core::hash::Hash;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A fixed-width set of squares.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many squares fit.
    const CAPACITY: usize;
    /// The empty set.
    const ZERO: Self;

    /// The set holding only square `index` (which must be below `CAPACITY`).
    fn single(index: usize) -> Self;
    /// Moves every square up by `n` indices (`n < 64`); squares pushed past the top vanish.
    fn shl(self, n: u32) -> Self;
    /// Moves every square down by `n` indices (`n < 64`); squares pushed below 0 vanish.
    fn shr(self, n: u32) -> Self;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// Lowest square in the set; meaningless on the empty set.
    fn lowest(self) -> usize;
    /// The set without its lowest square.
    fn without_lowest(self) -> Self;
    /// Squares 0 to 63 as a `u64` (the whole set on boards of up to 64 squares).
    fn low_u64(self) -> u64;

    /// True when the set holds no square.
    #[inline]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
    /// True when square `index` is in the set.
    #[inline]
    fn has(self, index: usize) -> bool {
        self & Self::single(index) != Self::ZERO
    }
    /// Iterates over the squares of the set, lowest first.
    #[inline]
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
}

/// Iterator over the indices in a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct SquareIter<B>(B);

impl<B: Bits> Iterator for SquareIter<B> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0.is_empty() {
            return None;
        }
        let i = self.0.lowest();
        self.0 = self.0.without_lowest();
        Some(i)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count() as usize;
        (n, Some(n))
    }
}

impl<B: Bits> ExactSizeIterator for SquareIter<B> {}

macro_rules! native_bits {
    ($t:ty) => {
        impl Bits for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            const ZERO: Self = 0;

            #[inline]
            fn single(index: usize) -> Self {
                1 << index
            }
            #[inline]
            fn shl(self, n: u32) -> Self {
                self << n
            }
            #[inline]
            fn shr(self, n: u32) -> Self {
                self >> n
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn without_lowest(self) -> Self {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn low_u64(self) -> u64 {
                self as u64
            }
        }
    };
}

native_bits!(u64);
native_bits!(u128);

/// A 256-bit set, for boards of more than 128 squares (up to 16x16).
///
/// Limb 0 holds squares 0..64. Only what the move generator needs is implemented:
/// there is no arithmetic, and shifts are by less than one limb.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct U256([u64; 4]);

impl Debug for U256 {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "U256({:#018x}_{:016x}_{:016x}_{:016x})",
            self.0[3], self.0[2], self.0[1], self.0[0]
        )
    }
}

macro_rules! limbwise {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for U256 {
            type Output = U256;
            #[inline]
            fn $f(self, o: U256) -> U256 {
                U256([self.0[0] $op o.0[0], self.0[1] $op o.0[1], self.0[2] $op o.0[2], self.0[3] $op o.0[3]])
            }
        }
        impl $tra for U256 {
            #[inline]
            fn $fa(&mut self, o: U256) {
                *self = *self $op o;
            }
        }
    };
}

limbwise!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
limbwise!(BitOr, bitor, BitOrAssign, bitor_assign, |);
limbwise!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for U256 {
    type Output = U256;
    #[inline]
    fn not(self) -> U256 {
        U256([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

impl Bits for U256 {
    const CAPACITY: usize = 256;
    const ZERO: Self = U256([0; 4]);

    #[inline]
    fn single(index: usize) -> Self {
        let mut limbs = [0; 4];
        limbs[index / 64] = 1 << (index % 64);
        U256(limbs)
    }
    #[inline]
    fn shl(self, n: u32) -> Self {
        debug_assert!(n < 64);
        if n == 0 {
            return self;
        }
        let l = self.0;
        U256([
            l[0] << n,
            (l[1] << n) | (l[0] >> (64 - n)),
            (l[2] << n) | (l[1] >> (64 - n)),
            (l[3] << n) | (l[2] >> (64 - n)),
        ])
    }
    #[inline]
    fn shr(self, n: u32) -> Self {
        debug_assert!(n < 64);
        if n == 0 {
            return self;
        }
        let l = self.0;
        U256([
            (l[0] >> n) | (l[1] << (64 - n)),
            (l[1] >> n) | (l[2] << (64 - n)),
            (l[2] >> n) | (l[3] << (64 - n)),
            l[3] >> n,
        ])
    }
    #[inline]
    fn count(self) -> u32 {
        self.0.iter().map(|l| l.count_ones()).sum()
    }
    #[inline]
    fn lowest(self) -> usize {
        for (i, l) in self.0.iter().enumerate() {
            if *l != 0 {
                return i * 64 + l.trailing_zeros() as usize;
            }
        }
        256
    }
    #[inline]
    fn without_lowest(self) -> Self {
        let mut l = self.0;
        for limb in &mut l {
            if *limb != 0 {
                *limb &= *limb - 1;
                break;
            }
        }
        U256(l)
    }
    #[inline]
    fn low_u64(self) -> u64 {
        self.0[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_indices<B: Bits>(ix: &[usize]) -> B {
        ix.iter().fold(B::ZERO, |acc, &i| acc | B::single(i))
    }

    fn shift_agrees<B: Bits>(ix: &[usize], n: u32) {
        let b: B = from_indices(ix);
        let up: Vec<usize> = ix
            .iter()
            .map(|i| i + n as usize)
            .filter(|&i| i < B::CAPACITY)
            .collect();
        let down: Vec<usize> = ix
            .iter()
            .filter(|&&i| i >= n as usize)
            .map(|i| i - n as usize)
            .collect();
        assert_eq!(b.shl(n), from_indices::<B>(&up), "shl {n} of {ix:?}");
        assert_eq!(b.shr(n), from_indices::<B>(&down), "shr {n} of {ix:?}");
    }

    #[test]
    fn u256_shifts_cross_limbs() {
        let ix = [0, 1, 62, 63, 64, 100, 127, 128, 191, 192, 250, 255];
        for n in [0, 1, 2, 15, 16, 31, 32, 63] {
            shift_agrees::<U256>(&ix, n);
        }
        let small = [0, 1, 30, 62, 63];
        for n in [0, 1, 2, 7, 32, 63] {
            shift_agrees::<u64>(&small, n);
            shift_agrees::<u128>(&[0, 1, 63, 64, 100, 127], n);
        }
    }

    #[test]
    fn iteration_and_count() {
        let ix = [3, 64, 65, 129, 255];
        let b: U256 = from_indices(&ix);
        assert_eq!(b.count(), 5);
        assert_eq!(b.squares().collect::<Vec<_>>(), ix);
        assert!(b.has(129) && !b.has(128));
        assert!(U256::ZERO.is_empty() && U256::ZERO.squares().next().is_none());
        let n: u64 = from_indices(&[0, 5, 63]);
        assert_eq!(n.squares().collect::<Vec<_>>(), [0, 5, 63]);
        assert_eq!(b.low_u64(), 1 << 3);
        assert_eq!(from_indices::<u128>(&[1, 70]).low_u64(), 2);
        assert_eq!(n.low_u64(), n);
    }
}
