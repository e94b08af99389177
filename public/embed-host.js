// What a host page needs to size kubeplay players to their content: each player posts
// { type: "kubeplay:height", height } to its parent whenever its height changes.
// Only frames of this page are sized, and only from messages of their own origin.
window.addEventListener('message', (event) => {
  const data = event.data;
  if (!data || data.type !== 'kubeplay:height' || !Number.isFinite(data.height)) return;
  for (const frame of document.querySelectorAll('iframe')) {
    if (frame.contentWindow !== event.source) continue;
    if (new URL(frame.src, location.href).origin !== event.origin) return;
    const height = Math.max(200, Math.min(4000, Math.ceil(data.height)));
    frame.style.height = `${height}px`;
    frame.dataset.reportedHeight = String(height);
  }
});
