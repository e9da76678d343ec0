//! The conformance runner: JSON lines `{"fn": …, "args": […]}` on stdin, one answer line each on
//! stdout (see `apc_core::conformance`).

use std::io::{self, BufRead, Write};

fn main() -> io::Result<()> {
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for line in io::stdin().lock().lines() {
        if let Some(answer) = apc_core::conformance::run_line(&line?) {
            writeln!(out, "{answer}")?;
        }
    }
    out.flush()
}
