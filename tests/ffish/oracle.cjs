#!/usr/bin/env node
// Fairy-Stockfish compiled to WebAssembly (npm `ffish`, GPL, used as an
// outside program only; pinned to 0.7.10 in package.json and
// package-lock.json) as a fast oracle for tests/diff/harness.py
// (`--backend ffish`). Set-up, from the repository root:
//
//     npm ci --prefix tests/ffish
//
// pyffish re-initialises the variant on every call (~3-4 ms each); here one
// ffish Board is kept and only its FEN is set, so a call costs microseconds.
// A Board of another variant re-initialises Fairy-Stockfish's global piece
// tables, so one Board is alive at a time: when a request names another
// variant, the Board is deleted and one of that variant made.
//
// Requests on stdin, one a line, fields separated by TABs:
//     COMMAND <TAB> VARIANT <TAB> FEN <TAB> MOVES (space-separated UCI moves, may be empty)
// Each request gets one line on stdout, `@` and a space, then the answer:
//     legal    the legal moves after MOVES, space-separated (ffish legalMoves)
//     check    1 if the side to move after MOVES is in check, else 0
//     fen      the FEN after MOVES
//     san      the SAN of MOVES played from FEN (ffish variationSan,
//              Notation.SAN, no move numbers), space-separated
//     result   `RESULT LEGAL INSUFFICIENT` after MOVES: ffish's result()
//              (`1-0`, `0-1`, `1/2-1/2` or `*`), the number of legal moves,
//              and 1/0 for isInsufficientMaterial()
//     config   load a variants.ini text (VARIANT field: the text with its
//              newlines written as the two characters \n); answers `ok`
//     info     Fairy-Stockfish's version line
//     variants the variant names, space-separated
// An error (an unknown variant, a move that is not legal) answers `! MESSAGE`.
// Lines on stdout that do not start with `@ ` or `! ` are not answers
// (Fairy-Stockfish may print) and are to be skipped by the reader.
"use strict";

// ffish 0.7.10 is an Emscripten build that fetches its .wasm with fetch()
// when fetch exists (Node 18+), which fails on a file path; without fetch
// it reads the file from disk.
const savedFetch = globalThis.fetch;
delete globalThis.fetch;
const ff = require("ffish");
const readline = require("readline");

let board = null;
let current = null;

function boardFor(variant) {
  if (variant !== current) {
    if (board !== null) board.delete();
    board = null;
    current = null;
    board = new ff.Board(variant);
    current = variant;
  }
  return board;
}

function at(variant, fen, moves) {
  const b = boardFor(variant);
  b.setFen(fen);
  if (moves) {
    for (const m of moves.split(" ")) {
      if (m && !b.push(m)) throw new Error(`illegal move ${m} in ${fen}`);
    }
  }
  return b;
}

function answer(line) {
  const [cmd, variant = "", fen = "", moves = ""] = line.split("\t");
  switch (cmd) {
    case "legal":
      return at(variant, fen, moves).legalMoves();
    case "check":
      return at(variant, fen, moves).isCheck() ? "1" : "0";
    case "fen":
      return at(variant, fen, moves).fen();
    case "san": {
      const b = at(variant, fen, "");
      return moves ? b.variationSan(moves, ff.Notation.SAN, false) : "";
    }
    case "result": {
      const b = at(variant, fen, moves);
      return `${b.result()} ${b.numberLegalMoves()} ${b.isInsufficientMaterial() ? 1 : 0}`;
    }
    case "config":
      ff.loadVariantConfig(variant.split("\\n").join("\n"));
      // a Board made before the load may hold stale tables
      if (board !== null) board.delete();
      board = null;
      current = null;
      return "ok";
    case "info":
      return ff.info();
    case "variants":
      return ff.variants();
    default:
      throw new Error(`unknown command ${cmd}`);
  }
}

ff.onRuntimeInitialized = () => {
  if (savedFetch !== undefined) globalThis.fetch = savedFetch;
  const rl = readline.createInterface({ input: process.stdin, terminal: false });
  rl.on("line", (line) => {
    let reply;
    try {
      reply = "@ " + answer(line);
    } catch (e) {
      reply = "! " + String(e && e.message ? e.message : e).replace(/\n/g, " ");
    }
    process.stdout.write(reply + "\n");
  });
};
