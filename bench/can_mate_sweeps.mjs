// Adversarial sweeps of "can this side still checkmate, by any legal series
// of moves (a helpmate: the opponent cooperating)?" as answered by
// `arbiter analyze --json`. This is a bench/sweep, not a test: it needs
// chasolver's line driver (../shared/peers/chasolver builds it), which is not
// part of the build, and its findings are for a person to read.
//
// For each family of positions (below) it generates --per-family random legal
// positions with a seeded PRNG, asks Arbiter about both sides of each
// (one `arbiter analyze` process per family), and then judges the answers
// independently of Arbiter:
//
//   yes      Arbiter's line is replayed with chessops: every move legal, no
//            position (the first four FEN fields, as FIDE 9.2 compares them)
//            twice on the line, the halfmove clock below 150 before every
//            move (at 150 the game is already drawn, FIDE 9.6.2), and the
//            last move, by the side asked about, checkmates. Else "bad_yes".
//   no       chasolver (one process per family) is asked the same question:
//            "unwinnable" confirms; "winnable LINE" is replayed from the FEN
//            with the real clock (repetition cycles cut out first, which only
//            lowers the clock): a legal mate by the asked side with the clock
//            below 150 before every move REFUTES the "no"; a legal mate that
//            crosses the limit counts as "past_limit" (chasolver ignores the
//            clock); "undetermined", "error" or a line that does not hold
//            up is "unchecked".
//            A "no" with proof seventy_five_move_rule is outside chasolver's
//            reach, so it is checked here by searching every line until the
//            clock reaches 150: confirmed if no line mates by the asked side
//            and no capture or pawn move (which would restart the clock) is
//            possible anywhere before that; else REFUTED.
//   unknown  chasolver is asked too; its definite answers are counted
//            ("chasolver only": what Arbiter could have decided): unwinnable,
//            and winnable with a line that mates within the clock (its
//            lines that cross the limit are counted apart: no evidence).
// The four "no" outcomes (confirmed, refuted, unchecked, past_limit) are
// disjoint and add up to the "no" column. Other columns: error (Arbiter
// answered with an error record), no_by_75 (of the "no", those with proof
// seventy_five_move_rule, judged by the search here), arbiter_s and
// chasolver_s (each program's wall time for the family, start-up included).
// Every case behind a failure or an odd count is printed above the table.
//
// Families: cycles, clock_resets, walls, en_passant, castling, promotions,
// checks_pins (see the generators below for what each holds).
//
// Usage: bench/can_mate_sweeps.sh [options]   (or node bench/can_mate_sweeps.mjs)
//   --seed N            PRNG seed (default 1); each family gets its own stream,
//                       so --families does not change a family's positions
//   --per-family N      positions per family (default 400; both sides asked,
//                       so 2N queries)
//   --families a,b      run only these families
//   --keep DIR          keep every program's input and output in DIR
//   --arbiter PATH      default $ARBITER, else build/arbiter in this tree
//   --chasolver PATH    default $CHASOLVER, else
//                       /tmp/chasolver/chasolver/target/release/examples/chadriver
//   --show N            print at most N cases of each kind (default 10)
// ARBITER_TABLES is set to /tmp/arbtables when that directory exists
// (pre-built retrograde tables), unless it is already set.
// Exit status: 1 if any bad "yes" or refuted "no", 2 on setup errors, else 0.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// chessops lives in tests/js/node_modules. ESM resolves a bare specifier
// ('chessops/chess') from the importing file's folder and ignores NODE_PATH,
// so from bench/ it would not be found; and chessops's CommonJS build cannot
// be require()d (its package.json says "type": "module", so Node reads
// dist/cjs/*.js as ESM). So its ESM files are imported by absolute path, the
// files the package's "./*" import export names (dist/esm/*.js).
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const chessops = (name) =>
  import(pathToFileURL(path.join(root, 'tests/js/node_modules/chessops/dist/esm', `${name}.js`)).href);
const { Chess } = await chessops('chess');
const { parseFen, makeFen } = await chessops('fen');
const { parseUci, makeUci, opposite } = await chessops('util');

const FAMILIES = ['cycles', 'clock_resets', 'walls', 'en_passant', 'castling', 'promotions',
  'checks_pins'];
const CLOCK_LIMIT = 150;  // halfmoves: the automatic draw of FIDE 9.6.2
const EXHAUSTIVE_NODE_CAP = 2_000_000;

// ---------------------------------------------------------------- options

function usage(status) {
  const text = fs.readFileSync(fileURLToPath(import.meta.url), 'utf8');
  const start = text.indexOf('// Usage:');
  const end = text.indexOf('// Exit status:');
  process.stderr.write(text.slice(start, text.indexOf('\n', end) + 1).replace(/^\/\/ ?/gm, ''));
  process.exit(status);
}

