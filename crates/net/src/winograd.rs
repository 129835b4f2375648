//! A 3×3 convolution (padding 1) over a batch of 8×8 boards by Winograd's minimal
//! filtering F(4×4, 3×3) (Lavin & Gray, "Fast Algorithms for Convolutional Neural
//! Networks", 2016), with the interpolation points 0, 1, −1, ½, −2 and ∞: on the
//! shipped net they give logits about 2.5× closer to the im2col pass's than Lavin and
//! Gray's 0, ±1, ±2 (or 0, ±1, ±½), as Barabasz et al. ("Error analysis and improving
//! the accuracy of Winograd convolution", 2020) found for such point sets
//! (`docs/human-inference.md`).
//!
//! The 8×8 output is 2×2 tiles of 4×4 squares, each computed from the 6×6 input tile
//! around it (zero off the board): `Y = Aᵀ [U ⊙ V] A` with `U = G g Gᵀ` the weights'
//! transform (once, at load) and `V = Bᵀ d B` the input tile's. Summed over the input
//! channels, the element-wise products become 36 matrix products, one per transform
//! point: `M[k] = U[k] × V[k]` with `U[k]` an `[out, in]` matrix and `V[k]` an
//! `[in, tiles × batch]` one. That is 36 × 4 = 144 multiply-adds a pair of channels
//! per position instead of im2col's 64 × 9 = 576. `V` and `M` keep a channel's 36 points
//! together (the matrix products take them with a row stride), so that the transforms
//! read and write one small block a channel.
//!
//! Activations are laid out as in [`super::conv`], `[channel, square, position]`, so that
//! the transforms run on the batch's positions as vector lanes.

use super::activation::{Activation, relu, selu};
use super::conv::{Conv, SQUARES};

/// Transform points a tile: the 6×6 input tile.
const POINTS: usize = 36;

/// 4×4 output tiles on the board (2 × 2), tile `t` at row `4 × (t / 2)`, column
/// `4 × (t % 2)`.
const TILES: usize = 4;

/// `G`, the weights' transform (6×3), in f64 for the once-only `G g Gᵀ`.
const G: [[f64; 3]; 6] = [
    [1.0, 0.0, 0.0],
    [1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0],
    [-1.0 / 3.0, 1.0 / 3.0, -1.0 / 3.0],
    [-16.0 / 15.0, -8.0 / 15.0, -4.0 / 15.0],
    [1.0 / 15.0, -2.0 / 15.0, 4.0 / 15.0],
    [0.0, 0.0, 1.0],
];

/// `Bᵀ`, the input tile's transform (6×6); all its entries are exact in binary.
const BT: [[f32; 6]; 6] = [
    [1.0, -1.5, -2.0, 1.5, 1.0, 0.0],
    [0.0, -1.0, 0.5, 2.5, 1.0, 0.0],
    [0.0, 1.0, -2.5, 0.5, 1.0, 0.0],
    [0.0, -2.0, -1.0, 2.0, 1.0, 0.0],
    [0.0, 0.5, -1.0, -0.5, 1.0, 0.0],
    [0.0, 1.0, -1.5, -2.0, 1.5, 1.0],
];

/// `Aᵀ`, the output tile's transform (4×6).
const AT: [[f32; 6]; 4] = [
    [1.0, 1.0, 1.0, 1.0, 1.0, 0.0],
    [0.0, 1.0, -1.0, 0.5, -2.0, 0.0],
    [0.0, 1.0, 1.0, 0.25, 4.0, 0.0],
    [0.0, 1.0, -1.0, 0.125, -8.0, 1.0],
];

/// Positions whose transforms run together (vector lanes): [`Winograd::apply`] takes
/// batches of a multiple of them.
pub(super) const LANES: usize = 8;

/// One value of [`LANES`] positions.
type Lanes = [f32; LANES];

/// A 3×3 convolution's weights in the Winograd domain.
#[derive(Debug, Clone)]
pub(super) struct Winograd {
    inputs: usize,
    outputs: usize,
    /// `U`: for each transform point `k`, an `[outputs, inputs]` matrix, stored
    /// column-major (`[inputs, outputs]`): the matrix product packs it in contiguous
    /// runs then.
    u: Vec<f32>,
    bias: Vec<f32>,
}

