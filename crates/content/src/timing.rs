//! Timing of this crate's own work where it runs, for benchmarks: a host (the extension's
//! background) may install a [`Timer`] once, and then [`Observation::from_json`] and
//! [`build_reading`] report how long each call took (`"from_json"`, `"build_reading"`) with the
//! host's clock. The crate has no clock of its own (it is pure: no IO, the same natively and as
//! WebAssembly); without a timer, timing costs one atomic load per call and records nothing.
//!
//! [`Observation::from_json`]: crate::Observation::from_json
//! [`build_reading`]: crate::build_reading

use std::sync::OnceLock;

/// A host's clock and where it records a span (its name, start and end on that clock).
#[derive(Debug, Clone, Copy)]
pub struct Timer {
    /// The host's clock, in milliseconds.
    pub now: fn() -> f64,
    /// Records one span of `now` readings: `(name, start, end)`.
    pub record: fn(&'static str, f64, f64),
}

static TIMER: OnceLock<Timer> = OnceLock::new();

/// Installs the timer; only the first call does. Returns whether this one did.
pub fn set_timer(timer: Timer) -> bool {
    TIMER.set(timer).is_ok()
}

/// Runs `f`, recording how long it took as `name` when a timer is installed.
pub(crate) fn timed<T>(name: &'static str, f: impl FnOnce() -> T) -> T {
    match TIMER.get() {
        None => f(),
        Some(timer) => {
            let start = (timer.now)();
            let out = f();
            (timer.record)(name, start, (timer.now)());
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    static SPANS: Mutex<Vec<(&'static str, f64, f64)>> = Mutex::new(Vec::new());
    static CLOCK: Mutex<f64> = Mutex::new(0.0);

    fn now() -> f64 {
        let mut t = CLOCK.lock().unwrap();
        *t += 1.0;
        *t
    }
    fn record(name: &'static str, start: f64, end: f64) {
        SPANS.lock().unwrap().push((name, start, end));
    }

    /// With a timer installed, parsing and building a reading each record one span on its clock
    /// (other tests of this binary may add spans of their own meanwhile: only ours are looked for).
    #[test]
    fn installed_timer_records_from_json_and_build_reading() {
        assert!(set_timer(Timer { now, record }));
        assert!(
            !set_timer(Timer { now, record }),
            "only the first timer is installed"
        );
        let raw = r#"{"v":1,"url":"https://example.com/timing-test","title":"T","lang":null,"how":"drop","root":0,
            "nodes":[{"tag":"html","kids":[1]},{"tag":"body","kids":[2]},{"tag":"p","kids":[3]},{"text":"Timed text"}],
            "point":{"caret":{"node":3,"offset":2},"element":2},"selection":null,"truncated":false}"#;
        let obs = crate::Observation::from_json(raw).unwrap();
        let reading = crate::build_reading(&obs, "2026-11-30T00:00:00Z").unwrap();
        assert_eq!(reading.url, "https://example.com/timing-test");
        let spans = SPANS.lock().unwrap();
        for name in ["from_json", "build_reading"] {
            assert!(
                spans
                    .iter()
                    .any(|&(n, start, end)| n == name && end > start),
                "no {name} span in {spans:?}"
            );
        }
    }
}