function parseArgs(argv) {
  const opts = {
    seed: 1,
    perFamily: 400,
    families: FAMILIES,
    keep: '',
    arbiter: process.env.ARBITER || path.join(root, 'build/arbiter'),
    chasolver: process.env.CHASOLVER || '/tmp/chasolver/chasolver/target/release/examples/chadriver',
    show: 10,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) die(`${flag} needs a value`);
      return argv[++i];
    };
    const int = () => {
      const v = value();
      if (!/^\d+$/.test(v)) die(`${flag}: not a number: ${v}`);
      return Number(v);
    };
    switch (flag) {
      case '--seed': opts.seed = int(); break;
      case '--per-family': opts.perFamily = int(); break;
      case '--families':
        opts.families = value().split(',').filter(Boolean);
        for (const f of opts.families) if (!FAMILIES.includes(f)) die(`unknown family ${f}`);
        break;
      case '--keep': opts.keep = value(); break;
      case '--arbiter': opts.arbiter = value(); break;
      case '--chasolver': opts.chasolver = value(); break;
      case '--show': opts.show = int(); break;
      case '-h': case '--help': usage(0); break;
      default: die(`unknown option ${flag} (try --help)`);
    }
  }
  return opts;
}

function die(message) {
  process.stderr.write(`can_mate_sweeps: ${message}\n`);
  process.exit(2);
}

// ---------------------------------------------------------------- PRNG

// mulberry32: tiny, seedable, good enough to spread positions around.
function makeRandom(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    int: (n) => Math.floor(next() * n),  // 0 .. n-1
    range(lo, hi) { return lo + this.int(hi - lo + 1); },  // inclusive
    pick(items) { return items[this.int(items.length)]; },
    chance: (p) => next() < p,
  };
}

// A per-family seed, so that running a subset of families (or adding one)
// leaves the other families' positions as they were.
function familySeed(seed, name) {
  let h = (seed * 2654435761) >>> 0;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h;
}

// ---------------------------------------------------------------- positions

// Boards while generating: an array of 64 FEN letters (uppercase White) or
// null, index = file + 8 * rank (a1 = 0), as in chessops.
const sq = (file, rank) => file + 8 * rank;
const fileOf = (s) => s & 7;
const rankOf = (s) => s >> 3;
const colorCase = (letter, color) => (color === 'white' ? letter.toUpperCase() : letter.toLowerCase());

function boardFen(board) {
  const rows = [];
  for (let rank = 7; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const p = board[sq(file, rank)];
      if (p) {
        if (empty) row += empty;
        row += p;
        empty = 0;
      } else {
        empty++;
      }
    }
    rows.push(row + (empty || ''));
  }
  return rows.join('/');
}

// Puts `piece` on a random empty square; pawns never on the back ranks.
// `allowed` narrows the squares further. Returns the square, or -1.
function place(rand, board, piece, allowed = () => true) {
  const free = [];
  for (let s = 0; s < 64; s++) {
    if (board[s]) continue;
    if (piece.toLowerCase() === 'p' && (rankOf(s) === 0 || rankOf(s) === 7)) continue;
    if (allowed(s)) free.push(s);
  }
  if (!free.length) return -1;
  const s = rand.pick(free);
  board[s] = piece;
  return s;
}

function placeKings(rand, board) {
  place(rand, board, 'K');
  place(rand, board, 'k');
}

// A random non-king man of a random colour, pawns weighted up a little.
function randomMan(rand) {
  return colorCase(rand.pick('PPNBRQ'), rand.pick(['white', 'black']));
}

function positionFromFen(fen) {
  const setup = parseFen(fen);
  if (setup.isErr) return null;
  const pos = Chess.fromSetup(setup.value);
  return pos.isErr ? null : pos.value;
}

// The position, if chessops accepts it and it is a real question: the side to
// move has a legal move (no mate or stalemate yet), and the board is not dead
// by material under chessops's rule (both sides insufficient), which would
// only make trivial "no" answers.
function acceptable(pos) {
  return pos && pos.hasDests() && !pos.isInsufficientMaterial();
}

const canonicalFen = (pos) => makeFen(pos.toSetup());

function finish(board, { turn, castling = '-', halfmoves = 0, fullmoves = 1 }) {
  const pos = positionFromFen(`${boardFen(board)} ${turn[0]} ${castling} - ${halfmoves} ${fullmoves}`);
  return acceptable(pos) ? pos : null;
}

