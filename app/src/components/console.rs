//! The kubectl and etcdctl consoles: commands typed against the cluster at the position shown,
//! printed exactly as the command-line tools print them; Arrow Up/Down walk the history.

use crate::state::player::Tool;
use crate::state::playground::Playground;
use leptos::prelude::*;

/// Where Arrow Up/Down lead in a history of `len` commands from `at` (`len` = the new line).
pub fn history_step(len: usize, at: usize, up: bool) -> usize {
    if up {
        at.saturating_sub(1)
    } else {
        (at + 1).min(len)
    }
}

#[component]
fn Terminal(tool: Tool) -> impl IntoView {
    let pg = expect_context::<Playground>();
    let i18n = crate::state::i18n::i18n();
    let (name, testid) = match tool {
        Tool::Kubectl => ("kubectl", "kubectl"),
        Tool::Etcdctl => ("etcdctl", "etcdctl"),
    };
    let line = RwSignal::new(String::new());
    let at = RwSignal::new(usize::MAX);
    let history = move || {
        pg.console.with(|c| {
            c.iter()
                .filter(|e| e.tool == tool)
                .map(|e| {
                    e.command
                        .strip_prefix(name)
                        .unwrap_or(&e.command)
                        .trim()
                        .to_string()
                })
                .collect::<Vec<_>>()
        })
    };
    let run = move || {
        let cmd = line.get_untracked();
        if cmd.trim().is_empty() {
            return;
        }
        pg.command(tool, &cmd);
        line.set(String::new());
        at.set(usize::MAX);
    };
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| match ev.key().as_str() {
        "Enter" => {
            ev.prevent_default();
            run();
        }
        k @ ("ArrowUp" | "ArrowDown") => {
            ev.prevent_default();
            let h = history();
            let cur = at.get_untracked().min(h.len());
            let next = history_step(h.len(), cur, k == "ArrowUp");
            at.set(next);
            line.set(h.get(next).cloned().unwrap_or_default());
        }
        _ => {}
    };
    // What the log shows, as a memo: playback bumps the version every frame, and the log must
    // follow only when an entry appears.
    let shown = Memo::new(move |_| {
        let mut shown = match tool {
            Tool::Kubectl => pg.with(|p| p.step_outputs()).unwrap_or_default(),
            Tool::Etcdctl => Vec::new(),
        };
        shown.extend(pg.console.with(|c| {
            c.iter()
                .filter(|e| e.tool == tool)
                .cloned()
                .collect::<Vec<_>>()
        }));
        shown
    });
    let entries = move || {
        shown
            .get()
            .into_iter()
            .map(|e| {
                view! {
                    <div class="entry">
                        <div class="cmd">{format!("$ {}", e.command)}</div>
                        {(!e.stdout.is_empty()).then(|| view! { <pre class="out">{e.stdout.clone()}</pre> })}
                        {(!e.stderr.is_empty()).then(|| view! { <pre class="err">{e.stderr.clone()}</pre> })}
                    </div>
                }
            })
            .collect_view()
    };
    let input_id = format!("{name}-input");
    view! {
        <div data-testid=testid class="console" role="region" aria-label=move || i18n.ta("console-label", &[("tool", name)])>
            // The newest output stays in view by CSS (the log is anchored at its bottom, see
            // .console-log), not by reading the scroll height after each entry: that read forced
            // a layout of every view built in the same task (120 ms at 1,000 nodes).
            <div class="console-log" aria-live="polite"><div class="console-lines">{entries}</div></div>
            <div class="prompt">
                <label for=input_id.clone()>{format!("{name}>")}</label>
                <input id=input_id type="text" data-testid=format!("{name}-input") spellcheck="false"
                    autocomplete="off" autocapitalize="off"
                    placeholder=match tool { Tool::Kubectl => "get pods", Tool::Etcdctl => "get /registry/deployments --prefix --keys-only" }
                    prop:value=move || line.get() on:input=move |ev| line.set(event_target_value(&ev))
                    on:keydown=on_keydown />
            </div>
        </div>
    }
}

#[component]
pub fn Consoles() -> impl IntoView {
    let pg = expect_context::<Playground>();
    let tab = move |tool: Tool, label: &'static str| {
        view! {
            <button role="tab" data-testid=format!("console-tab-{label}")
                aria-selected=move || (pg.console_tab.get() == tool).to_string()
                class:active=move || pg.console_tab.get() == tool
                on:click=move |_| pg.console_tab.set(tool)>{label}</button>
        }
    };
    let i18n = crate::state::i18n::i18n();
    view! {
        <section class="consoles" aria-label=move || i18n.t("consoles-label")>
            <div class="tabs" role="tablist" aria-label=move || i18n.t("consoles-label")>
                {tab(Tool::Kubectl, "kubectl")}
                {tab(Tool::Etcdctl, "etcdctl")}
            </div>
            {move || match pg.console_tab.get() {
                Tool::Kubectl => view! { <Terminal tool=Tool::Kubectl /> }.into_any(),
                Tool::Etcdctl => view! { <Terminal tool=Tool::Etcdctl /> }.into_any(),
            }}
        </section>
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn history_walks_back_and_forth_and_stops_at_the_ends() {
        use super::history_step;
        assert_eq!(history_step(3, 3, true), 2);
        assert_eq!(history_step(3, 0, true), 0);
        assert_eq!(history_step(3, 2, false), 3);
        assert_eq!(history_step(3, 3, false), 3);
    }
}
