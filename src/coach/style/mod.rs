//! The style feature: the learner's style (from the drilled lines and their games,
//! [`learner`]), which side the loaded repertoires are for ([`sides`]), and the style
//! profile loaded last; loading, saving and playing like a profile and the adaptive
//! opponent (`profile.rs`).

pub mod learner;
mod profile;
pub mod sides;

pub use self::learner::LearnerStyleState;
pub use self::sides::SidesState;
use crate::sampler::profile::StyleProfile;

/// The style feature's state: the profile loaded last, the learner's style, which side
/// the repertoires are for.
pub struct StyleState {
    /// The style profile loaded last, if any.
    pub(crate) profile: Option<StyleProfile>,
    /// The learner's style: drilled lines, imported games, the adaptive opponent's coin.
    pub(crate) learner: LearnerStyleState,
    /// Which side a repertoire is for: the question asked, the side said.
    pub(crate) sides: SidesState,
}
