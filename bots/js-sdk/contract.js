// The contract and the channel: the .proto files loaded at run time (no generated code) and
// the credentials of the connection to the referee.
"use strict";

const fs = require("fs");
const path = require("path");
const grpc = require("@grpc/grpc-js");
const protoLoader = require("@grpc/proto-loader");

// How the messages read in JavaScript: keepCase keeps the snake_case field names of the
// .proto; longs: String turns uint64 (request_id, bot_seed) into decimal strings (they may
// exceed 2^53); enums: String names enum values; defaults fills absent fields (empty lists,
// 0, ""); oneofs adds a field naming which member of a oneof is set (e.g. message.message
// === "decision", request.game_options === "europe_options").
const LOADER_OPTIONS = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

// The folder holding riskarena/v1/arena.proto: `protos/` in the bot's own folder when it keeps
// a copy there (a bot outside this repository), else the repository's, two levels above it
// (bots/NAME/../../protos). The bot's folder is that of its main script.
function findProtos(botFolder) {
  const candidates = [path.join(botFolder, "protos"), path.join(botFolder, "..", "..", "protos")];
  const holds = (dir) => fs.existsSync(path.join(dir, "riskarena", "v1", "arena.proto"));
  const found = candidates.find(holds);
  if (!found) throw new Error(`no riskarena/v1/arena.proto in ${candidates.join(" or ")}`);
  return found;
}

// The riskarena.v1 package: its Referee service client and its messages.
function loadContract(protos) {
  // includeDirs lets `import "riskarena/classic/v1/classic.proto"` resolve.
  const options = { ...LOADER_OPTIONS, includeDirs: [protos] };
  const definition = protoLoader.loadSync("riskarena/v1/arena.proto", options);
  return grpc.loadPackageDefinition(definition).riskarena.v1;
}

// With ARENA_TLS_ROOTS (a PEM file of trusted root certificates) the stream runs over TLS, as
// to a remote `arena serve --tls-cert ...`; without it, plaintext (the local referee).
function channelCredentials() {
  const roots = process.env.ARENA_TLS_ROOTS;
  if (!roots) return grpc.credentials.createInsecure();
  return grpc.credentials.createSsl(fs.readFileSync(roots));
}

module.exports = { findProtos, loadContract, channelCredentials };
