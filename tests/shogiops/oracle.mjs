#!/usr/bin/env node
// lishogi's rules of check shogi and annan shogi as an oracle for koma: npm
// `shogiops` (the rules library of lishogi.org, GPL, used as an outside
// program only), pinned to 0.18.0 in package.json and package-lock.json.
// Set-up, from the repository root:
//
//     npm ci --prefix tests/shogiops
//
// The first argument names the game by shogiops' rules name, `checkshogi`
// or `annanshogi`; then the command (SFEN: `board b|w hands move`, b =
// sente; moves in USI: 7g7f, 8h2b+ promotes, P*5e drops):
//
//   node tests/shogiops/oracle.mjs RULES moves     SFENs on stdin, one a line;
//        prints `sfen<TAB>result<TAB>moves[<TAB>exceptions]` for each (below)
//   node tests/shogiops/oracle.mjs RULES perft SFEN DEPTH
//        leaf count of the legal move tree; a position whose game is over
//        (shogiops' outcome()) has no moves
//   node tests/shogiops/oracle.mjs RULES generate [--games N] [--seed S] [--plies P] [--every K]
//        the data file tests/shogiops/check-shogi.tsv or annan-shogi.tsv (to
//        stdout): random games from the start (see below); for check shogi,
//        then the shogi positions of tests/oracle/drop-mates.tsv read as check
//        shogi positions
//   node tests/shogiops/oracle.mjs RULES play [--games N] [--seed S] [--plies P]
//        random games for the differential harness (tests/diff/shogiops.py):
//        one line per position reached, `game<TAB>ply<TAB>` and the line of
//        `moves` (`#` lines give each game's seed and style)
//
// Output lines: `sfen<TAB>result<TAB>moves[<TAB>exceptions]`, where result is
// `-` while the game goes on, else `WINNER:REASON` (winner `sente`, `gote` or
// `none`; reason as shogiops names it: checkmate; specialVariantEnd = the
// side to move is in check, which ends check shogi; stalemate = no legal
// move, a loss; draw = both sides have fewer than two pieces on board and in
// hand). moves are the legal moves of the side to move, sorted by string,
// space-separated; empty where the game is over (shogiops would still list
// moves there, but no move is played after the end).
//
// exceptions (annan shogi only; check shogi's lines have three columns): where shogiops' legality
// test differs from its own movement rule. For each board move of the
// movement shogiops gives a piece (that of the friend behind it, else its
// own), the move is played and the mover's king tested against every
// attack of the opponent (shogiops' squareAttackers, which sees borrowed
// movement): `+MOVE` for a move the rule allows that shogiops does not
// list, `-MOVE` for one it lists that leaves the king attacked. shogiops
// decides some cases by shortcuts (a pinned piece keeps at most one move off
// its line; a capture of an attacker's lender is tested against that
// attacker's own movement with the occupancy before the move); koma tries
// every move, so its list is moves with the `+` added and the `-` taken away.
//
// Random games (generate, play): game g uses seed S + g in mulberry32. Each
// ply picks, by g mod 3: `random` a uniformly random legal move; `capture` a
// capture with probability 0.5 if there is one, else a drop with
// probability 0.3, else any; `quiet` a move that gives no check with
// probability 0.9 if there is one (games then last long enough for hands to
// fill), else any; never a `-` exception (a move that leaves the mover's
// king attacked, from which the game would go on in a position the rules
// cannot reach). A game stops when shogiops says it is over or after P
// plies, or when every move shogiops lists is refused. generate writes of each game the positions of every K-th ply, its
// last two (the end and the position that led to it) and, for annan shogi,
// every position in check or with an exception, each position once (the
// first time it is met, by SFEN without the move number).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeSfen, initialSfen } from 'shogiops/sfen';
import { makeUsi, parsePieceName, opposite } from 'shogiops/util';
import { attacks } from 'shogiops/attacks';
import { directlyBehind } from 'shogiops/variant/annanshogi';
import { HERE, position, withPromotions, result, mulberry32, pick, options, serveLines, oracleVersion } from './common.mjs';

/** The games this script plays: their data file and whether exceptions are looked for. */
const GAMES = {
  checkshogi: { file: 'check-shogi.tsv', title: 'Check shogi', borrows: false },
  annanshogi: { file: 'annan-shogi.tsv', title: 'Annan shogi', borrows: true },
};

const [RULES, cmd, ...rest] = process.argv.slice(2);
const GAME = GAMES[RULES];

