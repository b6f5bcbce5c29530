// A running tournament's page: poll the cheap /api/last-change token and, when this tournament
// records a match, fetch the page's live part (progress, matches queued or playing, latest
// results, standings, quality, pairwise matrix, cycles) and swap it in; when the tournament
// stops or finishes, reload the whole page once (crosstable, matches, plan).
"use strict";
(function () {
  const target = document.getElementById("tournament-live");
  const box = document.querySelector(".tournament-progress[data-live]");
  if (!target || !box) return;
  const id = box.dataset.tournament;
  let seen = null;
  async function poll() {
    try {
      const answer = await fetch("/api/last-change", { cache: "no-store" });
      if (answer.ok) {
        const token = await answer.json();
        const mine = token.tournaments.find((t) => t.id === id);
        if (!mine || mine.status !== "running") {
          if (seen !== null) {
            window.location.reload();
            return;
          }
        } else if (seen !== null && String(mine.recorded) !== seen) {
          const fragment = await fetch(target.dataset.fragment, { cache: "no-store" });
          if (fragment.ok) {
            target.innerHTML = await fragment.text();
            window.arenaTables && window.arenaTables.init(target);
            target.dataset.refreshed = String(Date.now());
          }
        }
        seen = mine ? String(mine.recorded) : "gone";
      }
    } catch (e) {
      // the server may be restarting: try again at the next tick
    }
    setTimeout(poll, Number(target.dataset.interval || 2000));
  }
  poll();
})();
