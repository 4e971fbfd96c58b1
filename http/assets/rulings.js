// One ruling as the page shows it: an assessment (GET /v1/analyze) or a
// game's record (a line of POST /v1/verify: "type" "verdict", or "error"
// when the game could not be read), with its board, its facts and its
// evidence. The keys are those `arbiter analyze --json` and `arbiter verify
// --format jsonl` write (docs/schema/).
import { el } from './dom.js';
import {
  CLAIM_ANSWER, CLAIM_BASIS, CLAIMED_OUTCOME, FLAG_EVIDENCE, STATUS, TABLEBASE, TABLEBASE_SOURCE, TERMINATION_READ_AS,
  TERMINATION_SOURCE, articleName, claimKindName, color, otherColor, proofName, resultName, ruleName, rulesetName, words,
} from './labels.js';
import { createViewer } from './viewer.js';

const yesNo = (b) => (b ? 'yes' : 'no');
const known = (x) => x !== null && x !== undefined;

// "white" or "black": the side to move of a FEN.
const sideToMove = (fen) => (String(fen || '').trim().split(/\s+/)[1] === 'b' ? 'black' : 'white');

// A <dl> from [term, description (string or Node), attributes?] rows;
// rows with an empty description are left out.
function facts(rows, className = 'facts') {
  const dl = el('dl', { class: className });
  for (const [term, description, attributes = {}] of rows) {
    if (description === undefined || description === null || description === '') continue;
    dl.append(el('div', { class: 'fact', ...attributes }, el('dt', { text: term }),
      el('dd', {}, description instanceof Node ? description : String(description))));
  }
  return dl;
}

// A mate ability ({"can_mate": "yes"|"no"|"unknown", "proof", "line",
// "line_san"}; null when the side was not asked about): "Can mate: a line
// of 7 moves ends in checkmate" / "Cannot mate. Proof: material (...)" /
// "Unknown". `lineLength`: the moves of the line shown on the board, when
// it is not the ability's own; `onBoard`: whether the line can be stepped
// through on the board beside it.
function mateAbilityNode(ability, sideName, lineLength, onBoard = true) {
  const answer = ability ? ability.can_mate : '';
  const span = el('span', { class: 'mate-ability', 'data-answer': answer || '' });
  if (answer === 'yes') {
    const n = lineLength !== undefined ? lineLength : (ability.line || []).length;
    span.append(el('strong', { class: 'answer yes', text: 'Can mate' }),
      n ? `: a line of ${n} move${n === 1 ? '' : 's'} ends in checkmate${onBoard ? ' (step through it on the board)' : ''}.`
        : '.');
  } else if (answer === 'no') {
    span.dataset.proof = ability.proof || '';
    span.append(el('strong', { class: 'answer no', text: 'Cannot mate' }), '. Proof: ',
      el('strong', { class: 'proof', text: words(ability.proof) || 'not named' }),
      ability.proof ? ` (${proofName(ability.proof)}).` : '.');
  } else if (answer === 'unknown') {
    span.append(el('strong', { class: 'answer unknown', text: 'Unknown' }),
      ': the search budget ran out before a line or a proof was found.');
  } else {
    span.append(`Not asked about ${sideName}.`);
  }
  return span;
}

// Best play's outcome for the side to move, said as who wins.
function outcomeText(outcome, side, other) {
  switch (outcome) {
    case 'win': return `${side} wins`;
    case 'loss': return `${other} wins`;
    case 'draw': return 'a draw';
    case 'unknown': return 'open (DTZ rounding)';
    default: return '';
  }
}

