#!/usr/bin/env node
// lishogi's rules of check shogi as an oracle for koma: npm `shogiops` (the
// rules library of lishogi.org), pinned to 0.18.0 in package.json and
// package-lock.json. Set-up, from the repository root:
//
//     npm ci --prefix tests/shogiops
//
// Commands (SFEN: `board b|w hands move`, b = sente; moves in USI: 7g7f,
// 8h2b+ promotes, P*5e drops):
//
//   node tests/shogiops/oracle.mjs moves         SFENs on stdin, one a line;
//        prints `sfen<TAB>result<TAB>moves` for each (format below)
//   node tests/shogiops/oracle.mjs perft SFEN DEPTH
//        leaf count of the legal move tree; a position whose game is over
//        (shogiops' outcome()) has no moves
//   node tests/shogiops/oracle.mjs generate [--games N] [--seed S] [--plies P] [--every K]
//        the data file tests/shogiops/check-shogi.tsv (to stdout): random
//        games from the start (see below), then the shogi positions of
//        tests/oracle/drop-mates.tsv read as check shogi positions
//
// Output lines: `sfen<TAB>result<TAB>moves`, where result is `-` while the
// game goes on, else `WINNER:REASON` (winner `sente`, `gote` or `none`;
// reason as shogiops names it: specialVariantEnd = the side to move is in
// check, which ends check shogi; stalemate = no legal move, a loss; draw =
// both sides have fewer than two pieces on board and in hand). moves are
// the legal moves of the side to move, sorted by string, space-separated;
// empty where the game is over (shogiops would still list moves there, but
// no move is played after the end).
//
// Random games (generate): game g uses seed S + g in a small seeded PRNG
// (mulberry32), so the file is the same on every run. Each ply picks, by
// g mod 3: `random` a uniformly random legal move; `capture` a capture with
// probability 0.5 if there is one, else a drop with probability 0.3, else
// any; `quiet` a move that gives no check with probability 0.9 if there is
// one (games then last long enough for hands to fill), else any. A game
// stops when shogiops says it is over or after P plies. Of each game, the
// positions of every K-th ply and its last two (the end and the position
// that led to it, where a checking move is there to be found) are written,
// each position once (the first time it is met, by SFEN without the move
// number).
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseSfen, makeSfen, initialSfen } from 'shogiops/sfen';
import { makeUsi, parsePieceName } from 'shogiops/util';
import { pieceCanPromote, pieceForcePromote } from 'shogiops/variant/util';

const RULES = 'checkshogi';
const HERE = dirname(fileURLToPath(import.meta.url));

function position(sfen) {
  const r = parseSfen(RULES, sfen, false);
  if (r.isErr) throw new Error(`shogiops refuses ${sfen}: ${r.error.message}`);
  return r.value;
}

/** The legal moves as shogiops has them (whether or not the game is over). */
function dests(pos) {
  const out = [];
  for (const [from, to] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const t of to) {
      if (pieceCanPromote(pos.rules)(piece, from, t, pos.board.get(t))) {
        out.push({ from, to: t, promotion: true });
        if (!pieceForcePromote(pos.rules)(piece, t)) out.push({ from, to: t, promotion: false });
      } else out.push({ from, to: t, promotion: false });
    }
  }
  for (const [name, to] of pos.allDropDests()) {
    const { role } = parsePieceName(name);
    for (const t of to) out.push({ role, to: t });
  }
  return out;
}

function result(pos) {
  const o = pos.outcome();
  return o === undefined ? '-' : `${o.winner ?? 'none'}:${o.result}`;
}

/** The line of one position: sfen, result, moves (none after the end). */
function line(pos) {
  const res = result(pos);
  const moves = res === '-' ? dests(pos).map(makeUsi).sort() : [];
  return `${makeSfen(pos)}\t${res}\t${moves.join(' ')}`;
}

function perft(pos, depth) {
  if (depth === 0) return 1;
  if (pos.outcome() !== undefined) return 0;
  const moves = dests(pos);
  if (depth === 1) return moves.length;
  let n = 0;
  for (const m of moves) {
    const child = pos.clone();
    child.play(m);
    n += perft(child, depth - 1);
  }
  return n;
}

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STYLES = ['random', 'capture', 'quiet'];

function pick(rng, list) {
  return list[Math.floor(rng() * list.length)];
}

function choose(rng, style, pos, moves) {
  if (style === 'capture') {
    const caps = moves.filter(m => m.from !== undefined && pos.board.get(m.to));
    const drops = moves.filter(m => m.from === undefined);
    if (caps.length && rng() < 0.5) return pick(rng, caps);
    if (drops.length && rng() < 0.3) return pick(rng, drops);
  } else if (style === 'quiet') {
    const quiet = moves.filter(m => {
      const child = pos.clone();
      child.play(m);
      return !child.isCheck();
    });
    if (quiet.length && rng() < 0.9) return pick(rng, quiet);
  }
  return pick(rng, moves);
}

