//! The clock runs on `requestAnimationFrame` while the model says it plays.

use leptos::prelude::*;

use super::Ctx;

/// Starts the animation loop whenever the clock starts playing; the loop ends
/// itself when the clock stops (paused, at the end, or the playground removed).
pub fn run_while_playing(ctx: Ctx) {
    // One loop at a time: a pause and a play within one frame must not start a
    // second loop beside the first, which is still scheduled.
    let running = StoredValue::new(false);
    Effect::new(move |_| {
        if ctx.playing.get() && !running.get_value() {
            running.set_value(true);
            frame(ctx, running, js_sys::Date::now());
        }
    });
}

fn frame(ctx: Ctx, running: StoredValue<bool>, last: f64) {
    request_animation_frame(move || {
        let ts = js_sys::Date::now();
        if ctx.advance(ts - last) {
            frame(ctx, running, ts);
        } else {
            let _ = running.try_set_value(false);
        }
    });
}
