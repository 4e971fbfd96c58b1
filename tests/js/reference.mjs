// Reference verdicts from two independent JavaScript chess libraries, for
// tests/js_diff_test.cc. Reads FENs on stdin, one per line, and writes one
// JSON line per FEN in input order:
//
//   {"fen": ..., "chessops": {...} | {"error": ...}, "chessjs": {...} | {"error": ...}}
//
// Blank lines are skipped, exactly as `arbiter analyze FILE` skips them, so
// that output line i of both programs describes the same FEN.
//
// Usage: node tests/js/reference.mjs < fens.txt
import { createInterface } from 'node:readline';

import { Chess as ChessJs } from 'chess.js';
import { Chess as ChessOps } from 'chessops/chess';
import { parseFen } from 'chessops/fen';

function chessops(fen) {
  const setup = parseFen(fen);
  if (setup.isErr) return { error: `fen: ${setup.error.message}` };
  const pos = ChessOps.fromSetup(setup.value);
  if (pos.isErr) return { error: `setup: ${pos.error.message}` };
  const p = pos.value;
  const outcome = p.outcome();
  return {
    // Per side: can this colour never mate? (FIDE-style, helpmate-aware.)
    insufficient_white: p.hasInsufficientMaterial('white'),
    insufficient_black: p.hasInsufficientMaterial('black'),
    is_checkmate: p.isCheckmate(),
    is_stalemate: p.isStalemate(),
    is_insufficient: p.isInsufficientMaterial(),
    // "white"/"black" (the winner), "draw", or null while the game goes on.
    outcome: outcome === undefined ? null : (outcome.winner ?? 'draw'),
  };
}

function chessjs(fen) {
  let board;
  try {
    board = new ChessJs(fen);
  } catch (e) {
    return { error: String(e.message ?? e) };
  }
  return {
    is_checkmate: board.isCheckmate(),
    is_stalemate: board.isStalemate(),
    // Whole board only: chess.js has no per-side answer.
    is_insufficient: board.isInsufficientMaterial(),
    moves: board.moves().length,
  };
}

// Guards each library separately so that one throwing on an odd position
// still leaves the other's answer (and the line alignment) intact.
function guarded(fn, fen) {
  try {
    return fn(fen);
  } catch (e) {
    return { error: `exception: ${String(e.message ?? e)}` };
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
let out = [];
for await (const raw of lines) {
  const fen = raw.trim();
  if (fen === '') continue;
  out.push(JSON.stringify({ fen, chessops: guarded(chessops, fen), chessjs: guarded(chessjs, fen) }));
  // Flush in chunks: one write per line is slow, one write at the end holds
  // everything in memory.
  if (out.length >= 4096) {
    process.stdout.write(out.join('\n') + '\n');
    out = [];
  }
}
if (out.length) process.stdout.write(out.join('\n') + '\n');