/** FS FEN (`board[hands] w|b ...`, w = sente) to SFEN, for shogi boards. */
function fenToSfen(fen) {
  const [first, side] = fen.trim().split(/\s+/);
  const [board, hand = ''] = first.replace(']', '').split('[');
  const counts = new Map();
  for (const c of hand.replace('-', '')) counts.set(c, (counts.get(c) ?? 0) + 1);
  const order = 'RBGSNLPrbgsnlp';
  const hands = [...order]
    .filter(c => counts.has(c))
    .map(c => (counts.get(c) > 1 ? counts.get(c) : '') + c)
    .join('');
  return `${board} ${side === 'b' ? 'w' : 'b'} ${hands || '-'} 1`;
}

function key(sfen) {
  return sfen.split(' ').slice(0, 3).join(' ');
}

function generate(args) {
  const games = Number(args.games ?? 120);
  const seed0 = Number(args.seed ?? 1);
  const plies = Number(args.plies ?? 160);
  const every = Number(args.every ?? 8);
  const seen = new Set();
  const lines = [];
  const tally = { positions: 0, over: 0, check: 0, stalemate: 0, hand: 0, promoted: 0, plies: 0 };
  const add = pos => {
    const l = line(pos);
    const sfen = l.split('\t')[0];
    if (seen.has(key(sfen))) return;
    seen.add(key(sfen));
    lines.push(l);
    tally.positions += 1;
    const res = l.split('\t')[1];
    if (res !== '-') tally.over += 1;
    if (res.endsWith(':specialVariantEnd')) tally.check += 1;
    if (res.endsWith(':stalemate')) tally.stalemate += 1;
    if (sfen.split(' ')[2] !== '-') tally.hand += 1;
    if (sfen.split(' ')[0].includes('+')) tally.promoted += 1;
  };
  for (let g = 0; g < games; g++) {
    const rng = mulberry32(seed0 + g);
    const style = STYLES[g % STYLES.length];
    const pos = position(initialSfen(RULES));
    let previous;
    for (let ply = 0; ; ply++) {
      const last = pos.outcome() !== undefined || ply === plies;
      if (ply % every === 0 || last) add(pos);
      if (last) {
        if (previous) add(previous);
        break;
      }
      previous = pos.clone();
      pos.play(choose(rng, style, pos, dests(pos)));
      tally.plies += 1;
    }
  }
  const random = { ...tally };
  // The drop-mate positions of shogi, read as check shogi positions: a pawn
  // drop there would mate, which shogiops forbids.
  const dm = readFileSync(join(HERE, '..', 'oracle', 'drop-mates.tsv'), 'utf8')
    .split('\n')
    .filter(l => l.startsWith('shogi\t'))
    .map(l => fenToSfen(l.split('\t')[1]));
  const before = tally.positions;
  for (const sfen of dm) add(position(sfen));
  const pkg = JSON.parse(readFileSync(join(HERE, 'node_modules', 'shogiops', 'package.json'), 'utf8'));
  const header = [
    '# Check shogi positions with their legal moves and outcome by lishogi\'s rules.',
    '# Generated by tests/shogiops/oracle.mjs (see its head); do not edit by hand.',
    `# command: node tests/shogiops/oracle.mjs generate --games ${games} --seed ${seed0} --plies ${plies} --every ${every}`,
    `# oracle: npm shogiops ${pkg.version} (rules 'checkshogi'), node ${process.version}`,
    `# date: ${new Date().toISOString().slice(0, 10)}`,
    `# set: ${random.positions} distinct positions from ${games} random games (seeds ${seed0}..${seed0 + games - 1}, ` +
      `at most ${plies} plies, ${random.plies} plies in all; every ${every}th ply and the last two of each game): ${random.check} ended by check, ` +
      `${random.stalemate} by stalemate, ${random.hand} with pieces in hand, ${random.promoted} with promoted pieces`,
    `# set: ${tally.positions - before} positions of tests/oracle/drop-mates.tsv (shogi) read as check shogi ` +
      `(${dm.length} lines; a pawn drop there would mate)`,
    '# columns: sfen<TAB>result (- or WINNER:REASON)<TAB>sorted legal moves (USI; empty once the game is over)',
  ];
  process.stdout.write(header.concat(lines).join('\n') + '\n');
}

function options(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i += 2) {
    if (!argv[i].startsWith('--')) throw new Error(`unexpected ${argv[i]}`);
    out[argv[i].slice(2)] = argv[i + 1];
  }
  return out;
}

const [cmd, ...rest] = process.argv.slice(2);
if (cmd === 'moves') {
  const rl = createInterface({ input: process.stdin });
  for await (const l of rl) {
    if (!l.trim()) continue;
    try {
      console.log(line(position(l.trim())));
    } catch (e) {
      console.log(`error\t${e.message}`);
    }
  }
} else if (cmd === 'perft') {
  console.log(perft(position(rest[0]), Number(rest[1])));
} else if (cmd === 'generate') {
  generate(options(rest));
} else {
  process.stderr.write('usage: oracle.mjs moves | perft SFEN DEPTH | generate [--games N] [--seed S] [--plies P]\n');
  process.exit(2);
}
