// What bots compute beside the protocol: how many options a request lists, a seeded PRNG.
"use strict";

// How many options a DecisionRequest lists: option_index may be 0 .. count - 1. The referee
// says so in option_count, for every game. A referee of before that field sends 0: then
// RISK: Europe's choices and a JSON game's options array are counted here, and a classic
// request gives 0 (its count follows from ClassicOptions: docs/writing-a-bot.md, section 4).
function optionCount(request) {
  if (request.option_count > 0) return request.option_count;
  if (request.game_options === "europe_options") return request.europe_options.choices.length;
  if (request.game_options === "options_json") return JSON.parse(request.options_json).length;
  return 0;
}

// mulberry32: a tiny seeded PRNG returning floats in [0, 1). Seeding it from
// MatchStart.bot_seed makes the bot's play, and so the whole match, reproducible.
function mulberry32(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// bot_seed is a uint64: a string here (longs: String), a Long or number with other options.
// Fold its 64 bits into the 32 bits mulberry32 takes.
function seed32(value) {
  const big = BigInt(String(value));
  return Number((big ^ (big >> 32n)) & 0xffffffffn);
}

module.exports = { optionCount, mulberry32, seed32 };
