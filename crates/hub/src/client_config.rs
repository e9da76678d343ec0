//! `apc-hub connect CLIENT --write`: merges one agent's entry into an MCP client's own config file,
//! keeping everything else in it as it was (other servers, settings, comments, formatting: JSON and
//! JSON with comments through `jsonc-parser`'s syntax tree, TOML through `toml_edit`).
//!
//! A file it cannot read as its format, whose table of servers is not a table, or that already has
//! an entry of that name which is not an apc-hub entry, is refused and left untouched: never
//! clobbered. Otherwise the old file is first copied beside itself
//! (`NAME.apc-hub-backup-YYYYMMDDTHHMMSSZ`), then the new text is written to a temporary file in
//! the same folder and renamed over the old one (atomic on every system), with the old file's
//! permissions (a new file is private to the user). A symlinked file is written where it points.

use std::path::{Path, PathBuf};

use jsonc_parser::cst::{CstInputValue, CstRootNode};
use jsonc_parser::ParseOptions;
use serde_json::Value;

use crate::clients::{Client, Format, Target};

/// What a merge did to the file.
#[derive(Debug, Clone, PartialEq)]
pub enum Merged {
    /// There was no file: it holds only the entry now.
    Created,
    /// The entry was added beside what was there.
    Added,
    /// An older apc-hub entry of that name was replaced (it was this).
    Replaced(Value),
    /// The entry was already there as it should be: nothing written.
    Unchanged,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{path} is not valid {format} ({detail}). It was left as it is: fix it, or add the entry by hand (apc-hub connect prints it).")]
    Unparsable {
        path: String,
        format: &'static str,
        detail: String,
    },
    #[error("in {path}, `{key}` is not a table of servers. It was left as it is: fix it, or add the entry by hand.")]
    NotATable { path: String, key: String },
    #[error("{path} already has a server named {name:?} that is not an apc-hub entry ({found}). It was left as it is: remove or rename that entry, or connect another agent.")]
    NameTaken {
        path: String,
        name: String,
        found: String,
    },
    #[error("could not write {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

/// The outcome of `--write`: where, what, and the backup made first.
#[derive(Debug)]
pub struct Written {
    pub path: PathBuf,
    pub merged: Merged,
    pub backup: Option<PathBuf>,
}

fn jsonc_options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// A client's JSON (with comments and trailing commas) as a value, if it reads.
pub fn parse_jsonc(text: &str) -> Option<Value> {
    CstRootNode::parse(text, &jsonc_options())
        .ok()?
        .to_serde_value()
}

/// A JSON value as the syntax tree's input.
fn cst_value(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(cst_value).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), cst_value(v))).collect())
        }
    }
}

