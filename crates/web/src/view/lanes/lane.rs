//! One lane: its header, its timeline (four layers), its side panel and its
//! "about" box.

use leptos::prelude::*;
use ratelab_core::{Algorithm, Headers, Snapshot};
use ratelab_sim::BusiestWindow;

use super::{about, gauge, level, marks, production, response, veil};
use crate::draw::{self, HEIGHT};
use crate::model::time_label;
use crate::texts::algorithms::title;
use crate::texts::common::{Common, COMMON};
use crate::texts::lanes::LANES;
use crate::view::{text, use_ctx};

/// What the parts of one lane share (provided inside each lane).
#[derive(Clone, Copy)]
pub struct LaneCtx {
    /// The lane's position.
    pub j: usize,
    /// Its algorithm.
    pub algorithm: Algorithm,
    /// Its state for the selected request's key, now (the pictures).
    pub snapshot: Memo<Option<Snapshot>>,
    /// Its state at the moment the text panels say ([`crate::view::Ctx::panel_now`],
    /// for their key): the gauge.
    pub shown: Memo<Option<Snapshot>>,
    /// What a request from that key would be answered then.
    pub headers: Memo<Option<Headers>>,
    /// Its busiest window so far, when highlighted.
    pub busiest: Memo<Option<BusiestWindow>>,
}

/// "5 / 10 s · capacity 5": a lane's parameters.
pub fn params_text(spec: &ratelab_sim::LaneSpec, c: &Common) -> String {
    let p = &spec.params;
    let mut s = format!("{} / {}", p.limit, time_label(p.period_ms));
    let r = spec.resolved();
    if let Some(b) = r.burst {
        s.push_str(&format!(" · {} {b}", c.burst_label(spec.algorithm)));
    }
    if spec.algorithm == Algorithm::Nginx {
        match r.delay {
            Some(d) => s.push_str(&format!(" · {} {d}", c.delay)),
            None => s.push_str(" · nodelay"),
        }
    }
    s
}

/// Lane `j`'s name where lanes are listed by name alone (the trace, the yardstick,
/// the live region): its algorithm's title, and its parameters after it when
/// another lane runs the same algorithm (lab C's two token buckets are "Token
/// bucket · 10 / 1 s · capacity 1" and "… capacity 20", not the same name twice).
pub fn lane_name(lanes: &[ratelab_sim::LaneSpec], j: usize, lang: crate::texts::Lang) -> String {
    let Some(lane) = lanes.get(j) else {
        return String::new();
    };
    let name = title(lane.algorithm, lang);
    let twins = lanes
        .iter()
        .filter(|l| l.algorithm == lane.algorithm)
        .count();
    if twins > 1 {
        format!("{name} · {}", params_text(lane, COMMON.get(lang)))
    } else {
        name.to_string()
    }
}

/// A lane's picture box, as wide as its timeline: a box of set size (see `.plot` in
/// the stylesheet), so that what is drawn in it is laid out without the page.
pub fn plot_width() -> Signal<String> {
    let ctx = use_ctx();
    Signal::derive(move || format!("{}px", ctx.scale.get().w()))
}

/// Lane `j`, running `algorithm`.
#[component]
pub fn Lane(j: usize, algorithm: Algorithm) -> impl IntoView {
    let ctx = use_ctx();
    let lane = LaneCtx {
        j,
        algorithm,
        snapshot: Memo::new(move |_| {
            let (now, key) = (ctx.now.get(), ctx.key.get());
            ctx.run.with(|s| s.sim.snapshot(j, &key, now))
        }),
        shown: Memo::new(move |_| {
            let (now, key) = (ctx.panel_now.get(), ctx.panel_key.get());
            ctx.run.with(|s| s.sim.snapshot(j, &key, now))
        }),
        headers: Memo::new(move |_| {
            let (now, key) = (ctx.panel_now.get(), ctx.panel_key.get());
            ctx.run.with(|s| s.sim.headers(j, &key, now))
        }),
        busiest: Memo::new(move |_| {
            let now = ctx.now.get();
            ctx.highlight
                .get()
                .then(|| ctx.run.with(|s| s.sim.busiest(j, now)))
                .flatten()
        }),
    };
    provide_context(lane);
    let lang = ctx.lang;
    let name = Signal::derive(move || title(algorithm, lang.get()));
    let params = Signal::derive(move || {
        let c = COMMON.get(lang.get());
        ctx.run
            .with(|s| s.sim.lanes().get(j).map(|l| params_text(l, c)))
    });
    let under = Memo::new(move |_| {
        let (now, scale, lang) = (ctx.now.get(), ctx.scale.get(), lang.get());
        lane.snapshot.with(|snap| {
            lane.busiest
                .with(|b| draw::under(snap.as_ref(), now, scale, b.as_ref(), lang))
        })
    });
    let axis = Memo::new(move |_| draw::axis(ctx.scale.get()));
    // 8 px of margin each side, so that a mark at the span's edge is whole; the
    // element is as wide as its viewBox (the margins hang outside the track, see
    // `.plot` in the stylesheet), so one unit is one px and x is x on screen.
    let width = Signal::derive(move || ctx.scale.get().w() + 16);
    let view_box = Signal::derive(move || format!("-8 0 {} {HEIGHT}", width.get()));
    let plot_width = plot_width();
    let dense = RwSignal::new(false);
    let blind = RwSignal::new(false);
    // The lane the open lesson step is about: marked, and brought into view by the
    // lessons panel when the step opens (`view::learn`).
    let step_lane = Signal::derive(move || ctx.step_lane.get() == Some(j as u64));
    view! {
        <article class="lane" class:teaching=algorithm.is_teaching() class:step-lane=step_lane data-lane=j data-algorithm=algorithm.id()>
            <header class="lane-head">
                <h3>{name}</h3>
                {algorithm.is_teaching().then(|| view! {
                    <span class="badge">{text(&COMMON, |t| t.wrong_on_purpose)}</span>
                })}
                {(!ctx.compact && !ctx.embed).then(|| view! {
                    <span class="badge step-badge" class:hidden=Signal::derive(move || !step_lane.get())>
                        {text(&LANES, |t| t.step_lane)}
                    </span>
                })}
                <span class="params">{params}</span>
                // The compact layout's disclosure: the lane's state over time, gauge
                // and response show while it is open (`.more[open]` in the stylesheet).
                {ctx.compact.then(|| view! {
                    <details class="more"><summary>{text(&LANES, |t| t.more)}</summary></details>
                })}
            </header>
            <div class="lane-body">
                <div class="lane-track" class:blind=blind>
                <div class="plot" style:width=plot_width style:height=format!("{HEIGHT}px")>
                    <svg class="timeline" width=width height=HEIGHT viewBox=view_box role="img" aria-label=name>
                        <g class="under" inner_html=Signal::derive(move || under.get().markup())></g>
                        <g class="axis-layer" inner_html=Signal::derive(move || axis.get().markup())></g>
                        <marks::Marks dense blind />
                    </svg>
                    <veil::Veil />
                </div>
                <level::Level />
                </div>
                <div class="side">
                    <gauge::Gauge />
                    <response::Response />
                </div>
            </div>
            <p class="dense-note" class:hidden=Signal::derive(move || !dense.get())>{text(&LANES, |t| t.dense)}</p>
            {(!ctx.compact).then(|| view! {
                <about::About />
                <production::ProductionBox />
            })}
        </article>
    }
}
