# The playground's own text: buttons, view names, labels and hints (app/src/components).
# Variables such as { $total } are filled in by the app; numbers select plural forms.

## Languages (each named in its own language, the same in every file)

language-en = English
language-zh-CN = 简体中文
language-zh-TW = 繁體中文
language-label = Language

## Top bar

app-name = kubeplay
app-link-error = This link could not be opened: { $error }.
app-resize = Drag, or use the arrow keys, to resize the editor and the views
controls-label = Playground controls
controls-scenario = Scenario
controls-gallery = Scenario gallery
controls-gallery-default = a 3-replica nginx Deployment
controls-apply = Apply
controls-apply-title = Apply the scenario (Ctrl+Enter)
controls-reset = Reset
controls-reset-title = Put the applied scenario back in the editor
controls-share = Share
controls-share-title = Copy a link to this scenario
controls-share-copied = Link copied
controls-playback = Playback
controls-rewind = Back to the start
controls-step-back = Step back
controls-step-back-title = Step back one record
controls-play = Play
controls-pause = Pause
controls-step = Step
controls-step-forward = Step forward
controls-step-title = Step to the next record
controls-to-end = Jump to the end
controls-to-end-title = Run to the end
controls-speed = Speed
controls-clock = Virtual time
controls-position = step { $position } of { $total }
controls-state-playing = playing
controls-state-ended = ended
controls-state-paused = paused
controls-state-memory-full = paused: this tab's memory is nearly full (WebAssembly stops at 4 GiB); run bigger clusters with kubeplay run

## Views

views-label = Views
view-flow = Flow
view-cluster = Cluster
view-etcd = etcd
view-scheduler = Scheduler
view-pod = Pod
view-events = Events
view-console = Console

## Flow

flow-label = Flow: the requests between components
flow-sampled = Sampled trace: full records for { $pods } pods, { $workloads } ReplicaSets and Deployments and { $nodes } nodes; { $records } records about { $morePods } more pods, { $moreWorkloads } more workloads and { $moreNodes } more nodes are only counted.
flow-follow = follow the current step
flow-legend-request = request
flow-legend-response = response
flow-legend-etcd = etcd
flow-legend-watch = watch
flow-grid-label = Sequence diagram; arrow keys select a step
flow-empty = Nothing has happened yet: press Play, or Step to see the first request.
flow-lane-arrows =
    { $count ->
        [one] { $lane }: { $count } arrow so far
       *[other] { $lane }: { $count } arrows so far
    }

## Step details

details-label = Step details
details-hint = Select a step in the Flow to see what happened and why.
details-step = step
details-step-value = { $step } of the trace
details-time = time
details-component = component
details-action = action
details-peer = peer
details-node = node
details-object = object
details-etcd-key = etcd key
details-revision = revision
details-show-key = show this key in the etcd view
details-detail = detail
details-docs = Kubernetes documentation ↗

## Scenario editor

editor-hint = Ctrl+Enter applies · Esc then Tab leaves the editor
editor-error-line = line { $line }: { $message }
editor-error-line-column = line { $line }, column { $column }: { $message }
editor-objects-found =
    { $count ->
        [one] { $count } object found
       *[other] { $count } objects found
    }
editor-objects-more = …and { $count } more
editor-preview-more = …and { $count } more lines. Click to edit the whole text.

## Timeline

timeline-label = Timeline
timeline-scrubber = Playback position (trace records shown)
timeline-kubectl = kubectl
timeline-scheduled = scheduled
timeline-started = started
timeline-warning = warning
timeline-fault = fault
timeline-count = { $position } / { $total } records

## Consoles

consoles-label = Consoles
console-label = { $tool } console

## Cluster view

