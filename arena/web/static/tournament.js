// A running tournament's page: poll the cheap /api/last-change token and reload the page when
// this tournament records a match or changes status (progress, ETA, crosstable, matches).
"use strict";
(function () {
  const box = document.querySelector(".tournament-progress[data-live]");
  if (!box) return;
  const id = box.dataset.tournament;
  let seen = null;
  async function poll() {
    try {
      const answer = await fetch("/api/last-change", { cache: "no-store" });
      if (answer.ok) {
        const token = await answer.json();
        const mine = token.tournaments.find((t) => t.id === id);
        const now = mine ? mine.status + "/" + mine.recorded : "gone";
        if (seen !== null && now !== seen) {
          window.location.reload();
          return;
        }
        seen = now;
      }
    } catch (e) {
      // the server may be restarting: try again at the next tick
    }
    setTimeout(poll, Number(box.dataset.interval || 2000));
  }
  poll();
})();
