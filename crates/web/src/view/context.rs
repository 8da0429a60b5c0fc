//! What every component reads: the model in one signal, and memos over it.
//!
//! The model ([`Playground`]) changes only through [`Ctx::act`] and [`Ctx::update`] (and the clock's
//! animation frames). Components never read the model directly in their views:
//! they read a memo, which recomputes when the model changes and tells its readers
//! only when its own value changed. So a frame that moves the clock re-runs the few
//! memos that read the clock and, below them, only what they feed.
//!
//! A new component takes `let ctx = use_ctx();` and either uses the memos here or
//! derives its own with [`Ctx::memo`].

use leptos::prelude::*;

use ratelab_sim::ScenarioId;

use crate::draw::{clock_x, Scale};
use crate::state::{Action, Place, Playground, Shared};
use crate::texts::{Lang, Tr};

/// The playground's state, as the components see it (provided by [`crate::App`]).
#[derive(Clone, Copy)]
pub struct Ctx {
    model: RwSignal<Playground>,
    /// The page's language.
    pub lang: Memo<Lang>,
    /// The setup and what it runs (a new value only when the setup changed).
    pub run: Memo<Shared>,
    /// How far the lanes draw a run: the run and how many steps of it are done.
    /// The first run is drawn whole at once (`usize::MAX`). A later one is drawn
    /// in steps, one per task, each after the frame that the step before it
    /// showed: step 1 (at once) draws lane 0's marks, step n + 1 lane n's marks
    /// and lane n − 1's state-over-time strip. So switching scenario is a few
    /// short tasks instead of one long one (docs/benchmarks.md, "Switching scenario"); read
    /// it through [`Ctx::drawn`]. The yardstick and the trace are drawn at the
    /// last step ([`Ctx::panels_drawn`]).
    pub settled: RwSignal<(Shared, usize)>,
    /// The virtual clock, ms.
    pub now: Memo<u64>,
    /// Where the clock stops, ms.
    pub end: Memo<u64>,
    /// Whether the clock runs.
    pub playing: Memo<bool>,
    /// The clock's speed, in thousandths.
    pub speed: Memo<u32>,
    /// Whether the busiest windows are highlighted.
    pub highlight: Memo<bool>,
    /// How many requests have arrived.
    pub revealed: Memo<u64>,
    /// The request the lanes' marks show selected.
    pub selected: Memo<Option<u64>>,
    /// The key whose state the lanes draw: the selected request's.
    pub key: Memo<String>,
    /// The moment the text panels say (the trace, the yardstick, the gauges'
    /// numbers, the response a request would get, the live region): the clock
    /// itself, except while it plays fast, when it follows in steps
    /// ([`panel_time`]), so that a frame that moves the clock rewrites no text
    /// outside the lanes' pictures.
    pub panel_now: Memo<u64>,
    /// How many requests had arrived at [`Ctx::panel_now`].
    pub panel_revealed: Memo<u64>,
    /// The request the trace explains: the one selected at [`Ctx::panel_now`].
    pub panel_selected: Memo<Option<u64>>,
    /// Its key, whose state the gauges and responses say.
    pub panel_key: Memo<String>,
    /// Whether the scenario is the manual one.
    pub manual: Memo<bool>,
    /// The time span and width the lanes draw.
    pub scale: Memo<Scale>,
    /// The timelines' zoom level ([`crate::model::ONE_X`]: 1×, the default span);
    /// changed by [`Action::Zoom`].
    pub zoom: Memo<u32>,
    /// The clock line's x on a lane's timeline and the width of the future, px.
    pub clock_x: Memo<(i64, i64)>,
    /// The width of a lane's timeline, px (measured by [`crate::view::lanes`]).
    pub width: RwSignal<f64>,
    /// The lane the open lesson step is about ([`Playground::step_lane`]), as a
    /// memo of a type the page already has.
    pub step_lane: Memo<Option<u64>>,
    /// The compact variant (the clock and the lanes, one screen: docs/embedding.md).
    pub compact: bool,
    /// Mounted in another page.
    pub embed: bool,
    /// Makes element ids unique on a page with several playgrounds.
    pub uid: u32,
}