/// Buffers of [`Winograd::apply`], kept between calls.
#[derive(Debug, Default)]
pub(super) struct WinogradScratch {
    /// `V`: `[inputs, points, tiles × batch]`.
    v: Vec<f32>,
    /// `M`: `[outputs, points, tiles × batch]`.
    m: Vec<f32>,
}

/// What [`Winograd::apply`] does to each output as it writes it, after the bias: add
/// the skip connection's value, then the activation.
#[derive(Debug, Clone, Copy)]
pub(super) struct Epilogue<'a> {
    /// `[outputs, 64, batch]`, added to the output.
    pub(super) skip: Option<&'a [f32]>,
    /// Applied last.
    pub(super) activation: Activation,
}

impl Winograd {
    /// The transform `U = G g Gᵀ` of `conv`'s weights (computed in f64).
    pub(super) fn new(conv: &Conv) -> Winograd {
        let (inputs, outputs) = (conv.inputs, conv.outputs);
        let mut u = vec![0.0; POINTS * outputs * inputs];
        for o in 0..outputs {
            for i in 0..inputs {
                let g = &conv.weight[(o * inputs + i) * 9..][..9];
                // G g: 6×3.
                let mut gg = [[0.0f64; 3]; 6];
                for (row, out) in G.iter().zip(gg.iter_mut()) {
                    for (c, x) in out.iter_mut().enumerate() {
                        *x = (0..3).map(|r| row[r] * f64::from(g[r * 3 + c])).sum();
                    }
                }
                // (G g) Gᵀ: 6×6.
                for (a, left) in gg.iter().enumerate() {
                    for (b, right) in G.iter().enumerate() {
                        let x: f64 = (0..3).map(|c| left[c] * right[c]).sum();
                        u[((a * 6 + b) * inputs + i) * outputs + o] = x as f32;
                    }
                }
            }
        }
        Winograd {
            inputs,
            outputs,
            u,
            bias: conv.bias.clone(),
        }
    }

    /// The convolution of `input`, `[inputs, 64, batch]`, and its `epilogue` into
    /// `output`, which becomes `[outputs, 64, batch]`; `batch` is a multiple of [`LANES`]
    /// (a few positions more cost less than a path for a part of the lanes).
    pub(super) fn apply(
        &self,
        input: &[f32],
        batch: usize,
        scratch: &mut WinogradScratch,
        output: &mut Vec<f32>,
        epilogue: Epilogue<'_>,
    ) {
        debug_assert_eq!(batch % LANES, 0);
        let cols = TILES * batch;
        let WinogradScratch { v, m } = scratch;
        // Every element of the three is written below: no clearing needed.
        v.resize(POINTS * self.inputs * cols, 0.0);
        m.resize(POINTS * self.outputs * cols, 0.0);
        output.resize(self.outputs * SQUARES * batch, 0.0);
        transform_input(input, self.inputs, batch, v);
        let row_stride = (POINTS * cols) as isize;
        for (k, u) in self.u.chunks_exact(self.outputs * self.inputs).enumerate() {
            let (v, m) = (&v[k * cols..], &mut m[k * cols..]);
            // SAFETY: u is a dense column-major `outputs × inputs` matrix
            // (`chunks_exact` made it exactly so); v holds an `inputs × cols` matrix whose rows are
            // `POINTS × cols` apart (its last element, at (inputs − 1) × POINTS × cols +
            // cols − 1, is within v's `(POINTS × inputs − k) × cols` elements), and m an
            // `outputs × cols` one likewise; β = 0, so m's old contents are not read.
            unsafe {
                matrixmultiply::sgemm(
                    self.outputs,
                    self.inputs,
                    cols,
                    1.0,
                    u.as_ptr(),
                    1,
                    self.outputs as isize,
                    v.as_ptr(),
                    row_stride,
                    1,
                    0.0,
                    m.as_mut_ptr(),
                    row_stride,
                    1,
                );
            }
        }
        // One instance of the output transform for each activation, so that it
        // vectorises.
        let (m, bias, skip) = (&m[..], &self.bias[..], epilogue.skip);
        match epilogue.activation {
            Activation::Identity => transform_output(m, batch, bias, skip, output, |x| x),
            Activation::Relu => transform_output(m, batch, bias, skip, output, relu),
            Activation::Selu => transform_output(m, batch, bias, skip, output, selu),
        }
    }
}

