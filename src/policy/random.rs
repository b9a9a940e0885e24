//! `random`: uniform over the legal options (including passing). A floor for the ladder.

use rand::RngExt;

use super::{Policy, PolicyRng};
use crate::engine::Choice;
use crate::engine::view::View;

pub struct Random;

impl<const N: usize, const M: usize> Policy<N, M> for Random {
    #[inline]
    fn choose(&mut self, _view: &View<'_, N, M>, options: &[Choice], rng: &mut PolicyRng) -> usize {
        rng.random_range(0..options.len())
    }
}
