//! The style profile loaded, saved and added as a book source ("Play like …"), and the
//! adaptive opponent: the computer's style set to the answer to the learner's.

use std::path::{Path, PathBuf};

use super::StyleState;
use crate::coach::context::Context;
use crate::coach::notice::Notice;
use crate::sampler::profile::{Provenance, StyleProfile};
use crate::trainer::learner_style::Adaptation;
use crate::workspace::FileMode;
use crate::workspace::profiles::{ProfileFileError, load_profile};

impl StyleState {
    /// Loads the style profile at `path` and uses its style; with `add_games`, the games
    /// of a fitted profile are added to the book as a game collection ("Play like …").
    ///
    /// # Errors
    ///
    /// [`ProfileFileError`] (file, line, column, why) when the file is not a profile;
    /// nothing changes then.
    pub(crate) fn load_profile(
        &mut self,
        path: &Path,
        add_games: bool,
        ctx: &mut Context,
    ) -> Result<(), ProfileFileError> {
        let profile = load_profile(path)?;
        ctx.settings.style = profile.style.clone();
        ctx.session.set_style(profile.style.clone());
        // A fitted blend comes with the profile (its book: the loaded ones, else gnuchess).
        if ctx.workspace.choice().popularity != profile.popularity {
            let mut choice = ctx.workspace.choice().clone();
            choice.popularity = profile.popularity;
            ctx.workspace.set_choice(choice);
        }
        ctx.message = Some(format!("Playing with the profile {}.", profile.name));
        self.profile = Some(profile);
        if add_games {
            self.add_profile_games(ctx);
        }
        Ok(())
    }

    /// Adds the games of the loaded fitted profile to the book (read as a collection).
    pub(crate) fn add_profile_games(&self, ctx: &mut Context) {
        let Some(Provenance::Fitted(fit)) = self.profile.as_ref().map(|p| &p.provenance) else {
            return;
        };
        let path = PathBuf::from(&fit.games);
        if path.is_file() {
            ctx.workspace.open(vec![path], FileMode::Games);
        } else {
            ctx.message = Some(format!(
                "{}'s games ({}) are not there any more; only the style was loaded.",
                fit.player, fit.games
            ));
        }
    }

    /// Asks where to save the current style, with the popularity in use, as a profile.
    pub(crate) fn save_profile(&self, ctx: &mut Context) {
        let name = self
            .profile
            .as_ref()
            .filter(|p| p.style == ctx.settings.style)
            .map_or_else(|| "My style".to_owned(), |p| p.name.clone());
        // The popularity in use goes with the style: loading the profile brings both back.
        let profile = StyleProfile {
            popularity: ctx.workspace.choice().popularity,
            ..StyleProfile::manual(&name, ctx.settings.style.clone())
        };
        ctx.notify(Notice::SaveProfileAs(Box::new(profile)));
    }

    /// With the adaptive opponent on, sets the computer's style to the answer to the
    /// learner's style (BayesChess's adaptive opponent); the style panel shows the result.
    pub(crate) fn adapt(&mut self, ctx: &mut Context) {
        if !ctx.settings.adaptive {
            return;
        }
        self.learner
            .refresh(&ctx.workspace, &ctx.settings.learner_name);
        let Some(class) = self.learner.posterior().map(|p| p.class()) else {
            return;
        };
        let style = Adaptation::for_class(class, self.learner.coin).style(ctx.settings.style.tau());
        if style != *ctx.session.style() {
            ctx.settings.style = style.clone();
            ctx.session.set_style(style);
        }
    }
}
