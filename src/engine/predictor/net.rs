//! The move predictor's network, run from its safetensors weights: a 3×3 convolution
//! stem (ReLU), residual blocks of two 3×3 convolutions (SELU), and a 3×3 head whose
//! output maps are the from-square and the to-square logits, then (metadata `head_dim`
//! d > 0) d query and d key maps: a move's logit adds the dot product of its from-square's
//! query and its to-square's key ([`Network::move_logit`]). Batch norm is folded into the
//! convolutions by the trainer, so a block is conv → SELU → conv → + input → SELU.
//!
//! Each convolution is an im2col copy of the 8×8 planes (every square's 3×3
//! neighbourhood, zero outside the board) and one matrix product
//! ([`matrixmultiply::sgemm`]), for a batch of positions at once. The tensors' names,
//! shapes and metadata are the trainer's (`training/`).

use std::collections::HashMap;

use safetensors::{Dtype, SafeTensors};
use thiserror::Error;

use super::encode::{ENCODING, PLANES};

/// Squares on the board.
const SQUARES: usize = 64;

/// Positions taken through the network together: enough columns for the matrix
/// products to run at speed, few enough for the im2col buffer to stay in the cache.
const POSITIONS_AT_ONCE: usize = 8;

/// SELU's scale and α (Klambauer et al.), as PyTorch defines them.
const SELU_SCALE: f32 = 1.050_701;
const SELU_ALPHA: f32 = 1.673_263_2;

/// Why weights cannot be used.
#[derive(Debug, Error)]
pub enum WeightsError {
    /// Not a safetensors file.
    #[error("not a safetensors file: {0}")]
    Format(String),
    /// A tensor is missing or has the wrong type or shape.
    #[error("tensor `{name}`: {reason}")]
    Tensor {
        /// The tensor's name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// The metadata is missing a field or names another architecture or encoding.
    #[error("metadata: {0}")]
    Metadata(String),
}

/// One 3×3 convolution, its weights as a `[out, in × 9]` matrix.
#[derive(Debug, Clone)]
struct Conv {
    inputs: usize,
    outputs: usize,
    weight: Vec<f32>,
    bias: Vec<f32>,
}

/// The trained network.
#[derive(Debug, Clone)]
pub struct Network {
    stem: Conv,
    blocks: Vec<(Conv, Conv)>,
    head: Conv,
    /// Query (and key) maps of the head: 0 for the seed's from + to head.
    head_dim: usize,
    /// Log-prior of each promotion piece (index 0: no promotion, always 0).
    promotion_prior: [f32; 5],
    /// The file's metadata (architecture, training command, accuracy, …).
    metadata: HashMap<String, String>,
}

/// Scratch buffers of one forward pass, kept between calls.
#[derive(Debug, Default)]
pub struct Scratch {
    cols: Vec<f32>,
    a: Vec<f32>,
    b: Vec<f32>,
    c: Vec<f32>,
}

impl Network {
    /// Reads weights written by the trainer.
    ///
    /// # Errors
    ///
    /// [`WeightsError`] when the file is not safetensors, lacks a tensor, has one of
    /// the wrong shape, or was made for another architecture or board encoding.
    pub fn from_safetensors(bytes: &[u8]) -> Result<Network, WeightsError> {
        let (_, meta) =
            SafeTensors::read_metadata(bytes).map_err(|e| WeightsError::Format(e.to_string()))?;
        let metadata = meta.metadata().clone().unwrap_or_default();
        let field = |key: &str| {
            metadata
                .get(key)
                .ok_or_else(|| WeightsError::Metadata(format!("no `{key}`")))
        };
        if field("architecture")? != "chessnet" {
            return Err(WeightsError::Metadata(format!(
                "architecture `{}`, expected `chessnet`",
                field("architecture")?
            )));
        }
        if field("encoding")? != &ENCODING.to_string() {
            return Err(WeightsError::Metadata(format!(
                "board encoding {}, this program reads {ENCODING}",
                field("encoding")?
            )));
        }
        let number = |key: &str| -> Result<usize, WeightsError> {
            field(key)?
                .parse()
                .map_err(|_| WeightsError::Metadata(format!("`{key}` is not a number")))
        };
        let (blocks, channels) = (number("blocks")?, number("channels")?);
        // Weights from before the query·key head have no `head_dim`: theirs is 0.
        let head_dim = if metadata.contains_key("head_dim") {
            number("head_dim")?
        } else {
            0
        };
        let tensors =
            SafeTensors::deserialize(bytes).map_err(|e| WeightsError::Format(e.to_string()))?;
        let conv = |name: &str, inputs: usize, outputs: usize| -> Result<Conv, WeightsError> {
            Ok(Conv {
                inputs,
                outputs,
                weight: floats(
                    &tensors,
                    &format!("{name}.weight"),
                    &[outputs, inputs, 3, 3],
                )?,
                bias: floats(&tensors, &format!("{name}.bias"), &[outputs])?,
            })
        };
        let stem = conv("stem", PLANES, channels)?;
        let blocks = (0..blocks)
            .map(|i| {
                Ok((
                    conv(&format!("blocks.{i}.conv1"), channels, channels)?,
                    conv(&format!("blocks.{i}.conv2"), channels, channels)?,
                ))
            })
            .collect::<Result<Vec<_>, WeightsError>>()?;
        let head = conv("head", channels, 2 + 2 * head_dim)?;
        let prior = floats(&tensors, "promotion_log_prior", &[5])?;
        let mut promotion_prior = [0.0; 5];
        promotion_prior.copy_from_slice(&prior);
        Ok(Network {
            stem,
            blocks,
            head,
            head_dim,
            promotion_prior,
            metadata,
        })
    }

