#!/usr/bin/env node
// lishogi's rules of chu shogi as an oracle for koma: npm `shogiops` (the
// rules library of lishogi.org, GPL, used as an outside program only),
// pinned to 0.18.0 in package.json and package-lock.json. Set-up, from the
// repository root:
//
//     npm ci --prefix tests/shogiops
//
// Commands (SFEN as lishogi writes chu: `board b|w square|- move`, the third
// field the square where a lion was just captured by another piece):
//
//   node tests/shogiops/chu.mjs moves          SFENs on stdin, one a line;
//        prints `sfen<TAB>result<TAB>moves<TAB>exceptions` for each
//   node tests/shogiops/chu.mjs perft SFEN DEPTH
//        leaves counted two ways: `routes N` (every move shogiops lists) and
//        `merged N` (moves with the same result counted once)
//   node tests/shogiops/chu.mjs generate [--games N] [--seed S] [--plies P]
//        the data file tests/shogiops/chu-shogi.tsv (to stdout), below
//   node tests/shogiops/chu.mjs play [--games N] [--seed S] [--plies P]
//        random games for the differential harness: one line per position
//        reached, `game<TAB>ply<TAB>sfen<TAB>result<TAB>moves<TAB>exceptions`,
//        each game's moves listed in the order they were played (`#` lines
//        give the seed and style)
//
// Moves are written as koma writes them, one per result: shogiops lists a
// lion's step to an empty square and on to another square beside its jump
// there, and a pass through every empty square it could use; here a route
// through an empty square to another square is the plain move (`7g7e`), and
// a pass is written through the empty square koma names (the lowest by
// koma's numbering: rank from sente's side, then file from sente's left).
// A move that captures on the way keeps its three squares (`7g7f7e`).
// result: `-` while the game goes on, else `WINNER:REASON` in shogiops'
// words (kingslost, stalemate, bareking, draw); moves are sorted,
// space-separated, empty once the game is over.
// exceptions: the moves the published rules allow and shogiops refuses: a
// lion that takes a pawn or go-between next to it and then a lion beyond it
// that only the taken piece protected (shogiops counts the taken piece as a
// protector still). koma plays them (see variants/chu-shogi.md).
import { makeSfen } from 'shogiops/sfen';
import { makeUsi, squareDist, opposite } from 'shogiops/util';
import { secondLionStepDests } from 'shogiops/variant/chushogi';
import { kingAttacks } from 'shogiops/attacks';
import * as common from './common.mjs';

const { withPromotions, result, fnv, mulberry32, pick, options, serveLines, oracleVersion } = common;
const RULES = 'chushogi';
const START = 'lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1';
const LION_POWER = ['lion', 'lionpromoted', 'eagle', 'falcon'];
const LIONS = ['lion', 'lionpromoted'];

const position = sfen => common.position(RULES, sfen);

// shogiops squares: index = rank * 16 + file, rank 0 = a (top), file 0 = 1.
const file = sq => sq & 15;
const rank = sq => sq >> 4;
/** koma's number of a square on 12×12: rank from the bottom, file from the left. */
const komaIndex = sq => (11 - rank(sq)) * 12 + (11 - file(sq));

/** Every move shogiops lists, as `{ move, usi }` with koma's name for it. */
function routes(pos) {
  const out = [];
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      out.push(...withPromotions(pos, from, to));
      if (LION_POWER.includes(piece.role)) {
        for (const end of secondLionStepDests(pos, from, to)) out.push({ from, to: end, midStep: to });
      }
    }
  }
  return out;
}

/** Every route with koma's name for its result. */
function named(pos) {
  const list = routes(pos);
  // A pass is named through the lowest empty square (koma's numbering).
  const passes = new Map();
  for (const m of list) {
    if (m.midStep !== undefined && m.to === m.from && !pos.board.get(m.midStep)) {
      const best = passes.get(m.from);
      if (best === undefined || komaIndex(m.midStep) < komaIndex(best)) passes.set(m.from, m.midStep);
    }
  }
  return list.map(m => {
    let name;
    if (m.midStep === undefined || pos.board.get(m.midStep)) name = makeUsi(m);
    else if (m.to !== m.from) name = makeUsi({ from: m.from, to: m.to });
    else name = makeUsi({ from: m.from, to: m.from, midStep: passes.get(m.from) });
    return { move: m, name };
  });
}

/** The legal moves one per result, with koma's names, sorted. */
function moves(pos) {
  return [...new Set(named(pos).map(n => n.name))].sort();
}

/**
 * The moves the published rules allow and shogiops refuses: a lion takes a
 * pawn or go-between next to it, then a lion two away from its start that
 * nothing but the taken piece protects.
 */
