//! `random`: uniform over the legal options (including passing). A floor for the ladder.

use rand::RngExt;

use super::{FfaPolicy, Policy, PolicyRng};
use crate::engine::Choice;
use crate::engine::ffa::FfaView;
use crate::engine::view::View;

pub struct Random;

impl Policy for Random {
    #[inline]
    fn choose(&mut self, _view: &View<'_>, options: &[Choice], rng: &mut PolicyRng) -> usize {
        rng.random_range(0..options.len())
    }
}

impl FfaPolicy for Random {
    fn choose_ffa(
        &mut self,
        _view: &FfaView<'_>,
        options: &[Choice],
        rng: &mut PolicyRng,
    ) -> usize {
        rng.random_range(0..options.len())
    }
}