cluster-label = Cluster
cluster-node = node { $node }
cluster-requested = { $resource } requested
cluster-bar-cpu = cpu
cluster-bar-mem = mem
cluster-bar-pods = pods
cluster-unscheduled-label = Pods not scheduled
cluster-unscheduled = Not scheduled
cluster-none = none
cluster-services = Services
cluster-service = service
cluster-cluster-ip = cluster IP
cluster-ports = ports
cluster-endpoints = endpoints
cluster-not-ready = not ready
cluster-heat-label = Nodes, coloured by how much of their CPU, memory or pods is requested: click a cell, or move with the arrow keys, to show its node
cluster-heat-summary = { $nodes } nodes, { $ready } Ready; { $pods } pods:
cluster-heat-cell = { $node }: { $ready }, { $percent }% requested, { $pods }/{ $allocatable } pods
cluster-heat-legend = Requested (the most of CPU, memory, pods):

## etcd view

etcdview-tree-label = Keys under /registry
etcdview-revision = revision { $revision }
etcdview-hint = Select a key to see its value, its history and what changed.
etcdview-history = Revision history
etcdview-rev = rev { $revision } v{ $version }
etcdview-deleted = deleted at { $revision } v{ $version }
etcdview-value-at = value at revision { $revision } (etcd holds it as JSON; shown as YAML)
etcdview-no-value = (no value at this revision)
etcdview-changes = changes from revision { $old } to { $new }

## Events view

events-filter = filter
events-filter-label = Filter events
events-filter-placeholder = e.g. Warning or nginx
events-newest = Showing the newest { $shown } of { $total } events.

## Pod view

podview-hint = Select a pod in the Cluster view or the Flow.
podview-status-history = STATUS as it changed
podview-revision = revision { $revision }

## Scheduler view

scheduler-pod = pod
scheduler-pod-label = Pod
scheduler-not-scheduled = { $pod } (not scheduled yet)
scheduler-attempt = attempt
scheduler-attempt-label = Scheduling attempt
scheduler-attempt-n = { $attempt } of { $total }
scheduler-none-yet = No scheduling decision yet: the scheduler decides once a pod exists without a node.
scheduler-no-decision = This pod has no scheduling decision yet.
scheduler-node = node
scheduler-filter = filter
scheduler-score = score × { $weight }
scheduler-total = total
scheduler-passed = passed
scheduler-not-run = not run
scheduler-chosen = ★ chosen
scheduler-infeasible = infeasible
scheduler-legend = Filters remove nodes that cannot run the pod; each score plugin rates the rest from 0 to 100; the total is the sum of score × weight and the highest wins.

## Guided tour

tour-start = Take the tour
tour-next = Next
tour-back = Back
tour-close = End the tour
tour-progress = Stop { $stop } of { $total }
## Share, embed, export, drafts

controls-embed = Embed
controls-embed-title = Get an <iframe> snippet that puts this scenario in a web page
controls-export = Export
share-link-label = Link to this scenario at this position
share-too-long = This link is { $length } characters long: chat tools and some browsers cut links longer than { $limit } characters. Export the scenario YAML and share the file instead.
embed-snippet-label = Paste this into your page
embed-view = View to show
embed-open = Open in kubeplay
export-yaml = Download the scenario (YAML)
export-trace = Download the trace (JSON Lines)
export-trace-title = The applied scenario's whole run, as kubeplay run --trace json prints it
export-manifests = Manifests for a real cluster
export-copy = Copy
export-note-compare = Run these on a real cluster to compare with kubeplay:
export-note-or = or
export-note-nodes = kubeplay's nodes are simulated; a new kind or minikube cluster has one node, so pods may land differently.
draft-pending = This link's scenario is shown; your saved draft is kept, and edits are not saved until you choose.
draft-keep-link = Keep this scenario as my draft
draft-open = Open my draft instead
draft-not-saved = Your draft could not be saved: the browser's storage is full or turned off.
editor-reset-example = Reset to example
editor-reset-example-title = Replace the editor's text, and your saved draft, with the example scenario
panic-title = kubeplay stopped because of an internal error
panic-body = Your draft is saved. Reload to go on: the scenario will not start by itself, so you can look at it first.
panic-reload = Reload, keeping my draft
panic-recovered = The page was reloaded after an internal error; the scenario was not started. Press Apply to run it.
