// js-europe: a simple RISK: Europe bot in JavaScript. It reads each request's view and the
// decision's constraints (europe_options.bid, .kingdom, .turn, ...) and builds its own
// structured EuropeAction; whenever it is unsure it answers with an index into
// europe_options.choices, a list of legal complete actions the referee sends with every
// request (index 0 is the documented default).
//
// The plan, decision by decision (docs/europe-rules.md has the rules):
//   bid              1 or 2 coins for the First Player Marker.
//   kingdom          the free gold city with the best tax (and crowns) that has a free
//                    neighbour; 7 footmen in the city, 3 claim the neighbour.
//   mercenary_bid    1 coin per Mercenary Army when it can spare the coins.
//   cards            two cards fitting the plan: expand early; tax once it holds 2+ cities
//                    or a large network; spend once it has 10+ coins.
//   turn             Tax the city bringing the most coins; Spend on a crown card when
//                    allowed, else siege weapons or footmen in its most threatened city;
//                    Expand into free cities, then free territories, and into an opponent
//                    only with a clear unit advantage (with a siege weapon for a castle);
//                    else Manoeuvre idle units to the most threatened territory.
//   battle decisions answered from the choices (it declares the default policies, so the
//                    referee asks them only of a bot that declared "ask").
// A rejected answer is answered again with choice 0, so it never sends two illegal answers
// in a row.
//
// The connection, the handshake and the session loop are the library's, risk-arena-sdk
// (bots/js-sdk); docs/writing-a-bot.md describes the protocol itself.
"use strict";

const sdk = require("risk-arena-sdk");

// Unit types in the order of every per-type count; their prices (Board.unit_costs).
const TYPES = ["footmen", "archers", "cavalry", "siege"];
const SIEGE_COST = 10;
const CROWN_COST = 10;

// ------------------------------------------------------------------ units and the board

const units = (f = 0, a = 0, c = 0, s = 0) => ({ footmen: f, archers: a, cavalry: c, siege: s });
const total = (u) => (u ? u.footmen + u.archers + u.cavalry + u.siege : 0);

// `u` less `keep` units, footmen staying behind first (then archers, cavalry, siege):
// what may leave a territory that must keep `keep` units.
function spare(u, keep) {
  const left = { ...u };
  let stay = keep;
  for (const t of TYPES) {
    const n = Math.min(stay, left[t]);
    left[t] -= n;
    stay -= n;
  }
  return left;
}

// `n` units taken from `u`, the cheapest first (footmen, cavalry, archers; siege last).
function take(u, n) {
  const out = units();
  for (const t of ["footmen", "cavalry", "archers", "siege"]) {
    const k = Math.min(n, u[t]);
    out[t] = k;
    n -= k;
  }
  return out;
}

const minus = (a, b) => units(a.footmen - b.footmen, a.archers - b.archers,
  a.cavalry - b.cavalry, a.siege - b.siege);

// What the bot remembers of the match: the board from MatchStart and its seat.
const game = { board: null, seat: 0, neighbours: [] };

function startMatch(start) {
  game.board = start.europe_board;
  game.seat = start.seat;
  // Land borders and sea lines both count as adjacency (except for a Siege Assault).
  game.neighbours = game.board.territories.map((t) => [...t.land, ...t.sea]);
}

const isCity = (t) => game.board.territories[t].tax > 0;

// Units of `army` in territory `t` of the view (an empty Units when it has none).
function unitsOf(view, t, army) {
  return view.territories[t].units[String(army)] || units();
}

// Armies this army never attacks: itself and, for a Mercenary Army it plays, our own seat.
const friends = (army) => new Set([army, game.seat]);

// Enemy units next to own territory `t` less our own there: above 0, `t` is threatened.
function threat(view, army, t) {
  const ours = friends(army);
  let enemy = 0;
  for (const n of game.neighbours[t]) {
    const owner = view.territories[n].owner;
    if (owner >= 0 && !ours.has(owner)) enemy += total(unitsOf(view, n, owner));
  }
  return enemy - total(unitsOf(view, t, army));
}