/// Whether an entry found in a client's file is one apc-hub wrote (a loopback MCP URL of a hub,
/// or a command that runs `apc-hub`), so that it may be replaced.
pub fn is_hub_entry(entry: &Value) -> bool {
    for key in ["url", "serverUrl", "httpUrl"] {
        if let Some(url) = entry.get(key).and_then(Value::as_str) {
            return hub_mcp_url(url).is_some();
        }
    }
    entry
        .get("command")
        .and_then(Value::as_str)
        .and_then(|c| {
            Path::new(c)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .is_some_and(|stem| stem == "apc-hub")
}

/// The origin and secret of a hub's MCP URL on this computer
/// (`http://127.0.0.1|localhost|[::1]:PORT/mcp/SECRET`).
pub fn hub_mcp_url(url: &str) -> Option<(String, String)> {
    let parsed = apc_core::url_parse::new_url(url)?;
    let host = parsed.host_str()?;
    if parsed.scheme() != "http" || !matches!(host, "127.0.0.1" | "localhost" | "[::1]") {
        return None;
    }
    let secret = parsed
        .path()
        .strip_prefix(apc_core::APC_DEFAULT_MCP_PATH)?
        .to_owned();
    if secret.is_empty() || secret.contains('/') {
        return None;
    }
    let origin = format!("http://{host}:{}", parsed.port_or_known_default()?);
    Some((origin, secret))
}

/// `existing` (the file's text, `None` for no file) with `target`'s entry merged in, and what that
/// did. `path` names the file in errors.
pub fn merge(
    client: Client,
    existing: Option<&str>,
    target: &Target,
    path: &str,
) -> Result<(String, Merged), ConfigError> {
    let Some(text) = existing.filter(|t| !t.trim().is_empty()) else {
        return Ok((client.snippet(target), Merged::Created));
    };
    match client.format() {
        Format::Toml => merge_toml(client, text, target, path),
        Format::Json | Format::Jsonc => merge_json(client, text, target, path),
    }
}

fn decide(
    found: Option<Value>,
    wanted: &Value,
    name: &str,
    path: &str,
) -> Result<Option<Merged>, ConfigError> {
    match found {
        None => Ok(Some(Merged::Added)),
        Some(found) if &found == wanted => Ok(None),
        Some(found) if is_hub_entry(&found) => Ok(Some(Merged::Replaced(found))),
        Some(found) => Err(ConfigError::NameTaken {
            path: path.to_owned(),
            name: name.to_owned(),
            found: found.to_string(),
        }),
    }
}

fn merge_json(
    client: Client,
    text: &str,
    target: &Target,
    path: &str,
) -> Result<(String, Merged), ConfigError> {
    let format = if client.format() == Format::Jsonc {
        "JSON with comments"
    } else {
        "JSON"
    };
    let unparsable = |detail: String| ConfigError::Unparsable {
        path: path.to_owned(),
        format,
        detail,
    };
    let root = CstRootNode::parse(text, &jsonc_options()).map_err(|e| unparsable(e.to_string()))?;
    let obj = match root.value() {
        Some(value) => value
            .as_object()
            .ok_or_else(|| unparsable("the file is not an object".into()))?,
        None => root.object_value_or_set(),
    };
    let key = client.servers_key();
    let servers = match obj.get(key) {
        None => obj.object_value_or_set(key),
        Some(prop) => prop.object_value().ok_or_else(|| ConfigError::NotATable {
            path: path.to_owned(),
            key: key.to_owned(),
        })?,
    };
    let wanted = client.entry(target);
    let existing = servers.get(&target.entry_name);
    let found = existing.as_ref().and_then(|p| p.to_serde_value());
    let Some(merged) = decide(found, &wanted, &target.entry_name, path)? else {
        return Ok((text.to_owned(), Merged::Unchanged));
    };
    match existing {
        Some(prop) => prop.set_value(cst_value(&wanted)),
        None => {
            servers.append(&target.entry_name, cst_value(&wanted));
        }
    }
    let out = root.to_string();
    // What was written must read back, as the client will read it, with the entry in it.
    let check = CstRootNode::parse(&out, &jsonc_options())
        .ok()
        .and_then(|r| r.to_serde_value());
    match check {
        Some(v) if v[key][&target.entry_name] == wanted => Ok((out, merged)),
        _ => Err(unparsable("the merged file did not read back".into())),
    }
}

fn merge_toml(
    client: Client,
    text: &str,
    target: &Target,
    path: &str,
) -> Result<(String, Merged), ConfigError> {
    let mut doc: toml_edit::DocumentMut =
        text.parse()
            .map_err(|e: toml_edit::TomlError| ConfigError::Unparsable {
                path: path.to_owned(),
                format: "TOML",
                detail: e.message().to_owned(),
            })?;
    let key = client.servers_key();
    let not_a_table = || ConfigError::NotATable {
        path: path.to_owned(),
        key: key.to_owned(),
    };
    if !doc.contains_key(key) {
        let mut table = toml_edit::Table::new();
        table.set_implicit(true);
        doc.insert(key, toml_edit::Item::Table(table));
    }
    let servers = doc[key].as_table_like_mut().ok_or_else(not_a_table)?;
    let wanted = client.entry(target);
    let found = servers.get(&target.entry_name).map(toml_to_json);
    let Some(merged) = decide(found, &wanted, &target.entry_name, path)? else {
        return Ok((text.to_owned(), Merged::Unchanged));
    };
    servers.insert(
        &target.entry_name,
        toml_edit::Item::Table(crate::clients::toml_table(&wanted)),
    );
    Ok((doc.to_string(), merged))
}

/// A TOML item as JSON (strings, numbers, booleans, arrays and tables), to compare entries.
fn toml_to_json(item: &toml_edit::Item) -> Value {
    use toml_edit::Item;
    match item {
        Item::Value(v) => toml_value_to_json(v),
        Item::Table(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_owned(), toml_to_json(v)))
                .collect(),
        ),
        Item::ArrayOfTables(a) => Value::Array(
            a.iter()
                .map(|t| toml_to_json(&Item::Table(t.clone())))
                .collect(),
        ),
        Item::None => Value::Null,
    }
}

