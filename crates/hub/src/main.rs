//! The `apc-hub` binary: parses the command line and runs it (see `apc_hub::cli`).

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = apc_hub::cli::Cli::parse();
    match apc_hub::cli::run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("apc-hub: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
