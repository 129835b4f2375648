//! Bit streams for the records of a block (format 4): values of any width up to 64
//! bits written least significant bit first, and read back with every read
//! bounds-checked (`None` past the end, never a panic).

/// Writes values of a given width, least significant bit first.
#[derive(Debug, Default)]
pub(super) struct BitWriter {
    bytes: Vec<u8>,
    acc: u64,
    held: u32,
}

impl BitWriter {
    /// The low `width` bits of `v` (`width` ≤ 64).
    pub fn put(&mut self, v: u64, width: u32) {
        if width > 32 {
            self.put(v & 0xffff_ffff, 32);
            self.put(v >> 32, width - 32);
            return;
        }
        if width == 0 {
            return;
        }
        self.acc |= (v & mask(width)) << self.held;
        self.held += width;
        while self.held >= 8 {
            self.bytes.push(self.acc as u8);
            self.acc >>= 8;
            self.held -= 8;
        }
    }

    /// `n` one bits then a zero: a unary number.
    pub fn unary(&mut self, n: u32) {
        for _ in 0..n {
            self.put(1, 1);
        }
        self.put(0, 1);
    }

    /// `v` in Elias gamma code (of `v + 1`): small values in few bits.
    pub fn gamma(&mut self, v: u64) {
        let v = u128::from(v) + 1;
        let w = 128 - v.leading_zeros();
        for _ in 1..w {
            self.put(0, 1);
        }
        // The leading one, then the bits below it.
        self.put(1, 1);
        self.put(v as u64, w - 1);
    }

    /// The bytes written, the last one padded with zeros.
    pub fn finish(mut self) -> Vec<u8> {
        if self.held > 0 {
            self.bytes.push(self.acc as u8);
        }
        self.bytes
    }
}

/// Reads what a [`BitWriter`] wrote.
#[derive(Debug)]
pub(super) struct BitReader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> BitReader<'a> {
    /// Reads `bytes` from their first bit.
    pub fn new(bytes: &'a [u8]) -> BitReader<'a> {
        BitReader { bytes, at: 0 }
    }

    /// Bits left to read.
    fn left(&self) -> usize {
        8 * self.bytes.len() - self.at
    }

    /// The next bits from the reading place (at least 57 of them valid when that many
    /// are left; the bits past the end are zeros).
    fn window(&self) -> u64 {
        let first = self.at / 8;
        let word = match self.bytes.get(first..first + 8) {
            Some(b) => b.try_into().map_or(0, u64::from_le_bytes),
            None => {
                let mut window = [0u8; 8];
                let tail = self.bytes.get(first..).unwrap_or_default();
                window[..tail.len()].copy_from_slice(tail);
                u64::from_le_bytes(window)
            }
        };
        word >> (self.at % 8)
    }

    /// The next `width` bits (`width` ≤ 64); `None` past the end.
    pub fn get(&mut self, width: u32) -> Option<u64> {
        if width > 32 {
            let low = self.get(32)?;
            return Some(low | (self.get(width - 32)? << 32));
        }
        if width as usize > self.left() {
            return None;
        }
        let v = self.window() & mask(width);
        self.at += width as usize;
        Some(v)
    }

    /// A unary number of at most `limit` ones (`limit` ≤ 32; the zero after them read
    /// too, unless there are `limit`).
    pub fn unary(&mut self, limit: u32) -> Option<u32> {
        let ones = self.window().trailing_ones().min(limit);
        let read = ones as usize + usize::from(ones < limit);
        if read > self.left() {
            return None;
        }
        self.at += read;
        Some(ones)
    }

    /// A value written by [`BitWriter::gamma`]; `None` past the end or when it is
    /// longer than 64 bits.
    pub fn gamma(&mut self) -> Option<u64> {
        // Up to 32 zeros are seen in one window; longer codes are read in steps.
        let mut zeros = 0u32;
        loop {
            let run = self.window().trailing_zeros().min(32);
            if run as usize >= self.left() {
                return None;
            }
            zeros += run;
            self.at += run as usize;
            if run < 32 {
                break;
            }
            if zeros > 64 {
                return None;
            }
        }
        if zeros > 64 {
            return None;
        }
        self.at += 1;
        let low = self.get(zeros)?;
        let v = (1u128 << zeros) | u128::from(low);
        u64::try_from(v - 1).ok()
    }

    /// Whether what is left is the last byte's padding (fewer than 8 zero bits).
    pub fn at_end(&self) -> bool {
        let left = 8 * self.bytes.len() - self.at;
        left < 8
            && self
                .bytes
                .last()
                .is_none_or(|&b| left == 0 || u64::from(b) >> (8 - left) == 0)
    }
}

/// The low `width` bits set (`width` ≤ 64).
fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

/// The bits `v` takes (0 for 0).
pub(super) fn width(v: u64) -> u32 {
    64 - v.leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_of_every_width_come_back() {
        let values: Vec<(u64, u32)> = (0..=64u32)
            .flat_map(|w| {
                [
                    (0u64, w),
                    (mask(w), w),
                    (0x5555_5555_5555_5555 & mask(w), w),
                ]
            })
            .collect();
        let mut out = BitWriter::default();
        for &(v, w) in &values {
            out.put(v, w);
            out.unary(w % 5);
            out.gamma(v);
        }
        let bytes = out.finish();
        let mut read = BitReader::new(&bytes);
        for &(v, w) in &values {
            assert_eq!(read.get(w), Some(v), "width {w}");
            assert_eq!(read.unary(8), Some(w % 5));
            assert_eq!(read.gamma(), Some(v), "gamma of {v}");
        }
        assert!(read.at_end());
        assert_eq!(read.get(8), None);
    }
}