    /// The residual blocks.
    pub fn blocks(&self) -> usize {
        self.blocks.len()
    }

    /// The channels of each convolution.
    pub fn channels(&self) -> usize {
        self.stem.outputs
    }

    /// The width d of the head's query·key term (0: the seed's from + to head).
    pub fn head_dim(&self) -> usize {
        self.head_dim
    }

    /// The logits [`Network::forward`] gives for each position: 64 for each of the
    /// head's `2 + 2d` maps.
    pub fn outputs_per_position(&self) -> usize {
        self.head.outputs * SQUARES
    }

    /// A move's logit from its position's [`Network::forward`] output `maps`:
    /// `from[from] + to[to] + Σᵢ queryᵢ[from] · keyᵢ[to] + prior[promotion]`, squares
    /// in the mover's frame (as [`MoveCode`](super::MoveCode) gives them).
    pub fn move_logit(&self, maps: &[f32], from: usize, to: usize, promotion: usize) -> f32 {
        let d = self.head_dim;
        let queries = &maps[2 * SQUARES..][..d * SQUARES];
        let keys = &maps[(2 + d) * SQUARES..][..d * SQUARES];
        let pair: f32 = queries
            .chunks_exact(SQUARES)
            .zip(keys.chunks_exact(SQUARES))
            .map(|(q, k)| q[from] * k[to])
            .sum();
        maps[from] + maps[SQUARES + to] + pair + self.promotion_prior(promotion)
    }

    /// The metadata the trainer wrote (architecture, command, dataset hash, accuracy).
    pub fn metadata(&self) -> &HashMap<String, String> {
        &self.metadata
    }

    /// The log-prior added to a move's logit for its promotion (index as
    /// [`MoveCode::promotion_index`](super::MoveCode::promotion_index)).
    pub fn promotion_prior(&self, promotion: usize) -> f32 {
        self.promotion_prior.get(promotion).copied().unwrap_or(0.0)
    }

