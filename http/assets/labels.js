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
  quickplay_finish_claim: 'Quickplay-finish claim',
  insufficient_losing_chances_claim: 'Insufficient-losing-chances claim',
  tablebase_claim: 'Tablebase claim',
  flag_fall_insufficient_material: 'Flag fall, but insufficient material to win on time',
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

// The rule sets (`rules=` of the API; GameVerdict.rules, "" for FIDE) and
// the Ruleset enum.
export const RULESETS = {
  fide: 'FIDE Laws of Chess',
  uscf: 'US Chess',
  iccf: 'ICCF (correspondence)',
  chess99: 'Chess 99',
};

export const RULESET_ENUM = {
  RULESET_UNSPECIFIED: 'fide',
  RULESET_CHESS: 'fide',
  RULESET_USCF: 'uscf',
  RULESET_ICCF: 'iccf',
  RULESET_CHESS99: 'chess99',
};

// Claims (docs/rulings.md, "Claims"): the kinds with the rules each belongs
// to, the answers, and what an answer rests on.
export const CLAIM_KIND = {
  CLAIM_KIND_QUICKPLAY_FINISH: ['Quickplay finish', 'FIDE Guidelines III.5', 'quickplay_finish', 'fide'],
  CLAIM_KIND_INSUFFICIENT_LOSING_CHANCES: ['Insufficient losing chances', 'US Chess 14H', 'insufficient_losing_chances', 'uscf'],
  CLAIM_KIND_TABLEBASE_CLAIM: ['Tablebase claim', 'ICCF', 'tablebase_claim', 'iccf'],
};

// [badge text, class]. The judgment is not a ruling: it is never worded or
// coloured as an upheld or rejected claim.
export const CLAIM_ANSWER = {
  CLAIM_ANSWER_UPHELD: ['Upheld', 'upheld'],
  CLAIM_ANSWER_REJECTED: ['Rejected', 'rejected'],
  CLAIM_ANSWER_ARBITER_JUDGMENT: ['Left to the arbiter', 'judgment'],
};

export const CLAIM_BASIS = {
  CLAIM_BASIS_NOT_UNDER_THESE_RULES: 'not a claim of these rules',
  CLAIM_BASIS_GAME_OVER: 'the game was already over',
  CLAIM_BASIS_NOT_ON_MOVE: 'the claimant did not have the move',
  CLAIM_BASIS_CLOCK_CONDITIONS: 'the time control adds time per move',
  CLAIM_BASIS_OPPONENT_CANNOT_MATE: 'the opponent cannot checkmate',
  CLAIM_BASIS_TABLEBASE_DRAW: 'the tables give the opponent no win under the fifty-move rule',
  CLAIM_BASIS_TABLEBASE_OPPONENT_WINS: 'the tables give the opponent a win within the fifty-move rule',
  CLAIM_BASIS_TABLEBASE_OPEN: 'DTZ rounding leaves the fifty-move outcome open',
  CLAIM_BASIS_TABLEBASE_RESULT: 'the tables\' value without the fifty-move rule',
  CLAIM_BASIS_TOO_MANY_MEN: 'more men than the tables cover',
  CLAIM_BASIS_NOT_COVERED: 'no table at hand covers the position',
  CLAIM_BASIS_NO_DECISIVE_EVIDENCE: 'no decisive evidence: the opponent may mate, and no table covers the position',
};

export const CLAIMED_OUTCOME = {
  CLAIMED_OUTCOME_UNSPECIFIED: 'a draw',
  CLAIMED_OUTCOME_DRAW: 'a draw',
  CLAIMED_OUTCOME_WIN: 'a win',
};

export const TABLEBASE_SOURCE = {
  TABLEBASE_SOURCE_UNSPECIFIED: 'the Syzygy tables',
  TABLEBASE_SOURCE_SYZYGY: 'the Syzygy tables',
  TABLEBASE_SOURCE_RETROGRADE: 'Arbiter\'s retrograde tables (at most 4 men, exact)',
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

export function rulesetName(rules) {
  const key = RULESET_ENUM[rules] || rules || 'fide';
  return RULESETS[key] || words(key);
}

export function claimKindName(kind) {
  const k = CLAIM_KIND[kind];
  return k ? `${k[0]} (${k[1]})` : words(kind);
}

// An article as the page shows it: a bare number is a FIDE Laws article
// ("5.1.1"); anything else names its own source ("FIDE Guidelines III.5",
// "US Chess 14H", "§5.1").
export function articleName(article) {
  if (!article) return '';
  return /^\d/.test(article) ? `FIDE Laws, Article ${article}` : article;
}

export function proofName(proof) {
  return PROOFS[proof] || words(proof);
}
