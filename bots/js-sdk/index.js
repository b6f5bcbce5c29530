// risk-arena-sdk: what every Risk Arena bot in JavaScript shares. A bot gives `play` its
// name, its Hello declarations and a `decide(request)`; the library connects to the
// referee, shakes hands, and runs the session (see README.md).
"use strict";

const { play, PROTOCOL_VERSION } = require("./session");
const { findProtos, loadContract, channelCredentials } = require("./contract");
const { optionCount, mulberry32, seed32 } = require("./helpers");

module.exports = {
  play,
  PROTOCOL_VERSION,
  optionCount,
  mulberry32,
  seed32,
  findProtos,
  loadContract,
  channelCredentials,
};
