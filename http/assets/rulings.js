// One ruling as the page shows it: an Assessment (GET /v1/analyze) or a
// GameVerdict (a line of POST /v1/verify), with its board, its facts and
// its evidence. Field names are the .proto's (proto/arbiter/v1/verdict.proto).
import { el } from './dom.js';
import {
  CLAIM_ANSWER, CLAIM_BASIS, CLAIMED_OUTCOME, ENDING_KIND, FLAG_EVIDENCE, STATUS, TABLEBASE, TABLEBASE_SOURCE,
  articleName, claimKindName, color, proofName, resultName, ruleName, rulesetName, words,
} from './labels.js';
import { createViewer } from './viewer.js';

const yesNo = (b) => (b ? 'yes' : 'no');

const otherColor = (c) => (c === 'COLOR_WHITE' ? 'COLOR_BLACK' : c === 'COLOR_BLACK' ? 'COLOR_WHITE' : '');

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

// "Yes: a line of 7 moves mates" / "No. Proof: material (...)" / "Unknown".
// `lineLength`: the moves of the line shown on the board, when it is not
// the ability's own (a verdict's winner_line); `onBoard`: whether the line
// can be stepped through on the board beside it.
function mateAbilityNode(ability, sideName, lineLength, onBoard = true) {
  const answer = ability && ability.answer;
  const span = el('span', { class: 'mate-ability', 'data-answer': answer || '' });
  if (answer === 'CAN_MATE_YES') {
    const n = lineLength !== undefined ? lineLength : (ability.line || []).length;
    span.append(el('strong', { class: 'answer yes', text: 'Can mate' }),
      n ? `: a line of ${n} move${n === 1 ? '' : 's'} ends in checkmate${onBoard ? ' (step through it on the board)' : ''}.`
        : '.');
  } else if (answer === 'CAN_MATE_NO') {
    span.dataset.proof = ability.proof || '';
    span.append(el('strong', { class: 'answer no', text: 'Cannot mate' }), '. Proof: ',
      el('strong', { class: 'proof', text: words(ability.proof) || 'not named' }),
      ability.proof ? ` (${proofName(ability.proof)}).` : '.');
  } else if (answer === 'CAN_MATE_UNKNOWN') {
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
    case 'TABLEBASE_OUTCOME_WIN': return `${side} wins`;
    case 'TABLEBASE_OUTCOME_LOSS': return `${other} wins`;
    case 'TABLEBASE_OUTCOME_DRAW': return 'a draw';
    case 'TABLEBASE_OUTCOME_UNKNOWN': return 'open (DTZ rounding)';
    default: return '';
  }
}

// A TablebaseProbe: the value for the side to move, both readings of it
// (with and without the fifty-move rule), the move that keeps a win inside
// fifty moves, and which tables answered.
function tablebaseNode(probe) {
  if (!probe) return null;
  const source = TABLEBASE_SOURCE[probe.source] || words(probe.source);
  const box = el('div', { class: 'tablebase', 'data-source': probe.source || 'TABLEBASE_SOURCE_SYZYGY' });
  if (!probe.root) {
    box.dataset.category = '';
    box.append(el('p', { text: `Not covered${probe.not_covered ? `: ${probe.not_covered}` : ''}.` }),
      el('ul', { class: 'tablebase-readings' }, el('li', { class: 'tablebase-source' }, `Tables asked: ${source}`)));
    return box;
  }
  const root = probe.root;
  const side = color(probe.side_to_move) || 'the side to move';
  const other = color(otherColor(probe.side_to_move)) || 'the opponent';
  box.dataset.category = root.category || '';
  const value = el('p', { class: 'tablebase-value' },
    el('strong', { text: TABLEBASE[root.category] || words(root.category) }), ` for ${side} (to move)`);
  const dtz = root.precise_dtz !== undefined ? `${root.precise_dtz} (exact)` : root.dtz;
  if (dtz !== undefined && dtz !== 0) value.append(`, DTZ ${dtz}`);
  const losing = /LOSS$/.test(root.category || '');  // "a win within fifty moves: no" says nothing then
  if (root.win_within_50 !== undefined && !losing) value.append(`; a win within the fifty-move rule: ${yesNo(root.win_within_50)}`);
  if (root.checkmate) value.append('; checkmate');
  if (root.stalemate) value.append('; stalemate');
  const best = (root.moves || [])[0];
  if (best) value.append(`; best move ${best.san || best.uci}`);
  value.append('.');
  box.append(value);
  const readings = el('ul', { class: 'tablebase-readings' });
  const reading = (name, text, attributes) => {
    if (text) readings.append(el('li', attributes, `${name}: `, el('strong', { text })));
  };
  const fifty = outcomeText(root.fifty_move_outcome, side, other);
  const unlimited = outcomeText(root.unlimited_outcome, side, other);
  if (fifty) box.dataset.fifty = root.fifty_move_outcome;
  if (unlimited) box.dataset.unlimited = root.unlimited_outcome;
  reading('With the fifty-move rule (over the board)', fifty, { class: 'outcome-fifty' });
  reading('Without it (ICCF tablebase claims)', unlimited, { class: 'outcome-unlimited' });
  reading('The move that keeps the win within fifty moves', root.move_within_50_san || root.move_within_50, { class: 'move-within-50' });
  reading('Source', source, { class: 'tablebase-source' });
  box.append(readings);
  return box;
}

