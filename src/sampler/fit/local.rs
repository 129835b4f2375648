//! A local search from the GA's best style: the check that the GA found an optimum.
//!
//! Coordinate pattern search: each enabled weight and τ is moved by `± step` (kept in
//! `[0, 1]`) and each parameter switched on or off; a move is kept when it raises the
//! log-likelihood. When no move helps, the step is halved, from 0.1 down to 1/1024 (the
//! GA's gene resolution). With a book ([`FitData::has_books`]) the popularity blend `λ`
//! is moved by `± step` as well (after τ, so that without a book the search is the
//! same). The result is never worse than the start.

use super::genetic::popularity_of;
use super::table::FitData;
use crate::book::Flag;
use crate::sampler::{Popularity, Style};

/// What [`local_search`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalResult {
    /// The best style found.
    pub style: Style,
    /// Its popularity (the lines' without a book).
    pub popularity: Popularity,
    /// Its log-likelihood.
    pub log_likelihood: f64,
    /// How many styles were evaluated.
    pub evaluations: u64,
}

/// The largest step.
const FIRST_STEP: f64 = 0.1;
/// The search stops below this step.
const LAST_STEP: f64 = 1.0 / 1024.0;
/// A move must gain at least this much log-likelihood.
const GAIN: f64 = 1e-9;

/// The neighbours of `(style, popularity)` at `step`: switches, then weights and τ up
/// and down, then (with `blend`) λ up and down.
fn neighbours(
    style: &Style,
    popularity: Popularity,
    step: f64,
    blend: bool,
) -> Vec<(Style, Popularity)> {
    let mut out = Vec::new();
    for flag in Flag::ALL {
        let mut s = style.clone();
        s.set_enabled(flag, !style.param(flag).enabled);
        out.push(s);
    }
    for flag in Flag::ALL {
        let p = style.param(flag);
        if !p.enabled {
            continue;
        }
        for d in [step, -step] {
            let mut s = style.clone();
            if s.set_weight(flag, (p.weight + d).clamp(0.0, 1.0)).is_ok() && s != *style {
                out.push(s);
            }
        }
    }
    for d in [step, -step] {
        let mut s = style.clone();
        if s.set_tau((style.tau() + d).clamp(0.0, 1.0)).is_ok() && s != *style {
            out.push(s);
        }
    }
    let mut out: Vec<(Style, Popularity)> = out.into_iter().map(|s| (s, popularity)).collect();
    if blend {
        let lambda = popularity.book_part();
        for d in [step, -step] {
            let p = popularity_of((lambda + d).clamp(0.0, 1.0));
            if p != popularity {
                out.push((style.clone(), p));
            }
        }
    }
    out
}

/// Climbs from `start` with `popularity` (see the [module docs](self); without a book
/// in `data` the popularity stays that of the lines).
pub fn local_search(data: &FitData, start: &Style, popularity: Popularity) -> LocalResult {
    let blend = data.has_books();
    let mut popularity = if blend { popularity } else { Popularity::Lines };
    let mut style = start.clone();
    let mut ll = data.log_likelihood_with(&style, popularity);
    let mut evaluations = 1u64;
    let mut step = FIRST_STEP;
    while step >= LAST_STEP {
        let mut improved = false;
        for (candidate, pop) in neighbours(&style, popularity, step, blend) {
            let cand_ll = data.log_likelihood_with(&candidate, pop);
            evaluations += 1;
            if cand_ll > ll + GAIN || (ll == f64::NEG_INFINITY && cand_ll > ll) {
                style = candidate;
                popularity = pop;
                ll = cand_ll;
                improved = true;
                break; // first improvement: look around the new style
            }
        }
        if !improved {
            step /= 2.0;
        }
    }
    LocalResult {
        style,
        popularity,
        log_likelihood: ll,
        evaluations,
    }
}