/** The legal moves as shogiops has them (whether or not the game is over). */
function dests(pos) {
  const out = [];
  for (const [from, to] of pos.allMoveDests()) {
    for (const t of to) out.push(...withPromotions(pos, from, t));
  }
  for (const [name, to] of pos.allDropDests()) {
    const { role } = parsePieceName(name);
    for (const t of to) out.push({ role, to: t });
  }
  return out;
}

/**
 * Annan shogi's board moves by its movement rule, each tried: every move of
 * the movement a piece has (the friend's behind it, else its own) after
 * which no piece of the opponent attacks the mover's king.
 */
function tried(pos) {
  const us = pos.turn;
  const out = [];
  for (const from of pos.board.color(us)) {
    const piece = pos.board.get(from);
    const behind = pos.board.get(directlyBehind(us, from));
    const mover = behind?.color === us ? behind : piece;
    const targets = attacks(mover, from, pos.board.occupied).diff(pos.board.color(us));
    for (const to of targets) {
      if (to < 0 || (to & 15) > 8 || to >> 4 > 8) continue;
      for (const m of withPromotions(pos, from, to)) {
        const child = pos.clone();
        child.play(m);
        const king = child.kingsOf(us).singleSquare();
        if (king === undefined || child.squareAttackers(king, opposite(us), child.board.occupied).isEmpty()) out.push(m);
      }
    }
  }
  return out;
}

/** `+MOVE` for a move the rule allows that shogiops does not list, `-MOVE` for the reverse. */
function exceptions(pos, listed) {
  if (!GAME.borrows) return [];
  const theirs = new Set(listed.filter(m => m.from !== undefined).map(makeUsi));
  const ours = new Set(tried(pos).map(makeUsi));
  const out = [];
  for (const m of ours) if (!theirs.has(m)) out.push(`+${m}`);
  for (const m of theirs) if (!ours.has(m)) out.push(`-${m}`);
  return out.sort();
}

/**
 * One position looked at: its result, the moves shogiops lists, the
 * exceptions, and the moves a random game may play (those listed, less the
 * ones that leave the king attacked: a game never goes on from a position
 * the rules cannot reach).
 */
function analyse(pos) {
  const res = result(pos);
  const listed = res === '-' ? dests(pos) : [];
  const exc = exceptions(pos, listed);
  const refused = new Set(exc.filter(e => e.startsWith('-')).map(e => e.slice(1)));
  const playable = refused.size ? listed.filter(m => !refused.has(makeUsi(m))) : listed;
  return { res, listed, exc, playable };
}

