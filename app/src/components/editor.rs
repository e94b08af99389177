//! The scenario editor: a textarea over a highlighted copy of its text, line numbers, and the
//! errors (the YAML parser's, the apiserver's refusals of the applied objects) marked at their
//! line. Tab inserts two spaces (Esc then Tab leaves the editor); Ctrl/Cmd+Enter applies.

use super::controls::apply;
use crate::state::highlight;
use crate::state::playground::Playground;
use crate::state::scenario::ScenarioState;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Above this size the editor shows plain text (highlighting every keystroke would lag): the
/// textarea's own text, with nothing in the mirror. A mirror of a quarter of a megabyte of
/// plain text cost the page about 100 ms of layout whenever the browser laid it out again.
pub const HIGHLIGHT_LIMIT: usize = 200_000;

/// How many lines of a text too big to highlight are shown until someone edits it. The whole
/// of such a text in the page (the limits scenario's 67,500 lines, as a textarea and as line
/// numbers) is some 200,000 layout objects that each redraw of the views beside it laid out
/// and pre-painted again: 20 to 40 ms a frame while a run plays. Clicked or focused, the
/// textarea with the whole text takes the preview's place.
pub const PREVIEW_LINES: usize = 200;

/// The first [`PREVIEW_LINES`] lines of `text` and how many lines follow them.
pub fn preview(text: &str) -> (&str, usize) {
    match text.match_indices('\n').nth(PREVIEW_LINES - 1) {
        Some((end, _)) => (&text[..end], text[end + 1..].split('\n').count()),
        None => (text, 0),
    }
}

/// The errors to mark: `(line, column, message)`, 1-based lines.
pub fn marks(scenario: &ScenarioState, pg: Option<&Playground>) -> Vec<(usize, usize, String)> {
    if let Some(e) = scenario.parsed.with(|p| p.as_ref().err().cloned()) {
        return vec![(e.line.max(1), e.column, e.message.clone())];
    }
    // The apiserver's refusals, when the editor still holds what was applied.
    if scenario.text.with(|t| *t != scenario.applied.get()) {
        return Vec::new();
    }
    pg.and_then(|pg| pg.with(crate::state::derive::apply_errors))
        .unwrap_or_default()
}

/// The gutter's parts, `(class, title, text)`: a number per line, the lines with an error
/// marked (`ln err`, the message as title). `compact` (tens of thousands of lines) puts the
/// numbers between two marked lines in one text (`lns`), not an element each: laying those out
/// again cost every full layout of the page.
pub fn gutter_parts(
    lines: usize,
    errs: &[(usize, usize, String)],
    compact: bool,
) -> Vec<(&'static str, String, String)> {
    let mark = |n: usize| errs.iter().find(|e| e.0 == n).map(|e| e.2.clone());
    if !compact {
        return (1..=lines)
            .map(|n| match mark(n) {
                Some(m) => ("ln err", m, n.to_string()),
                None => ("ln", String::new(), n.to_string()),
            })
            .collect();
    }
    let mut parts = Vec::new();
    let mut run: Vec<String> = Vec::new();
    for n in 1..=lines {
        match mark(n) {
            Some(m) => {
                if !run.is_empty() {
                    parts.push(("lns", String::new(), run.join("\n")));
                    run.clear();
                }
                parts.push(("ln err", m, n.to_string()));
            }
            None => run.push(n.to_string()),
        }
    }
    if !run.is_empty() {
        parts.push(("lns", String::new(), run.join("\n")));
    }
    parts
}

fn insert_text(area: &web_sys::HtmlTextAreaElement, text: &str) {
    // execCommand keeps the browser's undo history; setRangeText is the fallback.
    let done = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.dyn_into::<web_sys::HtmlDocument>().ok())
        .and_then(|d| {
            d.exec_command_with_show_ui_and_value("insertText", false, text)
                .ok()
        })
        .unwrap_or(false);
    if !done {
        let _ = area.set_range_text(text);
        if let Ok(Some(end)) = area.selection_end() {
            let _ = area.set_selection_range(end + text.len() as u32, end + text.len() as u32);
        }
    }
}

