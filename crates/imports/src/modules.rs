//! A crate's module tree as its sources declare it (`mod name;` files, inline `mod name { … }`,
//! `#[path]`), and what each module names: its `use` trees, the paths its code writes
//! (`crate::…`, `super::…`, `self::…`, a child module's), the items it defines. Test code
//! (`#[cfg(test)]` items and the files of test modules) is left out: tests may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};

use crate::lexer::{tokens, Tok, Token};

/// A path some module writes, as written, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub segments: Vec<String>,
    pub line: usize,
}

impl Named {
    pub fn written(&self) -> String {
        self.segments.join("::")
    }
}

#[derive(Debug, Default)]
pub struct Module {
    /// From the crate root (empty for the root).
    pub path: Vec<String>,
    pub parent: Option<usize>,
    /// The file it is written in (an index of [`Tree::files`]); inline modules share their file's.
    pub file: usize,
    pub children: BTreeMap<String, usize>,
    /// `use` names: the name a `use` brings into scope → the path it stands for, as written.
    pub uses: BTreeMap<String, Vec<String>>,
    /// `use path::*`: the paths, as written.
    pub globs: Vec<Vec<String>>,
    /// Items defined here (functions, types, constants, traits, macros).
    pub items: BTreeSet<String>,
    /// Every path it names: each `use`, and each path its code writes.
    pub named: Vec<Named>,
}

/// The modules of one crate root, the root first.
#[derive(Debug, Default)]
pub struct Tree {
    /// Source files from the `src` folder (`lib.rs`, `logic/ports.rs`, …).
    pub files: Vec<String>,
    pub modules: Vec<Module>,
}

/// Why a crate's modules could not be read: the checker never passes over what it cannot see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError(pub String);

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoadError {}

/// Where a module's `mod x;` children are: `dir/x.rs` or `dir/x/mod.rs`.
fn child_dir(file: &str) -> String {
    let (dir, name) = match file.rsplit_once('/') {
        Some((dir, name)) => (format!("{dir}/"), name),
        None => (String::new(), file),
    };
    match name {
        "lib.rs" | "main.rs" | "mod.rs" => dir,
        other => format!("{dir}{}/", other.trim_end_matches(".rs")),
    }
}

fn file_dir(file: &str) -> String {
    file.rsplit_once('/')
        .map(|(dir, _)| format!("{dir}/"))
        .unwrap_or_default()
}

/// Drops the items `#[cfg(test)]` marks (each to its `;` or the end of its braces).
fn without_tests(toks: Vec<Token>) -> Vec<Token> {
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let is_cfg_test = toks[i].is_punct('#')
            && toks.get(i + 1).is_some_and(|t| t.is_punct('['))
            && toks.get(i + 2).is_some_and(|t| t.is_word("cfg"))
            && toks.get(i + 3).is_some_and(|t| t.is_punct('('))
            && toks.get(i + 4).is_some_and(|t| t.is_word("test"))
            && toks.get(i + 5).is_some_and(|t| t.is_punct(')'))
            && toks.get(i + 6).is_some_and(|t| t.is_punct(']'));
        if !is_cfg_test {
            out.push(toks[i].clone());
            i += 1;
            continue;
        }
        i += 7;
        let mut depth = 0i32;
        while let Some(t) = toks.get(i) {
            i += 1;
            match &t.tok {
                Tok::Punct('(' | '[') => depth += 1,
                Tok::Punct(')' | ']') => depth -= 1,
                Tok::Punct(';') if depth == 0 => break,
                Tok::Punct('{') if depth == 0 => {
                    i = after_group(&toks, i - 1);
                    break;
                }
                _ => {}
            }
        }
    }
    out
}

