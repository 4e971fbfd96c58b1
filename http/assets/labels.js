// Words for people, keyed by the API's own lowercase names (rules, proofs,
// statuses, claims, tablebase values: the names `arbiter --json` writes),
// so that the page speaks to an arbiter rather than in identifiers. A name
// missing here is shown as it comes, with its underscores as spaces.

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

// A position's status (its FIDE article comes with it, as "article").
export const STATUS = {
  ongoing: 'The game goes on',
  checkmate: 'Checkmate',
  stalemate: 'Stalemate',
  dead: 'Dead position',
  fivefold: 'Fivefold repetition',
  seventy_five_moves: 'Seventy-five-move rule',
};

export const RESULTS = {
  '1-0': '1–0 (White wins)',
  '0-1': '0–1 (Black wins)',
  '1/2-1/2': '½–½ (draw)',
  '*': '* (no result)',
};

// A tablebase category (the Lichess API's names), for the side to move.
export const TABLEBASE = {
  loss: 'loss',
  'maybe-loss': 'loss, maybe (DTZ rounding leaves the fifty-move rule open)',
  'blessed-loss': 'blessed loss (saved by the fifty-move rule)',
  draw: 'draw',
  'cursed-win': 'cursed win (spoilt by the fifty-move rule)',
  'maybe-win': 'win, maybe (DTZ rounding leaves the fifty-move rule open)',
  win: 'win',
  unknown: 'not known',
};

export const TABLEBASE_SOURCE = {
  syzygy: 'the Syzygy tables',
  retrograde: 'Arbiter\'s retrograde tables (at most 4 men, exact)',
};

// Where a flag fall was read from (flag_evidence).
export const FLAG_EVIDENCE = {
  termination: 'the Termination tag',
  clock: 'the clock comments',
  result: 'the result',
  side_to_move: 'the side to move',
};

// How the record said the game ended (termination_read_as), and where it
// said so (termination_source).
export const TERMINATION_READ_AS = {
  none: 'not said',
  unrecognised: 'not recognised',
};

export const TERMINATION_SOURCE = {
  termination_tag: 'the Termination tag',
  closing_comment: 'the closing comment',
};

// The rule sets (`rules=` of the API and "rules" of every record).
export const RULESETS = {
  fide: 'FIDE Laws of Chess',
  uscf: 'US Chess',
  iccf: 'ICCF (correspondence)',
  chess99: 'Chess 99',
};

// Claims (docs/rulings.md, "Claims"): each kind's name, its article and the
// rules it belongs to; the answers, and what an answer rests on.
export const CLAIM_KIND = {
  quickplay_finish: ['Quickplay finish', 'FIDE Guidelines III.5', 'fide'],
  insufficient_losing_chances: ['Insufficient losing chances', 'US Chess 14H', 'uscf'],
  tablebase_claim: ['Tablebase claim', 'ICCF', 'iccf'],
};

// [badge text, class]. The judgment is not a ruling: it is never worded or
// coloured as an upheld or rejected claim.
export const CLAIM_ANSWER = {
  upheld: ['Upheld', 'upheld'],
  rejected: ['Rejected', 'rejected'],
  arbiter_judgment: ['Left to the arbiter', 'judgment'],
};

export const CLAIM_BASIS = {
  not_under_these_rules: 'not a claim of these rules',
  game_over: 'the game was already over',
  not_on_move: 'the claimant did not have the move',
  clock_conditions: 'the time control adds time per move',
  opponent_cannot_mate: 'the opponent cannot checkmate',
  tablebase_draw: 'the tables give the opponent no win under the fifty-move rule',
  tablebase_opponent_wins: 'the tables give the opponent a win within the fifty-move rule',
  tablebase_open: 'DTZ rounding leaves the fifty-move outcome open',
  tablebase_result: 'the tables\' value without the fifty-move rule',
  too_many_men: 'more men than the tables cover',
  not_covered: 'no table at hand covers the position',
  no_decisive_evidence: 'no decisive evidence: the opponent may mate, and no table covers the position',
};

export const CLAIMED_OUTCOME = {
  draw: 'a draw',
  win: 'a win',
};

export function words(id) {
  return String(id || '').replace(/_/g, ' ');
}

// "white" -> "White"; '' for anything else (null: not said).
export function color(c) {
  return c === 'white' ? 'White' : c === 'black' ? 'Black' : '';
}

export function otherColor(c) {
  return c === 'white' ? 'black' : c === 'black' ? 'white' : '';
}

export function ruleName(rule) {
  return RULES[rule] || words(rule);
}

export function resultName(result) {
  return RESULTS[result] || result || '';
}

export function rulesetName(rules) {
  return RULESETS[rules || 'fide'] || words(rules);
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
