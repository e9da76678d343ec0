//! The graph and its circles on small made-up crates: each way of naming a file counts, and each
//! way a re-export or a test could fool the checker does not.

use super::*;

fn graph(files: &[(&str, &str)]) -> Graph {
    let files = crate::modules::tests::sources(files);
    Graph::load("lib.rs", &|p| files.get(p).cloned()).unwrap()
}

fn rounds(g: &Graph) -> Vec<Vec<String>> {
    g.circles()
        .iter()
        .map(|c| c.files().into_iter().map(str::to_owned).collect())
        .collect()
}

#[test]
fn a_circle_through_three_files_is_found_with_where_each_step_is() {
    let g = graph(&[
        ("lib.rs", "mod ports; mod checks; mod client;"),
        (
            "ports.rs",
            "pub trait Env { fn checks(&self) -> &super::checks::Checks; }",
        ),
        ("checks.rs", "use super::client;\npub struct Checks;"),
        (
            "client.rs",
            "\n\nuse crate::ports::{Env as _, Http};\npub fn call() {}",
        ),
    ]);
    let circles = g.circles();
    assert_eq!(circles.len(), 1);
    assert_eq!(circles[0].files(), ["ports.rs", "checks.rs", "client.rs"]);
    let text = circles[0].to_string();
    assert!(
        text.starts_with("ports.rs → checks.rs → client.rs → ports.rs\n"),
        "{text}"
    );
    assert!(
        text.contains("checks.rs:1 names super::client (client.rs)"),
        "{text}"
    );
    assert!(
        text.contains("client.rs:3 names crate::ports::Env (ports.rs)"),
        "{text}"
    );
}

#[test]
fn layers_that_name_only_downwards_have_no_circle() {
    let g = graph(&[
        (
            "lib.rs",
            "pub mod low; pub mod mid; pub mod high; pub use high::run;",
        ),
        ("low.rs", "pub struct Low;"),
        ("mid.rs", "use crate::low::Low; pub fn m(_: Low) {}"),
        ("high.rs", "pub fn run() { super::mid::m(crate::low::Low) }"),
    ]);
    assert!(g.circles().is_empty());
    assert!(g.names("mid.rs", "low.rs") && g.names("high.rs", "mid.rs"));
    assert!(g.names("high.rs", "low.rs") && g.names("lib.rs", "high.rs"));
    assert!(!g.names("low.rs", "mid.rs"));
}

#[test]
fn two_files_naming_each_other_are_a_circle() {
    let g = graph(&[
        ("lib.rs", "mod state; mod views;"),
        ("state.rs", "use super::views::Badge; pub struct State;"),
        (
            "views.rs",
            "pub struct Badge; impl Badge { fn of(_: &crate::state::State) {} }",
        ),
    ]);
    assert_eq!(rounds(&g), [["state.rs", "views.rs"]]);
}

#[test]
fn a_re_export_leads_to_the_file_that_defines_the_item() {
    let g = graph(&[
        ("lib.rs", "pub mod flows; pub use flows::*;"),
        (
            "flows/mod.rs",
            "pub mod drop; pub mod outcome; pub use outcome::FlowError; pub use drop::on_drop;",
        ),
        (
            "flows/drop.rs",
            "use super::FlowError; pub fn on_drop() -> Result<(), FlowError> { Ok(()) }",
        ),
        (
            "flows/outcome.rs",
            "pub struct FlowError; fn x() { crate::on_drop(); }",
        ),
    ]);
    assert!(g.names("flows/drop.rs", "flows/outcome.rs"));
    assert!(!g.names("flows/drop.rs", "flows/mod.rs"));
    // `crate::on_drop` goes through lib.rs's glob and flows/mod.rs's re-export to drop.rs.
    assert!(g.names("flows/outcome.rs", "flows/drop.rs"));
    assert_eq!(rounds(&g), [["flows/drop.rs", "flows/outcome.rs"]]);
}

#[test]
fn a_child_naming_what_its_parent_defines_while_the_parent_names_it_is_a_circle() {
    let g = graph(&[
        ("lib.rs", "mod logic;"),
        (
            "logic/mod.rs",
            "mod flows; pub const LIMIT: u32 = 1; fn f() { flows::go() }",
        ),
        ("logic/flows.rs", "pub fn go() { let _ = super::LIMIT; }"),
    ]);
    assert_eq!(rounds(&g), [["logic/mod.rs", "logic/flows.rs"]]);
}

#[test]
fn comments_strings_test_code_and_other_crates_name_nothing() {
    let g = graph(&[
        ("lib.rs", "mod a; mod b;"),
        ("a.rs", "pub fn a() {}"),
        (
            "b.rs",
            "// crate::a::a()\nconst S: &str = \"crate::a::a\";\nuse std::fmt;\n\
             #[cfg(test)]\nmod tests { use crate::a::a; }\n#[cfg(test)]\nfn t() { crate::a::a() }",
        ),
    ]);
    assert!(!g.names("b.rs", "a.rs"), "{:?}", g.imports());
}

#[test]
fn test_module_files_are_left_out() {
    let g = graph(&[
        ("lib.rs", "mod a;\n#[cfg(test)]\nmod tests;"),
        ("a.rs", "pub fn a() {}"),
    ]);
    assert_eq!(g.files(), ["lib.rs", "a.rs"], "tests.rs is not even read");
}

#[test]
fn super_in_an_inline_module_is_its_file() {
    let g = graph(&[
        ("lib.rs", "mod a; mod b;"),
        ("a.rs", "mod inner { fn f() { super::g() } } fn g() {}"),
        ("b.rs", "fn f() { crate::a::g() }"),
    ]);
    assert!(
        g.imports().iter().all(|i| i.from != "a.rs"),
        "{:?}",
        g.imports()
    );
    assert!(g.names("b.rs", "a.rs"));
}
