// js-random: a Risk Arena bot in JavaScript that plays uniformly at random among the legal
// options. It knows no rules: everything it needs is in each DecisionRequest's options.
// It plays two games: classic RISK (options enumerated by kind, see optionCount) and
// RISK: Europe (every request lists representative complete actions in
// europe_options.choices, all legal: it picks one of them by index).
//
// How a bot works (see docs/writing-a-bot.md for the whole protocol):
//   1. The referee starts this process in the bot folder with two environment variables:
//      ARENA_ADDRESS (a gRPC target such as "unix:/tmp/arena-x/referee.sock") and ARENA_TOKEN.
//   2. The bot opens ONE bidirectional stream, Referee.Play, and sends Hello first.
//   3. The referee answers Welcome, then for each match: MatchStart, then DecisionRequests.
//      Each request is answered by one Action echoing its request_id; an ActionResult says
//      whether it was accepted (a rejected answer may be retried before the deadline).
//      MatchEnd closes a match; another MatchStart may follow on the same stream.
//   4. When the referee has no more matches it ends the stream, and the bot exits 0.
"use strict";

const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

const BOT_NAME = "js-random";
const BOT_VERSION = "1.0";
const PROTOCOL_VERSION = 1;

// Load the contract straight from the repository's .proto files (no generated code).
// includeDirs lets `import "riskarena/classic/v1/classic.proto"` resolve; keepCase keeps the
// snake_case field names of the .proto; longs: String turns uint64 (request_id, bot_seed)
// into decimal strings; defaults fills absent fields (empty lists, 0, ""); oneofs adds a
// field naming which member of a oneof is set (e.g. message.message === "decision").
const PROTOS = path.join(__dirname, "..", "..", "protos");
const definition = protoLoader.loadSync("riskarena/v1/arena.proto", {
  includeDirs: [PROTOS],
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
});
const riskarena = grpc.loadPackageDefinition(definition).riskarena.v1;

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

// How many options a decision has, counted exactly as the referee's choices() lists them
// (arena/games/classic/options.py). Answering option_index i picks the i-th of that list.
function optionCount(kind, o) {
  switch (kind) {
    case "claim": // one per unclaimed territory
    case "place": // one per own territory: all `armies` there
    case "place_neutral": // one per neutral territory
    case "headquarters": // one per own territory
    case "reinforce": // one per own territory: all `armies` there
      return o.territories.length;
    case "trade": // one per set, then "no trade" unless trading is required
      return o.sets.length + (o.required ? 0 : 1);
    case "attack": // one per attack (max dice, one roll), then "end the attack"
      return o.attacks.length + 1;
    case "defend": // 1 .. max_dice dice
      return o.max_dice;
    case "reroll": // re-roll attacker die 0, 1, ..., then "no re-roll"
      return o.attacker_dice.length + 1;
    case "occupy": // move min_armies .. max_armies
      return o.max_armies - o.min_armies + 1;
    case "fortify": // one per move (the maximum armies), then "end the turn"
      return o.fortifies.length + 1;
    default:
      return 0;
  }
}

