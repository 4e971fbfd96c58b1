// The page for arbiters: a FEN goes to GET /v1/analyze, a PGN (pasted, or a
// .pgn / .pgn.zst file) to POST /v1/verify, whose NDJSON answer is read as
// it streams. No framework, no build step, nothing loaded from elsewhere.
// Every answer is the JSON the command line writes, each record naming its
// "type" (docs/http.md, "JSON").
import { el } from './dom.js';
import { CLAIM_ANSWER, CLAIM_KIND, resultName, ruleName, words } from './labels.js';
import { renderAssessment, renderVerdict } from './rulings.js';

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = 'arbiter.token';
const PAGE_ROWS = 200;  // rows of the games table added at a time

const state = {
  controller: null,   // AbortController of the run under way
  verdicts: [],       // every game's record of the last run ("verdict" or "error"), in input order
  rules: new Set(),   // rules seen, for the rule filter
  matches: [],        // indices into verdicts that pass the filter
  shown: 0,           // rows of `matches` in the table
  limit: PAGE_ROWS,
  renderQueued: false,
  opener: null,       // the element that opened the dialog
  dialogViewer: null,  // the .viewer the arrow keys step: the dialog's,
  singleViewer: null,  // or the one ruling on the page
};

const number = (n) => Number(n).toLocaleString('en');
const megabytes = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1e3))} kB`);

// ---- The access token, kept for this tab only.

const tokenInput = $('token');
tokenInput.value = sessionStorage.getItem(TOKEN_KEY) || '';
tokenInput.addEventListener('input', () => {
  const t = tokenInput.value.trim();
  if (t) sessionStorage.setItem(TOKEN_KEY, t);
  else sessionStorage.removeItem(TOKEN_KEY);
});
$('forget-token').addEventListener('click', () => {
  tokenInput.value = '';
  sessionStorage.removeItem(TOKEN_KEY);
  tokenInput.focus();
});

function requestHeaders(extra = {}) {
  const headers = { ...extra };
  const token = tokenInput.value.trim();
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

// Options of every request: the rule set (rules=), the server's tables,
// the search budget.
function searchOptions() {
  const budget = $('opt-budget').value.trim();
  return {
    rules: $('rules').value,
    tablebase: $('opt-tablebase').checked ? 'true' : undefined,
    budget: /^\d+$/.test(budget) && Number(budget) > 0 ? budget : undefined,
  };
}

// ---- The rule set and a claim on a position.

// Each claim's own rules (docs/rulings.md, "Claims"): choosing a claim
// picks them; choosing other rules drops the claim (the server would
// refuse the pair).
const CLAIM_RULES = Object.fromEntries(Object.entries(CLAIM_KIND).map(([claim, [, , rules]]) => [claim, rules]));
const CLAIM_HINT = 'A FEN only. A claim is judged under its own rules: choosing one sets the rules.';

function showClaimFields() {
  const claim = $('claim').value;
  $('claimant-field').hidden = !claim;
  $('claimed-field').hidden = claim !== 'tablebase_claim';
}

$('claim').addEventListener('change', () => {
  const claim = $('claim').value;
  if (claim) $('rules').value = CLAIM_RULES[claim];
  $('claim-hint').textContent = CLAIM_HINT;
  showClaimFields();
});
$('rules').addEventListener('change', () => {
  describeInput();
  const claim = $('claim').value;
  if (claim && CLAIM_RULES[claim] !== $('rules').value) {
    const name = $('claim').selectedOptions[0].textContent;
    $('claim').value = '';
    showClaimFields();
    $('claim-hint').textContent = `The claim “${name}” was dropped: it is not a claim of these rules.`;
  }
});

// The claim's query parameters, for a chess FEN when a claim is chosen.
function claimOptions() {
  const claim = $('claim').value;
  if (!claim) return {};
  return {
    claim,
    claimant: $('claimant').value || undefined,
    claimed: claim === 'tablebase_claim' ? $('claimed').value : undefined,
  };
}

// ---- Status, errors, progress.

function setStatus(text) {
  $('status').textContent = text;
}

function showError(message, { tokenProblem = false } = {}) {
  const box = $('error');
  box.replaceChildren(el('strong', { text: 'Error: ' }), message);
  box.hidden = false;
  if (tokenProblem) {
    // The token field is in the options: open them and go there.
    $('options').open = true;
    tokenInput.focus();
  }
}

function clearError() {
  $('error').hidden = true;
  $('error').replaceChildren();
}

// The message of a {"type": "failure", "error": {...}} answer (or of a body
// that is not one).
async function errorOf(response) {
  let message = `${response.status} ${response.statusText}`;
  try {
    const body = await response.json();
    if (body && body.type === 'failure' && body.error) message = failureText(body.error);
  } catch (_) { /* not JSON: the status line says it */ }
  return message;
}

function failureText(error) {
  return `${error.message} (${error.status || error.code})`;
}

function reportHttpError(response, message) {
  if (response.status === 401) {
    showError(`This server needs an access token, and ${tokenInput.value.trim() ? 'the one given was refused' : 'none was given'}: enter it under “Options and access token”, then try again. (The server said: ${message}.)`, { tokenProblem: true });
    setStatus('The server refused the request: it needs an access token.');
  } else {
    showError(message);
    setStatus('The server refused the request.');
  }
}

// True (after saying so) when the server refuses this page's token: asked
// with a cheap call, before a file is sent and when a sending failed. A
// server that refuses a request may answer before reading its body and
// close the connection, which the browser then reports as a failed fetch
// rather than as the 401.
async function tokenRefused() {
  try {
    const response = await fetch('/v1/jobs?limit=1', { headers: requestHeaders() });
    if (response.status !== 401) return false;
    reportHttpError(response, await errorOf(response));
    return true;
  } catch (_) {
    return false;
  }
}

function progress({ visible, text, value, max }) {
  const box = $('progress');
  if (visible !== undefined) box.hidden = !visible;
  if (text !== undefined) $('progress-text').textContent = text;
  const bar = $('progress-bar');
  if (max) {
    bar.max = max;
    bar.value = Math.min(value || 0, max);
  } else {
    bar.removeAttribute('value');
    bar.removeAttribute('max');
  }
}

// ---- Starting a run.

function resetResults() {
  if (state.controller) state.controller.abort();
  state.controller = null;
  state.verdicts = [];
  state.rules = new Set();
  state.matches = [];
  state.shown = 0;
  state.limit = PAGE_ROWS;
  state.singleViewer = null;
  clearError();
  $('single').replaceChildren();
  $('summary').hidden = true;
  $('games').hidden = true;
  $('games-table').tBodies[0].replaceChildren();
  $('filter-rule').replaceChildren(el('option', { value: '', text: 'Any rule' }));
  $('filter-text').value = '';
  $('games-count').textContent = '';
  $('more-games').hidden = true;
  progress({ visible: false });
}

// A FEN is one line: a placement of 8 ranks, then optional fields; a
// Chess 99 FEN-9 has 9 ranks (and paladins, a). 'chess', 'chess99' or ''.
function fenKind(text) {
  const t = text.trim();
  if (!t || t.includes('\n')) return '';
  const placement = t.split(/\s+/)[0];
  if (/^[1-8pnbrqkPNBRQK]+(\/[1-8pnbrqkPNBRQK]+){7}$/.test(placement)) return 'chess';
  if (/^[1-9pnbrqkaPNBRQKA]+(\/[1-9pnbrqkaPNBRQKA]+){8}$/.test(placement)) return 'chess99';
  return '';
}

const textArea = $('text');
function describeInput() {
  const t = textArea.value.trim();
  const kind = fenKind(t);
  let says = 'This is read as PGN: each game will be ruled on.';
  if (!t) says = 'A FEN is analysed (can each side still mate?); games in PGN are ruled on.';
  else if (kind === 'chess99') says = 'This is a Chess 99 FEN-9: the position will be analysed under the Chess 99 rules.';
  else if (kind === 'chess' && $('rules').value === 'chess99') says = 'This is a chess FEN, but the rules chosen are Chess 99 (9 × 9): choose other rules.';
  else if (kind === 'chess') says = 'This is a FEN: the position will be analysed.';
  $('text-kind').textContent = says;
  // A claim is made on a chess position: not offered for games.
  $('claim-fields').hidden = Boolean(t) && kind !== 'chess';
}
textArea.addEventListener('input', describeInput);

$('paste-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const text = textArea.value.trim();
  if (!text) {
    resetResults();
    showError('Paste a FEN or a PGN first.');
    textArea.focus();
    return;
  }
  const kind = fenKind(text);
  if (kind) analyze(text, kind);
  else verify({ body: text, name: 'the pasted PGN', size: new Blob([text]).size, contentType: 'application/x-chess-pgn; charset=utf-8', estimate: countGames(text), showAll: true });
});

$('clear-text').addEventListener('click', () => {
  textArea.value = '';
  describeInput();
  showClaimFields();
  textArea.focus();
});

function countGames(text) {
  const m = text.match(/^\s*\[Event\s/gm);
  return m ? m.length : 0;
}

async function startFile(file) {
  if (!file) return;
  let estimate = 0;
  // A plain PGN's games can be counted here, for a determinate progress bar.
  if (!/\.zst$/i.test(file.name) && file.size <= 64e6) {
    try {
      estimate = countGames(await file.text());
    } catch (_) { /* unreadable here: the server will say */ }
  }
  verify({ body: file, name: file.name, size: file.size, contentType: file.type || 'application/octet-stream', estimate, showAll: false });
}

$('file').addEventListener('change', () => {
  const file = $('file').files[0];
  $('file').value = '';  // so that choosing the same file again rules it again
  startFile(file);
});

// Dropping a file anywhere on the page rules it; the drop zone lights up.
const dropZone = $('drop-zone');
let dragDepth = 0;
document.addEventListener('dragenter', (event) => {
  if (!event.dataTransfer || !Array.from(event.dataTransfer.types).includes('Files')) return;
  dragDepth += 1;
  dropZone.classList.add('dragging');
});
document.addEventListener('dragleave', () => {
  dragDepth = Math.max(0, dragDepth - 1);
  if (!dragDepth) dropZone.classList.remove('dragging');
});
document.addEventListener('dragover', (event) => {
  if (event.dataTransfer && Array.from(event.dataTransfer.types).includes('Files')) event.preventDefault();
});
document.addEventListener('drop', (event) => {
  if (!event.dataTransfer || !event.dataTransfer.files.length) return;
  event.preventDefault();
  dragDepth = 0;
  dropZone.classList.remove('dragging');
  startFile(event.dataTransfer.files[0]);
});

$('stop').addEventListener('click', () => {
  if (state.controller) state.controller.abort();
});

// ---- GET /v1/analyze.

async function analyze(fen, kind) {
  resetResults();
  const controller = new AbortController();
  state.controller = controller;
  const claim = kind === 'chess' ? claimOptions() : {};
  setStatus(claim.claim ? 'Judging the claim…' : 'Analysing the position…');
  const params = { fen, chess960: $('opt-chess960').checked ? 'true' : undefined, ...searchOptions(), ...claim };
  if (kind === 'chess99') params.rules = 'chess99';  // a FEN-9 is a Chess 99 position
  let assessment;
  try {
    const response = await fetch(`/v1/analyze${query(params)}`, { headers: requestHeaders(), signal: controller.signal });
    if (!response.ok) {
      reportHttpError(response, await errorOf(response));
      return;
    }
    assessment = await response.json();
  } catch (err) {
    if (err.name === 'AbortError') return;  // a newer request replaced this one
    showError(`The server could not be reached: ${err.message}`);
    setStatus('The position was not analysed.');
    return;
  } finally {
    if (state.controller === controller) state.controller = null;
  }
  const article = renderAssessment(assessment, { level: 3 });
  $('single').replaceChildren(article);
  state.singleViewer = article.querySelector('.viewer');
  setStatus(`Analysed: ${summaryOfAssessment(assessment)}`);
  revealResults();
}

// Brings the rulings into view when they start below the screen (a phone).
function revealResults() {
  const heading = $('results-heading');
  if (heading.getBoundingClientRect().top > window.innerHeight * 0.8) heading.scrollIntoView({ block: 'start' });
}

function summaryOfAssessment(a) {
  const say = (name, ability) => {
    if (!ability) return `${name}: not asked`;
    if (ability.can_mate === 'yes') return `${name} can mate`;
    if (ability.can_mate === 'no') return `${name} cannot mate (proof: ${words(ability.proof)})`;
    return `${name}: unknown`;
  };
  if (a.rules === 'chess99') return 'a Chess 99 position.';
  let claim = '';
  if (a.claim) {
    const kind = (CLAIM_KIND[a.claim.kind] || [words(a.claim.kind)])[0].toLowerCase();
    const answer = a.claim.answer === 'arbiter_judgment' ? 'left to the arbiter (not a ruling)'
      : (CLAIM_ANSWER[a.claim.answer] || [words(a.claim.answer)])[0].toLowerCase();
    claim = `the claim (${kind}) is ${answer}; `;
  }
  return `${claim}${say('White', a.white)}; ${say('Black', a.black)}.`;
}

// ---- POST /v1/verify, read as NDJSON while it streams.

async function verify({ body, name, size, contentType, estimate, showAll }) {
  resetResults();
  const controller = new AbortController();
  state.controller = controller;
  $('filter-show').value = showAll ? 'all' : 'disagree';
  setStatus(`Sending ${name} (${megabytes(size)}) to be ruled…`);
  progress({ visible: true, text: `Sending ${name}: ${megabytes(size)}…`, max: 0 });
  let summary = null;
  let failure = null;
  let response;
  if (body instanceof Blob && await tokenRefused()) {
    progress({ visible: false });
    if (state.controller === controller) state.controller = null;
    return;
  }
  try {
    response = await fetch(`/v1/verify${query(searchOptions())}`, {
      method: 'POST', body, headers: requestHeaders({ 'Content-Type': contentType }), signal: controller.signal,
    });
    if (!response.ok) {
      progress({ visible: false });
      reportHttpError(response, await errorOf(response));
      return;
    }
    const sent = `Sent ${megabytes(size)}.`;
    const update = () => {
      const n = state.verdicts.length;
      const of = estimate >= n && estimate > 0 ? ` of about ${number(estimate)}` : '';
      progress({ text: `${sent} Ruled ${number(n)}${of} game${n === 1 ? '' : 's'}…`, value: n, max: estimate >= n ? estimate : 0 });
    };
    update();
    setStatus(`Ruling ${name}…`);
    $('games').hidden = false;
    revealResults();
    let lastUpdate = 0;
    await readLines(response.body, (line) => {
      let record;
      try {
        record = JSON.parse(line);
      } catch (_) {
        failure = `the server sent a line that is not JSON: ${line.slice(0, 120)}`;
        return;
      }
      // One record per game ("verdict"; "error": that game could not be
      // read; "skipped": a game of another variant), then a "summary"; or a
      // "failure" when the run failed.
      switch (record.type) {
        case 'verdict':
        case 'error':
        case 'skipped':
          addVerdict(record);
          break;
        case 'summary':
          summary = record;
          break;
        case 'failure':
          failure = failureText(record.error || {});
          break;
        default:
          failure = `the server sent a line that is neither a verdict nor a summary: ${line.slice(0, 120)}`;
      }
      const now = performance.now();
      if (now - lastUpdate > 200) {
        lastUpdate = now;
        update();
      }
    });
  } catch (err) {
    if (err.name === 'AbortError') {
      failure = 'stopped';
    } else if (!state.verdicts.length && await tokenRefused()) {
      progress({ visible: false });
      if (state.controller === controller) state.controller = null;
      return;
    } else {
      failure = `the connection failed: ${err.message}`;
    }
  }
  if (state.controller === controller) state.controller = null;
  else if (failure === 'stopped') return;  // a newer run replaced this one
  progress({ visible: false });
  renderTable(false);
  const n = state.verdicts.length;
  if (summary && !failure) {
    renderSummary(summary);
    setStatus(`Ruled ${number(summary.games)} game${summary.games === 1 ? '' : 's'} of ${name}: ${number(summary.agree)} agree, ${number(summary.disagree)} disagree, ${number(summary.errors)} could not be read${summary.skipped ? `, ${number(summary.skipped)} skipped (other variants)` : ''}.`);
    if (n === 1) showSingle(state.verdicts[0]);
  } else if (failure === 'stopped') {
    setStatus(`Stopped after ${number(n)} game${n === 1 ? '' : 's'}.`);
  } else {
    showError(`The run failed after ${number(n)} game${n === 1 ? '' : 's'}: ${failure || 'the answer ended before its summary line'}.`);
    setStatus('The run failed.');
  }
}

// Calls onLine for each line of a streamed body (UTF-8 NDJSON).
async function readLines(stream, onLine) {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) onLine(line);
    }
  }
  if (buffer.trim()) onLine(buffer.trim());
}

function showSingle(verdict) {
  const article = renderVerdict(verdict, { level: 3 });
  $('single').replaceChildren(article);
  state.singleViewer = article.querySelector('.viewer');
}

// ---- The games table.

function addVerdict(v) {
  const index = state.verdicts.length;
  state.verdicts.push(v);
  if (v.type === 'verdict' && !state.rules.has(v.rule)) {
    state.rules.add(v.rule);
    addRuleOption(v.rule);
  }
  if (matches(v)) state.matches.push(index);
  queueRender();
}

function addRuleOption(rule) {
  const select = $('filter-rule');
  const option = el('option', { value: rule, text: ruleName(rule) });
  const after = Array.from(select.options).slice(1).find((o) => o.textContent.localeCompare(option.textContent) > 0);
  select.insertBefore(option, after || null);
}

function matches(v) {
  const show = $('filter-show').value;
  const ruled = v.type === 'verdict';
  if (show === 'disagree' && !(ruled && !v.agrees)) return false;
  if (show === 'uncertain' && !(ruled && !v.certain)) return false;
  if (show === 'error' && v.type !== 'error') return false;
  if (show === 'skipped' && v.type !== 'skipped') return false;
  const rule = $('filter-rule').value;
  if (rule && !(ruled && v.rule === rule)) return false;
  const text = $('filter-text').value.trim().toLowerCase();
  if (!text) return true;
  const haystack = [
    `game ${v.game}`, v.site, v.declared, v.termination, v.error && v.error.message, v.detail, v.end_fen,
    v.ruling, v.rule, ruled && ruleName(v.rule), v.article,
    ...(v.claims || []).map((c) => `${(CLAIM_KIND[c.kind] || [words(c.kind)])[0]} ${c.reason}`),
  ].filter(Boolean).join('\n').toLowerCase();
  return haystack.includes(text);
}

function queueRender() {
  if (state.renderQueued) return;
  state.renderQueued = true;
  requestAnimationFrame(() => {
    state.renderQueued = false;
    renderTable(false);
  });
}

// A changed filter: the rows again, and their count said to screen readers
// (the count that grows while a file streams is not said, or it would be
// said over and over).
function refilter() {
  state.matches = [];
  state.verdicts.forEach((v, i) => { if (matches(v)) state.matches.push(i); });
  state.limit = PAGE_ROWS;
  renderTable(true);
  $('filter-announce').textContent = $('games-count').textContent;
}

function row(v, index) {
  const ruled = v.type === 'verdict';
  const open = el('button', { type: 'button', class: 'link-button', 'data-index': index, text: String(v.game), 'aria-label': `Open the ruling of game ${v.game}` });
  // data-label: the column's name, shown beside each cell when a narrow
  // screen lays the rows out as cards.
  const skipped = v.type === 'skipped';
  const tr = el('tr', { class: ruled ? (v.agrees ? 'agrees' : 'disagrees') : skipped ? 'skipped' : 'unread', 'data-game': v.game },
    el('td', { class: 'num', 'data-label': 'Game' }, open),
    el('td', { 'data-label': 'Declared', text: v.declared || '' }),
    el('td', { 'data-label': 'Ruling', text: ruled ? v.ruling : skipped ? 'skipped' : 'not read' }),
    el('td', { 'data-label': 'Rule', text: ruled ? ruleName(v.rule) : skipped ? `a game of ${v.skipped_variant}` : ((v.error && v.error.message) || '') }),
    el('td', { 'data-label': 'Article', text: (ruled && v.article) || '' }),
    el('td', { class: 'site-cell', 'data-label': 'Site', text: v.site || '' }));
  return tr;
}

// Appends the rows not yet shown (up to the limit); `reset` starts over.
function renderTable(reset) {
  const body = $('games-table').tBodies[0];
  if (reset) {
    body.replaceChildren();
    state.shown = 0;
  }
  const end = Math.min(state.matches.length, state.limit);
  if (state.shown < end) {
    const fragment = document.createDocumentFragment();
    for (let k = state.shown; k < end; k += 1) fragment.append(row(state.verdicts[state.matches[k]], state.matches[k]));
    body.append(fragment);
    state.shown = end;
  }
  const total = state.verdicts.length;
  const m = state.matches.length;
  $('games-count').textContent = m === 0
    ? `No game of the ${number(total)}${state.controller ? ' ruled so far' : ''} matches.`
    : `${number(m)} of ${number(total)} game${total === 1 ? '' : 's'} match${state.shown < m ? `; the first ${number(state.shown)} are listed` : ''}.`;
  $('more-games').hidden = state.shown >= m;
  $('more-games').textContent = `Show ${number(Math.min(PAGE_ROWS, m - state.shown))} more`;
}

for (const id of ['filter-show', 'filter-rule']) $(id).addEventListener('change', refilter);
let textTimer = 0;
$('filter-text').addEventListener('input', () => {
  clearTimeout(textTimer);
  textTimer = setTimeout(refilter, 150);
});
$('more-games').addEventListener('click', () => {
  const firstNew = state.shown;
  state.limit += PAGE_ROWS;
  renderTable(false);
  const button = $('games-table').tBodies[0].rows[firstNew]?.querySelector('button');
  if (button) button.focus();
});
// "List" in the summary: every game of that rule, in the table.
$('by-rule').addEventListener('click', (event) => {
  const button = event.target.closest('button[data-show-rule]');
  if (!button) return;
  $('filter-show').value = 'all';
  $('filter-rule').value = button.dataset.showRule;
  $('filter-text').value = '';
  refilter();
  $('games-heading').scrollIntoView({ block: 'start' });
  $('filter-rule').focus();
});
$('games-table').addEventListener('click', (event) => {
  const button = event.target.closest('button[data-index]');
  if (button) openRuling(Number(button.dataset.index), button);
});

// ---- The summary line.

function renderSummary(s) {
  const counts = [
    ['Games', s.games], ['Agree', s.agree], ['Disagree', s.disagree], ['Could not be read', s.errors],
    ['Uncertain', s.uncertain],
  ];
  // Games of other variants, one count each: not errors, not ruled.
  for (const [variant, n] of Object.entries(s.skipped_variants || {}).sort((a, b) => b[1] - a[1])) counts.push([`Skipped: ${variant}`, n]);
  // null: the run asked no tables.
  if (s.tablebase_covered !== null && s.tablebase_covered !== undefined) counts.push(['Covered by the tablebase', s.tablebase_covered], ['Tablebase contradictions', s.tablebase_contradictions]);
  if (typeof s.seconds === 'number') counts.push(['Seconds', s.seconds.toFixed(1)]);
  $('summary-counts').replaceChildren(...counts.map(([term, value]) => el('div', { class: 'count', 'data-count': term },
    el('dt', { text: term }), el('dd', { text: typeof value === 'number' ? number(value) : String(value) }))));
  const byRule = Object.entries(s.by_rule || {}).sort((a, b) => b[1] - a[1]);
  $('by-rule').tBodies[0].replaceChildren(...byRule.map(([rule, n]) => el('tr', { 'data-rule': rule },
    el('th', { scope: 'row', text: ruleName(rule) }), el('td', { class: 'num', text: number(n) }),
    el('td', {}, el('button', { type: 'button', class: 'link-button', 'data-show-rule': rule, text: 'List', 'aria-label': `List the games ruled by ${ruleName(rule)}` })))));
  const kinds = Object.entries(s.disagreements || {});
  $('disagreement-kinds').tBodies[0].replaceChildren(...(kinds.length ? kinds.map(([kind, n]) => el('tr', {},
    el('th', { scope: 'row', text: kind.replace(/ -> /, ' → ').replace(/ by ([a-z0-9_]+)$/, (_, rule) => ` by ${ruleName(rule)}`) }),
    el('td', { class: 'num', text: number(n) })))
    : [el('tr', {}, el('td', { colspan: 2, text: 'None: every ruling agrees with its declared result.' }))]));
  $('summary').hidden = false;
}

// ---- The dialog with one game's ruling.

const dialog = $('ruling-dialog');
function openRuling(index, opener) {
  const v = state.verdicts[index];
  if (!v) return;
  state.opener = opener || document.activeElement;
  $('dialog-title').textContent = `Game ${v.game}: ${v.type === 'verdict' ? `${resultName(v.ruling)} by ${ruleName(v.rule)}` : v.type === 'skipped' ? `skipped, a game of ${v.skipped_variant}` : 'not read'}`;
  const article = renderVerdict(v, { level: 2, withHeading: false });  // under the dialog's h2
  $('dialog-body').replaceChildren(article);
  state.dialogViewer = article.querySelector('.viewer');
  dialog.showModal();
  $('dialog-title').focus();
}
$('dialog-close').addEventListener('click', () => dialog.close());
dialog.addEventListener('click', (event) => {
  if (event.target === dialog) dialog.close();  // a click on the backdrop
});
dialog.addEventListener('close', () => {
  state.dialogViewer = null;
  if (state.opener && state.opener.isConnected) state.opener.focus();
});

// Arrow keys step the line of the ruling in view: the dialog's when it is
// open, else the one on the page (unless the focus is in a text field).
document.addEventListener('keydown', (event) => {
  const viewer = dialog.open ? state.dialogViewer : state.singleViewer;
  if (!viewer || !viewer.isConnected) return;
  if (viewer.contains(event.target)) return;  // the viewer handled it
  if (!['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(event.key)) return;
  const t = event.target;
  if (t && t.closest && t.closest('input, textarea, select, [contenteditable="true"], table')) return;
  if (!viewer.querySelector('.stepper')) return;  // no line to step through
  event.preventDefault();
  viewer.dispatchEvent(new KeyboardEvent('keydown', { key: event.key, bubbles: false }));
});

describeInput();