/** The line of one position: sfen, result, moves and exceptions (none after the end). */
function line(pos, info = analyse(pos)) {
  const moves = info.listed.map(makeUsi).sort();
  const cols = [makeSfen(pos), info.res, moves.join(' ')];
  if (GAME.borrows) cols.push(info.exc.join(' '));
  return cols.join('\t');
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

const STYLES = ['random', 'capture', 'quiet'];

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

/**
 * Random games from the start: `visit(game, ply, pos, style, last, info)`
 * for every position (info: its `analyse`); moves from `info.playable`.
 */
function games(args, visit) {
  const count = Number(args.games ?? 120);
  const seed0 = Number(args.seed ?? 1);
  const plies = Number(args.plies ?? 160);
  for (let g = 0; g < count; g++) {
    const rng = mulberry32(seed0 + g);
    const style = STYLES[g % STYLES.length];
    const pos = position(RULES, initialSfen(RULES));
    for (let ply = 0; ; ply++) {
      const info = analyse(pos);
      const last = info.res !== '-' || ply === plies || info.playable.length === 0;
      visit(g, ply, pos, style, last, info);
      if (last) break;
      pos.play(choose(rng, style, pos, info.playable));
    }
  }
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
  const count = Number(args.games ?? 120);
  const seed0 = Number(args.seed ?? 1);
  const plies = Number(args.plies ?? 160);
  const every = Number(args.every ?? 8);
  const seen = new Set();
  const lines = [];
  const tally = { positions: 0, over: 0, check: 0, stalemate: 0, checkmate: 0, inCheck: 0, exceptions: 0, hand: 0, promoted: 0, plies: 0 };
  const add = (pos, info) => {
    const l = line(pos, info);
    const [sfen, res, , exc] = l.split('\t');
    if (seen.has(key(sfen))) return;
    seen.add(key(sfen));
    lines.push(l);
    tally.positions += 1;
    if (res !== '-') tally.over += 1;
    if (res.endsWith(':specialVariantEnd')) tally.check += 1;
    if (res.endsWith(':stalemate')) tally.stalemate += 1;
    if (res.endsWith(':checkmate')) tally.checkmate += 1;
    if (pos.isCheck()) tally.inCheck += 1;
    if (exc) tally.exceptions += exc.split(' ').length;
    if (sfen.split(' ')[2] !== '-') tally.hand += 1;
    if (sfen.split(' ')[0].includes('+')) tally.promoted += 1;
  };
  let previous;
  games(args, (g, ply, pos, style, last, info) => {
    if (ply === 0) previous = undefined;
    const wanted = ply % every === 0 || last || (GAME.borrows && (pos.isCheck() || info.exc.length > 0));
    if (wanted) add(pos, info);
    if (last && previous) add(previous);
    previous = pos.clone();
    if (!last) tally.plies += 1;
  });
  const random = { ...tally };
  const header = [
    `# ${GAME.title} positions with their legal moves and outcome by lishogi's rules.`,
    '# Generated by tests/shogiops/oracle.mjs (see its head); do not edit by hand.',
    `# command: node tests/shogiops/oracle.mjs ${RULES} generate --games ${count} --seed ${seed0} --plies ${plies} --every ${every}`,
    `# oracle: ${oracleVersion(RULES)}`,
    `# date: ${new Date().toISOString().slice(0, 10)}`,
    `# set: ${random.positions} distinct positions from ${count} random games (seeds ${seed0}..${seed0 + count - 1}, ` +
      `at most ${plies} plies, ${random.plies} plies in all; every ${every}th ply and the last two of each game` +
      `${GAME.borrows ? ', every position in check or with an exception' : ''}): ` +
      (GAME.borrows
        ? `${random.inCheck} in check, ${random.checkmate} checkmates, ${random.stalemate} stalemates, ${random.exceptions} exceptions, `
        : `${random.check} ended by check, ${random.stalemate} by stalemate, `) +
      `${random.hand} with pieces in hand, ${random.promoted} with promoted pieces`,
  ];
  if (RULES === 'checkshogi') {
    // The drop-mate positions of shogi, read as check shogi positions: a pawn
    // drop there would mate, which shogiops forbids.
    const dm = readFileSync(join(HERE, '..', 'oracle', 'drop-mates.tsv'), 'utf8')
      .split('\n')
      .filter(l => l.startsWith('shogi\t'))
      .map(l => fenToSfen(l.split('\t')[1]));
    const before = tally.positions;
    for (const sfen of dm) add(position(RULES, sfen));
    header.push(`# set: ${tally.positions - before} positions of tests/oracle/drop-mates.tsv (shogi) read as check shogi ` +
      `(${dm.length} lines; a pawn drop there would mate)`);
  }
  header.push('# columns: sfen<TAB>result (- or WINNER:REASON)<TAB>sorted legal moves (USI; empty once the game is over)' +
    (GAME.borrows ? '<TAB>exceptions (+MOVE: allowed by the movement rule, not listed; -MOVE: listed, leaves the king attacked)' : ''));
  process.stdout.write(header.concat(lines).join('\n') + '\n');
}

function play(args) {
  let last = -1;
  games(args, (g, ply, pos, style, _last, info) => {
    if (g !== last) {
      console.log(`# game ${g} seed ${Number(args.seed ?? 1) + g} style ${style}`);
      last = g;
    }
    console.log(`${g}\t${ply}\t${line(pos, info)}`);
  });
}

if (GAME === undefined) {
  process.stderr.write(`usage: oracle.mjs RULES moves | perft SFEN DEPTH | generate [--games N] [--seed S] [--plies P] [--every K] | play [...]\n` +
    `  RULES: ${Object.keys(GAMES).join(', ')}\n`);
  process.exit(2);
} else if (cmd === 'moves') {
  await serveLines(sfen => line(position(RULES, sfen)));
} else if (cmd === 'perft') {
  console.log(perft(position(RULES, rest[0]), Number(rest[1])));
} else if (cmd === 'generate') {
  generate(options(rest));
} else if (cmd === 'play') {
  play(options(rest));
} else {
  process.stderr.write('usage: oracle.mjs RULES moves | perft SFEN DEPTH | generate [...] | play [...]\n');
  process.exit(2);
}