function exceptions(pos) {
  const out = [];
  const us = pos.turn;
  const them = opposite(us);
  for (const from of pos.board.color(us)) {
    const piece = pos.board.get(from);
    if (!LIONS.includes(piece.role)) continue;
    for (const mid of kingAttacks(from)) {
      const taken = pos.board.get(mid);
      if (!taken || taken.color !== them || !['pawn', 'gobetween'].includes(taken.role)) continue;
      const legal = secondLionStepDests(pos, from, mid);
      for (const to of kingAttacks(mid)) {
        const victim = pos.board.get(to);
        if (!victim || victim.color !== them || !LIONS.includes(victim.role)) continue;
        if (squareDist(from, to) < 2 || legal.has(to)) continue;
        // Protection after the move: the lion on `to`, `from` and `mid` empty.
        const after = pos.clone();
        after.board.take(from);
        after.board.take(mid);
        after.board.set(to, piece);
        if (after.squareAttackers(to, them, after.board.occupied).isEmpty()) {
          out.push(makeUsi({ from, to, midStep: mid }));
        }
      }
    }
  }
  return out.sort();
}

/** The line of one position. */
function line(pos) {
  const res = result(pos);
  const over = res !== '-';
  return [makeSfen(pos), res, over ? '' : moves(pos).join(' '), over ? '' : exceptions(pos).join(' ')].join('\t');
}

function perft(pos, depth, merged) {
  if (depth < 1) return 1;
  let list = routes(pos).map(m => {
    const child = pos.clone();
    child.play(m);
    return child;
  });
  if (merged) {
    const seen = new Map();
    for (const child of list) seen.set(makeSfen(child), child);
    list = [...seen.values()];
  }
  if (depth === 1) return list.length;
  let n = 0;
  for (const child of list) n += perft(child, depth - 1, merged);
  return n;
}

const STYLES = ['capture', 'random', 'lion'];

/** A move for a random game: by style, captures or lion moves favoured. */
function choose(rng, style, pos) {
  const list = routes(pos);
  if (style === 'capture' || style === 'lion') {
    const caps = list.filter(m => pos.board.get(m.to)?.color === opposite(pos.turn) ||
      (m.midStep !== undefined && pos.board.get(m.midStep)?.color === opposite(pos.turn)));
    if (caps.length && rng() < 0.6) return pick(rng, caps);
  }
  if (style === 'lion') {
    const lions = list.filter(m => LION_POWER.includes(pos.board.get(m.from).role));
    if (lions.length && rng() < 0.5) return pick(rng, lions);
  }
  return pick(rng, list);
}

/** Random games from the start: `visit(game, ply, pos)` for every position. */
function games(args, visit) {
  const count = Number(args.games ?? 20);
  const seed0 = Number(args.seed ?? 1);
  const plies = Number(args.plies ?? 200);
  for (let g = 0; g < count; g++) {
    const rng = mulberry32(seed0 + g);
    const style = STYLES[g % STYLES.length];
    const pos = position(START);
    for (let ply = 0; ; ply++) {
      const over = pos.outcome() !== undefined;
      if (visit(g, ply, pos, style) === false || over || ply === plies) break;
      pos.play(choose(rng, style, pos));
    }
  }
}

/** Whether a lion may take a lion two away or a lion capture limits the move: rules in play. */
function tradeInPlay(pos) {
  if (pos.lastLionCapture !== undefined) return true;
  for (const from of pos.board.color(pos.turn)) {
    if (!LIONS.includes(pos.board.get(from).role)) continue;
    for (const sq of pos.board.color(opposite(pos.turn))) {
      if (LIONS.includes(pos.board.get(sq).role) && squareDist(from, sq) === 2) return true;
    }
  }
  return false;
}