/// The index past the group that opens at `open` (`{`, `(` or `[`).
fn after_group(toks: &[Token], open: usize) -> usize {
    let mut depth = 0i32;
    let mut i = open;
    while let Some(t) = toks.get(i) {
        i += 1;
        match t.tok {
            Tok::Punct('{' | '(' | '[') => depth += 1,
            Tok::Punct('}' | ')' | ']') => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
    }
    i
}

/// One entry of a `use` tree: the full path and the name it brings (`None` for a glob).
fn use_tree(
    toks: &[Token],
    i: &mut usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let mut path = prefix.to_vec();
    loop {
        match toks.get(*i).map(|t| &t.tok) {
            Some(Tok::Word(w)) if w == "self" && !path.is_empty() && prefix.len() == path.len() => {
                // `{self, …}`: the module itself.
                *i += 1;
                let name = path.last().cloned();
                out.push((path.clone(), alias(toks, i).or(name)));
                return;
            }
            Some(Tok::Word(w)) => {
                path.push(w.clone());
                *i += 1;
            }
            Some(Tok::PathSep) => *i += 1,
            Some(Tok::Punct('*')) => {
                *i += 1;
                out.push((path, None));
                return;
            }
            Some(Tok::Punct('{')) => {
                *i += 1;
                loop {
                    match toks.get(*i).map(|t| &t.tok) {
                        Some(Tok::Punct('}')) => {
                            *i += 1;
                            return;
                        }
                        Some(Tok::Punct(',')) => *i += 1,
                        None => return,
                        _ => use_tree(toks, i, &path, out),
                    }
                }
            }
            _ => {
                if path.len() > prefix.len() {
                    let name = path.last().cloned();
                    let name = alias(toks, i).or(name);
                    out.push((path, name));
                }
                return;
            }
        }
        if toks.get(*i).is_some_and(|t| t.is_word("as")) {
            let name = alias(toks, i);
            out.push((path, name));
            return;
        }
    }
}

/// `as name` after a use path (`as _` brings no name).
fn alias(toks: &[Token], i: &mut usize) -> Option<String> {
    if !toks.get(*i).is_some_and(|t| t.is_word("as")) {
        return None;
    }
    *i += 1;
    let name = toks.get(*i).and_then(Token::word).map(str::to_owned);
    *i += 1;
    name.filter(|n| n != "_")
}

const ITEM_KEYWORDS: &[&str] = &[
    "fn", "struct", "enum", "const", "static", "type", "trait", "union",
];

impl Tree {
    /// Reads the crate whose root file is `root` (e.g. `lib.rs`), through `read` (a path from the
    /// `src` folder → its text).
    pub fn load(root: &str, read: &dyn Fn(&str) -> Option<String>) -> Result<Self, LoadError> {
        let mut tree = Tree::default();
        tree.load_file(root, None, None, read)?;
        Ok(tree)
    }

    fn load_file(
        &mut self,
        file: &str,
        name: Option<String>,
        parent: Option<usize>,
        read: &dyn Fn(&str) -> Option<String>,
    ) -> Result<usize, LoadError> {
        let src = read(file).ok_or_else(|| LoadError(format!("cannot read {file}")))?;
        self.files.push(file.to_owned());
        let file_index = self.files.len() - 1;
        let toks = without_tests(tokens(&src));
        let module = self.new_module(name, parent, file_index);
        self.read_items(&toks, module, &child_dir(file), &file_dir(file), read)?;
        Ok(module)
    }

    fn new_module(&mut self, name: Option<String>, parent: Option<usize>, file: usize) -> usize {
        let mut path = parent
            .map(|p| self.modules[p].path.clone())
            .unwrap_or_default();
        path.extend(name.clone());
        self.modules.push(Module {
            path,
            parent,
            file,
            ..Module::default()
        });
        let index = self.modules.len() - 1;
        if let (Some(p), Some(name)) = (parent, name) {
            self.modules[p].children.insert(name, index);
        }
        index
    }

    /// Reads one module's tokens: its children (recursively), uses, items and written paths.
    /// `children_dir` is where its `mod x;` files are; `attr_dir` where a `#[path]` is read from.
    fn read_items(
        &mut self,
        toks: &[Token],
        module: usize,
        children_dir: &str,
        attr_dir: &str,
        read: &dyn Fn(&str) -> Option<String>,
    ) -> Result<(), LoadError> {
        let mut path_attr: Option<String> = None;
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            if t.is_punct('#') {
                let open = i + 1 + usize::from(toks.get(i + 1).is_some_and(|t| t.is_punct('!')));
                if toks.get(open).is_some_and(|t| t.is_punct('[')) {
                    let end = after_group(toks, open);
                    if toks.get(open + 1).is_some_and(|t| t.is_word("path")) {
                        if let Some(Tok::Str(p)) = toks.get(open + 3).map(|t| &t.tok) {
                            path_attr = Some(p.clone());
                        }
                    }
                    i = end;
                    continue;
                }
            }
            if t.is_word("mod") {
                if let Some(name) = toks.get(i + 1).and_then(Token::word) {
                    let name = name.to_owned();
                    match toks.get(i + 2).map(|t| &t.tok) {
                        Some(Tok::Punct(';')) => {
                            let file = match path_attr.take() {
                                Some(p) => format!("{attr_dir}{p}"),
                                None => {
                                    let flat = format!("{children_dir}{name}.rs");
                                    if read(&flat).is_some() {
                                        flat
                                    } else {
                                        format!("{children_dir}{name}/mod.rs")
                                    }
                                }
                            };
                            self.load_file(&file, Some(name), Some(module), read)?;
                            i += 3;
                            continue;
                        }
                        Some(Tok::Punct('{')) => {
                            let end = after_group(toks, i + 2);
                            let file = self.modules[module].file;
                            let inline = self.new_module(Some(name.clone()), Some(module), file);
                            let inner = &toks[i + 3..end.saturating_sub(1).max(i + 3)];
                            let dir = format!("{children_dir}{name}/");
                            self.read_items(inner, inline, &dir, &dir, read)?;
                            i = end;
                            continue;
                        }
                        _ => {}
                    }
                }
            }
            if t.is_punct(';') || t.is_punct('{') || t.is_punct('}') {
                path_attr = None;
            }
            if t.is_word("use") {
                let line = t.line;
                i += 1;
                let mut entries = Vec::new();
                use_tree(toks, &mut i, &[], &mut entries);
                let m = &mut self.modules[module];
                for (segments, name) in entries {
                    match name {
                        Some(name) => {
                            m.uses.insert(name, segments.clone());
                        }
                        None => m.globs.push(segments.clone()),
                    }
                    m.named.push(Named { segments, line });
                }
                continue;
            }
            if let Some(word) = t.word() {
                let next = toks.get(i + 1);
                if ITEM_KEYWORDS.contains(&word) {
                    if let Some(name) = next.and_then(Token::word).filter(|n| *n != "fn") {
                        self.modules[module].items.insert(name.to_owned());
                    }
                } else if word == "macro_rules" && next.is_some_and(|t| t.is_punct('!')) {
                    if let Some(name) = toks.get(i + 2).and_then(Token::word) {
                        self.modules[module].items.insert(name.to_owned());
                    }
                }
                let after_sep = i > 0 && toks[i - 1].tok == Tok::PathSep;
                if next.is_some_and(|t| t.tok == Tok::PathSep) && !after_sep {
                    // A written path: its words as far as they go.
                    let line = t.line;
                    let mut segments = vec![word.to_owned()];
                    let mut j = i + 1;
                    while toks.get(j).is_some_and(|t| t.tok == Tok::PathSep) {
                        match toks.get(j + 1).and_then(Token::word) {
                            Some(w) => {
                                segments.push(w.to_owned());
                                j += 2;
                            }
                            None => break,
                        }
                    }
                    self.modules[module].named.push(Named { segments, line });
                    i = j;
                    continue;
                }
            }
            i += 1;
        }
        Ok(())
    }

    /// The module at an absolute path, if it is one.
    pub fn module_at(&self, path: &[String]) -> Option<usize> {
        let mut m = 0;
        for segment in path {
            m = *self.modules.get(m)?.children.get(segment)?;
        }
        Some(m)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Made-up sources: a path from `src` → its text.
    pub(crate) fn sources(files: &[(&str, &str)]) -> BTreeMap<String, String> {
        files
            .iter()
            .map(|(p, s)| (p.to_string(), s.to_string()))
            .collect()
    }

    fn tree(files: &[(&str, &str)]) -> Tree {
        let files = sources(files);
        Tree::load("lib.rs", &|p| files.get(p).cloned()).unwrap()
    }

    #[test]
    fn modules_come_from_files_folders_path_attributes_and_inline_blocks() {
        let t = tree(&[
            (
                "lib.rs",
                "pub mod a; mod b; #[path = \"other.rs\"] mod c; mod d { pub fn f() {} }",
            ),
            ("a.rs", "mod inner;"),
            ("a/inner.rs", ""),
            ("b/mod.rs", ""),
            ("other.rs", ""),
        ]);
        assert_eq!(
            t.files,
            ["lib.rs", "a.rs", "a/inner.rs", "b/mod.rs", "other.rs"]
        );
        let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let inner = t.module_at(&path(&["a", "inner"])).unwrap();
        assert_eq!(t.files[t.modules[inner].file], "a/inner.rs");
        let d = t.module_at(&path(&["d"])).unwrap();
        assert_eq!(t.modules[d].file, 0, "an inline module is its file's");
        assert!(t.modules[d].items.contains("f"));
    }

    #[test]
    fn a_missing_module_file_is_an_error() {
        let files = [("lib.rs".to_owned(), "mod gone;".to_owned())];
        let read = |p: &str| files.iter().find(|(f, _)| f == p).map(|(_, s)| s.clone());
        assert!(Tree::load("lib.rs", &read).is_err());
    }

    #[test]
    fn use_trees_and_written_paths_are_named_and_test_items_are_not() {
        let t = tree(&[(
            "lib.rs",
            "use crate::a::{self, b::{C, D as E}, f::*};
             fn g() -> super::x::Y { crate::z::w(); std::mem::drop(1); }
             #[cfg(test)] mod tests { use crate::hidden::H; }
             #[cfg(test)] use crate::also_hidden;",
        )]);
        let root = &t.modules[0];
        let written: Vec<String> = root.named.iter().map(Named::written).collect();
        assert_eq!(
            written,
            [
                "crate::a",
                "crate::a::b::C",
                "crate::a::b::D",
                "crate::a::f",
                "super::x::Y",
                "crate::z::w",
                "std::mem::drop"
            ]
        );
        assert_eq!(root.uses["E"], ["crate", "a", "b", "D"]);
        assert_eq!(root.uses["a"], ["crate", "a"]);
        assert_eq!(root.globs, [["crate", "a", "f"]]);
        assert!(root.items.contains("g"));
    }
}