// Every legal move (promotions expanded), in chessops's form: castling is
// king-to-rook, which play() understands.
function legalMoves(pos) {
  const moves = [];
  for (const [from, dests] of pos.allDests()) {
    const promoting = pos.board.pawn.has(from);
    for (const to of dests) {
      if (promoting && (rankOf(to) === 0 || rankOf(to) === 7)) {
        for (const promotion of ['queen', 'rook', 'bishop', 'knight']) moves.push({ from, to, promotion });
      } else {
        moves.push({ from, to });
      }
    }
  }
  return moves;
}

const isPawnMove = (pos, m) => pos.board.pawn.has(m.from);
const isCapture = (pos, m) => pos.board[opposite(pos.turn)].has(m.to) ||
  (isPawnMove(pos, m) && m.to === pos.epSquare);

// Each generator returns a chessops position or null (rejected; the caller
// draws again).
const generators = {
  // Kings and 1-3 knights/bishops shared out at random. Search lines in such
  // positions used to wander in cycles. (A single minor is dead material and
  // is rejected by acceptable(), so in practice 2-3.)
  cycles(rand) {
    const board = Array(64).fill(null);
    placeKings(rand, board);
    const n = rand.range(1, 3);
    for (let i = 0; i < n; i++) place(rand, board, colorCase(rand.pick('NB'), rand.pick(['white', 'black'])));
    return finish(board, { turn: rand.pick(['white', 'black']) });
  },

  // 4-7 men, the halfmove clock at 140-149: at most 10 plies before the
  // automatic draw, unless a capture or pawn move restarts the clock. Kept
  // only with a pawn on the board or a capture available now, so that a
  // restart is in play.
  clock_resets(rand) {
    const board = Array(64).fill(null);
    placeKings(rand, board);
    const n = rand.range(2, 5);
    for (let i = 0; i < n; i++) {
      const pawn = i === 0 && rand.chance(0.5);
      place(rand, board, pawn ? colorCase('p', rand.pick(['white', 'black'])) : randomMan(rand));
    }
    const turn = rand.pick(['white', 'black']);
    const pos = finish(board, { turn, halfmoves: rand.range(140, 149), fullmoves: 100 });
    if (!pos) return null;
    const resettable = pos.board.pawn.nonEmpty() || legalMoves(pos).some((m) => isCapture(pos, m));
    return resettable ? pos : null;
  },

  // Locked pawn walls: on 4-8 files a white pawn on rank r and a black pawn
  // right in front of it. On neighbouring files the ranks differ by one (a
  // chain, as d4/d5 e5/e6), since equal ranks side by side could capture
  // each other and the wall would not be locked. 0-3 bishops of either side;
  // kings on free squares, half the time each on its own side of the wall;
  // 10-21 men.
  walls(rand) {
    const board = Array(64).fill(null);
    const files = [0, 1, 2, 3, 4, 5, 6, 7].filter(() => rand.chance(0.85));
    if (files.length < 4) return null;
    const whiteRank = new Map();  // file -> rank of White's pawn (1-5, so ranks 2-6)
    for (const file of files) {
      const left = whiteRank.get(file - 1);
      let rank = rand.range(1, 5);
      if (left !== undefined) {
        rank = left + rand.pick([1, -1]);
        if (rank < 1 || rank > 5) rank = 2 * left - rank;  // bounce off the edge
      }
      whiteRank.set(file, rank);
      board[sq(file, rank)] = 'P';
      board[sq(file, rank + 1)] = 'p';
    }
    const bishops = rand.range(0, 3);
    for (let i = 0; i < bishops; i++) place(rand, board, colorCase('b', rand.pick(['white', 'black'])));
    if (rand.chance(0.5)) {
      // Below White's pawn (or anywhere on a file without one) for White's
      // king, above Black's for Black's.
      place(rand, board, 'K', (s) => !whiteRank.has(fileOf(s)) || rankOf(s) < whiteRank.get(fileOf(s)));
      place(rand, board, 'k', (s) => !whiteRank.has(fileOf(s)) || rankOf(s) > whiteRank.get(fileOf(s)) + 1);
    } else {
      placeKings(rand, board);
    }
    return finish(board, { turn: rand.pick(['white', 'black']) });
  },

  // A legal double pawn push played in a random position, chosen so that the
  // resulting FEN carries an e.p. square with an e.p. capture among the
  // legal moves.
  en_passant(rand) {
    const mover = rand.pick(['white', 'black']);
    const up = mover === 'white' ? 1 : -1;
    const startRank = mover === 'white' ? 1 : 6;
    const board = Array(64).fill(null);
    // The pusher, its path kept clear, and an enemy pawn beside where it lands.
    const file = rand.int(8);
    const from = sq(file, startRank);
    const to = sq(file, startRank + 2 * up);
    board[from] = colorCase('p', mover);
    const side = file === 0 ? 1 : file === 7 ? -1 : rand.pick([1, -1]);
    board[sq(file + side, startRank + 2 * up)] = colorCase('p', opposite(mover));
    const path = new Set([sq(file, startRank + up), to]);
    const clear = (s) => !path.has(s);
    place(rand, board, 'K', clear);
    place(rand, board, 'k', clear);
    const extras = rand.range(0, 4);
    for (let i = 0; i < extras; i++) place(rand, board, randomMan(rand), clear);
    const before = positionFromFen(`${boardFen(board)} ${mover[0]} - - 0 1`);
    if (!before) return null;
    const push = { from, to };
    if (!before.isLegal(push)) return null;
    const after = before.clone();
    after.play(push);
    const epCapture = legalMoves(after).some((m) => isPawnMove(after, m) && m.to === after.epSquare);
    if (!epCapture) return null;
    // Re-read from the FEN, so the position is exactly what the programs see.
    const pos = positionFromFen(canonicalFen(after));
    return acceptable(pos) && canonicalFen(pos).split(' ')[3] !== '-' ? pos : null;
  },

  // Kings and rooks on their home squares with some castling rights
  // (standard chess only; chasolver has no Chess960), plus 0-4 other men.
  castling(rand) {
    const board = Array(64).fill(null);
    board[sq(4, 0)] = 'K';
    board[sq(4, 7)] = 'k';
    let rights = '';
    const homes = [[7, 0, 'R', 'K'], [0, 0, 'R', 'Q'], [7, 7, 'r', 'k'], [0, 7, 'r', 'q']];
    for (const [file, rank, rook, right] of homes) {
      if (!rand.chance(0.75)) continue;
      board[sq(file, rank)] = rook;
      if (rand.chance(0.75)) rights += right;
    }
    if (!rights) return null;
    const extras = rand.range(0, 4);
    for (let i = 0; i < extras; i++) place(rand, board, randomMan(rand));
    const pos = finish(board, { turn: rand.pick(['white', 'black']), castling: rights });
    // chessops drops rights it cannot honour; keep positions that still have one.
    return pos && canonicalFen(pos).split(' ')[2] !== '-' ? pos : null;
  },

  // 1-2 pawns a step from promoting (White's on the 7th, Black's on the 2nd)
  // and 0-3 other men.
  promotions(rand) {
    const board = Array(64).fill(null);
    placeKings(rand, board);
    const pawns = rand.range(1, 2);
    for (let i = 0; i < pawns; i++) {
      const color = rand.pick(['white', 'black']);
      place(rand, board, colorCase('p', color), (s) => rankOf(s) === (color === 'white' ? 6 : 1));
    }
    const extras = rand.range(0, 3);
    for (let i = 0; i < extras; i++) place(rand, board, randomMan(rand));
    return finish(board, { turn: rand.pick(['white', 'black']) });
  },

  // The side to move in check, or with a pinned man; 4-6 men. Pins are built
  // on purpose (king, own man, enemy slider on one line); checks are drawn at
  // random and kept when they happen.
  checks_pins(rand) {
    const board = Array(64).fill(null);
    const turn = rand.pick(['white', 'black']);
    const enemy = opposite(turn);
    let men = 2;
    if (rand.chance(0.5)) {
      const king = place(rand, board, colorCase('k', turn));
      const [df, dr] = rand.pick([[1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1]]);
      const ray = [];
      let [f, r] = [fileOf(king) + df, rankOf(king) + dr];
      for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) ray.push(sq(f, r));
      if (ray.length < 2) return null;
      const sniper = rand.range(1, ray.length - 1);
      const pinned = rand.int(sniper);
      const pinnedMan = colorCase(rand.pick('PNBRQ'), turn);
      if (pinnedMan.toLowerCase() === 'p' && [0, 7].includes(rankOf(ray[pinned]))) return null;
      board[ray[pinned]] = pinnedMan;
      board[ray[sniper]] = colorCase(rand.pick(df && dr ? 'BQ' : 'RQ'), enemy);
      place(rand, board, colorCase('k', enemy));
      men = 4;
    } else {
      placeKings(rand, board);
      // Mostly the enemy's men, to make checks likely.
      const attackers = rand.range(1, 3);
      for (let i = 0; i < attackers; i++) place(rand, board, colorCase(rand.pick('PNBRQ'), enemy));
      men = board.filter(Boolean).length;
    }
    const extras = rand.range(0, 6 - men);
    for (let i = 0; i < extras; i++) place(rand, board, randomMan(rand));
    const pos = finish(board, { turn });
    if (!pos) return null;
    return pos.isCheck() || pos.ctx().blockers.intersect(pos.board[turn]).nonEmpty() ? pos : null;
  },
};

