//! The gallery of built-in scenarios: `public/scenarios/index.json`, copied into the site as
//! `scenarios/index.json`.

use kubeplay_core::api::value::Value;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GalleryEntry {
    pub id: String,
    pub file: String,
    pub title: String,
    pub summary: String,
}

/// Where the site keeps the scenarios, relative to the page.
pub const GALLERY_DIR: &str = "scenarios/";

/// The entries of an index file (`{"scenarios": [{id, file, title, summary}, ...]}`).
pub fn parse_index(text: &str) -> Result<Vec<GalleryEntry>, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let list = v["scenarios"]
        .as_array()
        .ok_or_else(|| "index.json has no \"scenarios\" list".to_string())?;
    Ok(list
        .iter()
        .filter_map(|s| {
            let file = s["file"].as_str()?.to_string();
            // Only plain file names: the gallery reads its own directory.
            if file.contains('/') || file.contains("..") {
                return None;
            }
            let id = s["id"]
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| file.trim_end_matches(".yaml").to_string());
            Some(GalleryEntry {
                title: s["title"].as_str().unwrap_or(&id).to_string(),
                summary: s["summary"].as_str().unwrap_or("").to_string(),
                id,
                file,
            })
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_index_lists_the_default_first_and_every_file_exists() {
        let text = include_str!("../../../public/scenarios/index.json");
        let entries = parse_index(text).unwrap();
        assert_eq!(entries[0].id, "default");
        assert!(entries.len() >= 10, "{}", entries.len());
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../public/scenarios/");
        for e in &entries {
            let text = std::fs::read_to_string(format!("{dir}{}", e.file))
                .unwrap_or_else(|err| panic!("{}: {err}", e.file));
            crate::state::scenario::parse(&text)
                .unwrap_or_else(|err| panic!("{} does not parse: {err:?}", e.file));
            assert!(!e.title.is_empty() && !e.summary.is_empty(), "{}", e.id);
        }
    }

    #[test]
    fn odd_entries_are_skipped() {
        let e = parse_index(r#"{"scenarios":[{"file":"../x.yaml"},{"file":"a.yaml"}]}"#).unwrap();
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].id, "a");
        assert!(parse_index("{}").is_err());
    }
}