impl Ctx {
    /// The context for a new playground.
    pub fn new(playground: Playground, uid: u32) -> Ctx {
        let (compact, embed) = (playground.compact, playground.embed);
        let model = RwSignal::new(playground);
        let run = Memo::new(move |_| model.with(|p| p.run.clone()));
        let now = pick(model, |p| p.now);
        let settled = RwSignal::new((run.get_untracked(), usize::MAX));
        Effect::new(move |_| {
            let latest = run.get();
            if settled.with_untracked(|(s, _)| *s != latest) {
                settled.set((latest.clone(), 1));
                next_step(run, settled, latest);
            }
        });
        let selected = Memo::new(move |_| model.with(Playground::selected));
        let playing = pick(model, |p| p.playing);
        let speed = pick(model, |p| p.speed);
        let chosen = pick(model, |p| p.chosen);
        let panel_now = Memo::new(move |shown: Option<&u64>| {
            panel_time(shown.copied(), now.get(), playing.get(), speed.get())
        });
        let panel_selected =
            Memo::new(move |_| run.with(|s| s.sim.selected(panel_now.get(), chosen.get())));
        let width = RwSignal::new(720.0);
        let zoom = pick(model, |p| p.zoom);
        let span = Memo::new(move |_| run.with(|s| s.sim.zoomed_span(now.get(), zoom.get())));
        let scale = Memo::new(move |_| {
            let (from, to) = span.get();
            Scale {
                from,
                to,
                width: width.get(),
            }
        });
        Ctx {
            model,
            lang: pick(model, |p| p.lang),
            run,
            settled,
            now,
            end: Memo::new(move |_| run.with(|s| s.sim.end())),
            playing,
            speed,
            highlight: pick(model, |p| p.highlight),
            revealed: Memo::new(move |_| run.with(|s| s.sim.revealed(now.get()))),
            selected,
            key: Memo::new(move |_| run.with(|s| s.sim.key_of(selected.get()))),
            panel_now,
            panel_revealed: Memo::new(move |_| run.with(|s| s.sim.revealed(panel_now.get()))),
            panel_selected,
            panel_key: Memo::new(move |_| run.with(|s| s.sim.key_of(panel_selected.get()))),
            manual: Memo::new(move |_| run.with(|s| s.setup.scenario == ScenarioId::Manual)),
            scale,
            clock_x: Memo::new(move |_| clock_x(now.get(), scale.get())),
            width,
            zoom,
            step_lane: Memo::new(move |_| model.with(|p| p.step_lane().map(|j| j as u64))),
            compact,
            embed,
            uid,
        }
    }

    /// Whether lane `j` draws the run in view yet: its marks, or (`strip`) its
    /// state-over-time strip (see [`Ctx::settled`]). Tracks the run and the step.
    pub fn drawn(&self, j: usize, strip: bool) -> bool {
        let need = j.saturating_add(if strip { 2 } else { 1 });
        let run = self.run;
        self.settled
            .with(|(r, n)| *n >= need && run.with(|latest| r == latest))
    }

    /// Whether the panels under the lanes (the yardstick, the trace) draw the run in
    /// view yet: at a new run's last step, the one after every lane's marks and strip, so
    /// that the task that makes the run (the picker's) does not redraw them too.
    /// Until then they keep what they showed, dimmed. Tracks the run and the step.
    pub fn panels_drawn(&self) -> bool {
        let run = self.run;
        self.settled.with(|(r, n)| {
            run.with(|latest| r == latest && *n >= latest.sim.lanes().len().saturating_add(2))
        })
    }

    /// Does what a person asked for.
    pub fn act(&self, action: Action) {
        self.model.update(|p| p.apply(action));
    }

    /// Changes the model by one of its methods, for the panels' own actions
    /// (`ctx.update(|p| p.edit(field, &text))`). They are plain methods rather
    /// than [`Action`]s so that they stay in the chunk of the panel that calls
    /// them: [`Playground::apply`]'s match is in the first module, with every
    /// method it calls.
    pub fn update(&self, f: impl FnOnce(&mut Playground)) {
        self.model.update(f);
    }

    /// Lets real time pass while the clock plays; whether it still plays. (A frame
    /// after the playground was removed does nothing.)
    pub fn advance(&self, real_ms: f64) -> bool {
        self.model
            .try_update(|p| p.advance(real_ms))
            .unwrap_or(false)
    }

