//! The forward pass of Hastings' move predictor: a convolutional network run from its
//! safetensors weights on positions given as bitboards, with no Python at run time.
//!
//! It is a crate of its own so that it can be optimised in every build: the tests and a
//! debug build run it many thousands of times, and unoptimised its loops were 10–20×
//! slower (`Cargo.toml`, `[profile.dev.package.hastings-net]`). The board encoding that
//! fills its input and the softmax over legal moves are the main crate's
//! (`hastings::engine::predictor`).
//!
//! - `network`: the weights, [`Network::forward`] and the logit of a move;
//! - `conv`: a 3×3 convolution as im2col and one matrix product, for small batches;
//! - `winograd`: the same by Winograd's F(4×4, 3×3), for large ones;
//! - `activation`: ReLU and SELU.

mod activation;
mod conv;
mod network;
mod winograd;

pub use network::{Convolution, Network, Scratch, WeightsError, read_tensor_f32, read_tensor_u64};

/// The version of the board encoding the network reads; the weights' metadata names the
/// one they were trained on.
pub const ENCODING: u32 = 1;

/// Bitboards per position in the network's input.
pub const PLANES: usize = 14;
