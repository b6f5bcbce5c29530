// js-heuristic: a Risk Arena bot in JavaScript with a simple, greedy heuristic. Like
// js-random it knows no rules: it reads the board (MatchStart), the view and the legal
// options of each DecisionRequest, and picks among those options by a few plain scores.
//
// The connection, the handshake and the session loop are the library's, risk-arena-sdk
// (bots/js-sdk); docs/writing-a-bot.md describes the protocol itself.
//
// Strategy, per decision kind:
//   claim         a territory of the continent where it already holds the most (ties:
//                 smaller continents first)
//   place,        everything on the own border territory with the best attack ratio
//   reinforce     (own armies / armies of the weakest adjacent enemy)
//   attack        the attack with the largest margin while own armies >= defender + 2,
//                 repeated (until 2) with the maximum dice; else end the attack
//   occupy        the maximum when the captured territory borders enemies, else the minimum
//   fortify       from the strongest interior territory (no enemy neighbour) to an adjacent
//                 border territory; else end the turn
//   defend        the maximum dice (and it declares always_max_defence, so it is never asked)
//   trade         the first set
//   reroll        the lowest compared attacker die, if it lost its comparison
//   headquarters  the own territory with the most armies
//   place_neutral the neutral territory next to the opponent's strongest territory (or the first)
"use strict";

const sdk = require("risk-arena-sdk");

const BOT_NAME = "js-heuristic";

// The "do nothing special" answer, after a rejection or a bug: always a legal index.
function safeAnswer(request) {
  const o = request.options;
  const n = sdk.optionCount(request);
  switch (request.kind) {
    case "attack": // end the attack
    case "fortify": // end the turn
    case "reroll": // no re-roll
      return { option_index: n - 1 };
    case "defend":
      return { option_index: Math.max(0, o.max_dice - 1) };
    default:
      return { option_index: 0 };
  }
}

// Index of the best item by score (higher is better); ties keep the earliest.
function argmax(items, score) {
  let best = -1;
  let bestScore = -Infinity;
  items.forEach((item, i) => {
    const s = score(item, i);
    if (s > bestScore) {
      best = i;
      bestScore = s;
    }
  });
  return best;
}

class Heuristic {
  constructor(start, rng) {
    this.seat = start.seat;
    this.rng = rng;
    const board = start.board;
    this.neighbours = board.neighbours.map((n) => n.ids.map(Number));
    this.continents = board.continents.map((c) => ({
      name: c.name,
      bonus: c.bonus,
      territories: c.territories.map(Number),
    }));
    this.continentOf = new Array(board.territories.length).fill(-1);
    this.continents.forEach((c, ci) => c.territories.forEach((t) => (this.continentOf[t] = ci)));
  }

  // An enemy territory: owned by another seat or the neutral (not unclaimed).
  isEnemy(view, t) {
    const owner = view.owner[t];
    return owner !== this.seat && owner !== -2;
  }

  enemyNeighbours(view, t) {
    return this.neighbours[t].filter((n) => this.isEnemy(view, n));
  }

  // Own armies over the armies of the weakest adjacent enemy; -1 if no enemy is adjacent.
  attackRatio(view, t) {
    const enemies = this.enemyNeighbours(view, t);
    if (enemies.length === 0) return -1;
    const weakest = Math.min(...enemies.map((e) => view.armies[e]));
    return view.armies[t] / Math.max(1, weakest);
  }

  choose(request) {
    const o = request.options;
    const view = request.view;
    switch (request.kind) {
      case "claim":
        return this.claim(view, o);
      case "place":
      case "reinforce":
        return this.reinforce(view, o);
      case "place_neutral":
        return this.placeNeutral(view, o);
      case "headquarters":
        return { option_index: argmax(o.territories, (t) => view.armies[t]) };
      case "trade":
        return { option_index: 0 }; // the first set (a trade decision always has one)
      case "attack":
        return this.attack(view, o);
      case "defend":
        return { option_index: Math.max(0, o.max_dice - 1) };
      case "reroll":
        return this.reroll(o);
      case "occupy": {
        const target = o.battle.target;
        const exposed = this.enemyNeighbours(view, target).length > 0;
        return { option_index: exposed ? o.max_armies - o.min_armies : 0 };
      }
      case "fortify":
        return this.fortify(view, o);
      default:
        console.error(`${BOT_NAME}: unknown decision kind ${request.kind}; answering 0`);
        return { option_index: 0 };
    }
  }

