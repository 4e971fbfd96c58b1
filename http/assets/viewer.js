// A board with a line to step through: the ruled position, and the moves of
// a mating line (SAN when the server gives it, UCI otherwise) replayed on
// it with buttons, a move list and the arrow keys.
import { applyUci, describePosition, drawBoard, parseFen } from './board.js';
import { el } from './dom.js';

let nextId = 0;

// The moves' labels: "12. Qg7#" for White, "12… Kh8" for Black.
function moveLabels(start, moves) {
  return moves.map((move, i) => {
    const whiteMoves = (start.turn === 'w') === (i % 2 === 0);
    const number = start.fullmove + Math.floor((i + (start.turn === 'b' ? 1 : 0)) / 2);
    return { number, white: whiteMoves, move, full: `${number}${whiteMoves ? '.' : '…'} ${move}` };
  });
}

// options: {fen, chess960, caption, startName ("The position", "The ruled
// position"), lines: [{label, uci: [...], san: [...]|undefined}]}
// Returns {element, handleKey(event) -> bool}.
export function createViewer({ fen, chess960 = false, caption = '', startName = 'The position', lines = [] }) {
  const id = `viewer-${(nextId += 1)}`;
  const start = parseFen(fen);
  const viewer = el('div', { class: 'viewer' });
  const boardWrap = el('div', { class: 'viewer-board' });
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', 'board');
  svg.setAttribute('role', 'img');
  svg.setAttribute('tabindex', '0');
  svg.setAttribute('id', `${id}-board`);
  svg.setAttribute('aria-roledescription', 'chess board');
  boardWrap.append(svg);
  if (caption) boardWrap.append(el('p', { class: 'board-caption', text: caption }));
  const side = el('div', { class: 'viewer-side' });
  viewer.append(boardWrap, side);

  const usable = lines.filter((l) => l.uci && l.uci.length);
  let line = null;        // the line shown
  let positions = [];     // positions[0] = start; positions[i] after i moves
  let moves = [];         // [{from, to}] per move
  let replayError = '';
  let ply = 0;
  let flipped = false;

  const choice = el('div', { class: 'line-choice', role: 'group', 'aria-label': 'Line shown on the board' });
  const stepper = el('div', { class: 'stepper', role: 'group', 'aria-label': 'Step through the line' });
  const button = (text, label, keys) => el('button', {
    type: 'button', text, 'aria-label': label, 'aria-keyshortcuts': keys, 'aria-controls': `${id}-board`,
  });
  const first = button('« Start', `Start: ${startName.toLowerCase()}`, 'Home');
  const back = button('‹ Back', 'Back one move', 'ArrowLeft');
  const next = button('Next ›', 'Next move', 'ArrowRight');
  const last = button('End »', 'End of the line', 'End');
  const flip = el('button', { type: 'button', class: 'flip', text: 'Flip board', 'aria-pressed': 'false', 'aria-controls': `${id}-board` });
  stepper.append(first, back, next, last);
  const list = el('ol', { class: 'moves', 'aria-label': 'Moves of the line' });
  const status = el('p', { class: 'move-status', 'aria-live': 'polite' });
  const problem = el('p', { class: 'line-problem', hidden: true });

  if (usable.length > 1) side.append(choice);
  if (usable.length) {
    svg.setAttribute('aria-keyshortcuts', 'ArrowLeft ArrowRight Home End');
    side.append(el('p', { class: 'line-title', id: `${id}-title` }), stepper,
      el('p', { class: 'hint keys', text: 'Keys: ← and → step, Home and End jump.' }), list, problem);
  }
  side.append(status, flip);

  function show(index) {
    ply = Math.max(0, Math.min(index, positions.length - 1));
    const position = positions[ply];
    const move = ply > 0 ? moves[ply - 1] : { from: -1, to: -1 };
    drawBoard(svg, position, { flipped, from: move.from, to: move.to });
    const labels = line ? line.labels : [];
    let where;
    if (ply === 0) where = line ? `${startName}, before the line` : startName;
    else where = `After ${labels[ply - 1].full} (move ${ply} of ${labels.length})`;
    svg.setAttribute('aria-label', `${where}. ${describePosition(position)}`);
    status.textContent = ply === 0 ? where + '.' : `${where}${ply === labels.length && line.mates ? ': checkmate' : ''}.`;
    list.querySelectorAll('button').forEach((b, i) => {
      if (i === ply - 1) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
    });
    // The current move in view within the list (which scrolls on its own,
    // without moving the page).
    const item = list.children[ply - 1];
    if (item) {
      const box = list.getBoundingClientRect(), at = item.getBoundingClientRect();
      if (at.top < box.top) list.scrollTop -= box.top - at.top;
      else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
    }
    // aria-disabled rather than disabled: a disabled button would drop the
    // keyboard focus (End pressed at the end); showing an out-of-range ply
    // is clamped anyway.
    for (const b of [first, back]) b.setAttribute('aria-disabled', String(ply === 0));
    for (const b of [next, last]) b.setAttribute('aria-disabled', String(ply >= positions.length - 1));
    viewer.dataset.ply = String(ply);
  }

  function select(chosen) {
    line = chosen;
    positions = [start];
    moves = [];
    replayError = '';
    if (line) {
      const useSan = Array.isArray(line.san) && line.san.length === line.uci.length;
      line.labels = moveLabels(start, useSan ? line.san : line.uci);
      line.mates = true;  // a mating line ("line" of a can_mate "yes") ends in checkmate
      for (const uci of line.uci) {
        try {
          const r = applyUci(positions[positions.length - 1], uci, chess960);
          positions.push(r.position);
          moves.push({ from: r.from, to: r.to });
        } catch (err) {
          replayError = `The line could not be replayed from move ${positions.length}: ${err.message}.`;
          break;
        }
      }
      viewer.querySelector('.line-title').textContent =
        `${line.label}: ${line.uci.length} move${line.uci.length === 1 ? '' : 's'}${useSan ? '' : ' (UCI)'}`;
      list.replaceChildren(...line.labels.slice(0, positions.length - 1).map((l, i) => el('li', { class: l.white ? 'white-move' : 'black-move' },
        el('button', { type: 'button', text: l.full, 'data-ply': i + 1, 'aria-label': `Go to ${l.full}` }))));
      list.setAttribute('aria-label', `Moves of ${line.label}`);
      problem.textContent = replayError;
      problem.hidden = !replayError;
      choice.querySelectorAll('button').forEach((b, i) => b.setAttribute('aria-pressed', String(usable[i] === line)));
    }
    show(0);
  }

  usable.forEach((l) => {
    const b = el('button', { type: 'button', text: l.label, 'aria-pressed': 'false' });
    b.addEventListener('click', () => select(l));
    choice.append(b);
  });
  first.addEventListener('click', () => show(0));
  back.addEventListener('click', () => show(ply - 1));
  next.addEventListener('click', () => show(ply + 1));
  last.addEventListener('click', () => show(positions.length - 1));
  flip.addEventListener('click', () => {
    flipped = !flipped;
    flip.setAttribute('aria-pressed', String(flipped));
    show(ply);
  });
  list.addEventListener('click', (event) => {
    const b = event.target.closest('button[data-ply]');
    if (b) show(Number(b.dataset.ply));
  });

  // Arrow keys, Home and End step through the line. True when handled.
  function handleKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
    const target = event.target;
    if (target && target.closest && target.closest('input, textarea, select, [contenteditable="true"]')) return false;
    const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: positions.length - 1 }[event.key];
    if (to === undefined || !line) return false;
    event.preventDefault();
    show(to);
    return true;
  }
  viewer.addEventListener('keydown', (event) => {
    if (handleKey(event)) event.stopPropagation();
  });

  select(usable[0] || null);
  return { element: viewer, handleKey };
}
