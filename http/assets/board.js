// The board: FEN parsing, a UCI move applier (not a move generator: the
// server's lines are legal, this only replays them) and an SVG drawing with
// pieces of simple shapes drawn here.
const FILES = 'abcdefgh';
const SVG_NS = 'http://www.w3.org/2000/svg';

export const PIECE_NAMES = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };

// Square index 0..63, a1 = 0, h8 = 63.
export function squareIndex(name) {
  if (typeof name !== 'string' || !/^[a-h][1-8]$/.test(name)) return -1;
  return FILES.indexOf(name[0]) + 8 * (Number(name[1]) - 1);
}

export function squareName(index) {
  return FILES[index % 8] + String(Math.floor(index / 8) + 1);
}

const isWhite = (piece) => piece === piece.toUpperCase();

// {board: 64 entries ('K', 'p', ... or null), turn: 'w'|'b', castling, ep,
// halfmove, fullmove}. Throws an Error naming what is wrong.
export function parseFen(fen) {
  const fields = String(fen).trim().split(/\s+/);
  const rows = fields[0].split('/');
  if (rows.length !== 8) throw new Error('a FEN placement has 8 ranks separated by "/"');
  const board = new Array(64).fill(null);
  rows.forEach((row, i) => {
    const rank = 7 - i;
    let file = 0;
    for (const c of row) {
      if (/[1-8]/.test(c)) {
        file += Number(c);
      } else if (/[kqrbnpKQRBNP]/.test(c)) {
        if (file > 7) break;
        board[file + 8 * rank] = c;
        file += 1;
      } else {
        throw new Error(`unexpected "${c}" in the FEN placement`);
      }
    }
    if (file !== 8) throw new Error(`rank ${rank + 1} of the FEN does not have 8 squares`);
  });
  return {
    board,
    turn: fields[1] === 'b' ? 'b' : 'w',
    castling: fields[2] || '-',
    ep: fields[3] || '-',
    halfmove: Number(fields[4]) || 0,
    fullmove: Number(fields[5]) || 1,
  };
}

// The position after `uci` (e2e4, e7e8q, e1g1, or e1h1 in Chess960: the king
// takes its own rook), as a new object, with the squares that changed for
// highlighting: {position, from, to}. Throws when the move cannot be
// replayed (no piece of the side to move on its from-square).
export function applyUci(position, uci, chess960 = false) {
  const m = /^([a-h][1-8])([a-h][1-8])([qrbn])?$/.exec(String(uci));
  if (!m) throw new Error(`"${uci}" is not a UCI move`);
  const from = squareIndex(m[1]);
  let to = squareIndex(m[2]);
  const board = position.board.slice();
  const piece = board[from];
  const white = position.turn === 'w';
  if (!piece || isWhite(piece) !== white)
    throw new Error(`${uci}: no ${white ? 'white' : 'black'} piece on ${m[1]}`);
  const kind = piece.toLowerCase();
  const target = board[to];
  let capture = target !== null;
  let ep = '-';
  const fromFile = from % 8, toFile = to % 8, rank = Math.floor(from / 8);
  const ownRook = white ? 'R' : 'r';
  const sameRank = Math.floor(to / 8) === rank;
  if (kind === 'k' && sameRank && (target === ownRook || (!chess960 && Math.abs(toFile - fromFile) === 2))) {
    // Castling: king to the g- or c-file, the rook beside it on the inside.
    const kingside = toFile > fromFile;
    const rookFrom = target === ownRook ? to : rank * 8 + (kingside ? 7 : 0);
    const rook = board[rookFrom];
    board[from] = null;
    board[rookFrom] = null;
    to = rank * 8 + (kingside ? 6 : 2);
    board[to] = piece;
    board[rank * 8 + (kingside ? 5 : 3)] = rook || ownRook;
    capture = false;
  } else {
    if (kind === 'p' && fromFile !== toFile && target === null) {
      // En passant: the captured pawn stands beside, on the from-rank.
      board[toFile + 8 * rank] = null;
      capture = true;
    }
    if (kind === 'p' && Math.abs(to - from) === 16) ep = squareName((from + to) / 2);
    board[from] = null;
    board[to] = m[3] ? (white ? m[3].toUpperCase() : m[3]) : piece;
  }
  return {
    position: {
      board,
      turn: white ? 'b' : 'w',
      castling: position.castling,
      ep,
      halfmove: kind === 'p' || capture ? 0 : position.halfmove + 1,
      fullmove: white ? position.fullmove : position.fullmove + 1,
    },
    from,
    to,
  };
}

// "White: Kg6, Qg7. Black: Kh8." for screen readers.
export function describePosition(position) {
  const sides = { w: [], b: [] };
  const order = 'kqrbnp';
  for (let i = 0; i < 64; i += 1) {
    const p = position.board[i];
    if (p) sides[isWhite(p) ? 'w' : 'b'].push({ p: p.toLowerCase(), sq: squareName(i) });
  }
  const list = (pieces) => pieces
    .sort((a, b) => order.indexOf(a.p) - order.indexOf(b.p) || a.sq.localeCompare(b.sq))
    .map(({ p, sq }) => `${PIECE_NAMES[p]} ${sq}`).join(', ') || 'nothing';
  return `White: ${list(sides.w)}. Black: ${list(sides.b)}. ${position.turn === 'w' ? 'White' : 'Black'} to move.`;
}