  claim(view, o) {
    const held = this.continents.map((c) => c.territories.filter((t) => view.owner[t] === this.seat).length);
    // Most own territories in its continent, then the smaller continent; a seeded random
    // fraction (< 1) picks among the territories of that continent.
    const i = argmax(o.territories, (t) => {
      const ci = this.continentOf[t];
      if (ci < 0) return -1e9;
      return held[ci] * 1000 - this.continents[ci].territories.length + this.rng();
    });
    return { option_index: Math.max(0, i) };
  }

  reinforce(view, o) {
    // All armies on the own border territory with the best attack ratio (an option index
    // puts every army on one territory, in setup as in a turn).
    const i = argmax(o.territories, (t) => this.attackRatio(view, t));
    return { option_index: Math.max(0, i) };
  }

  placeNeutral(view, o) {
    // Next to the opponent's strongest territory: score each neutral territory by the most
    // armies on an adjacent opponent territory.
    const i = argmax(o.territories, (t) => {
      let most = 0;
      for (const n of this.neighbours[t]) {
        const owner = view.owner[n];
        if (owner >= 0 && owner !== this.seat) most = Math.max(most, view.armies[n]);
      }
      return most;
    });
    return { option_index: i >= 0 && i < o.territories.length ? i : 0 };
  }

  attack(view, o) {
    let best = null;
    let bestMargin = -Infinity;
    for (const a of o.attacks) {
      const own = view.armies[a.source];
      const theirs = view.armies[a.target];
      if (own < theirs + 2 || own <= 2) continue;
      const margin = own - theirs;
      if (margin > bestMargin) {
        best = a;
        bestMargin = margin;
      }
    }
    if (best === null) return { classic: { kind: "end_attack" } };
    return {
      classic: { kind: "attack", source: best.source, target: best.target, dice: best.max_dice, until: 2 },
    };
  }

  reroll(o) {
    const att = o.attacker_dice.map(Number);
    const def = o.defender_dice.map(Number);
    const compared = Math.min(att.length, def.length);
    if (compared === 0) return { option_index: att.length };
    // Attacker dice by value, highest first (stable: equal faces keep their order).
    const order = att.map((v, i) => i).sort((x, y) => att[y] - att[x]);
    const defSorted = [...def].sort((x, y) => y - x);
    const lowest = order[compared - 1]; // the lowest attacker die that is compared
    if (att[lowest] <= defSorted[compared - 1]) return { option_index: lowest };
    return { option_index: att.length }; // no re-roll
  }

  fortify(view, o) {
    const end = { option_index: o.fortifies.length };
    const i = argmax(o.fortifies, (f) => {
      const interior = this.enemyNeighbours(view, f.source).length === 0;
      const border = this.enemyNeighbours(view, f.target).length > 0;
      const adjacent = this.neighbours[f.source].includes(f.target);
      if (!interior || !border || !adjacent || f.max_armies < 1) return -Infinity;
      return view.armies[f.source];
    });
    return i < 0 ? end : { option_index: i }; // argmax skips -Infinity: -1 when none fits
  }
}

let brain = null; // per-match state, rebuilt at every MatchStart

sdk.play({
  name: BOT_NAME,
  version: "1.0",
  games: ["classic"],
  // The referee rolls our maximum defence: no defend decisions. Declared in classic's
  // message and in the deprecated field 5 (read by referees of before games were declared).
  hello: { classic: { always_max_defence: true }, always_max_defence: true },
  debug: true, // tell the replay the bot's version and Node's, once per match
  start: (match) => {
    brain = new Heuristic(match, sdk.mulberry32(sdk.seed32(match.bot_seed)));
  },
  decide: (request) => (brain ? brain.choose(request) : safeAnswer(request)),
  // After a bug in the heuristic, and once after a rejection (never twice: no loop of
  // rejections): the plain safe option.
  fallback: safeAnswer,
});