// A tablebase value (the Lichess API's shape): the category for the side
// to move, DTZ, both readings of it (with and without the fifty-move rule),
// the move that keeps a win inside fifty moves, and which tables answered.
// `fen`: the position (for its side to move, when the value does not name
// it); `source`: "syzygy" or "retrograde"; `notCovered`: why no table
// covers the position, when there is no value.
function tablebaseNode(value, { fen = '', source = '', notCovered = '' } = {}) {
  if (!value && !notCovered) return null;
  const sourceText = TABLEBASE_SOURCE[source] || words(source);
  const box = el('div', { class: 'tablebase', 'data-source': source || '' });
  if (!value) {
    box.dataset.category = '';
    box.append(el('p', { text: `Not covered: ${notCovered}.` }));
    if (sourceText) box.append(el('ul', { class: 'tablebase-readings' }, el('li', { class: 'tablebase-source' }, `Tables asked: ${sourceText}`)));
    return box;
  }
  const toMove = value.side_to_move || sideToMove(fen);
  const side = color(toMove) || 'the side to move';
  const other = color(otherColor(toMove)) || 'the opponent';
  box.dataset.category = value.category || '';
  const line = el('p', { class: 'tablebase-value' },
    el('strong', { text: TABLEBASE[value.category] || words(value.category) }), ` for ${side} (to move)`);
  const dtz = known(value.precise_dtz) ? `${value.precise_dtz} (exact)` : value.dtz;
  if (known(dtz) && dtz !== 0) line.append(`, DTZ ${dtz}`);
  const losing = /loss$/.test(value.category || '');  // "a win within fifty moves: no" says nothing then
  if (known(value.win_within_50) && !losing) line.append(`; a win within the fifty-move rule: ${yesNo(value.win_within_50)}`);
  if (value.checkmate) line.append('; checkmate');
  if (value.stalemate) line.append('; stalemate');
  const moves = value.moves || [];
  if (moves[0]) line.append(`; best move ${moves[0].san || moves[0].uci}`);
  line.append('.');
  box.append(line);
  const readings = el('ul', { class: 'tablebase-readings' });
  const reading = (name, text, attributes) => {
    if (text) readings.append(el('li', attributes, `${name}: `, el('strong', { text })));
  };
  const fifty = outcomeText(value.fifty_move_outcome, side, other);
  const unlimited = outcomeText(value.unlimited_outcome, side, other);
  if (fifty) box.dataset.fifty = value.fifty_move_outcome;
  if (unlimited) box.dataset.unlimited = value.unlimited_outcome;
  // The move that keeps the win is UCI; its SAN is in the moves, when given.
  const keep = value.move_within_50;
  const keepSan = keep ? (moves.find((m) => m.uci === keep) || {}).san : '';
  reading('With the fifty-move rule (over the board)', fifty, { class: 'outcome-fifty' });
  reading('Without it (ICCF tablebase claims)', unlimited, { class: 'outcome-unlimited' });
  reading('The move that keeps the win within fifty moves', keepSan || keep, { class: 'move-within-50' });
  reading('Source', sourceText, { class: 'tablebase-source' });
  box.append(readings);
  return box;
}

// One claim ruling: the answer first (upheld, rejected, or left to the
// arbiter, which is not a ruling), then the reason, the article and the
// evidence. `lineOnBoard`: the opponent's mating line is one of the board's
// lines; `inGame`: a claim a game record made (its ply and position shown).
export function claimNode(claim, { level = 4, lineOnBoard = false, inGame = false, title } = {}) {
  const [answerText, answerClass] = CLAIM_ANSWER[claim.answer] || [words(claim.answer) || 'No answer', 'judgment'];
  const section = el('section', {
    class: `claim claim-${answerClass}`, 'data-answer': claim.answer || '', 'data-kind': claim.kind || '',
  });
  section.append(heading(level, title || `Claim: ${claimKindName(claim.kind)}`, { class: 'claim-title' }));
  const claimant = color(claim.claimant) || 'The side to move';
  const opponent = color(otherColor(claim.claimant)) || 'the opponent';
  const claimed = CLAIMED_OUTCOME[claim.claimed] || 'a draw';
  const line = el('p', { class: 'claim-answer' },
    el('span', { class: `badge claim-badge ${answerClass}`, text: answerText }), ' ');
  if (claim.answer === 'upheld') {
    line.append(`${claimant}'s claim of ${claimed} is upheld`,
      claim.result ? `: ${resultName(claim.result)}.` : '.');
  } else if (claim.answer === 'rejected') {
    line.append(`${claimant}'s claim of ${claimed} is rejected.`);
  } else {
    line.append(el('strong', { text: 'Not a ruling.' }),
      ` The evidence does not decide ${claimant}'s claim of ${claimed}: the arbiter judges it.`);
  }
  section.append(line);
  if (claim.reason) {
    // A sentence: a capital unless it starts with an identifier (quickplay_finish).
    const reason = /^[a-z]+\b(?!_)/.test(claim.reason) ? claim.reason.charAt(0).toUpperCase() + claim.reason.slice(1) : claim.reason;
    section.append(el('p', { class: 'claim-reason', text: /[.!?]$/.test(reason) ? reason : `${reason}.` }));
  }
  const ability = claim.opponent_can_mate;
  const lineLength = ability && (ability.line || []).length;
  section.append(facts([
    ['Claimant', color(claim.claimant) || 'the side to move'],
    ['Claimed', claimed],
    ['Rules', rulesetName(claim.rules)],
    ['Article', articleName(claim.article)],
    ['Grounds', CLAIM_BASIS[claim.basis] || words(claim.basis)],
    ['Made after ply', inGame && known(claim.ply) ? claim.ply : ''],
    ['Position', inGame ? el('span', { class: 'fen', text: claim.fen }) : ''],
    [`Can ${opponent} still mate?`, ability ? mateAbilityNode(ability, opponent, lineLength, lineOnBoard) : '',
      { 'data-claim-side': opponent.toLowerCase(), class: 'fact claim-mate' }],
    ['Tablebase', tablebaseNode(claim.tablebase, { fen: claim.fen, source: claim.tablebase_source }), { class: 'fact claim-tablebase' }],
  ]));
  return section;
}

