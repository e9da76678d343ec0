//! The `apc-hub` binary: parses the command line and runs it (see `apc_hub::cli`).

use clap::Parser;

/// jemalloc, not glibc's malloc: a profile of one pin waking 1,000 waiting clients of one agent spent
/// about half of the hub's CPU in glibc's malloc and free (`_int_malloc`, `unlink_chunk`,
/// `malloc_consolidate`); jemalloc also keeps a thousand waiting agents smaller. (mimalloc cut more
/// of that CPU, but held twice the memory with those agents waiting and kept it after they left.)
/// Linux only, where it was measured: macOS and Windows keep the system's allocator (and their
/// builds need no jemalloc cross-compiled from C).
#[cfg(target_os = "linux")]
#[global_allocator]
static ALLOC: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// jemalloc's options, read when it starts: a background thread hands freed pages back to the OS
/// (dirty pages after 1 s, none kept as muzzy), so the memory of closed clients returns.
#[cfg(target_os = "linux")]
#[allow(non_upper_case_globals)]
#[export_name = "_rjem_malloc_conf"]
pub static malloc_conf: &[u8] = b"background_thread:true,dirty_decay_ms:1000,muzzy_decay_ms:0\0";

fn main() -> std::process::ExitCode {
    let cli = apc_hub::cli::Cli::parse();
    match apc_hub::cli::run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(apc_hub::cli::CliError::Problems(_)) => std::process::ExitCode::FAILURE,
        Err(e) => {
            eprintln!("apc-hub: {e}");
            std::process::ExitCode::from(e.exit_code())
        }
    }
}