function generateFamily(name, count, seed) {
  const rand = makeRandom(familySeed(seed, name));
  const fens = new Set();  // no duplicates within a family
  for (let tries = 0; fens.size < count && tries < count * 10000; tries++) {
    const pos = generators[name](rand);
    if (pos) fens.add(canonicalFen(pos));
  }
  if (fens.size < count) process.stderr.write(`can_mate_sweeps: ${name}: only ${fens.size} positions\n`);
  return [...fens];
}

// ---------------------------------------------------------------- replaying lines

// The position key FIDE 9.2.2 compares: placement, side to move, castling
// rights, and the e.p. square only when an e.p. capture is legal
// (chessops's toSetup() writes exactly that).
const positionKey = (pos) => makeFen(pos.toSetup()).split(' ').slice(0, 4).join(' ');

// Plays UCI `moves` from `fen`. Returns { error } at the first move that does
// not parse or is illegal, else a summary: the keys along the line (start
// included), the ply at which a position first repeats (-1: none), the
// first ply played with the clock already at 150 or more (-1: none), and
// whether the end is checkmate given by `side`.
function replay(fen, moves, side) {
  const pos = positionFromFen(fen);
  if (!pos) return { error: 'chessops rejects the FEN' };
  const keys = [positionKey(pos)];
  const seen = new Map([[keys[0], 0]]);
  let repeatAt = -1;
  let pastLimitAt = -1;
  for (let i = 0; i < moves.length; i++) {
    const move = parseUci(moves[i]);
    if (!move) return { error: `ply ${i + 1} ${moves[i]}: not a UCI move` };
    if (!pos.isLegal(move)) return { error: `ply ${i + 1} ${moves[i]}: illegal in ${canonicalFen(pos)}` };
    if (pastLimitAt < 0 && pos.halfmoves >= CLOCK_LIMIT) pastLimitAt = i + 1;
    pos.play(move);
    const key = positionKey(pos);
    if (repeatAt < 0 && seen.has(key)) repeatAt = i + 1;
    if (!seen.has(key)) seen.set(key, i + 1);
    keys.push(key);
  }
  const mates = pos.isCheckmate() && pos.turn === opposite(side);
  return { keys, repeatAt, pastLimitAt, mates, final: canonicalFen(pos) };
}