function heading(level, text, attributes = {}) {
  return el(`h${level}`, { text, ...attributes });
}

function viewerFor(fen, chess960, caption, lines, startName) {
  try {
    return createViewer({ fen, chess960, caption, lines, startName }).element;
  } catch (err) {
    return el('p', { class: 'line-problem', text: `The board cannot be drawn: ${err.message}` });
  }
}

// A Chess 99 side: "yes", or "no (proof §section)".
function canWin(side) {
  if (!side) return '';
  return `${words(side.can_win)}${side.proof ? ` (${words(side.proof)} ${side.section || ''})` : ''}`.trim();
}

// A mating line for the viewer, from a mate ability with can_mate "yes".
function mateLine(ability, label) {
  return ability && ability.can_mate === 'yes' && (ability.line || []).length
    ? { label, uci: ability.line, san: ability.line_san } : null;
}

// GET /v1/analyze's answer: a record with "type" "assessment".
export function renderAssessment(a, { level = 3 } = {}) {
  const article = el('article', { class: 'ruling', 'data-kind': 'assessment' });
  article.append(heading(level, 'Position'));
  if (a.rules === 'chess99') {
    article.append(el('p', { class: 'verdict-line', text: `Chess 99 position: ${words(a.status)}${a.section ? ` (${a.section})` : ''}.` }),
      el('p', { class: 'fen', text: a.fen }),
      facts([
        ['White can win', canWin(a.white)],
        ['Black can win', canWin(a.black)],
        ['King captures now', (a.king_captures || []).map((k) => `${k.site}: ${ruleName(k.rule)} (${k.section})`).join('; ')],
      ]),
      el('p', { class: 'hint', text: 'Chess 99 boards (9 × 9) are not drawn on this page.' }));
    return article;
  }
  // A claim asked about the position: its answer first.
  const claim = a.claim;
  const claimLine = claim ? mateLine(claim.opponent_can_mate, '') : null;
  if (claim) article.append(claimNode(claim, { level: level + 1, lineOnBoard: Boolean(claimLine) }));
  article.append(el('p', { class: 'verdict-line' },
    el('strong', { text: STATUS[a.status] || words(a.status) }), a.article ? ` (${articleName(a.article)}).` : '.',
    a.dead === true ? ' The position is dead: no series of legal moves can end in checkmate (FIDE Laws, Article 5.2.2).' : ''));
  const lines = [mateLine(a.white, 'White\'s mating line'), mateLine(a.black, 'Black\'s mating line')].filter(Boolean);
  // The claim's evidence, a line of the claimant's opponent, shown first
  // (the same line as that side's ability, usually).
  if (claimLine) {
    const same = lines.findIndex((l) => l.uci.join(' ') === claimLine.uci.join(' '));
    const evidence = same >= 0 ? lines.splice(same, 1)[0]
      : { ...claimLine, label: `${color(otherColor(claim.claimant))}'s mating line (the claim)` };
    lines.unshift(evidence);
  }
  const grid = el('div', { class: 'ruling-grid' });
  grid.append(viewerFor(a.fen, a.chess960, a.fen, lines, 'The position'));
  const claims = a.claims || {};
  const drawClaims = [];
  for (const [key, name] of [['threefold', 'threefold repetition'], ['fifty', 'the fifty-move rule']]) {
    const c = claims[key];
    if (!c) continue;
    if (c.available) drawClaims.push(`${name} can be claimed now (${c.article})`);
    if ((c.by_move || []).length) drawClaims.push(`${name} by announcing ${c.by_move.join(', ')} (${c.article})`);
  }
  const side = el('div', { class: 'evidence' },
    heading(level + 1, 'Can each side still mate?'),
    facts([
      ['White', mateAbilityNode(a.white, 'White'), { 'data-side': 'white' }],
      ['Black', mateAbilityNode(a.black, 'Black'), { 'data-side': 'black' }],
      ['Dead position', known(a.dead) ? `${yesNo(a.dead)}${a.proof ? ` (proof: ${words(a.proof)})` : ''}` : 'unknown (a budget ran out)'],
      ['Draw claims', drawClaims.join('; ')],
      ['Tablebase', tablebaseNode(a.tablebase, { fen: a.fen, source: a.tablebase_source, notCovered: a.tablebase_not_covered })],
      ['Chess960', a.chess960 ? 'yes' : ''],
    ]));
  grid.append(side);
  article.append(grid);
  return article;
}

