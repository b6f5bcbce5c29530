// Live leaderboards: poll the cheap /api/last-change token; when it changes, fetch the
// leaderboards fragment and swap it in (keeping the sort the reader chose).
"use strict";
(function () {
  const target = document.getElementById("boards");
  if (!target) return;
  let token = null;
  async function poll() {
    try {
      const answer = await fetch("/api/last-change", { cache: "no-store" });
      if (answer.ok) {
        const text = JSON.stringify(await answer.json());
        if (token !== null && text !== token) {
          const fragment = await fetch(target.dataset.fragment, { cache: "no-store" });
          if (fragment.ok) {
            target.innerHTML = await fragment.text();
            window.arenaTables && window.arenaTables.init(target);
            target.dataset.refreshed = String(Date.now());
          }
        }
        token = text;
      }
    } catch (e) {
      // the server may be restarting: try again at the next tick
    }
    setTimeout(poll, Number(target.dataset.interval || 2000));
  }
  poll();
})();