    /// A memo of something the model says (tracked: it recomputes whenever the
    /// model changes, so keep `f` cheap and let further memos build on it).
    pub fn memo<T>(&self, f: impl Fn(&Playground) -> T + Send + Sync + 'static) -> Memo<T>
    where
        T: PartialEq + Send + Sync + 'static,
    {
        let model = self.model;
        Memo::new(move |_| model.with(&f))
    }

    /// Reads the model once, without subscribing (for event handlers).
    pub fn read<T>(&self, f: impl FnOnce(&Playground) -> T) -> Option<T> {
        self.model.try_with_untracked(f)
    }

    /// The inline error shown at `place`.
    pub fn error(&self, place: Place) -> Memo<Option<String>> {
        self.memo(move |p| p.error(place).map(str::to_string))
    }
}

/// From this speed (thousandths) up, the text panels follow a playing clock in
/// steps ([`panel_time`]).
pub const PANEL_STEPS_FROM: u32 = 4_000;
/// Their steps while the clock plays that fast: at most one per this much real
/// time, ms (four a second: readable, and a frame that moves only the clock lays
/// out only the lanes' pictures).
pub const PANEL_EVERY_MS: u64 = 250;

/// The moment the text panels say, given the one they said (`shown`) and the
/// clock: the clock itself while it stands (paused, stepped, sought) or plays
/// slower than [`PANEL_STEPS_FROM`]; while it plays faster, `shown` until the
/// clock is [`PANEL_EVERY_MS`] of real time past it. Never ahead of the clock.
pub fn panel_time(shown: Option<u64>, now: u64, playing: bool, speed_permille: u32) -> u64 {
    if !playing || speed_permille < PANEL_STEPS_FROM {
        return now;
    }
    let step = PANEL_EVERY_MS.saturating_mul(u64::from(speed_permille)) / 1000;
    match shown {
        Some(s) if s <= now && now - s < step => s,
        _ => now,
    }
}

/// A memo of one field of the model.
fn pick<T>(model: RwSignal<Playground>, f: fn(&Playground) -> T) -> Memo<T>
where
    T: PartialEq + Send + Sync + 'static,
{
    Memo::new(move |_| model.with(f))
}

/// The playground's context (panics outside a playground, which is a bug).
pub fn use_ctx() -> Ctx {
    expect_context::<Ctx>()
}

/// A text of the page in its current language: `text(&SETUP, |t| t.scenario)`.
pub fn text<T: Sync>(tr: &'static Tr<T>, pick: fn(&T) -> &'static str) -> Signal<&'static str> {
    let lang = use_ctx().lang;
    Signal::derive(move || pick(tr.get(lang.get())))
}

/// The next step of drawing `latest` (see [`Ctx::settled`]), in a task after the
/// next frame, until every lane's marks and strip are drawn. A later run stops it:
/// that run is stepped by its own call.
fn next_step(run: Memo<Shared>, settled: RwSignal<(Shared, usize)>, latest: Shared) {
    crate::after_paint(move || {
        if run.try_with_untracked(|r| *r == latest) != Some(true) {
            return;
        }
        let Some(n) = settled.try_with_untracked(|(_, n)| *n) else {
            return;
        };
        // The last lane's strip is one step after its marks, the panels one after.
        let last = latest.sim.lanes().len().saturating_add(2);
        let n = n.saturating_add(1);
        settled.set((latest.clone(), n));
        if n < last {
            next_step(run, settled, latest);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panels_follow_a_fast_clock_in_steps_and_a_standing_one_exactly() {
        // 16x: a step is 4 s of virtual time (a quarter second of real time).
        let mut shown = panel_time(None, 59_000, false, 16_000);
        assert_eq!(shown, 59_000);
        let mut said = vec![shown];
        for now in (59_000..75_000).step_by(267) {
            shown = panel_time(Some(shown), now, true, 16_000);
            if said.last() != Some(&shown) {
                said.push(shown);
            }
        }
        assert_eq!(said, [59_000, 63_005, 67_010, 71_015]);
        // Paused or stepped: the clock itself, at once.
        assert_eq!(panel_time(Some(71_015), 74_000, false, 16_000), 74_000);
        // Sought backwards while playing: never ahead of the clock.
        assert_eq!(panel_time(Some(71_015), 3_000, true, 16_000), 3_000);
        // Slower than 4x: every frame.
        assert_eq!(panel_time(Some(1_000), 1_020, true, 2_000), 1_020);
        assert_eq!(panel_time(Some(1_000), 1_020, true, 4_000), 1_000);
        assert_eq!(panel_time(Some(1_000), 2_000, true, 4_000), 2_000);
    }
}