    /// The head's maps for a batch of encoded positions, written to `out`: for each
    /// position [`Network::outputs_per_position`] logits, the 64 from-square logits, the
    /// 64 to-square logits, then the d query and d key maps (squares in the mover's
    /// frame).
    pub fn forward(&self, boards: &[[u64; PLANES]], scratch: &mut Scratch, out: &mut Vec<f32>) {
        out.clear();
        out.reserve(boards.len() * self.outputs_per_position());
        for part in boards.chunks(POSITIONS_AT_ONCE) {
            self.forward_part(part, scratch, out);
        }
    }

    /// [`Network::forward`] of a few positions, appending to `out`.
    fn forward_part(&self, boards: &[[u64; PLANES]], scratch: &mut Scratch, out: &mut Vec<f32>) {
        let batch = boards.len();
        let width = batch * SQUARES;
        let Scratch { cols, a, b, c } = scratch;
        // The input planes, [plane, position, square].
        a.clear();
        a.resize(PLANES * width, 0.0);
        for (p, board) in boards.iter().enumerate() {
            for (plane, bits) in board.iter().enumerate() {
                let row = &mut a[plane * width + p * SQUARES..][..SQUARES];
                let mut rest = *bits;
                while rest != 0 {
                    row[rest.trailing_zeros() as usize] = 1.0;
                    rest &= rest - 1;
                }
            }
        }
        self.stem.apply(a, batch, cols, b);
        b.iter_mut().for_each(|x| *x = x.max(0.0));
        for (conv1, conv2) in &self.blocks {
            conv1.apply(b, batch, cols, c);
            selu_in_place(c);
            conv2.apply(c, batch, cols, a);
            for (x, skip) in a.iter_mut().zip(b.iter()) {
                *x += skip;
            }
            selu_in_place(a);
            std::mem::swap(a, b);
        }
        self.head.apply(b, batch, cols, c);
        // [map, position, square] → [position, map × square].
        for p in 0..batch {
            for map in 0..self.head.outputs {
                out.extend_from_slice(&c[map * width + p * SQUARES..][..SQUARES]);
            }
        }
    }
}

impl Conv {
    /// `output = weight × im2col(input) + bias` over `batch` positions; `input` is
    /// `[inputs, batch × 64]`, `output` becomes `[outputs, batch × 64]`.
    fn apply(&self, input: &[f32], batch: usize, cols: &mut Vec<f32>, output: &mut Vec<f32>) {
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
/// `cols[(channel × 9 + ky × 3 + kx), position × 64 + square]`, the row order of
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
                // Within a board row, the squares with a square `dx` away: copied as one run.
                let dx = kx as isize - 1;
                let (dst_x, src_x, run) = match dx {
                    -1 => (1, 0, 7),
                    0 => (0, 0, 8),
                    _ => (0, 1, 7),
                };
                for p in 0..batch {
                    let base = p * SQUARES;
                    for y in ys.clone() {
                        let sy = (y as isize + dy) as usize;
                        let dst = base + y * 8 + dst_x;
                        let src = base + sy * 8 + src_x;
                        row[dst..dst + run].copy_from_slice(&plane[src..src + run]);
                    }
                }
            }
        }
    }
}

/// SELU over a buffer, without branches so that the compiler vectorises it (a libm
/// `expm1` call per element took a third of the forward pass).
fn selu_in_place(xs: &mut [f32]) {
    for x in xs.iter_mut() {
        let v = *x;
        let negative = SELU_ALPHA * (exp_non_positive(v.min(0.0)) - 1.0);
        *x = SELU_SCALE * if v > 0.0 { v } else { negative };
    }
}

