//! Read-only questions about the state: effective keywords, statistics, costs, filters,
//! conditions and counts. Shared by the engine, the legal-move generator and the policies.
//!
//! By subject: `keyword` (keywords, statuses, statistics), `cost` (costs and what may be
//! played), `filter` (matching and candidates), `cond` (conditions and counts) and
//! `expedition` (terrain, moves, behind, Progressing).

use super::state::*;
use crate::cards::db::CardDb;
use crate::cards::effect::*;
use crate::cards::types::*;

mod cond;
mod cost;
mod expedition;
mod filter;
mod keyword;

/// What a condition or filter is evaluated relative to.
#[derive(Copy, Clone, Debug)]
pub struct Ctx {
    pub controller: Side,
    pub source: ObjId,
    pub x: i16,
    pub did: bool,
    pub it: ObjId,
    /// Evaluating a static's own condition: keywords are read without statics, so that
    /// "I am Gigantic if I am Fleeting" cannot recurse.
    pub base_only: bool,
    /// The expedition chosen by `select_exp` (`Frame::sel_exp`), or `NO_SEL`.
    pub sel_exp: u8,
    /// Free for All: the opponent the effect concerns (`Frame::opp`), or `NO_SEAT`.
    pub opp: u8,
}

impl Ctx {
    pub fn of(controller: Side, source: ObjId) -> Ctx {
        Ctx {
            controller,
            source,
            x: 0,
            did: false,
            it: NO_OBJ,
            base_only: false,
            sel_exp: NO_SEL,
            opp: NO_SEAT,
        }
    }

    fn base(controller: Side, source: ObjId) -> Ctx {
        Ctx {
            base_only: true,
            ..Ctx::of(controller, source)
        }
    }
}

impl Frame {
    pub fn ctx(&self) -> Ctx {
        Ctx {
            controller: self.controller,
            source: self.source,
            x: self.x,
            did: self.did,
            it: self.it.first().unwrap_or(NO_OBJ),
            base_only: false,
            sel_exp: self.sel_exp,
            opp: self.opp,
        }
    }
}

/// Terrain modifications from static abilities in play, per region.
#[derive(Copy, Clone, Default)]
pub struct TerrainMods {
    pub added: [u8; 8],
    pub replaced: [u8; 8],
}
/// The kinds a card counts as: its own and those a static adds ("I'm also considered a
/// Spell").
#[inline]
pub fn card_kinds(def: &crate::cards::db::CardDef) -> u8 {
    kind_bit(def.kind) | def.also_kinds
}

#[inline]
pub fn kind_bit(k: CardKind) -> u8 {
    match k {
        CardKind::Character => fkind::CHARACTER,
        CardKind::Token => fkind::CHARACTER | fkind::TOKEN,
        CardKind::Landmark => fkind::LANDMARK,
        CardKind::ExpeditionPermanent => fkind::EXP_PERMANENT,
        CardKind::Spell => fkind::SPELL,
        CardKind::Hero => fkind::HERO,
        CardKind::LandmarkToken => fkind::LANDMARK | fkind::TOKEN,
        CardKind::OtherToken => 0,
    }
}
