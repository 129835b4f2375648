//! The move predictor's network, run from its safetensors weights: a 3×3 convolution
//! stem (ReLU), residual blocks of two 3×3 convolutions (SELU), and a 3×3 head whose
//! output maps are the from-square and the to-square logits, then (metadata `head_dim`
//! d > 0) d query and d key maps: a move's logit adds the dot product of its from-square's
//! query and its to-square's key ([`Network::move_logit`]). Batch norm is folded into the
//! convolutions by the trainer, so a block is conv → SELU → conv → + input → SELU.
//!
//! A convolution is computed one of two ways ([`Convolution`]): an im2col copy and one
//! matrix product (module `conv`) for a few positions, or Winograd F(4×4, 3×3) (module
//! `winograd`) for many, where it is about 3× faster. The tensors' names, shapes and
//! metadata are the trainer's (`training/`).

use std::collections::HashMap;
use std::sync::OnceLock;

use safetensors::{Dtype, SafeTensors};
use thiserror::Error;

use super::activation::Activation;
use super::conv::{Conv, SQUARES};
use super::winograd::{Epilogue, LANES, Winograd, WinogradScratch};
use super::{ENCODING, PLANES};

/// Positions taken through the im2col pass together: enough columns for the matrix
/// products to run at speed, few enough for the im2col buffer to stay in the cache.
const IM2COL_POSITIONS: usize = 8;

/// Positions taken through the Winograd pass together (a multiple of [`LANES`]): its
/// buffers grow with them, and on the 2-core test machine (4 MiB of L2 a core) 16 ran a
/// batch of 64 about 15 % faster than 8 or 24 and 20–35 % faster than 32 or 64
/// (`docs/human-inference.md`).
const WINOGRAD_POSITIONS: usize = 16;

/// The smallest batch [`Network::forward`] runs by Winograd. Winograd pads a batch to a
/// multiple of [`LANES`] positions, so a batch of 1–3 costs it nearly what 8 do: im2col
/// is 2.5× faster at batch 1, Winograd about 1.7× at 5–7 and 3× at 8 or more (from 4
/// positions on, by a margin within the noise at 4). Below 8 im2col is kept: a batch of
/// a few positions then gives one position's numbers exactly, and those are the closer
/// to the trainer's (1.5e-5 against 3.5e-5 on the parity positions).
const WINOGRAD_FROM: usize = 8;

/// How [`Network::forward_with`] computes the convolutions. Both give the same logits
/// to float rounding: on the shipped net within 1e-4 relative of each other and of the
/// trainer's (1e-6 on average).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Convolution {
    /// im2col and one matrix product, a few positions at a time: the faster for a
    /// batch of one or a few positions.
    Im2col,
    /// Winograd F(4×4, 3×3): the faster for a batch of many positions.
    Winograd,
}

impl Convolution {
    /// The one [`Network::forward`] uses for a batch of `positions`.
    pub fn for_batch(positions: usize) -> Convolution {
        if positions >= WINOGRAD_FROM {
            Convolution::Winograd
        } else {
            Convolution::Im2col
        }
    }

    /// Positions taken through the network together.
    fn positions_at_once(self) -> usize {
        match self {
            Convolution::Im2col => IM2COL_POSITIONS,
            Convolution::Winograd => WINOGRAD_POSITIONS,
        }
    }
}

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

/// One 3×3 convolution, its weights as im2col and Winograd use them. The Winograd
/// weights are transformed from the im2col ones on the first batch run by Winograd: a
/// process that predicts one position (`hastings predict --fen`, the trainer's hints)
/// never pays for them (about 40 % of its time when they were made at load).
#[derive(Debug, Clone)]
struct Layer {
    im2col: Conv,
    winograd: OnceLock<Winograd>,
}

impl Layer {
    fn new(im2col: Conv) -> Layer {
        Layer {
            im2col,
            winograd: OnceLock::new(),
        }
    }

    /// The Winograd weights, transformed now if no batch has needed them yet.
    fn winograd(&self) -> &Winograd {
        self.winograd.get_or_init(|| Winograd::new(&self.im2col))
    }

    /// `activation(convolution(input) + skip)` into `output`: `input` is
    /// `[inputs, 64, batch]`, `skip` (if any) and `output` `[outputs, 64, batch]`.
    #[allow(clippy::too_many_arguments)] // a convolution and its epilogue
    fn apply(
        &self,
        how: Convolution,
        input: &[f32],
        batch: usize,
        work: &mut ConvScratch,
        output: &mut Vec<f32>,
        skip: Option<&[f32]>,
        activation: Activation,
    ) {
        match how {
            Convolution::Im2col => {
                self.im2col.apply(input, batch, &mut work.cols, output);
                if let Some(skip) = skip {
                    for (x, skip) in output.iter_mut().zip(skip) {
                        *x += skip;
                    }
                }
                activation.apply_in_place(output);
            }
            Convolution::Winograd => {
                let epilogue = Epilogue { skip, activation };
                self.winograd()
                    .apply(input, batch, &mut work.winograd, output, epilogue);
            }
        }
    }
}