/// `V = Bᵀ d B` of every input tile `d` of every channel: `v[c, k, t × batch + p]` for
/// channel `c`, point `k`, tile `t`, position `p`.
fn transform_input(input: &[f32], channels: usize, batch: usize, v: &mut [f32]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, as just checked.
        unsafe { transform_input_avx2(input, channels, batch, v) };
        return;
    }
    transform_input_body(input, channels, batch, v);
}

/// [`transform_input`] compiled for AVX2: a [`Lanes`] is one register (same results:
/// no operation is fused).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn transform_input_avx2(input: &[f32], channels: usize, batch: usize, v: &mut [f32]) {
    transform_input_body(input, channels, batch, v);
}

/// [`transform_input`] for any instruction set.
#[inline(always)]
fn transform_input_body(input: &[f32], channels: usize, batch: usize, v: &mut [f32]) {
    let cols = TILES * batch;
    for c in 0..channels {
        let plane = &input[c * SQUARES * batch..][..SQUARES * batch];
        let v = &mut v[c * POINTS * cols..][..POINTS * cols];
        for p in (0..batch).step_by(LANES) {
            // The tiles' corners as constants: which rows and files are off the board
            // is known at compile time.
            input_tile::<0, 0>(plane, batch, p, &mut v[p..]);
            input_tile::<0, 4>(plane, batch, p, &mut v[batch + p..]);
            input_tile::<4, 0>(plane, batch, p, &mut v[2 * batch + p..]);
            input_tile::<4, 4>(plane, batch, p, &mut v[3 * batch + p..]);
        }
    }
}

/// `V = Bᵀ d B` of the 6×6 tile `d` of board rows `TOP − 1 … TOP + 4` and files
/// `LEFT − 1 … LEFT + 4` (zero off the board) of positions `p …` of a channel's `plane`,
/// point `k` to `v[k × 4 × batch]`.
#[inline(always)]
fn input_tile<const TOP: usize, const LEFT: usize>(
    plane: &[f32],
    batch: usize,
    p: usize,
    v: &mut [f32],
) {
    let d = |r: usize, s: usize| match (on_board(TOP + r), on_board(LEFT + s)) {
        (Some(y), Some(x)) => load(&plane[(y * 8 + x) * batch + p..]),
        _ => [0.0; LANES],
    };
    // Bᵀ d (each column), then (Bᵀ d) B (each row).
    let mut bd = [[[0.0; LANES]; 6]; 6];
    for s in 0..6 {
        let column = input_1d([d(0, s), d(1, s), d(2, s), d(3, s), d(4, s), d(5, s)]);
        for (row, x) in bd.iter_mut().zip(column) {
            row[s] = x;
        }
    }
    let cols = TILES * batch;
    for (i, row) in bd.iter().enumerate() {
        for (j, x) in input_1d(*row).iter().enumerate() {
            store(&mut v[(i * 6 + j) * cols..], x);
        }
    }
}

/// `Y = activation(Aᵀ M A + bias + skip)` of every output tile: the products `m` (laid
/// out as [`transform_input`]'s `v`) back to `[channel, square, position]`, a bias for
/// each channel.
fn transform_output(
    m: &[f32],
    batch: usize,
    bias: &[f32],
    skip: Option<&[f32]>,
    out: &mut [f32],
    activation: impl Fn(f32) -> f32,
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, as just checked.
        unsafe { transform_output_avx2(m, batch, bias, skip, out, activation) };
        return;
    }
    transform_output_body(m, batch, bias, skip, out, activation);
}

/// [`transform_output`] compiled for AVX2 (same results: no operation is fused).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn transform_output_avx2(
    m: &[f32],
    batch: usize,
    bias: &[f32],
    skip: Option<&[f32]>,
    out: &mut [f32],
    activation: impl Fn(f32) -> f32,
) {
    transform_output_body(m, batch, bias, skip, out, activation);
}