// Cuts every repetition cycle out of a line: when a position comes back,
// the moves since its first visit are dropped. The rest is still legal
// (legal moves depend only on the key) and each position is reached with a
// clock no higher than before (a cycle holds no capture or pawn move).
function withoutCycles(moves, keys) {
  const out = [];
  const outKeys = [keys[0]];
  const at = new Map([[keys[0], 0]]);
  for (let i = 0; i < moves.length; i++) {
    const key = keys[i + 1];
    if (at.has(key)) {
      const j = at.get(key);
      for (const k of outKeys.slice(j + 1)) at.delete(k);
      outKeys.length = j + 1;
      out.length = j;
    } else {
      out.push(moves[i]);
      outKeys.push(key);
      at.set(key, outKeys.length - 1);
    }
  }
  return out;
}

function checkYes(fen, side, line) {
  if (!Array.isArray(line) || !line.length) return 'no line given';
  const r = replay(fen, line, side);
  if (r.error) return r.error;
  if (r.repeatAt >= 0) return `ply ${r.repeatAt} repeats an earlier position`;
  if (r.pastLimitAt >= 0) return `ply ${r.pastLimitAt} is played with the clock at 150 or more`;
  if (!r.mates) return `does not end in checkmate by ${side}: ${r.final}`;
  return null;
}

// Arbiter's seventy_five_move_rule claim, searched out: every line from the
// FEN until the clock reaches 150. Refuted by a mate by `side` before then.
// A capture or pawn move on the way restarts the clock: the line is not
// followed further, and the position after it is returned in `restarts`;
// the claim then also needs every one of those to be a "no", which the
// caller asks chasolver (its clock is 0 there, so chasolver's clockless
// answer holds for the next 150 plies, and its lines are replayed).
function checkSeventyFive(fen, side) {
  const start = positionFromFen(fen);
  const explored = new Map();  // key -> most plies left when last searched from it
  const restarts = new Set();  // FENs after a capture or pawn move
  let nodes = 0;
  const line = [];
  const search = (pos) => {
    const left = CLOCK_LIMIT - pos.halfmoves;
    if (left <= 0) return null;  // drawn here
    const key = positionKey(pos);
    // With no capture or pawn move on the way, the clock only grows with the
    // plies, so having searched this key with as many plies left covers it.
    if ((explored.get(key) ?? 0) >= left) return null;
    explored.set(key, left);
    if (++nodes > EXHAUSTIVE_NODE_CAP) throw new Error('node cap');
    for (const move of legalMoves(pos)) {
      const uci = makeUci(move);
      const next = pos.clone();
      next.play(move);
      if (pos.turn === side && next.isCheckmate()) return `${[...line, uci].join(' ')}: mate by ${side}`;
      if (isCapture(pos, move) || isPawnMove(pos, move)) {
        restarts.add(makeFen(next.toSetup()));
        continue;
      }
      line.push(uci);
      const found = search(next);
      line.pop();
      if (found) return found;
    }
    return null;
  };
  try {
    const refutation = search(start);
    if (refutation) return { verdict: 'refuted', why: refutation };
    return restarts.size ? { verdict: 'restarts', restarts: [...restarts] } : { verdict: 'confirmed' };
  } catch (e) {
    return { verdict: 'unchecked', why: `${e.message} (${EXHAUSTIVE_NODE_CAP} positions)` };
  }
}

