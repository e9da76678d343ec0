//! Prints the observation JSON that `reading_tree` builds from an input file (a crash artifact):
//! `cargo run --example tree_to_json -- artifacts/reading_tree/crash-...`.
fn main() {
    let path = std::env::args().nth(1).expect("an input file");
    let data = std::fs::read(path).expect("readable");
    let mut u = arbitrary::Unstructured::new(&data);
    match apc_fuzz::observation(&mut u) {
        Ok(obs) => println!("{}", serde_json::to_string(&obs).expect("JSON")),
        Err(e) => eprintln!("no observation: {e}"),
    }
}