#[component]
pub fn Editor() -> impl IntoView {
    let scenario = expect_context::<ScenarioState>();
    let pg = use_context::<Playground>();
    let i18n = crate::state::i18n::i18n();
    let area = NodeRef::<leptos::html::Textarea>::new();
    let mirror = NodeRef::<leptos::html::Pre>::new();
    let gutter = NodeRef::<leptos::html::Div>::new();
    let escaped = StoredValue::new(false);
    let errors = Memo::new(move |_| marks(&scenario, pg.as_ref()));
    let too_big = Memo::new(move |_| scenario.text.with(|t| t.len() > HIGHLIGHT_LIMIT));
    let code = NodeRef::<leptos::html::Div>::new();
    // Whether the textarea is being edited; a big text shows its preview otherwise.
    let editing = RwSignal::new(false);
    let previewing = move || too_big.get() && !editing.get();
    let start_editing = move || {
        if !previewing() {
            return;
        }
        editing.set(true);
        if let (Some(c), Some(a)) = (code.get_untracked(), area.get_untracked()) {
            // Shown now, not at the next render, so the focus and the keys typed next go to it.
            let _ = c.class_list().remove_1("preview");
            let _ = a.focus();
        }
    };

    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let key = ev.key();
        if key == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            if let Some(pg) = pg {
                apply(scenario, pg);
            }
        } else if key == "Tab" && !ev.shift_key() && !escaped.get_value() {
            ev.prevent_default();
            if let Some(a) = area.get_untracked() {
                insert_text(&a, "  ");
                scenario.text.set(a.value());
            }
        }
        escaped.set_value(key == "Escape");
    };
    let on_scroll = move |_| {
        if let (Some(a), Some(m), Some(g)) = (
            area.get_untracked(),
            mirror.get_untracked(),
            gutter.get_untracked(),
        ) {
            m.set_scroll_top(a.scroll_top());
            m.set_scroll_left(a.scroll_left());
            g.set_scroll_top(a.scroll_top());
        }
    };
    let on_preview_scroll = move |_| {
        if let (Some(m), Some(g)) = (mirror.get_untracked(), gutter.get_untracked()) {
            g.set_scroll_top(m.scroll_top());
        }
    };
    let line_count = move || scenario.text.with(|t| t.split('\n').count());
    let gutter_view = move || {
        let errs = errors.get();
        let lines = match previewing() {
            true => line_count().min(PREVIEW_LINES),
            false => line_count(),
        };
        gutter_parts(lines, &errs, too_big.get())
            .into_iter()
            .map(|(class, title, text)| view! { <span class=class title=title>{text}</span> })
            .collect_view()
    };
    let highlighted = move || {
        let errs = errors.get();
        scenario.text.with(|t| {
            if previewing() {
                let (shown, more) = preview(t);
                let note = i18n.ta("editor-preview-more", &[("count", &more.to_string())]);
                return format!("{shown}\n{note}").into_any();
            }
            if too_big.get() {
                return ().into_any();
            }
            t.split('\n')
                .enumerate()
                .map(|(i, l)| {
                    let class = if errs.iter().any(|e| e.0 == i + 1) {
                        "line err-line"
                    } else {
                        "line"
                    };
                    let spans = highlight::line(l)
                        .into_iter()
                        .map(|(tok, text)| view! { <span class=tok.class()>{text}</span> })
                        .collect_view();
                    view! { <span class=class>{spans}"\n"</span> }
                })
                .collect_view()
                .into_any()
        })
    };
    let first_error = move || {
        errors.with(|e| {
            e.first().map(|(l, c, m)| match c {
                0 => i18n.ta(
                    "editor-error-line",
                    &[("line", &l.to_string()), ("message", m)],
                ),
                c => i18n.ta(
                    "editor-error-line-column",
                    &[
                        ("line", &l.to_string()),
                        ("column", &c.to_string()),
                        ("message", m),
                    ],
                ),
            })
        })
    };
    view! {
        <div class="editor-head">
            <label class="pane-title" for="scenario-editor">"scenario.yaml"</label>
            <span class="editor-hint">{move || i18n.t("editor-hint")}</span>
        </div>
        <div class="editor" data-testid="editor-frame"
            data-error-line=move || errors.with(|e| e.first().map(|e| e.0.to_string()))>
            <div class="gutter" aria-hidden="true" node_ref=gutter>{gutter_view}</div>
            <div class="code" class:plain=move || too_big.get() class:preview=previewing node_ref=code>
                <pre class="mirror" node_ref=mirror data-testid="editor-preview"
                    aria-hidden=move || (!previewing()).then_some("true")
                    tabindex=move || previewing().then_some("0")
                    on:mousedown=move |ev| {
                        if previewing() {
                            // The textarea takes the focus, not the preview.
                            ev.prevent_default();
                            start_editing();
                        }
                    }
                    on:focus=move |_| start_editing()
                    on:scroll=on_preview_scroll>{highlighted}</pre>
                <textarea
                    id="scenario-editor"
                    node_ref=area
                    data-testid="yaml-editor"
                    class="yaml-editor"
                    spellcheck="false"
                    wrap="off"
                    autocomplete="off"
                    autocapitalize="off"
                    aria-describedby="editor-error"
                    aria-invalid=move || errors.with(|e| (!e.is_empty()).to_string())
                    prop:value=move || scenario.text.get()
                    on:input=move |ev| scenario.text.set(event_target_value(&ev))
                    on:keydown=on_keydown
                    on:scroll=on_scroll
                    on:blur=move |_| editing.set(false)
                ></textarea>
            </div>
        </div>
        <p id="editor-error" class="editor-error" data-testid="editor-error" role="status">
            {first_error}
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::gutter_parts;

    #[test]
    fn a_compact_gutter_is_runs_of_numbers_around_the_marked_lines() {
        let errs = [(3, 1, "bad".to_string())];
        let parts = gutter_parts(5, &errs, true);
        assert_eq!(
            parts,
            [
                ("lns", String::new(), "1\n2".to_string()),
                ("ln err", "bad".to_string(), "3".to_string()),
                ("lns", String::new(), "4\n5".to_string()),
            ]
        );
        // Uncompacted, a number per line; the same marks.
        let parts = gutter_parts(5, &errs, false);
        assert_eq!(parts.len(), 5);
        assert_eq!(parts[2], ("ln err", "bad".to_string(), "3".to_string()));
        assert_eq!(parts[4], ("ln", String::new(), "5".to_string()));
        // A mark on the last line leaves no empty run after it.
        let last = gutter_parts(2, &[(2, 0, "x".to_string())], true);
        assert_eq!(last.len(), 2);
    }
}