// A line of POST /v1/verify: one game's record, "type" "verdict" (ruled),
// "error" (the game could not be read: the ruling's keys are null) or
// "skipped" (a game of another variant, named by skipped_variant).
export function renderVerdict(v, { level = 3, withHeading = true } = {}) {
  const article = el('article', { class: 'ruling', 'data-kind': 'verdict', 'data-game': v.game });
  if (withHeading) article.append(heading(level, `Game ${v.game}`));
  if (v.site) article.append(el('p', { class: 'site', text: `Site: ${v.site}` }));
  if (v.type === 'skipped') {
    article.append(el('p', { class: 'verdict-line' },
      el('span', { class: 'badge skipped', text: 'Skipped' }),
      ` A game of ${v.skipped_variant}: Arbiter rules chess, Chess960 and Chess 99.`),
    facts([
      ['Declared result', resultName(v.declared)],
      ['Termination tag', v.termination],
    ]));
    return article;
  }
  if (v.type !== 'verdict') {
    const error = v.error || {};
    article.append(el('p', { class: 'verdict-line' },
      el('span', { class: 'badge error', text: 'Not read' }),
      ` ${error.message || 'This game has no ruling.'}`),
    facts([
      ['Declared result', resultName(v.declared)],
      ['Termination tag', v.termination],
      ['Line of the input', error.line ? (error.column ? `${error.line}, column ${error.column}` : `${error.line}`) : ''],
    ]));
    return article;
  }
  article.append(el('p', { class: 'verdict-line' },
    el('span', { class: `badge ${v.agrees ? 'agree' : 'disagree'}`, text: v.agrees ? 'Agrees' : 'Disagrees' }),
    v.certain ? '' : el('span', { class: 'badge uncertain', text: 'Uncertain' }),
    ' Declared ', el('strong', { text: resultName(v.declared) || 'nothing' }),
    '; ruled ', el('strong', { class: 'ruling-result', text: resultName(v.ruling) }),
    ' by ', el('strong', { class: 'ruling-rule', 'data-rule': v.rule, text: ruleName(v.rule) }),
    v.article ? `, ${articleName(v.article)}.` : '.'));

  const grid = el('div', { class: 'ruling-grid' });
  // The winner's mate ability: {"side", "can_mate", "proof", "line", "line_san"}.
  const ability = v.winner;
  const winner = ability ? color(ability.side) : '';
  const lines = [mateLine(ability, `${winner || 'The winner'}'s mating line`)].filter(Boolean);
  // A claim made in the ruled position: its opponent's mating line on the
  // same board.
  const claims = v.claims || [];
  const chess99 = v.rules === 'chess99';
  const claimOnBoard = claims.map((c) => {
    const line = mateLine(c.opponent_can_mate, `${color(otherColor(c.claimant)) || 'The opponent'}'s mating line (the claim)`);
    if (!line || chess99 || !v.end_fen || c.fen !== v.end_fen) return false;
    if (!lines.some((l) => l.uci.join(' ') === line.uci.join(' '))) lines.push(line);
    return true;
  });
  if (chess99) {
    grid.append(el('div', { class: 'viewer' },
      el('p', { class: 'fen', text: v.end_fen }),
      el('p', { class: 'hint', text: 'Chess 99 boards (9 × 9) are not drawn on this page.' })));
  } else if (v.end_fen) {
    const ply = known(v.ended_at_ply) ? v.ended_at_ply : v.plies;
    grid.append(viewerFor(v.end_fen, false, `Where the game was ruled (after ply ${ply}): ${v.end_fen}`, lines,
      'The ruled position'));
  }
  const readAs = v.termination_read_as;
  const flag = color(v.flag_fallen_by);
  const rows = [
    ['Declared result', resultName(v.declared)],
    ['Termination tag', v.termination],
    ['Declared ending', readAs && readAs !== 'none'
      ? `${TERMINATION_READ_AS[readAs] || words(readAs)}${v.termination_source ? ` (from ${TERMINATION_SOURCE[v.termination_source] || words(v.termination_source)})` : ''}`
      : ''],
    ['Forfeit reason', words(v.forfeit_reason)],
    ['Declared grounds', v.declared_grounds ? `${words(v.declared_grounds)}${known(v.declared_grounds_hold) ? `: ${v.declared_grounds_hold ? 'they hold' : 'they do not hold'}` : ''}` : ''],
    ['Ruling', resultName(v.ruling)],
    ['Rule', `${ruleName(v.rule)} (${v.rule})`],
    ['Article', articleName(v.article)],
    ['Rules', rulesetName(v.rules)],
    ['Certain', v.certain ? 'yes' : 'no: it rests on a mate ability the search could not settle'],
    ['Ended at ply', known(v.ended_at_ply) ? v.ended_at_ply : ''],
    ['Plies in the record', v.plies],
    ['Moves after the end', v.moves_after_end ? `${v.moves_after_end}${v.first_move_after_end ? `, the first ${v.first_move_after_end}` : ''}` : ''],
    ['Flag fell for', flag ? `${flag}${FLAG_EVIDENCE[v.flag_evidence] ? ` (from ${FLAG_EVIDENCE[v.flag_evidence]})` : ''}` : ''],
    ['Clock contradicts the result', known(v.clock_contradicts_result) ? yesNo(v.clock_contradicts_result) : ''],
    ['Claim grounds', (v.claim_grounds || []).map(words).join('; ')],
    ['Detail', v.detail],
    ['Text encoding', v.encoding ? `${v.encoding} (converted to UTF-8)` : ''],
  ];
  const evidence = el('div', { class: 'evidence' });
  if (ability) {
    evidence.append(heading(level + 1, 'Evidence'), facts([
      [`Can ${winner} still mate?`, mateAbilityNode(ability, winner, lines.length ? lines[0].uci.length : undefined),
        { 'data-side': ability.side }],
    ]));
  }
  if (claims.length) {
    const list = el('div', { class: 'claims' });
    claims.forEach((c, i) => list.append(claimNode(c, {
      level: level + 2, lineOnBoard: claimOnBoard[i], inGame: true,
      title: `${claims.length > 1 ? `${i + 1}. ` : ''}${claimKindName(c.kind)}${known(c.ply) ? `, after ply ${c.ply}` : ''}`,
    })));
    evidence.append(heading(level + 1, claims.length === 1 ? 'Claim' : `Claims (${claims.length})`), list);
  }
  if (v.tablebase || v.tablebase_note) {
    evidence.append(heading(level + 1, 'Tablebase'), facts([
      ['Final position', tablebaseNode(v.tablebase, { fen: v.end_fen, source: v.tablebase && v.tablebase.source })],
      ['Contradicts the declared result', known(v.tablebase_contradiction) ? yesNo(v.tablebase_contradiction) : ''],
      ['Note', v.tablebase_note],
    ]));
  }
  evidence.append(heading(level + 1, 'Facts'), facts(rows));
  grid.append(evidence);
  article.append(grid);
  return article;
}
