//! A 3×3 convolution (padding 1) over a batch of 8×8 boards as an im2col copy and one
//! matrix product ([`matrixmultiply::sgemm`]): the pass for small batches (one position
//! for the drill's reply), and the weights the Winograd pass is made from
//! ([`super::winograd`]).
//!
//! Activations are `[channel, square, position]`: channel `c`'s value on square `s` of
//! the batch's position `p` is at `(c × 64 + s) × batch + p` (for one position, the
//! familiar `[channel, square]`).

/// Squares on the board.
pub(super) const SQUARES: usize = 64;

/// One 3×3 convolution, its weights as a `[out, in × 9]` matrix (PyTorch's
/// `[out, in, 3, 3]` order).
#[derive(Debug, Clone)]
pub(super) struct Conv {
    pub(super) inputs: usize,
    pub(super) outputs: usize,
    pub(super) weight: Vec<f32>,
    pub(super) bias: Vec<f32>,
}

impl Conv {
    /// `output = weight × im2col(input) + bias` over `batch` positions; `input` is
    /// `[inputs, 64, batch]`, `output` becomes `[outputs, 64, batch]`.
    pub(super) fn apply(
        &self,
        input: &[f32],
        batch: usize,
        cols: &mut Vec<f32>,
        output: &mut Vec<f32>,
    ) {
        let width = batch * SQUARES;
        im2col(input, self.inputs, batch, cols);
        output.clear();
        output.reserve(self.outputs * width);
        for bias in &self.bias {
            output.extend(std::iter::repeat_n(*bias, width));
        }
        let k = self.inputs * 9;
        // SAFETY: the three matrices are dense row-major buffers of the sizes given:
        // weight `outputs × k`, cols `k × width`, output `outputs × width`.
        unsafe {
            matrixmultiply::sgemm(
                self.outputs,
                k,
                width,
                1.0,
                self.weight.as_ptr(),
                k as isize,
                1,
                cols.as_ptr(),
                width as isize,
                1,
                1.0,
                output.as_mut_ptr(),
                width as isize,
                1,
            );
        }
    }
}

/// Each square's 3×3 neighbourhood of each input channel, zero off the board:
/// `cols[(channel × 9 + ky × 3 + kx), square × batch + position]`, the row order of
/// PyTorch's `[out, in, 3, 3]` weights.
fn im2col(input: &[f32], channels: usize, batch: usize, cols: &mut Vec<f32>) {
    let width = batch * SQUARES;
    cols.clear();
    cols.resize(channels * 9 * width, 0.0);
    for channel in 0..channels {
        let plane = &input[channel * width..][..width];
        for ky in 0..3 {
            // The board's rows that have a row `dy` away on the board.
            let dy = ky as isize - 1;
            let ys = (-dy).max(0) as usize..(8 - dy).min(8) as usize;
            for kx in 0..3 {
                let row = &mut cols[(channel * 9 + ky * 3 + kx) * width..][..width];
                // Within a board row, the squares with a square `dx` away (all the
                // batch's positions of them): copied as one run.
                let dx = kx as isize - 1;
                let (dst_x, src_x, run) = match dx {
                    -1 => (1, 0, 7),
                    0 => (0, 0, 8),
                    _ => (0, 1, 7),
                };
                let run = run * batch;
                for y in ys.clone() {
                    let sy = (y as isize + dy) as usize;
                    let dst = (y * 8 + dst_x) * batch;
                    let src = (sy * 8 + src_x) * batch;
                    row[dst..dst + run].copy_from_slice(&plane[src..src + run]);
                }
            }
        }
    }
}
