//! The style feature: the learner's style (from the drilled lines and their games,
//! [`learner`]), which side the loaded repertoires are for ([`sides`]), and the style
//! profile loaded last; loading, saving and playing like a profile and the adaptive
//! opponent (`profile.rs`).

pub mod learner;
mod profile;
pub mod sides;

use std::path::PathBuf;

pub use self::learner::LearnerStyleState;
pub use self::sides::SidesState;
use crate::book::Side;
use crate::coach::context::Context;
use crate::coach::notice::Notice;
use crate::sampler::Style;
use crate::sampler::profile::StyleProfile;
use crate::trainer::learner_style::{Adaptation, Posterior, StyleClass};
use crate::workspace::chapters::SideQuestion;

/// The style feature's commands.
#[derive(Debug, Clone, PartialEq)]
pub enum StyleCommand {
    /// The side a just-loaded repertoire is for (`None`: both, as chapters say).
    RepertoireSide(PathBuf, Option<Side>),
    /// The side the next loaded repertoires are for.
    RepertoireFor(Side),
    /// The side of one chapter (file, game number from 1; `None`: as its tags say).
    ChapterSide(PathBuf, u32, Option<Side>),
    /// The computer plays in this style.
    SetStyle(Style),
    /// Choose a profile file; with `true` ("Play like …"), add the fitted player's
    /// games too.
    ChooseProfile(bool),
    /// Load the profile at this path; with `true`, add the fitted player's games too.
    LoadProfile(PathBuf, bool),
    /// Save the current style as a profile (asks where).
    SaveProfile,
    /// Add the loaded fitted profile's games to the book.
    AddProfileGames,
    /// The adaptive opponent on or off.
    SetAdaptive(bool),
    /// Write this profile to this file.
    SaveProfileTo(Box<StyleProfile>, PathBuf),
}

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

impl StyleState {
    /// The style feature on the lines drilled in earlier sessions (they count for the
    /// learner's style); the adaptive opponent's coin is tossed.
    pub(crate) fn new(progress: &crate::trainer::progress::Progress) -> StyleState {
        let coin = if rand::random() {
            Adaptation::Solid
        } else {
            Adaptation::Sharp
        };
        let mut learner = LearnerStyleState::new(coin);
        for line in &progress.style_lines {
            if let Some((color, moves)) = line.replay() {
                learner.record(&moves, color);
            }
        }
        StyleState {
            profile: None,
            learner,
            sides: SidesState::default(),
        }
    }

    /// The style profile loaded last, if any.
    pub fn profile(&self) -> Option<&StyleProfile> {
        self.profile.as_ref()
    }

    /// The learner's style posterior (drilled lines and their games among the loaded
    /// files), `None` before any.
    pub fn learner_style(&self) -> Option<Posterior> {
        self.learner.posterior()
    }

    /// The learner's most likely style class and the posterior.
    pub fn learner_style_class(&self) -> Option<(Posterior, StyleClass)> {
        self.learner.posterior().map(|p| (p, p.class()))
    }

    /// The adaptive opponent's pick for a mixed learner in this session.
    pub fn adaptation_coin(&self) -> Adaptation {
        self.learner.coin
    }

    /// The question to show: which side is a just-loaded repertoire for?
    pub fn side_question(&self) -> Option<&SideQuestion> {
        self.sides.question()
    }

    /// Carries out one of the style feature's commands.
    pub(crate) fn apply(&mut self, command: StyleCommand, ctx: &mut Context) {
        match command {
            StyleCommand::RepertoireSide(path, side) => self.sides.answer_side(path, side, ctx),
            StyleCommand::RepertoireFor(side) => self.sides.repertoire_for(side),
            StyleCommand::ChapterSide(path, game, side) => {
                self.sides.chapter_side(&path, game, side, ctx);
            }
            StyleCommand::SetStyle(style) => {
                ctx.settings.style = style.clone();
                ctx.session.set_style(style);
            }
            StyleCommand::ChooseProfile(play_like) => {
                ctx.notify(Notice::ChooseProfile { play_like });
            }
            StyleCommand::LoadProfile(path, add_games) => {
                if let Err(e) = self.load_profile(&path, add_games, ctx) {
                    ctx.message = Some(format!("{e}. The style is unchanged."));
                }
            }
            StyleCommand::SaveProfile => self.save_profile(ctx),
            StyleCommand::AddProfileGames => self.add_profile_games(ctx),
            StyleCommand::SetAdaptive(on) => {
                ctx.settings.adaptive = on;
                self.adapt(ctx);
            }
            StyleCommand::SaveProfileTo(profile, path) => {
                ctx.message = Some(
                    match crate::workspace::profiles::save_profile(&path, &profile) {
                        Ok(()) => format!("Saved the style profile to {}.", path.display()),
                        Err(e) => format!("Cannot save the profile: {e}."),
                    },
                );
            }
        }
    }

    /// The drill completed a line: its moves count for the learner's style (`line`:
    /// when it starts from the standard position), and the adaptive opponent follows.
    pub(crate) fn line_completed(
        &mut self,
        line: Option<(Vec<shakmaty::Move>, shakmaty::Color)>,
        ctx: &mut Context,
    ) {
        if let Some((moves, color)) = line {
            self.learner.record(&moves, color);
        }
        self.adapt(ctx);
    }
}