function generate(args) {
  const wanted = Number(args.positions ?? 24);
  const picked = [];
  const seen = new Set();
  const add = (pos, why, ended = false) => {
    const key = makeSfen(pos).split(' ').slice(0, 3).join(' ');
    if (seen.has(key) || (!ended && pos.outcome() !== undefined)) return;
    seen.add(key);
    picked.push([pos.clone(), why]);
  };
  // Candidates from random games: positions where the lion-trading rules
  // are in play, then others with promoted pieces and lions.
  const trade = [];
  const promoted = [];
  games(args, (g, ply, pos) => {
    if (ply < 10) return;
    const board = makeSfen(pos).split(' ')[0];
    const lions = (board.match(/n|\+o/gi) ?? []).length;
    if (tradeInPlay(pos)) trade.push(pos.clone());
    else if (board.includes('+') && lions > 0 && ply % 7 === 0) promoted.push(pos.clone());
  });
  for (const p of trade.filter(p => p.lastLionCapture !== undefined).slice(0, wanted / 3)) add(p, 'lion just captured');
  for (const p of trade.filter(p => p.lastLionCapture === undefined).slice(0, wanted / 3)) add(p, 'lion two away from a lion');
  for (const p of promoted) if (picked.length < wanted) add(p, 'promoted pieces and lions');
  // The documented exception, by hand: sente's lion on 6g, gote's go-between
  // on 6f, gote's lion on 6e protected by the go-between only.
  add(position('6k5/12/12/12/12/12/6n5/6i5/6N5/12/12/5K6 b - 1'), 'the protector taken first (exception)');
  // Bare kings and lone kings, by hand: bared with either side to move, a
  // counted piece next to the bare king (not bared), one not next to it
  // (bared), king against king, only uncounted pawns, a dead pawn on the
  // last rank (not counted), a king and a prince (not one royal).
  for (const sfen of [
    '6k5/12/12/12/3g1g6/12/12/12/12/12/12/5K6 b - 1',
    '6k5/12/12/12/3g1g6/12/12/12/12/12/12/5K6 w - 1',
    '6k5/12/12/12/12/12/12/12/12/12/5g6/5K6 b - 1',
    '6k5/12/12/12/12/12/12/12/12/12/12/3g1K6 b - 1',
    '6k5/12/12/12/12/12/12/12/12/12/12/5K6 b - 1',
    '6k5/ppp9/12/12/12/12/12/12/12/12/12/5K6 b - 1',
    'P5k5/12/12/12/3g1g6/12/12/12/12/12/12/5K6 b - 1',
    '6k+e4/12/12/12/3g1g6/12/12/12/12/12/12/5K6 b - 1',
    '6k5/12/12/12/12/12/12/12/12/12/4K7/4g7 b - 1',
  ]) add(position(sfen), 'bare or lone kings', true);
  const header = [
    "# Chu shogi positions with their legal moves by lishogi's rules, one per result, and each move's replies.",
    '# Generated by tests/shogiops/chu.mjs (see its head); do not edit by hand.',
    `# command: node tests/shogiops/chu.mjs generate --games ${args.games ?? 20} --seed ${args.seed ?? 1} --plies ${args.plies ?? 200} --positions ${wanted}`,
    `# oracle: ${oracleVersion(RULES)}`,
    `# date: ${new Date().toISOString().slice(0, 10)}`,
    '# lines: `position<TAB>sfen<TAB>result<TAB>moves<TAB>exceptions<TAB>why`, then for each move',
    '#   `reply<TAB>move<TAB>result after it<TAB>number of replies<TAB>FNV-1a 64 of the sorted replies joined by spaces`',
    '#   (the replies: the moves and the exceptions of the position after the move; none once the game is over)',
  ];
  const lines = [];
  picked.forEach(([pos, why], i) => {
    lines.push(`position\t${line(pos)}\t${why}`);
    for (const usi of result(pos) === '-' ? moves(pos) : []) {
      const child = childOf(pos, usi);
      const res = result(child);
      // What koma should list: shogiops' moves and the exceptions.
      const replies = res === '-' ? [...new Set(moves(child).concat(exceptions(child)))].sort() : [];
      lines.push(`reply\t${usi}\t${res}\t${replies.length}\t${fnv(replies.join(' '))}`);
    }
  });
  process.stdout.write(header.concat(lines).join('\n') + '\n');
}

/** The position after the move koma names `usi`. */
function childOf(pos, usi) {
  const found = named(pos).find(n => n.name === usi);
  if (!found) throw new Error(`no route of ${usi} in ${makeSfen(pos)}`);
  const child = pos.clone();
  child.play(found.move);
  return child;
}

function play(args) {
  const header = (g, style) => `# game ${g} seed ${Number(args.seed ?? 1) + g} style ${style}`;
  let last = -1;
  games(args, (g, ply, pos, style) => {
    if (g !== last) {
      console.log(header(g, style));
      last = g;
    }
    console.log(`${g}\t${ply}\t${line(pos)}`);
  });
}

const [cmd, ...rest] = process.argv.slice(2);
if (cmd === 'moves') {
  await serveLines(sfen => line(position(sfen)));
} else if (cmd === 'perft') {
  const pos = position(rest[0]);
  const d = Number(rest[1]);
  console.log(`routes ${perft(pos, d, false)}`);
  console.log(`merged ${perft(pos, d, true)}`);
} else if (cmd === 'generate') {
  generate(options(rest));
} else if (cmd === 'play') {
  play(options(rest));
} else {
  process.stderr.write('usage: chu.mjs moves | perft SFEN DEPTH | generate [--games N] [--seed S] [--plies P] | play [...]\n');
  process.exit(2);
}