/// `e^x` for `x ≤ 0`: Cody–Waite range reduction and a degree-6 polynomial (relative
/// error about 1e-7), 0 below −87.
#[inline(always)]
fn exp_non_positive(x: f32) -> f32 {
    const LN2_HI: f32 = 0.693_359_4;
    const LN2_LO: f32 = -2.121_944_4e-4;
    // Adding and subtracting 1.5 × 2^23 rounds to an integer.
    const ROUND: f32 = 12_582_912.0;
    let x = x.max(-87.0);
    let n = (x * std::f32::consts::LOG2_E + ROUND) - ROUND;
    let r = x - n * LN2_HI - n * LN2_LO;
    let p = 1.0
        + r * (1.0
            + r * (0.5
                + r * (1.0 / 6.0 + r * (1.0 / 24.0 + r * (1.0 / 120.0 + r * (1.0 / 720.0))))));
    // n is an integer in [-126, 0]: 2^n as a float's exponent bits.
    let scale = f32::from_bits(((n as i32 + 127) << 23) as u32);
    p * scale
}

/// A float32 tensor of the given shape, as a flat vector.
fn floats(
    tensors: &SafeTensors<'_>,
    name: &str,
    shape: &[usize],
) -> Result<Vec<f32>, WeightsError> {
    let error = |reason: String| WeightsError::Tensor {
        name: name.to_owned(),
        reason,
    };
    let view = tensors.tensor(name).map_err(|e| error(e.to_string()))?;
    if view.dtype() != Dtype::F32 {
        return Err(error(format!("type {:?}, expected F32", view.dtype())));
    }
    if view.shape() != shape {
        return Err(error(format!(
            "shape {:?}, expected {shape:?}",
            view.shape()
        )));
    }
    Ok(view
        .data()
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect())
}

/// Reads a `u64` or `f32` tensor of a parity or test file: its values and shape.
///
/// # Errors
///
/// [`WeightsError::Tensor`] when it is missing or of another type.
pub fn read_tensor_u64(bytes: &[u8], name: &str) -> Result<(Vec<u64>, Vec<usize>), WeightsError> {
    let error = |reason: String| WeightsError::Tensor {
        name: name.to_owned(),
        reason,
    };
    let tensors =
        SafeTensors::deserialize(bytes).map_err(|e| WeightsError::Format(e.to_string()))?;
    let view = tensors.tensor(name).map_err(|e| error(e.to_string()))?;
    if view.dtype() != Dtype::U64 {
        return Err(error(format!("type {:?}, expected U64", view.dtype())));
    }
    let values = view
        .data()
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
        .collect();
    Ok((values, view.shape().to_vec()))
}

/// Reads an `f32` tensor: its values and shape.
///
/// # Errors
///
/// [`WeightsError::Tensor`] when it is missing or of another type.
pub fn read_tensor_f32(bytes: &[u8], name: &str) -> Result<(Vec<f32>, Vec<usize>), WeightsError> {
    let tensors =
        SafeTensors::deserialize(bytes).map_err(|e| WeightsError::Format(e.to_string()))?;
    let shape = tensors
        .tensor(name)
        .map_err(|e| WeightsError::Tensor {
            name: name.to_owned(),
            reason: e.to_string(),
        })?
        .shape()
        .to_vec();
    Ok((floats(&tensors, name, &shape)?, shape))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_exponential_matches_the_library_one() {
        for i in 0..=20_000 {
            let x = -(i as f32) * 0.005;
            let (ours, libm) = (exp_non_positive(x), x.exp());
            assert!(
                (ours - libm).abs() <= 1e-6 * libm + 1e-37,
                "{x}: {ours} vs {libm}"
            );
        }
        assert_eq!(exp_non_positive(-200.0), exp_non_positive(-87.0));
    }

    #[test]
    fn selu_is_pytorchs() {
        let mut xs = [-3.0f32, -0.5, 0.0, 0.25, 2.0];
        selu_in_place(&mut xs);
        // torch.nn.functional.selu(torch.tensor([-3, -0.5, 0, 0.25, 2.0]))
        let torch = [-1.670_568_7f32, -0.691_758_16, 0.0, 0.262_675_26, 2.101_402];
        for (a, b) in xs.iter().zip(torch) {
            assert!((a - b).abs() < 1e-6, "{a} vs {b}");
        }
    }
}
