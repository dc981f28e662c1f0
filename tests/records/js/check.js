// Reads records with json-kifu-format and tsshogi and prints, for each,
// what the library found: its moves in USI and its ending, one JSON object
// a line. Called by tests/records/check.py, which compares.
//
//   node check.js LIST.json   (LIST: [{"file": PATH, "format": "kif"|"ki2"|"csa"|"jkf"}])

"use strict";
const fs = require("fs");
const { JKFPlayer } = require("json-kifu-format");
const tsshogi = require("tsshogi");

const SFEN_LETTERS = { FU: "P", KY: "L", KE: "N", GI: "S", KI: "G", KA: "B", HI: "R" };

function usiSquare(p) {
  return `${p.x}${String.fromCharCode(96 + p.y)}`;
}

function read(file) {
  const bytes = fs.readFileSync(file);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (e) {
    return new TextDecoder("shift_jis").decode(bytes);
  }
}

function withJkf(text, format) {
  let player;
  switch (format) {
    case "kif": player = JKFPlayer.parseKIF(text); break;
    case "ki2": player = JKFPlayer.parseKI2(text); break;
    case "csa": player = JKFPlayer.parseCSA(text); break;
    case "jkf": player = new JKFPlayer(JSON.parse(text)); break;
    default: throw new Error(`json-kifu-format reads no ${format}`);
  }
  const moves = [];
  let special = null;
  for (const m of player.kifu.moves.slice(1)) {
    if (m.special) { special = m.special; break; }
    const mv = m.move;
    if (!mv) continue;
    if (mv.from) {
      moves.push(usiSquare(mv.from) + usiSquare(mv.to) + (mv.promote ? "+" : ""));
    } else {
      moves.push(`${SFEN_LETTERS[mv.piece]}*${usiSquare(mv.to)}`);
    }
  }
  player.goto(Infinity);
  const sfen = player.shogi.toSFENString(1).split(" ").slice(0, 3).join(" ");
  return { moves, special, sfen };
}

function withTsshogi(text, format) {
  let record;
  switch (format) {
    case "kif": record = tsshogi.importKIF(text); break;
    case "ki2": record = tsshogi.importKI2(text); break;
    case "csa": record = tsshogi.importCSA(text); break;
    case "jkf": record = tsshogi.importJKFString(text); break;
    default: throw new Error(`tsshogi reads no ${format}`);
  }
  if (record instanceof Error) throw record;
  const moves = [];
  let special = null;
  for (const node of record.moves.slice(1)) {
    const m = node.move;
    if (m instanceof tsshogi.Move) {
      moves.push(m.usi);
    } else {
      special = m.type === "any" ? m.name : m.type;
      break;
    }
  }
  record.goto(Number.MAX_SAFE_INTEGER);
  const sfen = record.position.sfen.split(" ").slice(0, 3).join(" ");
  return { moves, special, sfen };
}

const list = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
for (const item of list) {
  const text = read(item.file);
  for (const [library, f] of [["json-kifu-format", withJkf], ["tsshogi", withTsshogi]]) {
    let out;
    try {
      out = { file: item.file, library, ...f(text, item.format) };
    } catch (e) {
      out = { file: item.file, library, error: String(e).slice(0, 300) };
    }
    console.log(JSON.stringify(out));
  }
}