fn toml_value_to_json(v: &toml_edit::Value) -> Value {
    use toml_edit::Value as V;
    match v {
        V::String(s) => Value::String(s.value().clone()),
        V::Integer(i) => Value::from(*i.value()),
        V::Float(f) => serde_json::Number::from_f64(*f.value())
            .map(Value::Number)
            .unwrap_or(Value::Null),
        V::Boolean(b) => Value::Bool(*b.value()),
        V::Datetime(d) => Value::String(d.value().to_string()),
        V::Array(a) => Value::Array(a.iter().map(toml_value_to_json).collect()),
        V::InlineTable(t) => Value::Object(
            t.iter()
                .map(|(k, v)| (k.to_owned(), toml_value_to_json(v)))
                .collect(),
        ),
    }
}

/// Merges `target`'s entry into `client`'s file at `path` (a backup first, then an atomic write;
/// nothing written when the entry is already there). `stamp` names the backup.
pub fn write(
    client: Client,
    path: &Path,
    target: &Target,
    stamp: &str,
) -> Result<Written, ConfigError> {
    let shown = path.display().to_string();
    let io = |source| ConfigError::Io {
        path: shown.clone(),
        source,
    };
    // A symlinked config (a dotfiles folder) is written where it points, not replaced by a file.
    let path = match std::fs::canonicalize(path) {
        Ok(real) => real,
        Err(_) => path.to_owned(),
    };
    let existing = match std::fs::read(&path) {
        Ok(bytes) => Some(
            String::from_utf8(bytes).map_err(|_| ConfigError::Unparsable {
                path: shown.clone(),
                format: "UTF-8 text",
                detail: "it is not text".into(),
            })?,
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(e)),
    };
    let (text, merged) = merge(client, existing.as_deref(), target, &shown)?;
    if merged == Merged::Unchanged {
        return Ok(Written {
            path,
            merged,
            backup: None,
        });
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(io)?;
    let file_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let backup = match &existing {
        Some(_) => {
            let backup = dir.join(format!("{file_name}.apc-hub-backup-{stamp}"));
            std::fs::copy(&path, &backup).map_err(io)?;
            Some(backup)
        }
        None => None,
    };
    let tmp = dir.join(format!(".{file_name}.apc-hub-tmp"));
    write_private(&tmp, text.as_bytes(), existing.is_some().then_some(&path)).map_err(io)?;
    if let Err(e) = std::fs::rename(&tmp, &path) {
        let _ = std::fs::remove_file(&tmp);
        return Err(io(e));
    }
    Ok(Written {
        path,
        merged,
        backup,
    })
}

/// Writes `bytes` to a new file at `tmp`, synced, with the permissions of `like` (else private to
/// the user).
fn write_private(tmp: &Path, bytes: &[u8], like: Option<&PathBuf>) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(tmp)?;
    file.write_all(bytes)?;
    if let Some(like) = like {
        let permissions = std::fs::metadata(like)?.permissions();
        file.set_permissions(permissions)?;
    }
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const URL: &str = "http://127.0.0.1:7410/mcp/newSecret";

    fn target() -> Target {
        Target::new("default", URL, Path::new("/opt/apc-hub/apc-hub"))
    }

    #[test]
    fn a_jsonc_file_keeps_its_comments_servers_and_settings() {
        let text = r#"{
  // My servers.
  "servers": {
    "github": { "type": "http", "url": "https://api.example.com/mcp/" }, // keep me
  },
  "inputs": [],
}
"#;
        let (out, merged) = merge(Client::VsCode, Some(text), &target(), "mcp.json").unwrap();
        assert_eq!(merged, Merged::Added);
        assert!(out.contains("// My servers."), "{out}");
        assert!(out.contains("// keep me"), "{out}");
        let v = CstRootNode::parse(&out, &jsonc_options())
            .unwrap()
            .to_serde_value()
            .unwrap();
        assert_eq!(
            v["servers"]["github"]["url"],
            "https://api.example.com/mcp/"
        );
        assert_eq!(
            v["servers"]["apc-default"],
            json!({ "type": "http", "url": URL })
        );
        assert_eq!(v["inputs"], json!([]));
        // Again: already there, nothing changes.
        let (again, merged) = merge(Client::VsCode, Some(&out), &target(), "mcp.json").unwrap();
        assert_eq!((again.as_str(), merged), (out.as_str(), Merged::Unchanged));
    }

    #[test]
    fn an_old_hub_url_is_replaced_and_a_foreign_entry_of_the_name_is_refused() {
        let old = r#"{"mcpServers":{"apc-default":{"url":"http://127.0.0.1:7411/mcp/oldSecret"},"x":{"command":"npx"}},"theme":"dark"}"#;
        let (out, merged) = merge(Client::Cursor, Some(old), &target(), "mcp.json").unwrap();
        assert_eq!(
            merged,
            Merged::Replaced(json!({ "url": "http://127.0.0.1:7411/mcp/oldSecret" }))
        );
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["mcpServers"]["apc-default"]["url"], URL);
        assert_eq!(v["mcpServers"]["x"]["command"], "npx");
        assert_eq!(v["theme"], "dark");
        let foreign = r#"{"mcpServers":{"apc-default":{"url":"https://example.com/mcp"}}}"#;
        let refused = merge(Client::Cursor, Some(foreign), &target(), "mcp.json").unwrap_err();
        assert!(
            matches!(refused, ConfigError::NameTaken { .. }),
            "{refused}"
        );
    }

    #[test]
    fn unreadable_files_and_odd_shapes_are_refused() {
        for text in [
            "{ \"mcpServers\": ",
            "[1, 2]",
            "{\"mcpServers\": 3}",
            "{'a': 1}",
        ] {
            let err = merge(Client::Cursor, Some(text), &target(), "f.json").unwrap_err();
            assert!(
                matches!(
                    err,
                    ConfigError::Unparsable { .. } | ConfigError::NotATable { .. }
                ),
                "{text}: {err}"
            );
        }
        let err = merge(
            Client::Codex,
            Some("[mcp_servers\nurl ="),
            &target(),
            "c.toml",
        )
        .unwrap_err();
        assert!(matches!(err, ConfigError::Unparsable { .. }), "{err}");
        let err = merge(
            Client::Codex,
            Some("mcp_servers = 3\n"),
            &target(),
            "c.toml",
        )
        .unwrap_err();
        assert!(matches!(err, ConfigError::NotATable { .. }), "{err}");
    }

    #[test]
    fn a_codex_config_keeps_its_tables_and_comments() {
        let text = "# Codex settings\nmodel = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\" # local\n";
        let (out, merged) = merge(Client::Codex, Some(text), &target(), "config.toml").unwrap();
        assert_eq!(merged, Merged::Added);
        assert!(out.starts_with("# Codex settings\nmodel = \"o3\""), "{out}");
        assert!(out.contains("command = \"docs-mcp\" # local"), "{out}");
        let doc: toml_edit::DocumentMut = out.parse().unwrap();
        assert_eq!(doc["mcp_servers"]["apc-default"]["url"].as_str(), Some(URL));
        assert_eq!(
            doc["mcp_servers"]["docs"]["command"].as_str(),
            Some("docs-mcp")
        );
    }

    #[test]
    fn hub_urls_are_known_by_their_loopback_origin_and_secret() {
        assert_eq!(
            hub_mcp_url("http://127.0.0.1:7410/mcp/abc"),
            Some(("http://127.0.0.1:7410".into(), "abc".into()))
        );
        assert_eq!(hub_mcp_url("https://127.0.0.1:7410/mcp/abc"), None);
        assert_eq!(hub_mcp_url("http://example.com:7410/mcp/abc"), None);
        assert_eq!(hub_mcp_url("http://127.0.0.1:7410/other/abc"), None);
        assert!(is_hub_entry(
            &json!({ "command": "/x/apc-hub.exe", "args": [] })
        ));
        assert!(!is_hub_entry(&json!({ "command": "npx" })));
    }

    #[test]
    fn write_makes_a_backup_and_keeps_the_files_mode() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        std::fs::write(&path, "{\"theme\": \"dark\"}\n").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        }
        let written = write(Client::Gemini, &path, &target(), "20260101T000000Z").unwrap();
        assert_eq!(written.merged, Merged::Added);
        let backup = written.backup.unwrap();
        assert_eq!(
            std::fs::read_to_string(&backup).unwrap(),
            "{\"theme\": \"dark\"}\n"
        );
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(v["theme"], "dark");
        assert_eq!(v["mcpServers"]["apc-default"]["httpUrl"], URL);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o640);
        }
        let again = write(Client::Gemini, &path, &target(), "20260101T000001Z").unwrap();
        assert_eq!((again.merged, again.backup), (Merged::Unchanged, None));
        // A file it cannot parse stays byte for byte, and no backup is made.
        let broken = dir.path().join("mcp.json");
        std::fs::write(&broken, "{ nope").unwrap();
        assert!(write(Client::Cursor, &broken, &target(), "x").is_err());
        assert_eq!(std::fs::read_to_string(&broken).unwrap(), "{ nope");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 3, "{names:?}");
    }
}
