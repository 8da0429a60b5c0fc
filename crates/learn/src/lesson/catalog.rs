//! Every lesson: its scenario, lanes, moments and the facts its texts state.
//!
//! Request indexes refer to the scenario's stream (listed in `ratelab_sim::scenario`);
//! the tests run every lesson, so a wrong index fails there, not on the page.

use ratelab_core::Algorithm::{self, *};

use super::query::{fact, Fact, Query::*};
use super::{Group, LaneDef, Lesson, Step};
use ratelab_sim::scenario::ScenarioId;

const fn l(a: Algorithm) -> LaneDef {
    LaneDef::new(a, 5, 10_000)
}

const fn m(a: Algorithm) -> LaneDef {
    LaneDef::new(a, 100, 60_000)
}

const fn s(a: Algorithm) -> LaneDef {
    LaneDef::new(a, 10, 1_000)
}

const STEP: Step = Step {
    scenario: ScenarioId::Golden,
    lanes: &[],
    requests: &[],
    play_to_ms: 0,
    select: None,
    focus: None,
    whole_run: false,
    lab_d: false,
    facts: &[],
};

const DEMO_LANES: &[LaneDef] = &[l(FixedWindow), l(SlidingLog), l(TokenBucket)];

const GOLDEN_LANES: &[LaneDef] = &[
    l(FixedWindow),
    l(FixedWindowAnchored),
    l(SlidingLog),
    l(SlidingWindowCounter),
    l(TokenBucket),
    l(LeakyQueue),
    l(Gcra),
];

const SEVEN_PER_MINUTE: &[LaneDef] = &[
    m(FixedWindow),
    m(FixedWindowAnchored),
    m(SlidingLog),
    m(SlidingWindowCounter),
    m(TokenBucket),
    m(Gcra),
    m(LeakyQueue),
];

const fn demo(scenario: ScenarioId, play_to_ms: u64, facts: &'static [Fact]) -> Step {
    Step {
        scenario,
        lanes: DEMO_LANES,
        play_to_ms,
        facts,
        ..STEP
    }
}

const fn golden(
    focus: usize,
    select: Option<usize>,
    play_to_ms: u64,
    facts: &'static [Fact],
) -> Step {
    Step {
        scenario: ScenarioId::Golden,
        lanes: GOLDEN_LANES,
        play_to_ms,
        select,
        focus: Some(focus),
        facts,
        ..STEP
    }
}

const SWC_TRIO: &[LaneDef] = &[l(SlidingWindowCounter), l(SlidingLog), l(FixedWindow)];

