//! The import graph of a crate's modules, and its circles.
//!
//! Why it exists: a circle of imports (`a.rs` names `b.rs`, which names `a.rs`, perhaps through
//! others) makes files that cannot be read, changed or tested one without the other, and hides which
//! of them is the lower layer. ARCHITECTURE.md says no crate has one; `tests/workspace.rs` checks
//! every crate under `crates/` (`no_crate_has_an_import_circle`), so a new crate is checked too.
//!
//! What counts as one file naming another: a `use` of it or of something in it, or a path written
//! in code (`crate::…`, `super::…`, `self::…`, or starting with a child module's name). A path is
//! followed through the `use`s and glob `use`s it passes (a re-export in a `mod.rs` leads to the
//! file that defines the item), to the file that holds the module or item it ends at. Test code
//! (`#[cfg(test)]` items, test modules' files) is left out, and so is what a file names in itself.
//! This is read from the sources as text, without compiling them: macros other than `macro_rules!`
//! names, and names brought in by a `use` inside another `use`'s scope, are not followed.

pub mod lexer;
pub mod modules;

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

pub use modules::LoadError;
use modules::Tree;

/// How many `use`s one path may be followed through before the checker stops following it.
const MAX_HOPS: u32 = 16;

/// One file naming another: the first place it does so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    pub from: String,
    pub to: String,
    pub line: usize,
    /// The path as written (`super::views::Msg`).
    pub written: String,
}

impl std::fmt::Display for Import {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{} names {} ({})",
            self.from, self.line, self.written, self.to
        )
    }
}

/// Files that import each other round: each step names the next, the last names the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Circle(pub Vec<Import>);

impl Circle {
    pub fn files(&self) -> Vec<&str> {
        self.0.iter().map(|i| i.from.as_str()).collect()
    }
}

impl std::fmt::Display for Circle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut files = self.files();
        files.extend(self.0.first().map(|i| i.from.as_str()));
        writeln!(f, "{}", files.join(" → "))?;
        for step in &self.0 {
            writeln!(f, "  {step}")?;
        }
        Ok(())
    }
}

/// The files of one crate root and which names which.
#[derive(Debug)]
pub struct Graph {
    tree: Tree,
    /// (from file, to file) → the first place `from` names `to`: its line and the path written.
    edges: BTreeMap<(usize, usize), (usize, String)>,
}

impl Graph {
    /// The graph of the crate whose root is `root` (`lib.rs`, `main.rs`), its sources read through
    /// `read` (a path from the `src` folder → the file's text).
    pub fn load(root: &str, read: &dyn Fn(&str) -> Option<String>) -> Result<Self, LoadError> {
        let tree = Tree::load(root, read)?;
        let mut graph = Graph {
            tree,
            edges: BTreeMap::new(),
        };
        for m in 0..graph.tree.modules.len() {
            let from = graph.tree.modules[m].file;
            for named in &graph.tree.modules[m].named {
                let Some(to) = graph
                    .absolute(m, &named.segments, 0)
                    .and_then(|path| graph.resolve(&path, 0))
                    .map(|target| graph.tree.modules[target].file)
                else {
                    continue;
                };
                if to != from {
                    graph
                        .edges
                        .entry((from, to))
                        .or_insert((named.line, named.written()));
                }
            }
        }
        Ok(graph)
    }

    /// The graph of the crate root `root` in the folder `src`.
    pub fn of_dir(src: &Path, root: &str) -> Result<Self, LoadError> {
        Self::load(root, &|file| std::fs::read_to_string(src.join(file)).ok())
    }

    /// Every source file of the crate root (tests' files apart), from its `src` folder.
    pub fn files(&self) -> &[String] {
        &self.tree.files
    }

    /// Every file naming another.
    pub fn imports(&self) -> Vec<Import> {
        self.edges
            .iter()
            .map(|(&(from, to), (line, written))| self.import(from, to, *line, written))
            .collect()
    }

    /// Whether `from` names `to` (files from the `src` folder).
    pub fn names(&self, from: &str, to: &str) -> bool {
        let index = |f: &str| self.tree.files.iter().position(|x| x == f);
        matches!((index(from), index(to)), (Some(a), Some(b)) if self.edges.contains_key(&(a, b)))
    }

    fn import(&self, from: usize, to: usize, line: usize, written: &str) -> Import {
        Import {
            from: self.tree.files[from].clone(),
            to: self.tree.files[to].clone(),
            line,
            written: written.to_owned(),
        }
    }

