// js-random: a Risk Arena bot in JavaScript that plays uniformly at random among the legal
// options, in classic RISK and RISK: Europe. It knows no rules: every DecisionRequest says
// how many options it lists (option_count), and answering option_index i picks the i-th.
// Its PRNG is seeded from each match's bot_seed, so its matches are reproducible.
//
// The connection, the handshake and the session loop are the library's, risk-arena-sdk
// (bots/js-sdk, installed by `npm ci`); docs/writing-a-bot.md describes the protocol itself.
"use strict";

const sdk = require("risk-arena-sdk");

let rng = sdk.mulberry32(0); // reseeded at every MatchStart
const pick = (n) => Math.floor(rng() * n);

// One random answer to a DecisionRequest, as the body of an Action (without request_id).
function answer(request) {
  const o = request.options;
  const placing = request.kind === "place" || request.kind === "reinforce";
  if (request.game_options === "options" && placing && o.armies > 1) {
    // Option indices would put every army on one territory; a structured ClassicAction
    // can spread them. Each army goes to a random own territory. (In the 2-player setup,
    // `place` has 2 armies, which land on 1 or 2 territories: both legal.)
    const counts = new Map();
    for (let i = 0; i < o.armies; i++) {
      const t = o.territories[pick(o.territories.length)];
      counts.set(t, (counts.get(t) || 0) + 1);
    }
    const placements = [...counts.entries()]
      .sort((x, y) => x[0] - y[0])
      .map(([territory, armies]) => ({ territory, armies }));
    return { classic: { kind: "place", placements } };
  }
  const n = sdk.optionCount(request);
  if (n <= 0) console.error(`js-random: ${request.kind} without an option count; answering 0`);
  return { option_index: n > 0 ? pick(n) : 0 };
}

sdk.play({
  name: "js-random",
  version: "1.0",
  games: ["classic", "europe"],
  // RISK: Europe's standing policies, answering battle decisions without asking: remove the
  // cheapest casualties, re-roll a castle's dice automatically, fight battles in ascending
  // territory id (the defaults; "ask" would send those decisions instead).
  hello: { europe: { casualties: "cheapest", castle_reroll: "auto", battle_order: "listed" } },
  debug: true, // tell the replay the bot's version and Node's, once per match
  start: (match) => {
    rng = sdk.mulberry32(sdk.seed32(match.bot_seed));
  },
  decide: answer,
  retry: answer, // after a rejection (never expected: every answer is legal), another one
});