// One random answer to a DecisionRequest, as the body of an Action (without request_id).
function chooseAnswer(request, rng) {
  const pick = (n) => Math.floor(rng() * n);
  // oneofs: true names the member of the game_options oneof that is set.
  if (request.game_options === "europe_options") {
    // RISK: Europe: `choices` is a bounded list of legal complete actions (bids, kingdoms,
    // card pairs, whole turns, battle answers), never empty; option_index i picks the
    // i-th. The constraints beside it (europe_options.bid, .turn, ...) would let a bot build
    // its own EuropeAction; this one has no use for them (bots/js-europe does).
    const n = request.europe_options.choices.length;
    if (n <= 0) console.error(`${BOT_NAME}: ${request.kind} without choices; answering 0`);
    return { option_index: n > 0 ? pick(n) : 0 };
  }
  const o = request.options;
  if ((request.kind === "reinforce" || request.kind === "place") && o.armies > 1) {
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
  const n = optionCount(request.kind, o);
  if (n <= 0) console.error(`${BOT_NAME}: unknown decision kind ${request.kind}; answering 0`);
  return { option_index: n > 0 ? pick(n) : 0 };
}

// With ARENA_TLS_ROOTS (a PEM file of trusted root certificates) the stream runs over TLS,
// as to a remote `arena serve --tls-cert ...`; without it, plaintext (the local referee).
function channelCredentials() {
  const roots = process.env.ARENA_TLS_ROOTS;
  if (!roots) return grpc.credentials.createInsecure();
  return grpc.credentials.createSsl(require("fs").readFileSync(roots));
}

function main() {
  const address = process.env.ARENA_ADDRESS;
  if (!address) {
    console.error(`${BOT_NAME}: set ARENA_ADDRESS (and ARENA_TOKEN) to the referee's`);
    process.exit(2);
  }
  const client = new riskarena.Referee(address, channelCredentials());
  const call = client.Play(); // the bidirectional stream; we write BotMessages, read RefereeMessages

  let rng = mulberry32(0); // reseeded at every MatchStart
  let current = null; // the DecisionRequest we are answering (null between decisions)
  let debugSent = false;

  const answer = (request) => {
    if (!debugSent) {
      // Free text for the replay (never shown to opponents); at most 4 KiB is kept.
      call.write({ debug: { text: `${BOT_NAME} ${BOT_VERSION} on Node ${process.version}` } });
      debugSent = true;
    }
    // request_id is echoed as received (a decimal string: protobufjs accepts it for uint64).
    call.write({ action: { request_id: request.request_id, ...chooseAnswer(request, rng) } });
  };

  // The handshake. A wrong token ends the stream with UNAUTHENTICATED, another protocol
  // version with FAILED_PRECONDITION (both arrive below as an 'error').
  call.write({
    hello: {
      token: process.env.ARENA_TOKEN || "",
      bot_name: BOT_NAME,
      bot_version: BOT_VERSION,
      protocol_version: PROTOCOL_VERSION,
      games: ["classic", "europe"], // the games this bot plays (the referee refuses it any other)
      // true: always roll the maximum, never asked to defend. Declared in classic's own
      // message; the deprecated always_max_defence (field 5) too, for referees of before.
      classic: { always_max_defence: false },
      always_max_defence: false,
      // RISK: Europe's standing policies, answering battle decisions without asking: remove
      // the cheapest casualties, re-roll a castle's dice automatically, fight battles in
      // ascending territory id (the defaults; "ask" would send those decisions instead).
      europe: { casualties: "cheapest", castle_reroll: "auto", battle_order: "listed" },
      // No ActionResult for an accepted answer: the referee sends one only for a rejection.
      skip_accepted_results: true,
    },
  });

  call.on("data", (msg) => {
    switch (msg.message) {
      case "welcome":
        break;
      case "match_start":
        rng = mulberry32(seed32(msg.match_start.bot_seed));
        current = null;
        debugSent = false;
        break;
      case "decision":
        current = msg.decision;
        answer(current);
        break;
      case "action_result": {
        // Sent only for a rejection (the Hello asked for no accepted results): a strike,
        // with the reason; answer again.
        const r = msg.action_result;
        if (!r.accepted && current && String(r.request_id) === String(current.request_id)) {
          console.error(`${BOT_NAME}: answer rejected (${r.strikes} strikes): ${r.reason}`);
          answer(current);
        }
        break;
      }
      case "match_end": {
        current = null;
        const end = msg.match_end;
        const places = end.seats
          .map((s) => `${s.bot} place ${s.place} ${s.status.replace("SEAT_STATUS_", "")}`)
          .join(", ");
        console.error(`${BOT_NAME}: match ${end.match_id} ended by ${end.end_reason}: ${places}`);
        break;
      }
      default:
        break; // newer referees may add messages: ignore what we do not know
    }
  });

  // The referee ended the stream: no more matches. Close our side and exit 0 (unless an
  // 'error' below already set the code: grpc-js may signal the end after an error too).
  call.on("end", () => {
    call.end();
    client.close();
    if (process.exitCode === undefined) process.exitCode = 0;
  });
  // The stream failed: refused handshake (exit 2) or a lost connection (exit 1).
  call.on("error", (err) => {
    const refused = [grpc.status.UNAUTHENTICATED, grpc.status.FAILED_PRECONDITION,
      grpc.status.INVALID_ARGUMENT];
    console.error(`${BOT_NAME}: referee: ${grpc.status[err.code]}: ${err.details}`);
    client.close();
    process.exitCode = refused.includes(err.code) ? 2 : 1;
  });
}

main();