    /// A path some module wrote, from the crate root; `None` for another crate's.
    fn absolute(&self, m: usize, segments: &[String], hops: u32) -> Option<Vec<String>> {
        let module = &self.tree.modules[m];
        let first = segments.first()?;
        let joined = |base: &[String], rest: &[String]| {
            let mut path = base.to_vec();
            path.extend_from_slice(rest);
            path
        };
        match first.as_str() {
            "crate" => Some(segments[1..].to_vec()),
            "self" => Some(joined(&module.path, &segments[1..])),
            "super" => {
                let mut at = m;
                let mut k = 0;
                while segments.get(k).is_some_and(|s| s == "super") {
                    at = self.tree.modules[at].parent?;
                    k += 1;
                }
                Some(joined(&self.tree.modules[at].path, &segments[k..]))
            }
            _ if module.children.contains_key(first) => Some(joined(&module.path, segments)),
            _ => {
                let used = module
                    .uses
                    .get(first)
                    .filter(|u| u.as_slice() != segments)?;
                if hops >= MAX_HOPS {
                    return None;
                }
                let base = self.absolute(m, used, hops + 1)?;
                Some(joined(&base, &segments[1..]))
            }
        }
    }

    /// The module an absolute path ends in: the module itself, or the one that defines its item,
    /// through the `use`s on the way.
    fn resolve(&self, path: &[String], hops: u32) -> Option<usize> {
        let mut m = 0;
        for (k, segment) in path.iter().enumerate() {
            let module = &self.tree.modules[m];
            if let Some(&child) = module.children.get(segment) {
                m = child;
                continue;
            }
            if hops >= MAX_HOPS {
                return Some(m);
            }
            if let Some(used) = module.uses.get(segment) {
                let Some(mut full) = self.absolute(m, used, 0) else {
                    return Some(m); // another crate's item, named through this module
                };
                full.extend_from_slice(&path[k + 1..]);
                return self.resolve(&full, hops + 1).or(Some(m));
            }
            for glob in &module.globs {
                let Some(base) = self.absolute(m, glob, 0) else {
                    continue;
                };
                let Some(g) = self.tree.module_at(&base) else {
                    continue;
                };
                let held = &self.tree.modules[g];
                if held.items.contains(segment)
                    || held.children.contains_key(segment)
                    || held.uses.contains_key(segment)
                {
                    let mut full = base;
                    full.extend_from_slice(&path[k..]);
                    return self.resolve(&full, hops + 1).or(Some(m));
                }
            }
            return Some(m);
        }
        Some(m)
    }

    /// Every circle: one for each set of files that import each other round (its shortest round
    /// from its first file), in file order.
    pub fn circles(&self) -> Vec<Circle> {
        let n = self.tree.files.len();
        let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &(from, to) in self.edges.keys() {
            next[from].push(to);
        }
        strongly_connected(&next)
            .into_iter()
            .filter(|set| set.len() > 1)
            .map(|set| self.round(&next, &set))
            .collect()
    }

    /// The shortest round from the set's first file back to it, staying in the set.
    fn round(&self, next: &[Vec<usize>], set: &BTreeSet<usize>) -> Circle {
        let start = *set.first().expect("a set has files");
        let mut came_from: BTreeMap<usize, usize> = BTreeMap::new();
        let mut queue = VecDeque::from([start]);
        let mut last = start;
        'search: while let Some(at) = queue.pop_front() {
            for &to in &next[at] {
                if !set.contains(&to) {
                    continue;
                }
                if to == start {
                    last = at;
                    break 'search;
                }
                if let std::collections::btree_map::Entry::Vacant(e) = came_from.entry(to) {
                    e.insert(at);
                    queue.push_back(to);
                }
            }
        }
        let mut files = vec![last];
        while let Some(&before) = came_from.get(files.last().expect("not empty")) {
            files.push(before);
        }
        files.reverse();
        let steps = files
            .iter()
            .enumerate()
            .map(|(k, &from)| {
                let to = files.get(k + 1).copied().unwrap_or(start);
                let (line, written) = &self.edges[&(from, to)];
                self.import(from, to, *line, written)
            })
            .collect();
        Circle(steps)
    }
}

/// Tarjan's strongly connected components, each as a set of nodes, ordered by their first node.
fn strongly_connected(next: &[Vec<usize>]) -> Vec<BTreeSet<usize>> {
    struct Walk<'a> {
        next: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on_stack: Vec<bool>,
        stack: Vec<usize>,
        counter: usize,
        sets: Vec<BTreeSet<usize>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.counter);
            self.low[v] = self.counter;
            self.counter += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for &w in &self.next[v] {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(iw) if self.on_stack[w] => self.low[v] = self.low[v].min(iw),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut set = BTreeSet::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    set.insert(w);
                    if w == v {
                        break;
                    }
                }
                self.sets.push(set);
            }
        }
    }
    let n = next.len();
    let mut walk = Walk {
        next,
        index: vec![None; n],
        low: vec![0; n],
        on_stack: vec![false; n],
        stack: Vec::new(),
        counter: 0,
        sets: Vec::new(),
    };
    for v in 0..n {
        if walk.index[v].is_none() {
            walk.visit(v);
        }
    }
    walk.sets.sort_by_key(|s| s.first().copied());
    walk.sets
}

#[cfg(test)]
mod tests;
