//! The move predictor: a convolutional network that gives, for a position, the share of
//! strong players who would play each legal move (a "human-like" opponent past the
//! book). It is trained in PyTorch (`training/`) on master games and run here from its
//! safetensors weights, with no Python at run time.
//!
//! - [`encode`]: the board and moves as the network sees them (shared with the
//!   training set's writer);
//! - [`net`]: the network's forward pass (the crate `hastings-net` in `crates/net/`:
//!   a 3×3 convolution as im2col and one matrix product for small batches, by Winograd's
//!   F(4×4, 3×3) for large ones, ReLU and SELU);
//! - [`Predictor`]: a distribution over exactly the legal moves of a position.
//!
//! A legal move's logit is its from-square logit plus its to-square logit (plus, with a
//! query·key head, the dot product of the two squares' vectors) plus the log-prior of
//! its promotion piece ([`Network::move_logit`]); its probability is the softmax over
//! the legal moves.

pub mod encode;
/// The network's forward pass: the crate `hastings-net` (`crates/net/`), optimised even
/// in a debug build.
pub use hastings_net as net;

use std::sync::{Arc, OnceLock};

use shakmaty::{Chess, Move, Position};

pub use encode::{ENCODING, MoveCode, PLANES, encode_board, legal_moves};
pub use net::{Convolution, Network, Scratch, WeightsError};

/// The shipped weights (trained by the command in their metadata; see `docs/human.md`).
pub const SHIPPED_WEIGHTS: &[u8] = include_bytes!("../../../assets/models/predictor.safetensors");

/// A legal move and the share of strong players the network expects to play it.
#[derive(Debug, Clone, PartialEq)]
pub struct PredictedMove {
    /// The move.
    pub mv: Move,
    /// Its probability; the moves of a position sum to 1.
    pub p: f64,
}

/// The move predictor: a [`Network`] and the softmax over legal moves.
#[derive(Debug, Clone)]
pub struct Predictor {
    net: Network,
}

impl Predictor {
    /// The predictor with the shipped weights.
    ///
    /// # Errors
    ///
    /// [`WeightsError`] if the embedded file cannot be read (a build bug; a test loads it).
    pub fn shipped() -> Result<Predictor, WeightsError> {
        Predictor::from_safetensors(SHIPPED_WEIGHTS)
    }

    /// The shipped predictor, read once and shared.
    ///
    /// # Errors
    ///
    /// As [`Predictor::shipped`].
    pub fn shared() -> Result<Arc<Predictor>, WeightsError> {
        static SHARED: OnceLock<Result<Arc<Predictor>, String>> = OnceLock::new();
        SHARED
            .get_or_init(|| {
                Predictor::shipped()
                    .map(Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone()
            .map_err(WeightsError::Metadata)
    }

    /// A predictor from a weights file's bytes.
    ///
    /// # Errors
    ///
    /// As [`Network::from_safetensors`].
    pub fn from_safetensors(bytes: &[u8]) -> Result<Predictor, WeightsError> {
        Ok(Predictor {
            net: Network::from_safetensors(bytes)?,
        })
    }

    /// The network.
    pub fn network(&self) -> &Network {
        &self.net
    }

    /// The distribution over the legal moves of `pos`, most likely first; empty when
    /// there is no legal move.
    pub fn predict(&self, pos: &Chess) -> Vec<PredictedMove> {
        let mut scratch = Scratch::default();
        self.predict_batch(std::slice::from_ref(pos), &mut scratch)
            .pop()
            .unwrap_or_default()
    }

    /// [`Predictor::predict`] for several positions in one forward pass.
    pub fn predict_batch(
        &self,
        positions: &[Chess],
        scratch: &mut Scratch,
    ) -> Vec<Vec<PredictedMove>> {
        let boards: Vec<[u64; PLANES]> = positions.iter().map(encode_board).collect();
        let mut logits = Vec::new();
        self.net.forward(&boards, scratch, &mut logits);
        positions
            .iter()
            .zip(logits.chunks_exact(self.net.outputs_per_position()))
            .map(|(pos, logits)| self.distribution(pos, logits))
            .collect()
    }

    /// The softmax over the legal moves of `pos` of the network's output `maps` for it.
    fn distribution(&self, pos: &Chess, maps: &[f32]) -> Vec<PredictedMove> {
        let turn = pos.turn();
        let scored: Vec<(Move, f64)> = pos
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let code = MoveCode::of(&mv, turn);
                let logit = self.net.move_logit(
                    maps,
                    code.from_index(),
                    code.to_index(),
                    code.promotion_index(),
                );
                (mv, f64::from(logit))
            })
            .collect();
        let max = scored
            .iter()
            .map(|(_, l)| *l)
            .fold(f64::NEG_INFINITY, f64::max);
        let total: f64 = scored.iter().map(|(_, l)| (l - max).exp()).sum();
        let mut moves: Vec<PredictedMove> = scored
            .into_iter()
            .map(|(mv, l)| PredictedMove {
                mv,
                p: (l - max).exp() / total,
            })
            .collect();
        moves.sort_by(|a, b| b.p.total_cmp(&a.p));
        moves
    }
}
