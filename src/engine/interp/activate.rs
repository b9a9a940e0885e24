//! Abilities an effect activates: {J} abilities again, another object's {R} abilities as
//! the controller's, and the {J} abilities of each matching object.

use super::*;

impl<O: Observer<N, M>, const N: usize, const M: usize> Engine<'_, O, N, M> {
    /// The {J} abilities of objects in play triggered again.
    pub(super) fn exec_activate_j(&mut self, f: &Frame, obj: ObjRef, reserve: bool) -> Flow {
        let db = self.db;
        let from = if reserve {
            PlayFrom::Reserve
        } else {
            PlayFrom::Any
        };
        for id in self.resolve_objs(obj, f).iter() {
            if matches!(self.s.obj(id).zone, Zone::Expedition | Zone::Landmarks)
                && !self.s.silenced(db, id)
            {
                self.trigger_own(id, NO_OBJ, |t| *t == Trigger::Played(from));
            }
        }
        Flow::Next
    }

    /// An object's {R} abilities activated as the controller's (asked which when several).
    pub(super) fn exec_activate_r_as_mine(&mut self, f: &Frame, obj: ObjRef) -> Flow {
        let db = self.db;
        let Some(id) = self.resolve_objs(obj, f).first() else {
            return Flow::Next;
        };
        let n = self.s.r_abilities(db, id);
        if n == 0 {
            return Flow::Next;
        }
        if n == 1 || self.s.scripted(f.controller) {
            self.queue_r_as_mine(f, id, 0);
            return Flow::Next;
        }
        let fr = self.frame_mut();
        fr.it.clear();
        let _ = fr.it.push(id);
        self.ask(Decision::Mode, f.controller);
        Flow::Wait
    }

    /// The {J} abilities of each matching object, one by one (`count` walks them).
    pub(super) fn exec_activate_j_each(&mut self, f: &Frame, filter: FilterId) -> Flow {
        let db = self.db;
        // `count` walks the matching objects that have {J} abilities, oldest first.
        let mut next = NO_OBJ;
        let mut k = 0;
        let ctx = self.ctx(f);
        self.s
            .for_each_candidate(db, db.filter(filter), &ctx, |id| {
                let c = self.s.obj(id).card;
                let has_j = db
                    .abilities_of(c)
                    .iter()
                    .any(|ab| ab.trigger == Trigger::Played(PlayFrom::Any));
                if has_j && next == NO_OBJ {
                    if k == f.count {
                        next = id;
                    }
                    k += 1;
                }
            });
        if next == NO_OBJ {
            return Flow::Next;
        }
        if self.s.scripted(f.controller) {
            self.trigger_own(next, NO_OBJ, |t| *t == Trigger::Played(PlayFrom::Any));
            self.frame_mut().count += 1;
            Flow::Moved
        } else {
            let fr = self.frame_mut();
            fr.it.clear();
            let _ = fr.it.push(next);
            self.ask(Decision::May, f.controller);
            Flow::Wait
        }
    }
}
