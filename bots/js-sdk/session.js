// The session: one bidirectional stream to the referee, for as many matches as it sends.
//
// How a bot works (docs/writing-a-bot.md has the whole protocol):
//   1. The referee starts the bot in its folder with two environment variables:
//      ARENA_ADDRESS (a gRPC target such as "unix:/tmp/arena-x/referee.sock") and ARENA_TOKEN.
//   2. The bot opens ONE bidirectional stream, Referee.Play, and sends Hello first.
//   3. The referee answers Welcome, then for each match: MatchStart, then DecisionRequests.
//      Each request is answered by one Action echoing its request_id; an ActionResult says
//      that an answer was rejected (a rejected answer may be retried before the deadline).
//      MatchEnd closes a match; another MatchStart may follow on the same stream.
//   4. When the referee has no more matches it ends the stream, and the bot exits 0.
"use strict";

const path = require("path");
const grpc = require("@grpc/grpc-js");
const { findProtos, loadContract, channelCredentials } = require("./contract");

const PROTOCOL_VERSION = 1;
// Statuses that end the stream because the referee refused the bot (exit 2, not 1).
const REFUSED = [grpc.status.UNAUTHENTICATED, grpc.status.FAILED_PRECONDITION,
  grpc.status.INVALID_ARGUMENT];

// Plays every match the referee sends, as `bot` says:
//   name, version      the bot's name and version label (Hello.bot_name, .bot_version)
//   games              the games it plays (Hello.games), e.g. ["classic", "europe"]
//   hello              more Hello fields: its declarations per game (classic, europe)
//   debug              true: before its first answer in a match, tell the replay the bot's
//                      name and version and Node's version (a DebugText)
//   start(match)       called at each MatchStart (optional)
//   decide(request)    the answer to a DecisionRequest, as an Action without request_id:
//                      { option_index }, { classic: ClassicAction } or { europe: EuropeAction }
//   fallback(request)  the answer when decide throws (optional; default: option 0, which is
//                      always legal)
//   retry(request, n)  the answer after the n-th rejection of the request, or null to send
//                      none (optional; default: the fallback after the first, then none)
//   end(matchEnd)      called at each MatchEnd (optional)
//   protos             the folder of the .proto files (optional; default: findProtos of
//                      the folder of the bot's main script)
function play(bot) {
  const address = process.env.ARENA_ADDRESS;
  if (!address) {
    console.error(`${bot.name}: set ARENA_ADDRESS (and ARENA_TOKEN) to the referee's`);
    process.exit(2);
  }
  const riskarena = loadContract(bot.protos || findProtos(path.dirname(require.main.filename)));
  const client = new riskarena.Referee(address, channelCredentials());
  const call = client.Play(); // the stream: we write BotMessages, read RefereeMessages
  const fallback = bot.fallback || (() => ({ option_index: 0 }));
  const retry = bot.retry || ((request, n) => (n === 1 ? fallback(request) : null));

  let current = null; // the DecisionRequest being answered (null between decisions)
  let rejections = 0; // of the current request
  let debugSent = false; // in this match

  // The body `answer` gives, or the fallback when it throws: a bug in the bot must not
  // cost a strike.
  const safely = (answer, request, ...more) => {
    try {
      return answer(request, ...more);
    } catch (err) {
      console.error(`${bot.name}: ${request.kind}: ${err && err.stack ? err.stack : err}; `
        + "answering the fallback");
      return fallback(request);
    }
  };

  const send = (request, body) => {
    if (bot.debug && !debugSent) {
      // Free text for the replay (never shown to opponents); at most 4 KiB is kept.
      call.write({ debug: { text: `${bot.name} ${bot.version} on Node ${process.version}` } });
      debugSent = true;
    }
    // request_id is echoed as received (a decimal string: protobufjs accepts it for uint64).
    call.write({ action: { request_id: request.request_id, ...body } });
  };

  // The handshake. A wrong token ends the stream with UNAUTHENTICATED, another protocol
  // version with FAILED_PRECONDITION (both arrive below as an 'error').
  call.write({
    hello: {
      token: process.env.ARENA_TOKEN || "",
      bot_name: bot.name,
      bot_version: bot.version,
      protocol_version: PROTOCOL_VERSION,
      games: bot.games || [], // the referee refuses the bot a match of any other game
      // No ActionResult for an accepted answer: the referee sends one only for a rejection.
      skip_accepted_results: true,
      ...bot.hello,
    },
  });

  call.on("data", (msg) => {
    switch (msg.message) {
      case "match_start":
        current = null;
        debugSent = false;
        if (bot.start) bot.start(msg.match_start);
        break;
      case "decision":
        current = msg.decision;
        rejections = 0;
        send(current, safely(bot.decide, current));
        break;
      case "action_result": {
        // A rejection (a strike), with the reason: answer again, as `retry` says.
        const r = msg.action_result;
        if (!r.accepted && current && String(r.request_id) === String(current.request_id)) {
          rejections += 1;
          console.error(`${bot.name}: ${current.kind} answer rejected (${r.strikes} strikes): `
            + r.reason);
          const body = safely(retry, current, rejections);
          if (body) send(current, body);
        }
        break;
      }
      case "match_end": {
        current = null;
        const end = msg.match_end;
        const places = end.seats
          .map((s) => `${s.bot} place ${s.place} ${s.status.replace("SEAT_STATUS_", "")}`)
          .join(", ");
        console.error(`${bot.name}: match ${end.match_id} ended by ${end.end_reason}: ${places}`);
        if (bot.end) bot.end(end);
        break;
      }
      default:
        break; // welcome, and messages of newer referees: nothing to do
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
    console.error(`${bot.name}: referee: ${grpc.status[err.code]}: ${err.details}`);
    client.close();
    process.exitCode = REFUSED.includes(err.code) ? 2 : 1;
  });
}

module.exports = { play, PROTOCOL_VERSION };