// ---------------------------------------------------------------- programs

function run(program, args, input, env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(program, args, { input, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.error) die(`${program}: ${r.error.message}`);
  return { stdout: r.stdout, stderr: r.stderr, status: r.status, seconds };
}

function lines(text) {
  return text.split('\n').filter((l) => l.length);
}

// One JSON record per query, in order. Arbiter exits 1 when any line was an
// error record; the records still line up, so only the count is checked.
function askArbiter(opts, env, queries, keep, family) {
  const input = queries.map((q) => `${q.fen} ${q.side}\n`).join('');
  const r = run(opts.arbiter, ['analyze', '--json', '--jobs', '1', '-'], input, env);
  keep(`${family}.arbiter.in`, input);
  keep(`${family}.arbiter.out`, r.stdout);
  keep(`${family}.arbiter.err`, r.stderr);
  const records = lines(r.stdout).map((l) => JSON.parse(l));
  if (records.length !== queries.length) {
    die(`${family}: arbiter gave ${records.length} records for ${queries.length} queries ` +
      `(status ${r.status}): ${r.stderr.slice(0, 500)}`);
  }
  // Placement and side to move cannot be rewritten by any normalisation, so
  // they must match the query: a cheap guard that records and queries line up.
  records.forEach((rec, i) => {
    const asked = queries[i].fen.split(' ').slice(0, 2).join(' ');
    const got = (rec.fen ?? rec.input ?? '').split(' ').slice(0, 2).join(' ');
    if (got !== asked) die(`${family}: arbiter record ${i + 1} is for ${got}, not ${asked}`);
  });
  const answers = records.map((rec) => {
    if (rec.type === 'error') return { can_mate: 'error', why: rec.error?.message ?? JSON.stringify(rec) };
    return rec.white ?? rec.black ?? { can_mate: 'error', why: 'no side in the record' };
  });
  return { answers, seconds: r.seconds };
}

// One line per query: winnable MOVES / unwinnable / undetermined / error MESSAGE.
function askChasolver(opts, queries, keep, family) {
  if (!queries.length) return { answers: [], seconds: 0 };
  const input = queries.map((q) => `${q.fen} ${q.side}\n`).join('');
  const r = run(opts.chasolver, [], input, process.env);
  keep(`${family}.chasolver.in`, input);
  keep(`${family}.chasolver.out`, r.stdout);
  keep(`${family}.chasolver.err`, r.stderr);
  const out = lines(r.stdout);
  if (out.length !== queries.length) {
    die(`${family}: chasolver gave ${out.length} lines for ${queries.length} queries ` +
      `(status ${r.status}): ${r.stderr.slice(0, 500)}`);
  }
  const answers = out.map((l) => {
    const [word, ...rest] = l.trim().split(/\s+/);
    return { verdict: word, moves: word === 'winnable' ? rest : null, text: l };
  });
  return { answers, seconds: r.seconds };
}

// ---------------------------------------------------------------- the sweep

function sweepFamily(opts, env, name, keep, report) {
  const fens = generateFamily(name, opts.perFamily, opts.seed);
  const queries = fens.flatMap((fen) => [{ fen, side: 'white' }, { fen, side: 'black' }]);
  const row = {
    family: name, queries: queries.length, yes: 0, no: 0, unknown: 0, error: 0, bad_yes: 0,
    no_confirmed: 0, no_refuted: 0, no_unchecked: 0, past_limit: 0, cs_win: 0, cs_unwin: 0,
    cs_win_past_limit: 0, no_by_75: 0, arbiter_s: 0, chasolver_s: 0,
  };
  const arbiter = askArbiter(opts, env, queries, keep, name);
  row.arbiter_s = arbiter.seconds;

  const toPeer = [];  // "no" (other than the 75-move proof) and "unknown" queries
  const restarted = [];  // 75-move "no" whose lines restart the clock: {q, fens}
  queries.forEach((q, i) => {
    const a = arbiter.answers[i];
    q.answer = a;
    switch (a.can_mate) {
      case 'yes': {
        row.yes++;
        const why = checkYes(q.fen, q.side, a.line);
        if (why) {
          row.bad_yes++;
          report('BAD YES', `${q.fen} ${q.side}\n    line: ${(a.line ?? []).join(' ')}\n    ${why}`);
        }
        break;
      }
      case 'no':
        row.no++;
        if (a.proof === 'seventy_five_move_rule') {
          row.no_by_75++;
          const c = checkSeventyFive(q.fen, q.side);
          if (c.verdict === 'restarts') {
            restarted.push({ q, fens: c.restarts });
            break;
          }
          if (c.verdict === 'confirmed') row.no_confirmed++;
          else if (c.verdict === 'refuted') {
            row.no_refuted++;
            report('REFUTED NO (seventy_five_move_rule)', `${q.fen} ${q.side}\n    ${c.why}`);
          } else {
            row.no_unchecked++;
            report('unchecked no (seventy_five_move_rule)', `${q.fen} ${q.side}\n    ${c.why}`);
          }
        } else {
          toPeer.push(q);
        }
        break;
      case 'unknown':
        row.unknown++;
        toPeer.push(q);
        break;
      default:
        row.error++;
        report('arbiter error', `${q.fen} ${q.side}\n    ${a.why}`);
    }
  });

  // The 75-move "no" with restarts: every restarted position must be a "no"
  // too. chasolver is asked about each (same side); one that it mates within
  // the clock refutes the claim.
  const afterRestart = restarted.flatMap(({ q, fens }) => fens.map((fen) => ({ fen, side: q.side, of: q })));
  const restartPeer = askChasolver(opts, afterRestart, keep, `${name}.restarts`);
  const restartVerdicts = new Map(restarted.map(({ q }) => [q, 'confirmed']));
  afterRestart.forEach((r, i) => {
    const p = restartPeer.answers[i];
    const line = p.verdict === 'winnable' ? judgePeerLine(r, p.moves) : null;
    if (line?.kind === 'mate') {
      restartVerdicts.set(r.of, 'refuted');
      report('REFUTED NO (seventy_five_move_rule, after a restart)',
        `${r.of.fen} ${r.of.side}\n    after the restart ${r.fen}: ${line.text}`);
    } else if (p.verdict !== 'unwinnable' && restartVerdicts.get(r.of) === 'confirmed') {
      restartVerdicts.set(r.of, 'unchecked');
      report('unchecked no (seventy_five_move_rule, after a restart)',
        `${r.of.fen} ${r.of.side}\n    after the restart ${r.fen}: chasolver ${p.text}`);
    }
  });
  for (const verdict of restartVerdicts.values()) {
    if (verdict === 'confirmed') row.no_confirmed++;
    else if (verdict === 'refuted') row.no_refuted++;
    else row.no_unchecked++;
  }

  const peer = askChasolver(opts, toPeer, keep, name);
  row.chasolver_s = peer.seconds + restartPeer.seconds;
  toPeer.forEach((q, i) => {
    const p = peer.answers[i];
    const asked = `${q.fen} ${q.side} (arbiter: ${q.answer.can_mate}` +
      (q.answer.can_mate === 'no' ? `, ${q.answer.proof ?? 'no proof'})` : ')');
    const line = p.verdict === 'winnable' ? judgePeerLine(q, p.moves) : null;
    if (line?.kind === 'bad') {
      report('chasolver line does not hold up', `${asked}\n    ${p.text}\n    ${line.why}`);
    }
    if (q.answer.can_mate === 'unknown') {
      // What Arbiter left open and chasolver decides. Its "winnable" only
      // counts with a line that mates within the clock: it ignores the clock,
      // so near the limit it says "winnable" where the game is drawn first.
      if (p.verdict === 'unwinnable') row.cs_unwin++;
      if (line?.kind === 'mate') {
        row.cs_win++;
        report('unknown, chasolver mates within the clock', `${asked}\n    ${line.text}`);
      } else if (line?.kind === 'past_limit') {
        row.cs_win_past_limit++;
        report('unknown, chasolver line past the 75-move limit', `${asked}\n    ${line.text}`);
      }
    } else if (p.verdict === 'unwinnable') {
      row.no_confirmed++;
    } else if (line?.kind === 'mate') {
      row.no_refuted++;
      report('REFUTED NO', `${asked}\n    mate within the clock: ${line.text}`);
    } else if (line?.kind === 'past_limit') {
      row.past_limit++;
      report('chasolver line past the 75-move limit', `${asked}\n    ${line.text}`);
    } else {
      row.no_unchecked++;  // undetermined, error, or a line that does not hold up
    }
  });
  return row;
}

// Replays a chasolver line with the real clock, repetition cycles cut out
// first. kind: 'bad' (illegal or no mate by the asked side), 'mate' (a legal
// mate with the clock below 150 before every move) or 'past_limit'.
function judgePeerLine(q, moves) {
  const r = replay(q.fen, moves, q.side);
  if (r.error) return { kind: 'bad', why: r.error };
  if (!r.mates) return { kind: 'bad', why: `does not end in mate by ${q.side}: ${r.final}` };
  const short = withoutCycles(moves, r.keys);
  const s = replay(q.fen, short, q.side);
  if (s.error || !s.mates) die(`internal: cutting cycles broke the line for ${q.fen} ${q.side}`);
  const cut = short.length < moves.length ? ` (${moves.length} with its cycles)` : '';
  if (s.pastLimitAt < 0) return { kind: 'mate', text: `${short.length} plies${cut}: ${short.join(' ')}` };
  return {
    kind: 'past_limit',
    text: `${short.length} plies${cut}, ply ${s.pastLimitAt} at clock >= 150: ${short.join(' ')}`,
  };
}

function printTable(rows) {
  const columns = [
    ['family', 'family'], ['queries', 'queries'], ['yes', 'yes'], ['no', 'no'], ['unknown', 'unknown'],
    ['error', 'error'], ['bad_yes', 'bad_yes'], ['no_confirmed', 'no_confirmed'],
    ['no_refuted', 'no_refuted'], ['no_unchecked', 'no_unchecked'],
    ['peer_line_past_limit', 'past_limit'], ['unk_chasolver_win', 'cs_win'],
    ['unk_chasolver_unwin', 'cs_unwin'], ['unk_chasolver_win_past_limit', 'cs_win_past_limit'],
    ['no_by_75', 'no_by_75'], ['arbiter_s', 'arbiter_s'], ['chasolver_s', 'chasolver_s'],
  ];
  const total = { family: 'total' };
  for (const [, key] of columns.slice(1)) total[key] = rows.reduce((sum, r) => sum + r[key], 0);
  const all = [...rows, total];
  const cell = (r, key) => (key.endsWith('_s') ? r[key].toFixed(1) : String(r[key]));
  const widths = columns.map(([head, key]) => Math.max(head.length, ...all.map((r) => cell(r, key).length)));
  const fmt = (cells) => cells.map((c, i) => (i ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  console.log(fmt(columns.map(([head]) => head)));
  for (const r of all) console.log(fmt(columns.map(([, key]) => cell(r, key))));
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(opts.arbiter)) die(`no arbiter at ${opts.arbiter}`);
  if (!fs.existsSync(opts.chasolver)) {
    die(`no chasolver driver at ${opts.chasolver} ` +
      '(build it: bash ../shared/peers/chasolver/build.sh /tmp/chasolver)');
  }
  const env = { ...process.env };
  if (!env.ARBITER_TABLES && fs.existsSync('/tmp/arbtables')) env.ARBITER_TABLES = '/tmp/arbtables';

  const dir = opts.keep || fs.mkdtempSync(path.join(os.tmpdir(), 'can_mate_sweeps.'));
  fs.mkdirSync(dir, { recursive: true });
  const keep = (file, text) => fs.writeFileSync(path.join(dir, file), text);

  // Cases are printed as they are found, up to --show of each kind; the
  // counts in the table are complete.
  const shown = new Map();
  const report = (kind, text) => {
    const n = (shown.get(kind) ?? 0) + 1;
    shown.set(kind, n);
    if (n <= opts.show) console.log(`${kind}: ${text}`);
    else if (n === opts.show + 1) console.log(`${kind}: (more not shown)`);
  };

  const t0 = Date.now();
  const rows = [];
  for (const name of opts.families) {
    rows.push(sweepFamily(opts, env, name, keep, report));
    console.error(`can_mate_sweeps: ${name} done (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
  console.log('');
  console.log(`seed ${opts.seed}, ${opts.perFamily} positions per family, both sides asked` +
    (env.ARBITER_TABLES ? `, ARBITER_TABLES=${env.ARBITER_TABLES}` : ''));
  printTable(rows);
  const where = opts.keep ? `; inputs and outputs in ${dir}` : '';
  console.log(`wall ${((Date.now() - t0) / 1000).toFixed(1)} s${where}`);
  if (!opts.keep) fs.rmSync(dir, { recursive: true, force: true });

  const failed = rows.some((r) => r.bad_yes || r.no_refuted);
  process.exit(failed ? 1 : 0);
}

main();
