//! The scenario editor: a textarea over a highlighted copy of its text, line numbers, and the
//! errors (the YAML parser's, the apiserver's refusals of the applied objects) marked at their
//! line. Tab inserts two spaces (Esc then Tab leaves the editor); Ctrl/Cmd+Enter applies.

use super::controls::apply;
use crate::state::highlight;
use crate::state::playground::Playground;
use crate::state::scenario::ScenarioState;
use crate::state::text_window;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Above this size the editor shows plain text (highlighting every keystroke would lag): the
/// textarea's own text, with nothing in the mirror. A mirror of a quarter of a megabyte of
/// plain text cost the page about 100 ms of layout whenever the browser laid it out again.
pub const HIGHLIGHT_LIMIT: usize = 200_000;

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

/// The gutter's parts, `(class, title, text)` for lines `first..=last` (1-based): a number per
/// line, the lines with an error marked (`ln err`, the message as title). `compact` (a big
/// text's window) puts the numbers between two marked lines in one text (`lns`), not an element
/// each.
pub fn gutter_parts(
    first: usize,
    last: usize,
    errs: &[(usize, usize, String)],
    compact: bool,
) -> Vec<(&'static str, String, String)> {
    let mark = |n: usize| errs.iter().find(|e| e.0 == n).map(|e| e.2.clone());
    if !compact {
        return (first..=last)
            .map(|n| match mark(n) {
                Some(m) => ("ln err", m, n.to_string()),
                None => ("ln", String::new(), n.to_string()),
            })
            .collect();
    }
    let mut parts = Vec::new();
    let mut run: Vec<String> = Vec::new();
    for n in first..=last {
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

/// Whether the big-text view stands in for the textarea: a text too big to highlight, while
/// nobody edits it (see [`crate::state::text_window`]).
fn windowed(too_big: bool, editing: bool) -> bool {
    too_big && !editing
}

#[component]
pub fn Editor() -> impl IntoView {
    let scenario = expect_context::<ScenarioState>();
    let pg = use_context::<Playground>();
    let i18n = crate::state::i18n::i18n();
    let area = NodeRef::<leptos::html::Textarea>::new();
    let mirror = NodeRef::<leptos::html::Pre>::new();
    let gutter = NodeRef::<leptos::html::Div>::new();
    let view = NodeRef::<leptos::html::Div>::new();
    let window_pre = NodeRef::<leptos::html::Pre>::new();
    let escaped = StoredValue::new(false);
    let errors = Memo::new(move |_| marks(&scenario, pg.as_ref()));
    let too_big = Memo::new(move |_| scenario.text.with(|t| t.len() > HIGHLIGHT_LIMIT));
    // A big text is shown a window of lines at a time until it is focused to be edited.
    let editing = RwSignal::new(false);
    // The scroll offset and height of whichever shows the text: the window follows them.
    let scroll = RwSignal::new((0.0_f64, 0.0_f64));
    let starts = Memo::new(move |_| {
        if too_big.get() {
            scenario.text.with(|t| text_window::line_starts(t))
        } else {
            Vec::new()
        }
    });
    let window = Memo::new(move |_| {
        let (top, height) = scroll.get();
        starts.with(|s| text_window::visible_lines(top, height, s.len()))
    });
    // Where a click in the window put the caret, for the textarea that takes over.
    let clicked = StoredValue::new(None::<u32>);

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
    let sync_gutter = move |top: i32| {
        if let Some(g) = gutter.get_untracked() {
            g.set_scroll_top(top);
        }
    };
    let on_scroll = move |_| {
        if let (Some(a), Some(m)) = (area.get_untracked(), mirror.get_untracked()) {
            m.set_scroll_top(a.scroll_top());
            m.set_scroll_left(a.scroll_left());
            sync_gutter(a.scroll_top());
            if too_big.get_untracked() {
                scroll.set((a.scroll_top() as f64, a.client_height() as f64));
            }
        }
    };
    let on_view_scroll = move |_| {
        if let Some(v) = view.get_untracked() {
            sync_gutter(v.scroll_top());
            scroll.set((v.scroll_top() as f64, v.client_height() as f64));
        }
    };
    // A press in the window: the caret goes where it was (the line exactly, the column as near
    // as the window's character width tells).
    let on_view_mousedown = move |ev: leptos::ev::MouseEvent| {
        let (Some(v), Some(pre)) = (view.get_untracked(), window_pre.get_untracked()) else {
            return;
        };
        let rect = v.get_bounding_client_rect();
        let y = ev.client_y() as f64 - rect.top() + v.scroll_top() as f64;
        let line = ((y - text_window::PAD_PX) / text_window::LINE_PX).max(0.0) as usize;
        let shown = window.get_untracked();
        let widest = scenario.text.with_untracked(|t| {
            starts.with_untracked(|s| {
                text_window::lines_text(t, s, shown.clone())
                    .split('\n')
                    .map(|l| l.chars().count())
                    .max()
                    .unwrap_or(0)
            })
        });
        let char_px = match widest {
            0 => 7.8,
            n => (pre.scroll_width() as f64 - 2.0 * PAD_X_PX) / n as f64,
        };
        let x = ev.client_x() as f64 - rect.left() + v.scroll_left() as f64 - PAD_X_PX;
        let column = (x / char_px.max(1.0)).round().max(0.0) as usize;
        let offset = scenario.text.with_untracked(|t| {
            starts.with_untracked(|s| text_window::caret_offset(t, s, line, column))
        });
        clicked.set_value(Some(offset));
    };
    // Focused (by a click or by Tab), the window hands over to the textarea, at its scroll.
    let on_view_focus = move |_| {
        let (Some(v), Some(a)) = (view.get_untracked(), area.get_untracked()) else {
            return;
        };
        editing.set(true);
        // Shown now, not at the next render, so the focus and the keys typed next go to it.
        let _ = a.class_list().remove_1("hidden");
        // The caret where the click was, or (focused by Tab) on the first line in view; either
        // way the textarea stays scrolled where the window was.
        let at = clicked.get_value().unwrap_or_else(|| {
            let line = ((v.scroll_top() as f64 - text_window::PAD_PX) / text_window::LINE_PX)
                .ceil()
                .max(0.0) as usize;
            scenario.text.with_untracked(|t| {
                starts.with_untracked(|s| text_window::caret_offset(t, s, line, 0))
            })
        });
        clicked.set_value(None);
        let _ = a.focus();
        let _ = a.set_selection_range(at, at);
        a.set_scroll_top(v.scroll_top());
        a.set_scroll_left(v.scroll_left());
    };
    let on_blur = move |_| {
        if !too_big.get_untracked() {
            return;
        }
        editing.set(false);
        if let (Some(v), Some(a)) = (view.get_untracked(), area.get_untracked()) {
            let _ = v.class_list().remove_1("hidden");
            v.set_scroll_top(a.scroll_top());
            v.set_scroll_left(a.scroll_left());
            scroll.set((v.scroll_top() as f64, v.client_height() as f64));
        }
    };
    let line_count = move || scenario.text.with(|t| t.split('\n').count());
    let gutter_view = move || {
        let errs = errors.get();
        if !too_big.get() {
            return gutter_parts(1, line_count(), &errs, false)
                .into_iter()
                .map(|(class, title, text)| view! { <span class=class title=title>{text}</span> })
                .collect_view()
                .into_any();
        }
        // A big text's numbers: the window's, where its lines are.
        let lines = starts.with(Vec::len);
        let shown = window.get();
        let parts = match shown.is_empty() {
            true => Vec::new(),
            false => gutter_parts(shown.start + 1, shown.end, &errs, true),
        };
        view! {
            <div class="sizer" style:height=format!("{}px", lines as f64 * text_window::LINE_PX)
                style:width=format!("{}ch", lines.to_string().len())>
                <div class="window" style:top=format!("{}px", shown.start as f64 * text_window::LINE_PX)>
                    {parts
                        .into_iter()
                        .map(|(class, title, text)| view! { <span class=class title=title>{text}</span> })
                        .collect_view()}
                </div>
            </div>
        }
        .into_any()
    };
    let window_text = move || {
        let shown = window.get();
        scenario
            .text
            .with(|t| starts.with(|s| text_window::lines_text(t, s, shown).to_string()))
    };
    let highlighted = move || {
        let errs = errors.get();
        scenario.text.with(|t| {
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
            <div class="gutter" class:windowed=move || too_big.get() aria-hidden="true" node_ref=gutter>{gutter_view}</div>
            <div class="code" class:plain=move || too_big.get()>
                <pre class="mirror" aria-hidden="true" node_ref=mirror>{highlighted}</pre>
                <div class="big-view" data-testid="big-text" node_ref=view tabindex="0"
                    aria-label=move || i18n.t("controls-scenario")
                    class:hidden=move || !windowed(too_big.get(), editing.get())
                    on:scroll=on_view_scroll
                    on:mousedown=on_view_mousedown
                    on:focus=on_view_focus>
                    <div class="sizer" style:height=move || format!("{}px", text_window::content_height(starts.with(Vec::len)))>
                        <pre class="window" node_ref=window_pre
                            style:top=move || format!("{}px", text_window::PAD_PX + window.get().start as f64 * text_window::LINE_PX)>
                            {window_text}
                        </pre>
                    </div>
                </div>
                <textarea
                    id="scenario-editor"
                    node_ref=area
                    data-testid="yaml-editor"
                    class="yaml-editor"
                    class:hidden=move || windowed(too_big.get(), editing.get())
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
                    on:blur=on_blur
                ></textarea>
            </div>
        </div>
        <p id="editor-error" class="editor-error" data-testid="editor-error" role="status">
            {first_error}
        </p>
    }
}

/// The horizontal padding of the editor's text (the stylesheet's).
const PAD_X_PX: f64 = 10.0;

#[cfg(test)]
mod tests {
    use super::gutter_parts;

    #[test]
    fn a_compact_gutter_is_runs_of_numbers_around_the_marked_lines() {
        let errs = [(3, 1, "bad".to_string())];
        let parts = gutter_parts(1, 5, &errs, true);
        assert_eq!(
            parts,
            [
                ("lns", String::new(), "1\n2".to_string()),
                ("ln err", "bad".to_string(), "3".to_string()),
                ("lns", String::new(), "4\n5".to_string()),
            ]
        );
        // Uncompacted, a number per line; the same marks.
        let parts = gutter_parts(1, 5, &errs, false);
        assert_eq!(parts.len(), 5);
        assert_eq!(parts[2], ("ln err", "bad".to_string(), "3".to_string()));
        assert_eq!(parts[4], ("ln", String::new(), "5".to_string()));
        // A mark on the last line leaves no empty run after it.
        let last = gutter_parts(1, 2, &[(2, 0, "x".to_string())], true);
        // A window of a big text's lines numbers those lines only.
        let parts = gutter_parts(3, 5, &errs, true);
        assert_eq!(
            parts,
            [
                ("ln err", "bad".to_string(), "3".to_string()),
                ("lns", String::new(), "4\n5".to_string()),
            ]
        );
        assert_eq!(last.len(), 2);
    }
}