/// [`transform_output`] for any instruction set.
#[inline(always)]
fn transform_output_body(
    m: &[f32],
    batch: usize,
    bias: &[f32],
    skip: Option<&[f32]>,
    out: &mut [f32],
    activation: impl Fn(f32) -> f32,
) {
    let cols = TILES * batch;
    for (c, &bias) in bias.iter().enumerate() {
        let at = c * SQUARES * batch..(c + 1) * SQUARES * batch;
        let plane = &mut out[at.clone()];
        let skip = skip.map(|skip| &skip[at]);
        for t in 0..TILES {
            let (top, left) = (4 * (t / 2), 4 * (t % 2));
            for p in (0..batch).step_by(LANES) {
                let point = |k: usize| load(&m[(c * POINTS + k) * cols + t * batch + p..]);
                // Aᵀ M (each column), then (Aᵀ M) A (each row).
                let mut am = [[[0.0; LANES]; 6]; 4];
                for s in 0..6 {
                    let column = output_1d([
                        point(s),
                        point(6 + s),
                        point(12 + s),
                        point(18 + s),
                        point(24 + s),
                        point(30 + s),
                    ]);
                    for (row, x) in am.iter_mut().zip(column) {
                        row[s] = x;
                    }
                }
                for (i, row) in am.iter().enumerate() {
                    for (j, x) in output_1d(*row).iter().enumerate() {
                        let at = ((top + i) * 8 + left + j) * batch + p;
                        // (Not `array::map`: it is not always inlined.)
                        let mut x = *x;
                        for x in &mut x {
                            *x += bias;
                        }
                        store(&mut plane[at..], &x);
                    }
                }
            }
        }
        // The epilogue over the channel's plane while it is in the cache, in loops
        // that vectorise.
        if let Some(skip) = skip {
            for (x, skip) in plane.iter_mut().zip(skip) {
                *x += skip;
            }
        }
        for x in plane.iter_mut() {
            *x = activation(*x);
        }
    }
}

/// Row or file `i − 1` of the board, if on it (`i` counts from the padding's row).
#[inline(always)]
fn on_board(i: usize) -> Option<usize> {
    i.checked_sub(1).filter(|&y| y < 8)
}

/// `Bᵀ x` for six values (each [`LANES`] wide).
#[inline(always)]
fn input_1d(x: [Lanes; 6]) -> [Lanes; 6] {
    mix(&BT, x)
}

/// `Aᵀ m` for six values (each [`LANES`] wide).
#[inline(always)]
fn output_1d(m: [Lanes; 6]) -> [Lanes; 4] {
    mix(&AT, m)
}

/// `matrix × x`, each of `x` [`LANES`] wide. Inlined with a constant matrix, the loops
/// unroll and the zero terms go: what is left is the adds and multiplies by the other
/// entries (a product by ±1 is exact and compiles to nothing or a sign flip; the sum
/// starts from −0, which adds exactly).
#[inline(always)]
fn mix<const R: usize>(matrix: &[[f32; 6]; R], x: [Lanes; 6]) -> [Lanes; R] {
    let mut y = [[-0.0; LANES]; R];
    for (row, y) in matrix.iter().zip(y.iter_mut()) {
        for (&c, x) in row.iter().zip(&x) {
            if c != 0.0 {
                for (y, x) in y.iter_mut().zip(x) {
                    *y += c * x;
                }
            }
        }
    }
    y
}

/// The first [`LANES`] values of `src`.
#[inline(always)]
fn load(src: &[f32]) -> Lanes {
    let mut lanes = [0.0; LANES];
    lanes.copy_from_slice(&src[..LANES]);
    lanes
}