/// Every lesson, in the order of the guided path.
pub const LESSONS: &[Lesson] = &[
    Lesson {
        id: "edge",
        group: Group::Demo,
        steps: &[
            demo(
                ScenarioId::EdgeBurstDemo,
                12_000,
                &[
                    fact("n", Requests),
                    fact("fw", Passed(0)),
                    fact("sl", Passed(1)),
                    fact("tb", Passed(2)),
                    fact("fw_max", MaxInWindow(0)),
                    fact("sl_max", MaxInWindow(1)),
                    fact("limit", Limit(0)),
                    fact("w", Window(0)),
                    fact("t_edge", Arrival(5)),
                    fact("tb_edge", StepValue(2, 5, "tokens")),
                ],
            ),
            // About the token bucket alone ("Watch its tokens"): its lane is marked.
            Step {
                focus: Some(2),
                ..demo(
                    ScenarioId::EdgeBurst,
                    11_000,
                    &[
                        fact("fw", Passed(0)),
                        fact("sl", Passed(1)),
                        fact("tb", Passed(2)),
                        fact("span", Span(0, 9)),
                        fact("tb_last", StepValue(2, 9, "tokens")),
                        fact("t_last", Arrival(9)),
                    ],
                )
            },
        ],
    },
    Lesson {
        id: "twice",
        group: Group::Demo,
        steps: &[demo(
            ScenarioId::TwiceTheRate,
            // The run's end: the last request (29 s) is decided.
            29_500,
            &[
                fact("fw_first", AllowedIn(0, 0, 10_000)),
                fact("tb_first", AllowedIn(2, 0, 10_000)),
                fact("b", Burst(2)),
                fact("rest", Length(20_000)),
                fact("fw_then", AllowedIn(0, 10_000, 30_000)),
                fact("sl_then", AllowedIn(1, 10_000, 30_000)),
                fact("tb_then", AllowedIn(2, 10_000, 30_000)),
                fact("w", Window(0)),
            ],
        )],
    },
    Lesson {
        id: "minute",
        group: Group::Demo,
        // Counts over the whole minute (the bucket's head start is in its first
        // seconds): the lanes show all of it.
        steps: &[Step {
            whole_run: true,
            ..demo(
                ScenarioId::PerSecond,
                // The run's end: the sixtieth request (59 s) is decided.
                59_500,
                &[
                    fact("n", Requests),
                    fact("fw", Passed(0)),
                    fact("sl", Passed(1)),
                    fact("tb", Passed(2)),
                    fact("extra", PassedMinus(2, 0)),
                    fact("b", Burst(2)),
                    fact("per", Interval(2)),
                ],
            )
        }],
    },
    Lesson {
        id: "drip",
        group: Group::Demo,
        steps: &[demo(
            ScenarioId::BurstThenDrip,
            // The run's end: the last drip (36 s) is decided.
            36_500,
            &[
                fact("burst", RequestsIn(0, 1)),
                fact("drips", RequestsIn(1, 40_000)),
                fact("tb_drip", AllowedIn(2, 1, 40_000)),
                fact("sl_refused", BlockedIn(1, 1, 40_000)),
                fact("sl_first", FirstAllowedFrom(1, 1)),
                fact("w", Window(1)),
                fact("per", Interval(2)),
            ],
        )],
    },
    Lesson {
        id: "manual",
        group: Group::Demo,
        steps: &[Step {
            scenario: ScenarioId::Manual,
            lanes: &[l(FixedWindow), l(SlidingLog), l(TokenBucket), l(Gcra)],
            requests: &[1000, 1250, 1500, 1750, 2000, 2250, 2500, 2750],
            // "Watch the token bucket": its lane is marked.
            focus: Some(2),
            // The run's end (one window: the quick requests end at 2.75 s); the
            // learner's own clicks make it longer.
            play_to_ms: 10_000,
            facts: &[
                fact("n", Requests),
                fact("tb", Passed(2)),
                fact("low", Tokens(2, 2750)),
                fact("t_back", Clock(10_000)),
                fact("back", Tokens(2, 10_000)),
                fact("per", Interval(2)),
                fact("b", Burst(2)),
                fact("gcra", Passed(3)),
            ],
            ..STEP
        }],
    },
    Lesson {
        id: "golden",
        group: Group::Traces,
        steps: &[
            // Played to 11.2 s, where the busiest window is complete: its numbers
            // are the yardstick's at that moment.
            golden(
                0,
                Some(6),
                11_200,
                &[
                    fact("n", Requests),
                    fact("t", Arrival(6)),
                    fact("w0", Before(0, 6, "window")),
                    fact("w1", After(0, 6, "window")),
                    fact("before", Before(0, 6, "count")),
                    fact("gap", Span(4, 6)),
                    fact("passed", Passed(0)),
                    fact("max", MaxInWindow(0)),
                    fact("end", BusiestEnd(0)),
                    fact("w", Window(0)),
                    fact("limit", Limit(0)),
                ],
            ),
            golden(
                1,
                Some(10),
                15_000,
                &[
                    fact("start0", After(1, 0, "start")),
                    fact("w", Window(1)),
                    fact("denied", BlockedIn(1, 0, 15_000)),
                    fact("a", Arrival(5)),
                    fact("b", Arrival(9)),
                    fact("start1", After(1, 10, "start")),
                    fact("now", Clock(15_000)),
                    fact("passed", Passed(1)),
                    fact("max", MaxInWindow(1)),
                ],
            ),
            golden(
                2,
                Some(10),
                19_500,
                &[
                    fact("t", Arrival(6)),
                    fact("len", TestLhs(2, 6)),
                    fact("t10", Arrival(10)),
                    fact("len10", StepValue(2, 10, "len")),
                    fact("t11", Arrival(11)),
                    fact("len11", StepValue(2, 11, "len")),
                    fact("w", Window(2)),
                    fact("passed", Passed(2)),
                    fact("max", MaxInWindow(2)),
                ],
            ),
            golden(
                3,
                Some(6),
                15_000,
                &[
                    fact("t", Arrival(6)),
                    fact("est", StepValue(3, 6, "estimate")),
                    fact("own", OwnCount(3, 6)),
                    fact("limit", Limit(3)),
                    fact("t15", Arrival(10)),
                    fact("est15", StepValue(3, 10, "estimate")),
                    fact("own15", OwnCount(3, 10)),
                    fact("blocked_after", BlockedIn(3, 10_200, 12_000)),
                    fact("w", Window(3)),
                    fact("passed", Passed(3)),
                    fact("max", MaxInWindow(3)),
                ],
            ),
            golden(
                4,
                Some(7),
                11_200,
                &[
                    fact("t98", Arrival(5)),
                    fact("tok98", StepValue(4, 5, "tokens")),
                    fact("t104", Arrival(7)),
                    fact("tok104", StepValue(4, 7, "tokens")),
                    fact("tok107", StepValue(4, 8, "tokens")),
                    fact("t112", Arrival(9)),
                    fact("tok112", StepValue(4, 9, "tokens")),
                    fact("retry", RetryExact(4, 10_400)),
                    fact("passed", Passed(4)),
                    fact("max", MaxInWindow(4)),
                    fact("bound", Bound(4)),
                    fact("w", Window(4)),
                ],
            ),
            golden(
                5,
                Some(9),
                19_500,
                &[
                    fact("gap", Interval(5)),
                    fact("t107", Arrival(8)),
                    fact("t112", Arrival(9)),
                    fact("w112", Wait(5, 9)),
                    fact("passed", Passed(5)),
                    fact("longest", LongestWait(5)),
                    fact("dep", MaxDepartures(5)),
                    fact("cap", Burst(5)),
                    fact("w", Window(5)),
                ],
            ),
            golden(
                6,
                Some(7),
                11_200,
                &[
                    fact("t", Arrival(7)),
                    fact("tat", Before(6, 7, "TAT")),
                    fact("ahead", TestLhs(6, 7)),
                    fact("tau", TestRhs(6, 7)),
                    fact("tok", Tokens(6, 10_400)),
                    fact("tb_tok", StepValue(4, 7, "tokens")),
                    fact("retry", RetryExact(6, 10_400)),
                    fact("now", Clock(11_200)),
                    fact("passed", Passed(6)),
                    fact("tb_passed", Passed(4)),
                    fact("period", Interval(6)),
                ],
            ),
            Step {
                scenario: ScenarioId::Golden,
                lanes: GOLDEN_LANES,
                play_to_ms: 19_500,
                facts: &[
                    fact("fw", Passed(0)),
                    fact("an", Passed(1)),
                    fact("sl", Passed(2)),
                    fact("swc", Passed(3)),
                    fact("tb", Passed(4)),
                    fact("lq", Passed(5)),
                    fact("gcra", Passed(6)),
                    fact("fw_max", MaxInWindow(0)),
                    fact("an_max", MaxInWindow(1)),
                    fact("sl_max", MaxInWindow(2)),
                    fact("swc_max", MaxInWindow(3)),
                    fact("tb_max", MaxInWindow(4)),
                    fact("lq_wait", LongestWait(5)),
                    fact("w", Window(0)),
                ],
                ..STEP
            },
        ],
    },
    Lesson {
        id: "logs-denials",
        group: Group::Traces,
        steps: &[Step {
            scenario: ScenarioId::PerSecond,
            // The wrong log first: brought under the clock bar as the step's lane,
            // the correct one is right below it, on screen (at 1280 × 800, above
            // it would be under the panel).
            lanes: &[l(SlidingLogLogsBlocked), l(SlidingLog), l(FixedWindow)],
            play_to_ms: 15_000,
            focus: Some(0),
            facts: &[
                fact("t15", Clock(15_000)),
                fact("t14", Clock(14_000)),
                fact("len", LogLength(0, 14_000)),
                fact("ok_len", LogLength(1, 14_000)),
                fact("n", Requests),
                fact("ok", Passed(1)),
                fact("bad", Passed(0)),
            ],
            ..STEP
        }],
    },
    Lesson {
        id: "swc-late",
        group: Group::Traces,
        steps: &[Step {
            scenario: ScenarioId::SwcLate,
            lanes: SWC_TRIO,
            play_to_ms: 17_000,
            select: Some(5),
            focus: Some(0),
            facts: &[
                fact("t12", Arrival(5)),
                fact("est12", StepValue(0, 5, "estimate")),
                fact("own12", OwnCount(0, 5)),
                fact("t17", Arrival(9)),
                fact("est17", StepValue(0, 9, "estimate")),
                fact("own17", OwnCount(0, 9)),
                fact("wrong", WrongAllows(0)),
                fact("passed", Passed(0)),
                fact("max", MaxInWindow(0)),
                fact("limit", Limit(0)),
                fact("sl", Passed(1)),
                fact("sl_max", MaxInWindow(1)),
                fact("w", Window(0)),
            ],
            ..STEP
        }],
    },
    Lesson {
        id: "swc-early",
        group: Group::Traces,
        steps: &[Step {
            scenario: ScenarioId::SwcEarly,
            lanes: SWC_TRIO,
            play_to_ms: 16_000,
            select: Some(7),
            focus: Some(0),
            facts: &[
                fact("t13", Arrival(7)),
                fact("est13", StepValue(0, 7, "estimate")),
                fact("own13", OwnCount(0, 7)),
                fact("t14", Arrival(8)),
                fact("est14", StepValue(0, 8, "estimate")),
                fact("t16", Arrival(9)),
                fact("est16", StepValue(0, 9, "estimate")),
                fact("wrong", WrongBlocks(0)),
                fact("w", Window(0)),
            ],
            ..STEP
        }],
    },
    Lesson {
        id: "nginx",
        group: Group::Traces,
        steps: &[Step {
            scenario: ScenarioId::TenAtOnce,
            lanes: &[
                s(Nginx).burst(5),
                s(Nginx).burst(5).nodelay(),
                s(Nginx).burst(5).delay(3),
                s(LeakyQueue).burst(6),
                s(Gcra).burst(6),
            ],
            play_to_ms: 1_000,
            facts: &[
                fact("n", Requests),
                fact("burst", Burst(0)),
                fact("passed", Passed(0)),
                fact("w0", WaitsMs(0)),
                fact("w1", WaitsMs(1)),
                fact("w2", WaitsMs(2)),
                fact("w3", WaitsMs(3)),
                fact("w4", WaitsMs(4)),
                fact("cap", Burst(3)),
                fact("gb", Burst(4)),
                fact("free", Undelayed(2)),
                fact("delay", Delay(2)),
            ],
            ..STEP
        }],
    },
    Lesson {
        id: "float",
        group: Group::Traces,
        steps: &[Step {
            scenario: ScenarioId::FloatEdge,
            lanes: &[l(TokenBucketF64), l(TokenBucket), l(Gcra)],
            play_to_ms: 11_000,
            select: Some(9),
            focus: Some(0),
            facts: &[
                fact("t", Arrival(9)),
                fact("fbefore", Before(0, 9, "tokens")),
                fact("ftok", StepValue(0, 9, "tokens")),
                fact("etok", StepValue(1, 9, "tokens")),
                fact("ahead", TestLhs(2, 9)),
                fact("tau", TestRhs(2, 9)),
                fact("f", Passed(0)),
                fact("e", Passed(1)),
                fact("g", Passed(2)),
            ],
            ..STEP
        }],
    },
    Lesson {
        id: "lab-a",
        group: Group::Labs,
        steps: &[Step {
            scenario: ScenarioId::LabA,
            lanes: SEVEN_PER_MINUTE,
            play_to_ms: 61_000,
            facts: &[
                fact("limit", Limit(0)),
                fact("from", Clock(59_000)),
                fact("to", Clock(61_000)),
                fact("fw", AllowedIn(0, 59_000, 61_000)),
                fact("an", AllowedIn(1, 59_000, 61_000)),
                fact("sl", MaxInWindow(2)),
                fact("swc", MaxInWindow(3)),
                fact("tb", Passed(4)),
                fact("gcra", Passed(5)),
                fact("tb_max", MaxInWindow(4)),
                fact("lq", Passed(6)),
                fact("lq_wait", LongestWait(6)),
            ],
            ..STEP
        }],
    },
    Lesson {
        id: "lab-b",
        group: Group::Labs,
        steps: &[Step {
            scenario: ScenarioId::LabB,
            lanes: &[
                m(FixedWindow),
                m(SlidingLog),
                m(SlidingWindowCounter),
                m(TokenBucket),
                m(Gcra),
                m(LeakyQueue),
            ],
            // To the queue's last departure (239.4 s): the lanes' whole run has no
            // stretch after the clock (labs B and E used to stop at 180 s, a
            // minute of the picture still ahead).
            play_to_ms: 240_000,
            // Per 10 s from the first minute on: the lanes show all three.
            whole_run: true,
            facts: &[
                fact("ten", Length(10_000)),
                fact("fw_h", Histogram(0, 0, 6)),
                fact("sl_h", Histogram(1, 0, 6)),
                fact("swc_h", Histogram(2, 6, 6)),
                fact("tb_first", AllowedIn(3, 0, 60_000)),
                fact("bound", Bound(3)),
                fact("tb", Passed(3)),
                fact("gcra", Passed(4)),
                fact("lq_blocked", Blocked(5)),
                fact("lq_wait", LongestWait(5)),
            ],
            ..STEP
        }],
    },
    Lesson {
        id: "lab-c",
        group: Group::Labs,
        steps: &[Step {
            scenario: ScenarioId::LabC,
            lanes: &[
                s(TokenBucket).burst(1),
                s(TokenBucket).burst(20),
                s(Gcra).burst(20),
                s(LeakyQueue).burst(12),
                s(Nginx).burst(11),
            ],
            play_to_ms: 1_500,
            facts: &[
                fact("n", Requests),
                fact("b1", Burst(0)),
                fact("b20", Burst(1)),
                fact("b1_blocked", Blocked(0)),
                fact("b20_blocked", Blocked(1)),
                fact("gcra", Passed(2)),
                fact("lq_wait", LongestWait(3)),
                fact("nginx_wait", LongestWait(4)),
                fact("nginx_burst", Burst(4)),
            ],
            ..STEP
        }],
    },
    Lesson {
        id: "lab-d",
        group: Group::Labs,
        steps: &[Step {
            scenario: ScenarioId::LabD,
            lanes: &[m(SlidingWindowCounter), m(SlidingLog), m(FixedWindow)],
            play_to_ms: 600_000,
            // The step judges the counter: the page brings its lane into view.
            focus: Some(0),
            lab_d: true,
            facts: &[
                fact("l0", LoadLabel(0)),
                fact("wa0", JudgedWrongAllows(0)),
                fact("wb0", JudgedWrongBlocks(0)),
                fact("l2", LoadLabel(2)),
                fact("a2", JudgedAllowed(2)),
                fact("wa2", JudgedWrongAllows(2)),
                fact("wb2", JudgedWrongBlocks(2)),
                fact("e2", JudgedError(2)),
                fact("worst", JudgedWorstOverall),
                fact("l_worst", JudgedWorstLoad),
                fact("s_wa2", SweepWrongAllows(2)),
                fact("s_wb2", SweepWrongBlocks(2)),
                fact("s_n2", SweepRequests(2)),
                fact("limit", Limit(0)),
            ],
            ..STEP
        }],
    },
    Lesson {
        id: "lab-e",
        group: Group::Labs,
        steps: &[Step {
            scenario: ScenarioId::LabE,
            lanes: SEVEN_PER_MINUTE,
            // To the queue's last departure (by 240 s), as lab B.
            play_to_ms: 240_000,
            // The most in a minute, from the burst at 59.9 s on: the whole run.
            whole_run: true,
            facts: &[
                fact("fw", MaxInWindow(0)),
                fact("fw_1s", MaxIn1s(0)),
                fact("an", MaxInWindow(1)),
                fact("sl", MaxInWindow(2)),
                fact("swc", MaxInWindow(3)),
                fact("swc_1s", MaxIn1s(3)),
                fact("tb", MaxInWindow(4)),
                fact("tb_passed", Passed(4)),
                fact("gcra_passed", Passed(5)),
                fact("lq_wait", LongestWait(6)),
            ],
            ..STEP
        }],
    },
];
