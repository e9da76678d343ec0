//! One line of the conformance runner (any function of the standard the core ports, on any JSON
//! arguments): never a panic, and the answer is one JSON line. Its corpus is replayed against the
//! reference JavaScript by `scripts/fuzz.sh` (coverage-guided differential testing, issue 11.3).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    if line.contains('\n') {
        return;
    }
    if let Some(answer) = apc_core::conformance::run_line(line) {
        let v: serde_json::Value = serde_json::from_str(&answer).expect("the runner writes JSON");
        assert!(v.is_object());
    }
});
