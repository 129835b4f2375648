//! What a drill reports: the moves played, where it stands, what a move or a reply did.

use shakmaty::{Move, Square};

use crate::book::NodeId;
use crate::sampler::{Candidate, CandidateKind};

/// A move of the drill's game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedMove {
    /// The move.
    pub mv: Move,
    /// The move in SAN, with `+`/`#`.
    pub san: String,
    /// Whether the learner played it (else the computer did).
    pub by_learner: bool,
    /// The node of the graph it led to; `None` for a Polyglot book's move past the
    /// graph's lines.
    pub node: Option<NodeId>,
    /// Book continuation or implied transposition.
    pub kind: CandidateKind,
}

/// A book move the learner could have played, shown after a mistake.
#[derive(Clone, Debug, PartialEq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// The move in SAN.
    pub san: String,
    /// Its popularity share.
    pub share: f64,
    /// The style bonus `Σ w_i p_i f_i` of the move.
    pub bonus: f64,
    /// `P`: how often the computer would play it here (the chart's bar).
    pub p: f64,
    /// Book continuation or implied transposition.
    pub kind: CandidateKind,
    /// The title (`"C60 Ruy Lopez"`) of the line it leads into, if named.
    pub leads_to: Option<String>,
}

/// Where the drill stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// The learner is to move.
    LearnerToMove,
    /// The computer is to move; call [`Session::reply`](crate::trainer::Session::reply) (after the reply delay).
    ComputerToMove,
    /// The learner played a move outside the book. It is shown but not kept.
    OutOfBook {
        /// The move played.
        attempted: Move,
        /// It in SAN.
        san: String,
        /// What the book plays here, most popular first.
        book_moves: Vec<BookMove>,
    },
    /// No book move continues from here.
    EndOfLine {
        /// `"C60 Ruy Lopez"`, or `None` if no position of the line is named.
        title: Option<String>,
        /// Moves played in the line.
        plies: usize,
        /// Mistakes made in the line.
        mistakes: u32,
    },
}

/// What happened when the learner played a move.
#[derive(Clone, Debug, PartialEq)]
pub enum MoveOutcome {
    /// The move is in the book and was kept.
    Accepted {
        /// It in SAN.
        san: String,
        /// `Some(title)` when the move switched to another named line by transposition.
        transposed_to: Option<String>,
    },
    /// The move is not in the book: see [`Phase::OutOfBook`].
    OutOfBook,
    /// The move is not kept, and not a mistake: an alternative of the learner's
    /// repertoire when the drill asks for the main move, one of several moves when it
    /// asks for all of them, or a reply of the opponent's named when it asks for the
    /// replies the repertoire answers (the note says whether it is one). The learner
    /// plays again.
    InRepertoire {
        /// It in SAN.
        san: String,
        /// What the drill says ("Also in your repertoire — your main move is 4…Nc6. …").
        note: String,
    },
    /// The move is illegal here, or it is not the learner's turn; nothing changed.
    Rejected,
}

/// The computer's reply.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The move in SAN.
    pub san: String,
    /// The candidate chosen, with its share, bonus, acceptance and exact probability.
    pub candidate: Candidate,
    /// How many proposals the Metropolis–Hastings step made.
    pub proposals: u32,
    /// `Some(title)` when the reply switched to another named line by transposition.
    pub transposed_to: Option<String>,
}

/// A hint for the learner: first the piece, then the whole move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The square of the piece to move.
    pub from: Square,
    /// The target square, from the second press on.
    pub to: Option<Square>,
}
