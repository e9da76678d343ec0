//! Rust source as the few tokens the import graph needs: words, `::`, punctuation and string
//! literals, each with its line. Comments, lifetimes, macro variables (`$crate`) and the insides of
//! char literals are gone, so a path written in a comment or a string never counts as an import.

/// One token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tok {
    /// An identifier, keyword or number (`r#name` is `name`).
    Word(String),
    /// `::`
    PathSep,
    /// Any other punctuation character.
    Punct(char),
    /// A string literal's text as written (escapes left as they are); raw and byte strings too.
    Str(String),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    /// 1-based.
    pub line: usize,
}

impl Token {
    pub fn is_word(&self, word: &str) -> bool {
        matches!(&self.tok, Tok::Word(w) if w == word)
    }

    pub fn is_punct(&self, c: char) -> bool {
        self.tok == Tok::Punct(c)
    }

    pub fn word(&self) -> Option<&str> {
        match &self.tok {
            Tok::Word(w) => Some(w),
            _ => None,
        }
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The tokens of `src`.
pub fn tokens(src: &str) -> Vec<Token> {
    let chars: Vec<char> = src.chars().collect();
    let at = |i: usize| chars.get(i).copied();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    // Moves past `n` characters, counting lines.
    let advance = |i: &mut usize, n: usize, line: &mut usize| {
        for _ in 0..n {
            if chars.get(*i) == Some(&'\n') {
                *line += 1;
            }
            *i += 1;
        }
    };
    while let Some(c) = at(i) {
        let start_line = line;
        if c.is_whitespace() {
            advance(&mut i, 1, &mut line);
        } else if c == '/' && at(i + 1) == Some('/') {
            while at(i).is_some_and(|c| c != '\n') {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == Some('*') {
            let mut depth = 0usize;
            while let Some(c) = at(i) {
                if c == '/' && at(i + 1) == Some('*') {
                    depth += 1;
                    advance(&mut i, 2, &mut line);
                } else if c == '*' && at(i + 1) == Some('/') {
                    advance(&mut i, 2, &mut line);
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                } else {
                    advance(&mut i, 1, &mut line);
                }
            }
        } else if c == '"' {
            let text = quoted(&chars, &mut i, &mut line);
            out.push(Token {
                tok: Tok::Str(text),
                line: start_line,
            });
        } else if c == '\'' {
            if at(i + 1) == Some('\\') {
                // An escaped char literal: to its closing quote.
                advance(&mut i, 2, &mut line);
                while at(i).is_some_and(|c| c != '\'') {
                    advance(&mut i, 1, &mut line);
                }
                advance(&mut i, 1, &mut line);
            } else if at(i + 2) == Some('\'') {
                advance(&mut i, 3, &mut line);
            } else {
                // A lifetime or a label: its name is no path.
                i += 1;
                while at(i).is_some_and(is_word_char) {
                    i += 1;
                }
            }
        } else if c == '$' {
            i += 1;
            while at(i).is_some_and(is_word_char) {
                i += 1;
            }
        } else if is_word_char(c) {
            let begin = i;
            while at(i).is_some_and(is_word_char) {
                i += 1;
            }
            let word: String = chars[begin..i].iter().collect();
            let next = at(i);
            let raw_prefix = matches!(word.as_str(), "r" | "br" | "cr");
            if raw_prefix && (next == Some('"') || (next == Some('#') && !raw_ident(&chars, i))) {
                let text = raw_string(&chars, &mut i, &mut line);
                out.push(Token {
                    tok: Tok::Str(text),
                    line: start_line,
                });
            } else if word == "r" && next == Some('#') {
                i += 1;
                let begin = i;
                while at(i).is_some_and(is_word_char) {
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Word(chars[begin..i].iter().collect()),
                    line: start_line,
                });
            } else if matches!(word.as_str(), "b" | "c") && next == Some('"') {
                let text = quoted(&chars, &mut i, &mut line);
                out.push(Token {
                    tok: Tok::Str(text),
                    line: start_line,
                });
            } else if word == "b" && next == Some('\'') {
                i += 1;
                if at(i) == Some('\\') {
                    i += 2;
                }
                while at(i).is_some_and(|c| c != '\'') {
                    i += 1;
                }
                i += 1;
            } else {
                out.push(Token {
                    tok: Tok::Word(word),
                    line: start_line,
                });
            }
        } else if c == ':' && at(i + 1) == Some(':') {
            i += 2;
            out.push(Token {
                tok: Tok::PathSep,
                line: start_line,
            });
        } else {
            i += 1;
            out.push(Token {
                tok: Tok::Punct(c),
                line: start_line,
            });
        }
    }
    out
}

/// `r#name` (a raw identifier), not `r#"…"#`: `#` then a word character.
fn raw_ident(chars: &[char], i: usize) -> bool {
    chars.get(i) == Some(&'#') && chars.get(i + 1).is_some_and(|c| is_word_char(*c))
}

/// A `"…"` literal from its opening quote at `i`; leaves `i` past the closing one.
fn quoted(chars: &[char], i: &mut usize, line: &mut usize) -> String {
    let mut text = String::new();
    *i += 1;
    while let Some(&c) = chars.get(*i) {
        *i += 1;
        match c {
            '"' => break,
            '\\' => {
                text.push(c);
                if let Some(&next) = chars.get(*i) {
                    text.push(next);
                    *i += 1;
                    if next == '\n' {
                        *line += 1;
                    }
                }
            }
            _ => {
                if c == '\n' {
                    *line += 1;
                }
                text.push(c);
            }
        }
    }
    text
}

/// A raw string from its `#`s or quote at `i` (past the `r`); leaves `i` past its end.
fn raw_string(chars: &[char], i: &mut usize, line: &mut usize) -> String {
    let mut hashes = 0;
    while chars.get(*i) == Some(&'#') {
        hashes += 1;
        *i += 1;
    }
    *i += 1; // the opening quote
    let mut text = String::new();
    while let Some(&c) = chars.get(*i) {
        if c == '"' && (1..=hashes).all(|k| chars.get(*i + k) == Some(&'#')) {
            *i += 1 + hashes;
            break;
        }
        if c == '\n' {
            *line += 1;
        }
        text.push(c);
        *i += 1;
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(src: &str) -> Vec<String> {
        tokens(src)
            .into_iter()
            .filter_map(|t| t.word().map(str::to_owned))
            .collect()
    }

    #[test]
    fn comments_strings_chars_and_lifetimes_hold_no_words() {
        let src = r####"
            // crate::alpha in a comment
            /* crate::beta /* nested crate::gamma */ still */
            let s = "crate::delta \" crate::epsilon";
            let r = r#"crate::zeta "quoted" "#;
            let b = b"crate::eta";
            let c = '"'; let q = '\''; let u = '\u{1F600}';
            fn f<'a>(x: &'a str) {}
            macro_rules! m { () => { $crate::theta } }
            real
        "####;
        let w = words(src);
        // `$crate` is the macro's variable, not this crate: no `crate` word is left at all.
        for gone in [
            "crate", "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "a",
        ] {
            assert!(!w.contains(&gone.to_owned()), "{gone} in {w:?}");
        }
        assert!(w.contains(&"real".to_owned()) && w.contains(&"theta".to_owned()));
    }

    #[test]
    fn lines_are_counted_through_comments_and_strings() {
        let toks = tokens("a\n/* x\n y */ \"p\nq\" b\n  c");
        let line_of = |w: &str| toks.iter().find(|t| t.is_word(w)).unwrap().line;
        assert_eq!((line_of("a"), line_of("b"), line_of("c")), (1, 4, 5));
    }

    #[test]
    fn path_separators_and_raw_identifiers() {
        let toks = tokens("super::r#type::X");
        assert_eq!(
            toks.iter().map(|t| t.tok.clone()).collect::<Vec<_>>(),
            [
                Tok::Word("super".into()),
                Tok::PathSep,
                Tok::Word("type".into()),
                Tok::PathSep,
                Tok::Word("X".into())
            ]
        );
    }
}