/// `lanes` into the start of `dst`.
#[inline(always)]
fn store(dst: &mut [f32], lanes: &Lanes) {
    dst[..LANES].copy_from_slice(lanes);
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// A convolution with weights and bias drawn from ±`scale`.
    fn random_conv(rng: &mut ChaCha8Rng, inputs: usize, outputs: usize, scale: f32) -> Conv {
        let mut draw =
            |n: usize| -> Vec<f32> { (0..n).map(|_| rng.random_range(-scale..scale)).collect() };
        Conv {
            inputs,
            outputs,
            weight: draw(outputs * inputs * 9),
            bias: draw(outputs),
        }
    }

    /// The convolution by its definition, in f64: `[channel, square, position]` in and
    /// out.
    fn direct(conv: &Conv, input: &[f32], batch: usize) -> Vec<f64> {
        let mut out = vec![0.0; conv.outputs * SQUARES * batch];
        for o in 0..conv.outputs {
            for p in 0..batch {
                for y in 0..8 {
                    for x in 0..8 {
                        let mut sum = f64::from(conv.bias[o]);
                        for i in 0..conv.inputs {
                            for ky in 0..3 {
                                for kx in 0..3 {
                                    let (sy, sx) = (y + ky, x + kx);
                                    if !(1..=8).contains(&sy) || !(1..=8).contains(&sx) {
                                        continue;
                                    }
                                    let square = (sy - 1) * 8 + sx - 1;
                                    let w = conv.weight[((o * conv.inputs + i) * 3 + ky) * 3 + kx];
                                    let v = input[(i * SQUARES + square) * batch + p];
                                    sum += f64::from(w) * f64::from(v);
                                }
                            }
                        }
                        out[(o * SQUARES + y * 8 + x) * batch + p] = sum;
                    }
                }
            }
        }
        out
    }

    /// max |x − reference| / max(1, |reference|).
    fn worst(ours: &[f32], reference: &[f64]) -> f64 {
        assert_eq!(ours.len(), reference.len());
        ours.iter()
            .zip(reference)
            .map(|(&x, &r)| (f64::from(x) - r).abs() / r.abs().max(1.0))
            .fold(0.0, f64::max)
    }

    /// Winograd and im2col against the definition for `inputs → outputs` channels on
    /// boards of 0/1 planes (`binary`, as the stem sees them) or of post-SELU values.
    fn check(inputs: usize, outputs: usize, binary: bool, seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // He-like weights: outputs of order 1, as in the network.
        let conv = random_conv(
            &mut rng,
            inputs,
            outputs,
            (6.0 / (9 * inputs) as f32).sqrt(),
        );
        let winograd = Winograd::new(&conv);
        // One group of lanes, and two.
        for batch in [LANES, 2 * LANES] {
            let input: Vec<f32> = (0..inputs * SQUARES * batch)
                .map(|_| {
                    if binary {
                        f32::from(u8::from(rng.random_range(0..4) == 0))
                    } else {
                        rng.random_range(-1.7f32..3.0)
                    }
                })
                .collect();
            let reference = direct(&conv, &input, batch);
            let mut out = vec![f32::NAN; 7];
            let epilogue = Epilogue {
                skip: None,
                activation: Activation::Identity,
            };
            winograd.apply(
                &input,
                batch,
                &mut WinogradScratch::default(),
                &mut out,
                epilogue,
            );
            let error = worst(&out, &reference);
            assert!(
                error <= 1e-4,
                "Winograd {inputs}→{outputs}, batch {batch}: {error}"
            );
            let mut cols = Vec::new();
            conv.apply(&input, batch, &mut cols, &mut out);
            let error = worst(&out, &reference);
            assert!(
                error <= 1e-4,
                "im2col {inputs}→{outputs}, batch {batch}: {error}"
            );
        }
    }

    #[test]
    fn winograd_stem_equals_the_direct_convolution() {
        check(14, 96, true, 1);
    }

    #[test]
    fn winograd_block_convolution_equals_the_direct_convolution() {
        check(96, 96, false, 2);
        check(32, 32, false, 3);
    }

    #[test]
    fn winograd_head_equals_the_direct_convolution() {
        // 2 + 2d maps for d = 0 and d = 16.
        check(96, 2, false, 4);
        check(96, 34, false, 5);
    }

    #[test]
    fn the_matrices_compute_a_correlation_exactly() {
        // F(4, 3) in one dimension, in f64: Aᵀ [(G g) ⊙ (Bᵀ d)] = the correlation of d
        // with g, for each unit g and d (so for all, by linearity).
        for k in 0..3 {
            for i in 0..6 {
                let gg: Vec<f64> = G.iter().map(|row| row[k]).collect();
                let bd: Vec<f64> = BT.iter().map(|row| f64::from(row[i])).collect();
                for (y, row) in AT.iter().enumerate() {
                    let got: f64 = (0..6).map(|j| f64::from(row[j]) * gg[j] * bd[j]).sum();
                    let want = if i == y + k { 1.0 } else { 0.0 };
                    assert!((got - want).abs() < 1e-12, "g {k}, d {i}, y {y}: {got}");
                }
            }
        }
        // The transforms compute the matrices' products.
        for k in 0..6 {
            let mut x = [[0.0; LANES]; 6];
            x[k] = [1.0; LANES];
            let (v, y) = (input_1d(x), output_1d(x));
            for (i, row) in BT.iter().enumerate() {
                assert_eq!(v[i], [row[k]; LANES], "Bᵀ[{i}][{k}]");
            }
            for (i, row) in AT.iter().enumerate() {
                assert_eq!(y[i], [row[k]; LANES], "Aᵀ[{i}][{k}]");
            }
        }
    }
}
