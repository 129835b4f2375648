//! NumPy's `.npy` format (version 1.0), for data that Python reads with `np.load`: a
//! magic string, a header dictionary padded to 64 bytes, then the array's bytes,
//! little-endian, in C order.

/// An element type `.npy` can hold.
pub trait NpyElement: Copy {
    /// NumPy's type string (`<u2`, `<u8`, …).
    const DESCR: &'static str;
    /// Appends the element's little-endian bytes.
    fn put(self, out: &mut Vec<u8>);
}

macro_rules! npy_element {
    ($t:ty, $descr:literal) => {
        impl NpyElement for $t {
            const DESCR: &'static str = $descr;
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    };
}

npy_element!(u16, "<u2");
npy_element!(u32, "<u4");
npy_element!(u64, "<u8");
npy_element!(f32, "<f4");

/// The `.npy` file of an array of `shape` whose elements, in C order, are `data`.
///
/// ```
/// use hastings::workspace::npy::npy_bytes;
///
/// let bytes = npy_bytes(&[2, 1], &[7u16, 9]);
/// assert!(bytes.starts_with(b"\x93NUMPY\x01\x00"));
/// // The header is padded to a multiple of 64 bytes; then the data, little-endian.
/// assert_eq!(bytes.len() % 64, 4);
/// assert_eq!(&bytes[bytes.len() - 4..], &[7, 0, 9, 0]);
/// ```
pub fn npy_bytes<T: NpyElement>(shape: &[usize], data: &[T]) -> Vec<u8> {
    debug_assert_eq!(shape.iter().product::<usize>(), data.len());
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    let shape_text = match dims.len() {
        1 => format!("({},)", dims[0]),
        _ => format!("({})", dims.join(", ")),
    };
    let mut header = format!(
        "{{'descr': '{}', 'fortran_order': False, 'shape': {shape_text}, }}",
        T::DESCR
    );
    // Magic (6) + version (2) + length (2) + header + newline, a multiple of 64.
    let unpadded = 10 + header.len() + 1;
    header.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + std::mem::size_of_val(data));
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    // The header of a dataset's arrays is far below 64 KiB.
    out.extend_from_slice(
        &u16::try_from(header.len())
            .unwrap_or(u16::MAX)
            .to_le_bytes(),
    );
    out.extend_from_slice(header.as_bytes());
    for x in data {
        x.put(&mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_names_type_and_shape_and_is_padded() {
        let bytes = npy_bytes(&[3], &[1u64, 2, 3]);
        let len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
        let header = std::str::from_utf8(&bytes[10..10 + len]).unwrap();
        assert!(header.contains("'descr': '<u8'"), "{header}");
        assert!(header.contains("'shape': (3,)"), "{header}");
        assert!(header.ends_with('\n'));
        assert_eq!((10 + len) % 64, 0);
        assert_eq!(bytes.len(), 10 + len + 24);
    }
}