// Each piece as paths in a 100 x 100 square: body paths take the piece's
// colour, "detail" paths the opposite one.
const BASE = 'M24 91H76V82H24Z';
const SHAPES = {
  p: {
    body: [BASE, 'M33 82C35 66 42 58 43 50H57C58 58 65 66 67 82Z',
      'M37 43H63V51H37Z', 'M50 18A13 13 0 1 1 49.9 18Z'],
    detail: [],
  },
  r: {
    body: [BASE, 'M31 82L34 44H66L69 82Z',
      'M27 44V19H37V27H45V19H55V27H63V19H73V44Z'],
    detail: ['M35 70H65'],
  },
  n: {
    body: [BASE, 'M30 82H74C75 64 72 48 66 38C60 27 53 22 47 20L45 10L38 20'
      + 'C29 26 22 37 18 48C16 55 21 59 27 57C32 55 36 52 42 51C42 61 35 68 30 76Z'],
    detail: ['M37 33A3 3 0 1 1 36.9 33Z', 'M18 50L25 49'],
  },
  b: {
    body: [BASE, 'M33 82C35 75 40 71 44 70H56C60 71 65 75 67 82Z',
      'M50 17C37 28 31 42 35 56C37 63 43 67 44 70H56C57 67 63 63 65 56C69 42 63 28 50 17Z',
      'M50 5A6 6 0 1 1 49.9 5Z'],
    detail: ['M55 30L46 45'],
  },
  q: {
    body: [BASE,
      'M28 82L19 35L31 57L35 26L43 53L50 21L57 53L65 26L69 57L81 35L72 82Z',
      'M19 29A5 5 0 1 1 18.9 29Z', 'M35 20A5 5 0 1 1 34.9 20Z', 'M50 14A5 5 0 1 1 49.9 14Z',
      'M65 20A5 5 0 1 1 64.9 20Z', 'M81 29A5 5 0 1 1 80.9 29Z'],
    detail: ['M31 72H69'],
  },
  k: {
    body: [BASE,
      'M28 82C21 68 18 55 27 48C36 41 46 47 50 56C54 47 64 41 73 48C82 55 79 68 72 82Z',
      'M50 36C55 36 57 42 57 47C57 52 53 56 50 58C47 56 43 52 43 47C43 42 45 36 50 36Z',
      'M47 8H53V15H60V21H53V36H47V21H40V15H47Z'],
    detail: ['M31 72H69'],
  },
};

function svgElement(name, attributes = {}) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, String(v));
  return e;
}

// The piece `piece` ('K', 'n', ...) as an SVG group at the origin.
export function pieceGroup(piece) {
  const shape = SHAPES[piece.toLowerCase()];
  const g = svgElement('g', { class: `piece ${isWhite(piece) ? 'piece-white' : 'piece-black'}` });
  for (const d of shape.body) g.append(svgElement('path', { d, class: 'piece-body' }));
  for (const d of shape.detail) g.append(svgElement('path', { d, class: 'piece-detail' }));
  return g;
}

// Draws `position` into the <svg> `svg` (replacing what it held): squares,
// coordinates, highlighted from/to squares, pieces. Each piece group carries
// data-square and data-piece, so that tests and tools can read the board.
export function drawBoard(svg, position, { flipped = false, from = -1, to = -1 } = {}) {
  svg.replaceChildren();
  svg.setAttribute('viewBox', '0 0 800 800');
  const place = (index) => {
    const file = index % 8, rank = Math.floor(index / 8);
    return flipped ? [(7 - file) * 100, rank * 100] : [file * 100, (7 - rank) * 100];
  };
  for (let i = 0; i < 64; i += 1) {
    const [x, y] = place(i);
    const dark = (i % 8 + Math.floor(i / 8)) % 2 === 0;
    svg.append(svgElement('rect', { x, y, width: 100, height: 100, class: dark ? 'square-dark' : 'square-light' }));
    if (i === from || i === to) {
      svg.append(svgElement('rect', { x: x + 3, y: y + 3, width: 94, height: 94, class: i === to ? 'square-to' : 'square-from' }));
    }
  }
  // Coordinates: files along the bottom edge, ranks along the left edge,
  // each in the colour that contrasts with its square.
  const onDark = (file, rank) => (file + rank) % 2 === 0;
  for (let k = 0; k < 8; k += 1) {
    const file = flipped ? 7 - k : k;
    const bottomRank = flipped ? 7 : 0;
    const fileText = svgElement('text', {
      x: k * 100 + 94, y: 793, 'text-anchor': 'end',
      class: `coordinate ${onDark(file, bottomRank) ? 'on-dark' : 'on-light'}`,
    });
    fileText.textContent = FILES[file];
    const rank = flipped ? k : 7 - k;
    const leftFile = flipped ? 7 : 0;
    const rankText = svgElement('text', {
      x: 5, y: k * 100 + 28,
      class: `coordinate ${onDark(leftFile, rank) ? 'on-dark' : 'on-light'}`,
    });
    rankText.textContent = String(rank + 1);
    svg.append(fileText, rankText);
  }
  for (let i = 0; i < 64; i += 1) {
    const piece = position.board[i];
    if (!piece) continue;
    const [x, y] = place(i);
    const g = pieceGroup(piece);
    g.setAttribute('transform', `translate(${x} ${y})`);
    g.dataset.square = squareName(i);
    g.dataset.piece = piece;
    svg.append(g);
  }
}
