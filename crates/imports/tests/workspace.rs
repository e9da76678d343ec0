//! ARCHITECTURE.md's "no import circle in any crate", checked over every crate under `crates/`
//! (each root: `lib.rs`, `main.rs`), so a crate added later is checked without being listed.

use std::path::{Path, PathBuf};

use apc_imports::Graph;

/// Each crate's `src` folder and its roots.
fn crate_roots() -> Vec<(PathBuf, &'static str)> {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut roots = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&crates)
        .expect("crates/ is readable")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    dirs.sort();
    for dir in dirs {
        for root in ["lib.rs", "main.rs"] {
            if dir.join("src").join(root).is_file() {
                roots.push((dir.join("src"), root));
            }
        }
    }
    roots
}

fn name(src: &Path) -> String {
    let dir = src.parent().and_then(Path::file_name).unwrap_or_default();
    dir.to_string_lossy().into_owned()
}

#[test]
fn no_crate_has_an_import_circle() {
    let mut found = String::new();
    let mut files = 0;
    for (src, root) in crate_roots() {
        let graph = Graph::of_dir(&src, root).unwrap_or_else(|e| panic!("{}: {e}", src.display()));
        files += graph.files().len();
        for circle in graph.circles() {
            found.push_str(&format!("crates/{}/src ({root}): {circle}", name(&src)));
        }
    }
    assert!(found.is_empty(), "import circles:\n{found}");
    // The walk saw the workspace, not an empty folder: the four crates' files at least.
    assert!(files >= 60, "only {files} files read");
}

/// The checker reads these crates as they are: a few imports every reader of the code knows are
/// there, so a checker that stopped seeing imports would fail here, not pass quietly.
#[test]
fn the_checker_sees_the_imports_the_code_has() {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let background = Graph::of_dir(&crates.join("background/src"), "lib.rs").unwrap();
    for (from, to) in [
        ("logic/flows/drop.rs", "logic/ports.rs"),
        ("logic/flows/drop.rs", "logic/hub_api.rs"),
        ("adapters/mod.rs", "logic/ports.rs"),
        ("lib.rs", "logic/router.rs"),
    ] {
        assert!(background.names(from, to), "{from} → {to} not seen");
    }
    let hub = Graph::of_dir(&crates.join("hub/src"), "lib.rs").unwrap();
    assert!(hub.names("page.rs", "state.rs"));
    assert!(!hub.names("state.rs", "page.rs"));
}
