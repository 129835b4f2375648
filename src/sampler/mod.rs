//! The weighted Metropolis–Hastings reply sampler (docs/sampler.md; §4.3 of the thesis,
//! the weighted Metropolis–Hastings opening learner Hastings follows: `ARCHITECTURE.md`,
//! References).
//!
//! At a node `x` of the [`PositionGraph`](crate::book::PositionGraph) the candidates
//! `Y(x)` are the book continuations and, weighted by `τ`, the implied transpositions.
//! Each has a continuation weight `cw(x→y)` (for a transposition `τ·T(y)`) and flag
//! shares `f_i(x→y)`. With `share(y|x) = cw(x→y) / Σ cw(x→y')` and `s_prev` the share
//! of the move that led into `x` (1 at the start):
//!
//! ```text
//! A(y)   = share(y|x) / s_prev + Σ_i w_i · p_i · f_i(x→y)
//! step:    propose y uniformly from Y(x); draw u ~ U[0,1); accept if u < A(y); else retry
//! P(y|x) = min(1, A(y)) / Σ_y' min(1, A(y'))
//! ```
//!
//! Since the shares sum to 1 and `s_prev ≤ 1`, `Σ min(1, A) ≥ 1`: a step needs at most
//! `|Y(x)|` proposals on average. After a rare move (small `s_prev`) every `A ≥ 1` and the
//! reply is uniform over the book (exploration); after a popular move the popularity
//! ratio dominates (exploitation) and the style bonuses tilt it (steering).
//!
//! All randomness comes from an RNG passed in; use `rand_chacha::ChaCha8Rng` so that a
//! seed reproduces the same replies on every machine.
//!
//! Files: `metropolis` (candidates, the exact distribution, the MH step), `style` (the
//! five weighted parameters), `source` (candidates from the graph, Polyglot books or
//! both), `explorer` (an explorer index as popularity), `exploration` (sampled lines),
//! `replay` (a game replayed for `s_prev`), [`profile`] (named styles as RON) and
//! [`fit`] (a player's style fitted to their games).

mod exploration;
mod explorer;
pub mod fit;
mod metropolis;
pub mod profile;
mod replay;
mod source;
mod style;

pub use exploration::{Exploration, ExploreLimits, explore};
pub use metropolis::{Candidate, CandidateKind, Distribution, Step, move_share};
pub use replay::replay;
pub use source::{MoveSource, Popularity};
pub use style::{Preset, Style, StyleError, StyleParam};