/// The trained network.
#[derive(Debug, Clone)]
pub struct Network {
    stem: Layer,
    blocks: Vec<(Layer, Layer)>,
    head: Layer,
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
    work: ConvScratch,
    a: Vec<f32>,
    b: Vec<f32>,
    c: Vec<f32>,
}

/// The convolutions' own buffers.
#[derive(Debug, Default)]
struct ConvScratch {
    cols: Vec<f32>,
    winograd: WinogradScratch,
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
        let conv = |name: &str, inputs: usize, outputs: usize| -> Result<Layer, WeightsError> {
            Ok(Layer::new(Conv {
                inputs,
                outputs,
                weight: floats(
                    &tensors,
                    &format!("{name}.weight"),
                    &[outputs, inputs, 3, 3],
                )?,
                bias: floats(&tensors, &format!("{name}.bias"), &[outputs])?,
            }))
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

    /// Whether the Winograd weights have been made: only once a batch ran by Winograd
    /// (see [`Convolution::for_batch`]) needed them, each layer on its first use.
    pub fn winograd_weights_made(&self) -> bool {
        self.layers().all(|layer| layer.winograd.get().is_some())
    }

    fn layers(&self) -> impl Iterator<Item = &Layer> {
        std::iter::once(&self.stem)
            .chain(self.blocks.iter().flat_map(|(a, b)| [a, b]))
            .chain(std::iter::once(&self.head))
    }

    /// The residual blocks.
    pub fn blocks(&self) -> usize {
        self.blocks.len()
    }

    /// The channels of each convolution.
    pub fn channels(&self) -> usize {
        self.stem.im2col.outputs
    }

    /// The width d of the head's query·key term (0: the seed's from + to head).
    pub fn head_dim(&self) -> usize {
        self.head_dim
    }

    /// The logits [`Network::forward`] gives for each position: 64 for each of the
    /// head's `2 + 2d` maps.
    pub fn outputs_per_position(&self) -> usize {
        self.head.im2col.outputs * SQUARES
    }

    /// A move's logit from its position's [`Network::forward`] output `maps`:
    /// `from[from] + to[to] + Σᵢ queryᵢ[from] · keyᵢ[to] + prior[promotion]`, squares
    /// in the mover's frame (as `hastings::engine::predictor::MoveCode` gives them).
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
    /// `MoveCode::promotion_index`).
    pub fn promotion_prior(&self, promotion: usize) -> f32 {
        self.promotion_prior.get(promotion).copied().unwrap_or(0.0)
    }

    /// The head's maps for a batch of encoded positions, written to `out`: for each
    /// position [`Network::outputs_per_position`] logits, the 64 from-square logits, the
    /// 64 to-square logits, then the d query and d key maps (squares in the mover's
    /// frame). The convolutions are computed as [`Convolution::for_batch`] says.
    pub fn forward(&self, boards: &[[u64; PLANES]], scratch: &mut Scratch, out: &mut Vec<f32>) {
        self.forward_with(Convolution::for_batch(boards.len()), boards, scratch, out);
    }

    /// [`Network::forward`] with the convolutions computed `how`.
    pub fn forward_with(
        &self,
        how: Convolution,
        boards: &[[u64; PLANES]],
        scratch: &mut Scratch,
        out: &mut Vec<f32>,
    ) {
        out.clear();
        out.reserve(boards.len() * self.outputs_per_position());
        for part in boards.chunks(how.positions_at_once()) {
            self.forward_part(how, part, scratch, out);
        }
    }

    /// [`Network::forward_with`] of a few positions, appending to `out`.
    fn forward_part(
        &self,
        how: Convolution,
        boards: &[[u64; PLANES]],
        scratch: &mut Scratch,
        out: &mut Vec<f32>,
    ) {
        // Winograd's transforms take positions [`LANES`] at a time: empty boards fill
        // the last group.
        let batch = match how {
            Convolution::Im2col => boards.len(),
            Convolution::Winograd => boards.len().next_multiple_of(LANES),
        };
        let Scratch { work, a, b, c } = scratch;
        // The input planes, [plane, square, position].
        a.clear();
        a.resize(PLANES * SQUARES * batch, 0.0);
        for (p, board) in boards.iter().enumerate() {
            for (plane, bits) in board.iter().enumerate() {
                let values = &mut a[plane * SQUARES * batch..][..SQUARES * batch];
                let mut rest = *bits;
                while rest != 0 {
                    values[rest.trailing_zeros() as usize * batch + p] = 1.0;
                    rest &= rest - 1;
                }
            }
        }
        self.stem
            .apply(how, a, batch, work, b, None, Activation::Relu);
        for (conv1, conv2) in &self.blocks {
            conv1.apply(how, b, batch, work, c, None, Activation::Selu);
            conv2.apply(how, c, batch, work, a, Some(b), Activation::Selu);
            std::mem::swap(a, b);
        }
        self.head
            .apply(how, b, batch, work, c, None, Activation::Identity);
        // [map, square, position] → [position, map × square].
        for p in 0..boards.len() {
            for map in 0..self.head.im2col.outputs {
                let values = &c[map * SQUARES * batch..][..SQUARES * batch];
                out.extend(values.iter().skip(p).step_by(batch));
            }
        }
    }
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