// One ClaimRuling: the answer first (upheld, rejected, or left to the
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
  if (claim.answer === 'CLAIM_ANSWER_UPHELD') {
    line.append(`${claimant}'s claim of ${claimed} is upheld`,
      claim.result ? `: ${resultName(claim.result)}.` : '.');
  } else if (claim.answer === 'CLAIM_ANSWER_REJECTED') {
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
    ['Made after ply', inGame && claim.ply !== undefined ? claim.ply : ''],
    ['Position', inGame ? el('span', { class: 'fen', text: claim.fen }) : ''],
    [`Can ${opponent} still mate?`, ability && ability.answer && ability.answer !== 'CAN_MATE_UNSPECIFIED'
      ? mateAbilityNode(ability, opponent, lineLength, lineOnBoard) : '', { 'data-claim-side': opponent.toLowerCase(), class: 'fact claim-mate' }],
    ['Tablebase', tablebaseNode(claim.tablebase), { class: 'fact claim-tablebase' }],
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

// A Chess 99 side's can_win (the CanMate enum, as chess uses).
function canWin(side) {
  const answer = side && side.can_win;
  return { CAN_MATE_YES: 'yes', CAN_MATE_NO: 'no', CAN_MATE_UNKNOWN: 'unknown' }[answer] || words(answer);
}

// GET /v1/analyze's answer.
export function renderAssessment(a, { level = 3 } = {}) {
  const article = el('article', { class: 'ruling', 'data-kind': 'assessment' });
  article.append(heading(level, 'Position'));
  if (a.chess99) {
    const c = a.chess99;
    article.append(el('p', { class: 'verdict-line', text: `Chess 99 position: ${words(c.status)}${c.section ? ` (${c.section})` : ''}.` }),
      el('p', { class: 'fen', text: a.fen }),
      facts([
        ['White can win', `${canWin(c.white)} ${c.white && c.white.proof ? `(${c.white.proof} ${c.white.section})` : ''}`],
        ['Black can win', `${canWin(c.black)} ${c.black && c.black.proof ? `(${c.black.proof} ${c.black.section})` : ''}`],
      ]),
      el('p', { class: 'hint', text: 'Chess 99 boards (9 × 9) are not drawn on this page.' }));
    return article;
  }
  // A claim asked about the position: its answer first.
  const claim = a.claim;
  const claimLine = claim && claim.opponent_can_mate && claim.opponent_can_mate.answer === 'CAN_MATE_YES'
    ? (claim.opponent_can_mate.line || []) : [];
  if (claim) article.append(claimNode(claim, { level: level + 1, lineOnBoard: claimLine.length > 0 }));
  const [statusText, statusArticle] = STATUS[a.status] || [words(a.status), ''];
  article.append(el('p', { class: 'verdict-line' },
    el('strong', { text: statusText }), statusArticle ? ` (${articleName(statusArticle)}).` : '.',
    a.dead === true ? ' The position is dead: no series of legal moves can end in checkmate (FIDE Laws, Article 5.2.2).' : ''));
  const lines = [];
  for (const [key, name] of [['white', 'White'], ['black', 'Black']]) {
    const ability = a[key];
    if (ability && ability.answer === 'CAN_MATE_YES' && (ability.line || []).length)
      lines.push({ label: `${name}'s mating line`, uci: ability.line, san: ability.line_san });
  }
  // The claim's evidence, a line of the claimant's opponent, shown first
  // (the same line as that side's ability, usually).
  if (claimLine.length) {
    const opponent = color(otherColor(claim.claimant));
    const same = lines.findIndex((l) => l.uci.join(' ') === claimLine.join(' '));
    const evidence = same >= 0 ? lines.splice(same, 1)[0]
      : { label: `${opponent}'s mating line (the claim)`, uci: claimLine, san: claim.opponent_can_mate.line_san };
    lines.unshift(evidence);
  }
  const grid = el('div', { class: 'ruling-grid' });
  grid.append(viewerFor(a.fen, a.chess960, a.fen, lines, 'The position'));
  const claims = a.claims || {};
  const claimText = [];
  if (claims.threefold_now) claimText.push('threefold repetition can be claimed now (9.2.2)');
  if ((claims.threefold_moves || []).length) claimText.push(`threefold by announcing ${claims.threefold_moves.join(', ')} (9.2.1)`);
  if (claims.fifty_now) claimText.push('the fifty-move rule can be claimed now (9.3.2)');
  if ((claims.fifty_moves || []).length) claimText.push(`fifty moves by announcing ${claims.fifty_moves.join(', ')} (9.3.1)`);
  const side = el('div', { class: 'evidence' },
    heading(level + 1, 'Can each side still mate?'),
    facts([
      ['White', mateAbilityNode(a.white, 'White'), { 'data-side': 'white' }],
      ['Black', mateAbilityNode(a.black, 'Black'), { 'data-side': 'black' }],
      ['Dead position', a.dead === undefined ? 'unknown (a budget ran out)' : yesNo(a.dead)],
      ['Draw claims', claimText.join('; ')],
      ['Tablebase', tablebaseNode(a.tablebase)],
      ['Chess960', a.chess960 ? 'yes' : ''],
    ]));
  grid.append(side);
  article.append(grid);
  return article;
}

// A line of POST /v1/verify: one game's verdict.
export function renderVerdict(v, { level = 3, withHeading = true } = {}) {
  const article = el('article', { class: 'ruling', 'data-kind': 'verdict', 'data-game': v.game });
  if (withHeading) article.append(heading(level, `Game ${v.game}`));
  if (v.site) article.append(el('p', { class: 'site', text: `Site: ${v.site}` }));
  const r = v.ruling;
  if (!r) {
    article.append(el('p', { class: 'verdict-line' },
      el('span', { class: 'badge error', text: 'Not read' }),
      ` ${v.error || 'This game has no ruling.'}`),
    facts([
      ['Declared result', resultName(v.declared)],
      ['Termination tag', v.termination],
      ['Line of the input', v.error_line && v.error_line !== '0' ? v.error_line : ''],
    ]));
    return article;
  }
  const agrees = r.agrees;
  article.append(el('p', { class: 'verdict-line' },
    el('span', { class: `badge ${agrees ? 'agree' : 'disagree'}`, text: agrees ? 'Agrees' : 'Disagrees' }),
    r.certain ? '' : el('span', { class: 'badge uncertain', text: 'Uncertain' }),
    ' Declared ', el('strong', { text: resultName(v.declared) || 'nothing' }),
    '; ruled ', el('strong', { class: 'ruling-result', text: resultName(r.ruling) }),
    ' by ', el('strong', { class: 'ruling-rule', 'data-rule': r.rule, text: ruleName(r.rule) }),
    r.article ? `, ${articleName(r.article)}.` : '.'));

  const grid = el('div', { class: 'ruling-grid' });
  const winner = color(r.winner_side);
  const ability = r.winner_can_mate;
  const lines = [];
  if ((v.winner_line || []).length)
    lines.push({ label: `${winner || 'The winner'}'s mating line`, uci: v.winner_line, san: v.winner_line_san });
  else if (winner && ability && (ability.line || []).length)
    lines.push({ label: `${winner}'s mating line`, uci: ability.line, san: ability.line_san });
  // A claim made in the ruled position: its opponent's mating line on the
  // same board.
  const claims = r.claims || [];
  const claimOnBoard = claims.map((c) => {
    const line = c.opponent_can_mate && c.opponent_can_mate.answer === 'CAN_MATE_YES' ? (c.opponent_can_mate.line || []) : [];
    if (!line.length || v.rules === 'chess99' || !v.end_fen || c.fen !== v.end_fen) return false;
    if (!lines.some((l) => l.uci.join(' ') === line.join(' ')))
      lines.push({ label: `${color(otherColor(c.claimant)) || 'The opponent'}'s mating line (the claim)`, uci: line, san: c.opponent_can_mate.line_san });
    return true;
  });
  if (v.rules === 'chess99') {
    grid.append(el('div', { class: 'viewer' },
      el('p', { class: 'fen', text: v.end_fen }),
      el('p', { class: 'hint', text: 'Chess 99 boards (9 × 9) are not drawn on this page.' })));
  } else if (v.end_fen) {
    const ply = r.ended_at_ply !== undefined ? r.ended_at_ply : v.plies;
    grid.append(viewerFor(v.end_fen, false, `Where the game was ruled (after ply ${ply}): ${v.end_fen}`, lines,
      'The ruled position'));
  }
  const ending = r.declared_ending || {};
  const flag = color(r.flag_fallen_by);
  const rows = [
    ['Declared result', resultName(v.declared)],
    ['Termination tag', v.termination],
    ['Declared ending', ending.text ? `“${ending.text}” (${ENDING_KIND[ending.kind] || words(ending.kind)})` : ''],
    ['Ruling', resultName(r.ruling)],
    ['Rule', `${ruleName(r.rule)} (${r.rule})`],
    ['Article', articleName(r.article)],
    ['Rules', rulesetName(v.rules)],
    ['Certain', r.certain ? 'yes' : 'no: it rests on a mate ability the search could not settle'],
    ['Ended at ply', r.ended_at_ply !== undefined ? `${r.ended_at_ply}${r.ended_on_board ? ', on the board' : ''}` : ''],
    ['Plies in the record', v.plies],
    ['Moves after the end', r.moves_after_end ? `${r.moves_after_end}${v.first_move_after_end ? `, the first ${v.first_move_after_end}` : ''}` : ''],
    ['Flag fell for', flag ? `${flag}${FLAG_EVIDENCE[r.flag_evidence] ? ` (from ${FLAG_EVIDENCE[r.flag_evidence]})` : ''}` : ''],
    ['Clock contradicts the result', r.clock_contradicts_result === undefined ? '' : yesNo(r.clock_contradicts_result)],
    ['Declared grounds hold', r.declared_grounds_hold === undefined ? '' : yesNo(r.declared_grounds_hold)],
    ['Claim grounds', (r.claim_grounds || []).join('; ')],
    ['Detail', v.detail],
    ['Text encoding', v.encoding ? `${v.encoding} (converted to UTF-8)` : ''],
  ];
  const evidence = el('div', { class: 'evidence' });
  if (winner && ability && ability.answer && ability.answer !== 'CAN_MATE_UNSPECIFIED') {
    evidence.append(heading(level + 1, 'Evidence'), facts([
      [`Can ${winner} still mate?`, mateAbilityNode(ability, winner, lines.length ? lines[0].uci.length : undefined),
        { 'data-side': winner.toLowerCase() }],
    ]));
  }
  if (claims.length) {
    const list = el('div', { class: 'claims' });
    claims.forEach((c, i) => list.append(claimNode(c, {
      level: level + 2, lineOnBoard: claimOnBoard[i], inGame: true,
      title: `${claims.length > 1 ? `${i + 1}. ` : ''}${claimKindName(c.kind)}${c.ply !== undefined ? `, after ply ${c.ply}` : ''}`,
    })));
    evidence.append(heading(level + 1, claims.length === 1 ? 'Claim' : `Claims (${claims.length})`), list);
  }
  if (v.tablebase) {
    const t = v.tablebase;
    evidence.append(heading(level + 1, 'Tablebase'), facts([
      ['Final position', tablebaseNode(t.probe)],
      ['Contradicts the declared result', t.contradiction === undefined ? '' : yesNo(t.contradiction)],
      ['Note', t.note],
    ]));
  }
  evidence.append(heading(level + 1, 'Facts'), facts(rows));
  grid.append(evidence);
  article.append(grid);
  return article;
}