// The largest supply-line network of `army`: own undisputed territories linked by land or
// sea. Its size tells whether a Tax is worth a card.
function largestNetwork(view, army) {
  const own = (t) => view.territories[t].owner === army && view.territories[t].attacker < 0;
  const seen = new Set();
  let best = 0;
  for (let t = 0; t < view.territories.length; t++) {
    if (!own(t) || seen.has(t)) continue;
    let size = 0;
    const stack = [t];
    seen.add(t);
    while (stack.length) {
      const u = stack.pop();
      size++;
      for (const n of game.neighbours[u]) {
        if (own(n) && !seen.has(n)) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    best = Math.max(best, size);
  }
  return best;
}

// ------------------------------------------------------------------------- the setup

// bid: 2 coins for the marker (fewer only when it may not bid 2): enough to win some
// ties, cheap enough to keep coins for the first Spend. The bid comes once, in the setup.
function bid(o) {
  const coins = Math.min(o.bid.max_coins, 2);
  return { kind: "bid", coins };
}

// kingdom: the free gold city with the best tax (crowns break ties) among those with a
// free neighbour; the neighbour with the most free land beyond it gets 3 footmen.
function kingdom(view, o) {
  const k = o.kingdom;
  const free = (t) => view.territories[t].owner < 0;
  let best = null;
  for (const city of k.cities) {
    const near = (k.neighbours[String(city)] || { ids: [] }).ids;
    const t = game.board.territories[city];
    const score = t.tax * 10 + t.crowns * 5 + (near.length ? 100 : 0);
    if (!best || score > best.score) best = { city, near, score };
  }
  if (!best) return null;
  if (!best.near.length) {
    return { kind: "kingdom", city: best.city, neighbour: -1, footmen_in_city: k.footmen };
  }
  const room = (t) => game.neighbours[t].filter(free).length;
  const neighbour = best.near.reduce((a, b) => (room(b) > room(a) ? b : a));
  return { kind: "kingdom", city: best.city, neighbour, footmen_in_city: k.footmen - 3 };
}

// mercenary_bid: a Mercenary Army we control plays its cards for us (and against the
// others) this round; 1 coin each when we keep at least 4 coins.
function mercenaryBid(o) {
  const m = o.mercenary_bid;
  const each = m.max_total - m.mercenaries.length >= 4 ? 1 : 0;
  return { kind: "mercenary_bid", bids: m.mercenaries.map(() => each) };
}

// ------------------------------------------------------------------------------ cards

// The deck: Tax/Spend cards (King Me on one), Expand/Manoeuvre cards (Fortify or Siege
// Assault), Split Expand/Manoeuvre cards. Read from the board, not hard-coded.
function cardOrders(id) {
  return game.board.deck[id].orders;
}

// cards and mercenary_cards: one card for turn 1, another for turn 2. Tax/Spend cards are
// wanted when there is something to tax or to buy, expansion cards otherwise.
function cards(view, o) {
  const army = o.army;
  const hand = o.cards.hand;
  if (hand.length < 2) return null;
  const me = view.armies[army];
  let cities = 0;
  let held = 0;
  for (let t = 0; t < view.territories.length; t++) {
    if (view.territories[t].owner !== army) continue;
    held++;
    if (isCity(t)) cities++;
  }
  const wantTax = cities >= 2 || largestNetwork(view, army) >= 5;
  const wantSpend = me.coins >= 10;
  // Free land next to our territories: worth expanding into.
  let freeNear = 0;
  for (let t = 0; t < view.territories.length; t++) {
    if (view.territories[t].owner !== army) continue;
    for (const n of game.neighbours[t]) if (view.territories[n].owner < 0) freeNear++;
  }
  // The plan for the two turns: "money" = a Tax/Spend card, "move" = an expansion card.
  let plan;
  if (wantSpend && wantTax) plan = ["money", "money"]; // tax, then spend the takings
  else if (wantTax) plan = ["move", "money"]; // expand first, so the Tax counts the new land
  else if (wantSpend) plan = ["money", "move"]; // recruit, then move out
  else plan = ["move", "move"];
  if (held === 0) plan = ["money", "money"];
  const money = (c) => cardOrders(c).includes("tax");
  // Within a kind: Split Expand first while there is plenty of free land, King Me (the
  // marker decides the next round's order) before the plain Tax/Spend cards.
  const rank = (c) => {
    const d = game.board.deck[c];
    if (money(c)) return d.bonus === "king_me" ? 0 : 1;
    if (d.orders.includes("split_expand")) return freeNear >= 2 ? 0 : 2;
    return 1;
  };
  const chosen = [];
  for (const want of plan) {
    const left = hand.filter((c) => !chosen.includes(c));
    const fit = left.filter((c) => money(c) === (want === "money"));
    const pool = fit.length ? fit : left;
    pool.sort((a, b) => rank(a) - rank(b) || a - b);
    chosen.push(pool[0]);
  }
  return { kind: o.kind, first: chosen[0], second: chosen[1] };
}

// ------------------------------------------------------------------------------- turns

// Tax: the city whose network brings the most coins.
function taxTurn(t) {
  if (!t.tax_cities.length) return null;
  const best = t.tax_cities.reduce((a, b) => (b.coins > a.coins ? b : a));
  return { order: "tax", tax_city: best.territory };
}

// Spend: a crown card when allowed (with footmen for what is left); else a siege weapon
// when an opponent's castle is in reach and we have none; else footmen. Recruits go to
// the most threatened territory they may be placed in.
function spendTurn(view, army, t) {
  if (!t.recruit_to.length && !t.crown_card) return null;
  let coins = t.coins;
  const turn = { order: "spend", crown: false, recruits: [] };
  if (t.crown_card) {
    turn.crown = true;
    coins -= CROWN_COST;
  }
  if (t.recruit_to.length && coins > 0) {
    const danger = (x) => threat(view, army, x);
    const place = t.recruit_to.reduce((a, b) => (danger(b) > danger(a) ? b : a));
    const bought = units();
    const ours = friends(army);
    const hasSiege = t.sources.some((s) => s.units.siege > 0);
    const castleNear = t.sources.some((s) => s.expand_to.some((e) => e.needs_siege &&
      !ours.has(view.territories[e.territory].owner)));
    if (!hasSiege && castleNear && coins >= SIEGE_COST && t.reserve.siege > 0) {
      bought.siege = 1;
      coins -= SIEGE_COST;
    }
    bought.footmen = Math.min(coins, t.reserve.footmen);
    if (total(bought)) turn.recruits.push({ territory: place, units: bought });
  }
  return turn.crown || turn.recruits.length ? turn : null;
}

// Every Expand this army could make worth making, best first: {source, target, send,
// score}. Free cities score highest, then free territories; an opponent's territory only
// with a clear advantage (twice its units and 2 more), with a siege weapon for a castle.
function expandCandidates(view, army, t) {
  const ours = friends(army);
  const found = [];
  for (const s of t.sources) {
    const movable = spare(s.units, s.expand_keep);
    const n = total(movable);
    if (n <= 0) continue;
    // Out of a city or castle only half of what may leave (it must stay defended), and
    // nothing out of a threatened one.
    const guarded = isCity(s.territory) || view.territories[s.territory].castle;
    if (guarded && threat(view, army, s.territory) > 0) continue;
    const free = guarded ? Math.max(1, Math.floor(n / 2)) : n;
    for (const e of s.expand_to) {
      const target = e.territory;
      const owner = view.territories[target].owner;
      const info = game.board.territories[target];
      if (owner < 0) {
        const room = game.neighbours[target].filter((x) => view.territories[x].owner < 0).length;
        const score = isCity(target) ? 100 + info.tax * 5 + info.crowns * 10 : 50 + room;
        found.push({ source: s.territory, target, send: take(movable, free), score });
      } else if (!ours.has(owner)) {
        const theirs = total(unitsOf(view, target, owner));
        if (n < 2 * theirs + 2) continue;
        if (e.needs_siege && movable.siege === 0) continue;
        const score = (isCity(target) ? 80 + info.crowns * 10 : 30) - theirs;
        found.push({ source: s.territory, target, send: movable, score, attack: true });
      }
    }
  }
  found.sort((a, b) => b.score - a.score || total(b.send) - total(a.send));
  return found;
}

const move = (c) => ({ source: c.source, target: c.target, units: c.send });

function expandTurn(view, army, t) {
  const best = expandCandidates(view, army, t)[0];
  return best ? { order: "expand", moves: [move(best)] } : null;
}

// Split Expand: two free targets from one source, the units shared between them; else one
// move as a plain Expand.
function splitTurn(view, army, t) {
  const all = expandCandidates(view, army, t);
  for (const first of all) {
    if (first.attack || total(first.send) < 2) continue;
    const second = all.find(
      (c) => c.source === first.source && c.target !== first.target && !c.attack,
    );
    if (!second) continue;
    const a = take(first.send, Math.ceil(total(first.send) / 2));
    const b = minus(first.send, a);
    return {
      order: "split_expand",
      moves: [move({ ...first, send: a }), move({ ...second, send: b })],
    };
  }
  return all.length ? { order: "split_expand", moves: [move(all[0])] } : null;
}

// Manoeuvre: from the unthreatened territory with the most spare units to the most
// threatened territory it can reach.
function manoeuvreTurn(view, army, t) {
  let best = null;
  for (const s of t.sources) {
    if (!s.manoeuvre_to.length || threat(view, army, s.territory) > 0) continue;
    const movable = spare(s.units, s.manoeuvre_keep || 0);
    if (total(movable) < 2) continue;
    for (const r of s.manoeuvre_to) {
      const danger = threat(view, army, r.territory);
      if (danger <= 0) continue;
      if (!best || danger > best.danger) best = { s, r, movable, danger };
    }
  }
  if (!best) return null;
  const m = { source: best.s.territory, target: best.r.territory, units: best.movable };
  if (best.r.via >= 0) m.via = best.r.via;
  return { order: "manoeuvre", moves: [m] };
}

// The card's bonus action: Fortify the most threatened own city or castle territory;
// Siege Assault (before the order) the neighbouring opponent territory with the fewest
// units, from an own undisputed territory with siege weapons, over a land border.
function addBonus(view, army, t, turn) {
  turn.bonus = "none";
  if (t.bonus === "fortify") {
    const places = t.sources.map((s) => s.territory)
      .filter((x) => isCity(x) || view.territories[x].castle);
    if (!places.length || t.reserve.footmen === 0) return turn;
    const target = places.reduce((a, b) => (threat(view, army, b) > threat(view, army, a) ? b : a));
    return { ...turn, bonus: "fortify", bonus_target: target };
  }
  if (t.bonus === "siege_assault") {
    const ours = friends(army);
    let best = null;
    for (const s of t.sources) {
      if (s.units.siege === 0 || view.territories[s.territory].attacker >= 0) continue;
      for (const n of game.board.territories[s.territory].land) {
        const owner = view.territories[n].owner;
        if (owner < 0 || ours.has(owner) || view.territories[n].attacker >= 0) continue;
        const theirs = total(unitsOf(view, n, owner));
        if (!best || theirs < best.theirs) best = { source: s.territory, target: n, theirs };
      }
    }
    if (!best) return turn;
    return { ...turn, bonus: "siege_assault", bonus_first: true, bonus_source: best.source,
      bonus_target: best.target };
  }
  return turn;
}

// turn: one whole turn with the revealed card.
function turn(view, o) {
  const t = o.turn;
  const army = o.army;
  const can = (order) => t.orders.includes(order);
  let chosen = null;
  if (can("tax") || can("spend")) {
    // Spend when a crown card is allowed or 10+ coins are waiting; else Tax; else Spend.
    const rich = t.crown_card || t.coins >= 10;
    if (can("spend") && rich) chosen = spendTurn(view, army, t);
    if (!chosen && can("tax")) chosen = taxTurn(t);
    if (!chosen && can("spend") && t.coins > 0) chosen = spendTurn(view, army, t);
  }
  if (!chosen && can("split_expand")) chosen = splitTurn(view, army, t);
  if (!chosen && can("expand")) chosen = expandTurn(view, army, t);
  if (!chosen && can("manoeuvre")) chosen = manoeuvreTurn(view, army, t);
  if (!chosen) chosen = { order: "none" };
  return { kind: "turn", turn: addBonus(view, army, t, chosen) };
}

// ---------------------------------------------------------------------- battle answers

// The referee asks these only of a bot that declared "ask" (and `arena check-bot` asks
// them all once). Each is answered from the listed choices: index 0 is the documented
// default (the cheapest casualties, ascending battle order); a castle re-roll is taken
// (choice 1) when the opponent's best die beat ours.
function battleAnswer(o) {
  if (o.kind === "reroll" && o.choices.length > 1) {
    const r = o.reroll;
    const top = (dice) => (dice.length ? Math.max(...dice) : 0);
    if (top(r.defender_dice) < top(r.attacker_dice)) return { option_index: 1 };
  }
  return { option_index: 0 };
}

// ---------------------------------------------------------------------- one decision

// The answer to one Europe request, as the body of an Action (without request_id): a
// structured `europe` action, or an option_index when unsure.
function chooseAnswer(request) {
  const view = request.europe_view;
  const o = request.europe_options;
  let action = null;
  switch (o.kind) {
    case "bid":
      action = bid(o);
      break;
    case "kingdom":
      action = kingdom(view, o);
      break;
    case "mercenary_bid":
      action = mercenaryBid(o);
      break;
    case "cards":
    case "mercenary_cards":
      action = cards(view, o);
      break;
    case "turn":
      action = turn(view, o);
      break;
    default:
      return battleAnswer(o); // mission, battle_order, reroll, casualties
  }
  return action ? { europe: action } : { option_index: 0 };
}

sdk.play({
  name: "js-europe",
  version: "1.0",
  games: ["europe"],
  // The standing policies: cheapest casualties, automatic castle re-rolls, battles in
  // ascending territory id (the defaults). "ask" would send those decisions instead.
  hello: { europe: { casualties: "cheapest", castle_reroll: "auto", battle_order: "listed" } },
  start: startMatch,
  // Another game's request (none is expected: it plays only Europe) gets choice 0.
  decide: (request) =>
    request.game_options === "europe_options" ? chooseAnswer(request) : { option_index: 0 },
  // After a bug in the heuristic (the library's default fallback) and after every rejection:
  // choice 0, always legal, so two illegal answers never follow each other.
  retry: () => ({ option_index: 0 }),
});
