// The shogiops oracle for koma: legal moves and perft of an SFEN, by
// lishogi's rules library (npm shogiops, version pinned in package.json).
//
//   node moves.mjs moves RULES SFEN            one legal move a line: its USI
//                                              (`from mid to` for a lion's double
//                                              move) and the SFEN after it
//   node moves.mjs perft RULES SFEN DEPTH      leaves counted two ways: every
//                                              route, and moves with one result
//                                              merged (same SFEN after them)
//
// RULES is a shogiops rules name (`chushogi`, `standard`, ...). Moves are
// listed as shogiops' own perft (src/debug.ts) walks them: every destination
// of `allMoveDests`, promoting where `pieceCanPromote` says (unpromoted too
// unless `pieceForcePromote`), drops from `allDropDests`, and for the pieces
// with the lion's power every second step of `secondLionStepDests`.
import { makeUsi } from 'shogiops/util';
import { parseSfen, makeSfen } from 'shogiops/sfen';
import { secondLionStepDests } from 'shogiops/variant/chushogi';
import {
  pieceCanPromote,
  pieceForcePromote,
  promotableOnDrop,
  promote,
} from 'shogiops/variant/util';

const LION_POWER = ['lion', 'lionpromoted', 'eagle', 'falcon'];

/** Every legal move of `pos` as `[move, position after]`. */
function moves(pos) {
  const out = [];
  const after = move => {
    const child = pos.clone();
    child.play(move);
    out.push([move, child]);
  };
  for (const [from, dests] of pos.allMoveDests()) {
    const piece = pos.board.get(from);
    for (const to of dests) {
      if (pieceCanPromote(pos.rules)(piece, from, to, pos.board.get(to))) {
        after({ from, to, promotion: true });
        if (!pieceForcePromote(pos.rules)(piece, to)) after({ from, to, promotion: false });
      } else after({ from, to, promotion: false });
      if (pos.rules === 'chushogi' && LION_POWER.includes(piece.role)) {
        for (const end of secondLionStepDests(pos, from, to)) {
          after({ from, to: end, midStep: to });
        }
      }
    }
  }
  for (const [name, dests] of pos.allDropDests()) {
    const [color, role] = name.split(' ');
    const piece = { color, role };
    const roles = [role];
    if (promotableOnDrop(pos.rules)(piece)) roles.push(promote(pos.rules)(role));
    for (const r of roles) for (const to of dests) after({ role: r, to });
  }
  return out;
}

function perft(pos, depth, merged) {
  if (depth < 1) return 1;
  let list = moves(pos);
  if (merged) {
    const seen = new Map();
    for (const [m, child] of list) seen.set(makeSfen(child), [m, child]);
    list = [...seen.values()];
  }
  if (depth === 1) return list.length;
  let n = 0;
  for (const [, child] of list) n += perft(child, depth - 1, merged);
  return n;
}

const [command, rules, sfen, depth] = process.argv.slice(2);
const pos = parseSfen(rules, sfen ?? '', false).unwrap(
  p => p,
  e => {
    console.error(`not a ${rules} SFEN: ${e.message}`);
    process.exit(2);
  }
);
if (command === 'moves') {
  for (const [m, child] of moves(pos)) console.log(`${makeUsi(m)}\t${makeSfen(child)}`);
} else if (command === 'perft') {
  const d = Number(depth);
  console.log(`routes ${perft(pos, d, false)}`);
  console.log(`merged ${perft(pos, d, true)}`);
} else {
  console.error('usage: node moves.mjs moves|perft RULES SFEN [DEPTH]');
  process.exit(2);
}
