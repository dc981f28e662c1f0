// What the shogiops oracles share (oracle.mjs for check and annan shogi,
// chu.mjs for chu shogi): reading an SFEN, a position's legal moves with
// their promotion choices, its outcome in shogiops' words, a seeded PRNG,
// the command-line options, the `moves` loop over stdin and the version
// line of a data file's header. npm `shogiops` (GPL) is used as an outside
// program only, never copied.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSfen } from 'shogiops/sfen';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';

export const HERE = dirname(fileURLToPath(import.meta.url));

/** The position of an SFEN under shogiops' `rules`; throws if refused. */
export function position(rules, sfen) {
  const r = parseSfen(rules, sfen, false);
  if (r.isErr) throw new Error(`shogiops refuses ${sfen}: ${r.error.message}`);
  return r.value;
}

/** The moves of the piece on `from` to `to`: promoting, not, or both, as shogiops allows. */
export function withPromotions(pos, from, to) {
  const piece = pos.board.get(from);
  if (!pieceCanPromote(pos.rules)(piece, from, to, pos.board.get(to))) return [{ from, to, promotion: false }];
  const out = [{ from, to, promotion: true }];
  if (!pieceForcePromote(pos.rules)(piece, to)) out.push({ from, to, promotion: false });
  return out;
}

/** The outcome in shogiops' words: `-` while the game goes on, else `WINNER:REASON`. */
export function result(pos) {
  const o = pos.outcome();
  return o === undefined ? '-' : `${o.winner ?? 'none'}:${o.result}`;
}

/** A small seeded PRNG (mulberry32): the same games on every run. */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick(rng, list) {
  return list[Math.floor(rng() * list.length)];
}

/** `--key value` pairs as an object. */
export function options(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--')) throw new Error(`unexpected ${argv[i]}`);
    out[argv[i].slice(2)] = argv[i + 1];
  }
  return out;
}

/** 64-bit FNV-1a of a text, in hex: the digest of a move list. */
export function fnv(text) {
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(text, 'utf8')) {
    h ^= BigInt(b);
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, '0');
}

/** SFENs on stdin, one a line: prints `line(sfen)` for each, or `error<TAB>why`. */
export async function serveLines(line) {
  const rl = createInterface({ input: process.stdin });
  for await (const l of rl) {
    if (!l.trim()) continue;
    try {
      console.log(line(l.trim()));
    } catch (e) {
      console.log(`error\t${e.message}`);
    }
  }
}

/** `npm shogiops X (rules 'R'), node V`: the oracle line of a data file's header. */
export function oracleVersion(rules) {
  const pkg = JSON.parse(readFileSync(join(HERE, 'node_modules', 'shogiops', 'package.json'), 'utf8'));
  return `npm shogiops ${pkg.version} (rules '${rules}'), node ${process.version}`;
}
