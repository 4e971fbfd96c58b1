// Words for the API's identifiers (rules, proofs, enums), so that the page
// speaks to an arbiter rather than in field names. An identifier missing
// here is shown as it comes, with its underscores as spaces.

export const RULES = {
  unfinished: 'Unfinished game',
  checkmate: 'Checkmate',
  stalemate: 'Stalemate',
  dead_position: 'Dead position',
  fivefold: 'Fivefold repetition',
  seventy_five_moves: 'Seventy-five-move rule',
  flag_fall: 'Flag fall',
  flag_fall_cannot_mate: 'Flag fall, but the opponent cannot mate',
  resignation: 'Resignation',
  resignation_cannot_mate: 'Resignation, but the opponent cannot mate',
  forfeit: 'Forfeit',
  forfeit_cannot_mate: 'Forfeit, but the opponent cannot mate',
  adjudication: 'Adjudication',
  adjudication_cannot_mate: 'Adjudication, but the winner cannot mate',
  double_forfeit: 'Double forfeit',
  draw_agreed_or_claimed: 'Draw agreed or claimed',
  king_capture: 'King capture (Chess 99)',
  drawn_king_capture: 'Drawn king capture (Chess 99)',
  lone_king: 'Lone king (Chess 99)',
  bare_kings: 'Bare kings (Chess 99)',
  claim_king_capture_available: 'Claim: king capture available (Chess 99)',
  claim_99_moves: 'Claim: 99 moves (Chess 99)',
  agreement: 'Agreement',
  no_move: 'No move (Chess 99)',
  time_forfeit: 'Time forfeit',
};

export const PROOFS = {
  material: 'insufficient material: no series of legal moves can mate with these men',
  forced_line: 'a forced line: every move is forced until no mate is possible',
  fortress: 'a fortress: the pawns and kings are locked so that no mate can ever happen',
  exhaustive_search: 'an exhaustive search: no reachable position is a mate',
  retrograde: 'the retrograde tables (at most 4 men, exact): no mate is reachable',
  seventy_five_move_rule: 'the seventy-five-move rule ends the game before any mate',
  lone_king: 'a lone king cannot win',
  bare_kings: 'bare kings: neither side can win',
};

export const STATUS = {
  GAME_STATUS_ONGOING: ['The game goes on', ''],
  GAME_STATUS_CHECKMATE: ['Checkmate', '5.1.1'],
  GAME_STATUS_STALEMATE: ['Stalemate', '5.2.1'],
  GAME_STATUS_DEAD_POSITION: ['Dead position', '5.2.2'],
  GAME_STATUS_FIVEFOLD: ['Fivefold repetition', '9.6.1'],
  GAME_STATUS_SEVENTY_FIVE_MOVES: ['Seventy-five-move rule', '9.6.2'],
};

export const RESULTS = {
  '1-0': '1–0 (White wins)',
  '0-1': '0–1 (Black wins)',
  '1/2-1/2': '½–½ (draw)',
  '*': '* (no result)',
};

export const TABLEBASE = {
  TABLEBASE_CATEGORY_LOSS: 'loss',
  TABLEBASE_CATEGORY_MAYBE_LOSS: 'loss, maybe (DTZ rounding leaves the fifty-move rule open)',
  TABLEBASE_CATEGORY_BLESSED_LOSS: 'blessed loss (saved by the fifty-move rule)',
  TABLEBASE_CATEGORY_DRAW: 'draw',
  TABLEBASE_CATEGORY_CURSED_WIN: 'cursed win (spoilt by the fifty-move rule)',
  TABLEBASE_CATEGORY_MAYBE_WIN: 'win, maybe (DTZ rounding leaves the fifty-move rule open)',
  TABLEBASE_CATEGORY_WIN: 'win',
};

export const FLAG_EVIDENCE = {
  FLAG_EVIDENCE_TERMINATION: 'the Termination tag',
  FLAG_EVIDENCE_CLOCK: 'the clock comments',
  FLAG_EVIDENCE_RESULT: 'the result',
  FLAG_EVIDENCE_SIDE_TO_MOVE: 'the side to move',
};

export const ENDING_KIND = {
  ENDING_KIND_NONE: 'not said',
  ENDING_KIND_UNRECOGNISED: 'not recognised',
  ENDING_KIND_FLAG_FALL: 'flag fall',
  ENDING_KIND_RESIGNATION: 'resignation',
  ENDING_KIND_FORFEIT: 'forfeit',
  ENDING_KIND_AGREEMENT: 'agreement',
  ENDING_KIND_CLAIM: 'claim',
  ENDING_KIND_CHECKMATE: 'checkmate',
  ENDING_KIND_ADJUDICATION: 'adjudication',
  ENDING_KIND_UNTERMINATED: 'unterminated',
};

export function color(c) {
  return c === 'COLOR_WHITE' ? 'White' : c === 'COLOR_BLACK' ? 'Black' : '';
}

export function words(id) {
  return String(id || '').replace(/_/g, ' ');
}

export function ruleName(rule) {
  return RULES[rule] || words(rule);
}

export function resultName(result) {
  return RESULTS[result] || result || '';
}

export function proofName(proof) {
  return PROOFS[proof] || words(proof);
}
