// The web page (http/assets/) in a real browser: Debian's headless Chromium,
// driven with puppeteer-core, against the real `arbiter serve` on an
// ephemeral port. Screenshots of every step go to the --screenshots
// directory (a CI artifact).
//
//   node tests/browser/browser_test.mjs --arbiter build/arbiter \
//        --screenshots build/browser-screenshots
//
// Needs /usr/bin/chromium (or $CHROMIUM), `npm ci --prefix tests/browser`,
// and the shared game records ($ARBITER_SHARED/games, else ../shared/games
// beside the source tree). Each missing piece fails the run with a message
// saying what to install; nothing is skipped.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const sourceDir = resolve(here, '..', '..');

function argument(name, fallback) {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

function fail(message) {
  console.error(`browser_test: ${message}`);
  process.exit(1);
}

const arbiter = resolve(argument('--arbiter', join(sourceDir, 'build', 'arbiter')));
const screenshots = resolve(argument('--screenshots', join(sourceDir, 'build', 'browser-screenshots')));
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';

if (!existsSync(arbiter)) fail(`no arbiter binary at ${arbiter}: build it first (cmake --build build)`);
if (!existsSync(chromium))
  fail(`no Chromium at ${chromium}: install Debian's package (apt-get install chromium; scripts/setup.sh does) or set $CHROMIUM`);
let puppeteer;
try {
  puppeteer = (await import('puppeteer-core')).default;
} catch (err) {
  fail(`puppeteer-core is not installed (${err.code || err.message}): run npm ci --prefix tests/browser (scripts/setup.sh does)`);
}

// The shared game records, found as the C++ tests find them.
const shared = process.env.ARBITER_SHARED || resolve(sourceDir, '..', 'shared');
const gamesDir = join(shared, 'games');
const smallFile = join(gamesDir, 'otb_kasparov_2128.pgn.zst');
const lichessFile = join(gamesDir, 'lichess_jishanshaikh4_37221.pgn.zst');
const fewGames = join(here, 'few_games.pgn');
for (const f of [smallFile, lichessFile])
  if (!existsSync(f))
    fail(`the shared game record ${f} is missing: set $ARBITER_SHARED to the folder holding games/ (by default ../shared beside the source tree)`);

// This run's screenshots only: the last run's are removed.
mkdirSync(screenshots, { recursive: true });
for (const f of readdirSync(screenshots)) if (f.endsWith('.png')) rmSync(join(screenshots, f));
const work = mkdtempSync(join(tmpdir(), 'arbiter-browser-test-'));

// ---- The server and the command-line reference.

const children = new Set();
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

async function startServer(name, extra = []) {
  const portFile = join(work, `${name}.port`);
  const child = spawn(arbiter, ['serve', '--http', '127.0.0.1:0', '--port-file', portFile, '--jobs', '2',
    '--job-dir', join(work, `${name}-jobs`), ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let output = '';
  child.stdout.on('data', (d) => { output += d; });
  child.stderr.on('data', (d) => { output += d; });
  let exited = null;
  child.on('exit', (code, signal) => { exited = `${code ?? signal}`; children.delete(child); });
  const deadline = Date.now() + 120_000;
  while (!existsSync(portFile)) {
    if (exited !== null) throw new Error(`arbiter serve exited (${exited}) before listening:\n${output}`);
    if (Date.now() > deadline) throw new Error(`arbiter serve did not write ${portFile} within 120 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const port = Number(readFileSync(portFile, 'utf8').trim());
  return {
    port,
    stop: () => new Promise((r) => {
      if (exited !== null) return r();
      child.once('exit', r);
      child.kill('SIGTERM');
    }),
  };
}

// `arbiter verify --format jsonl FILE`: {verdicts, summary}, run in the
// background while the browser works. Its lines are the API's: a record per
// game ("type" "verdict", or "error"), then the "summary".
function cliVerify(file) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(arbiter, ['verify', '--format', 'jsonl', '--jobs', '2', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    const out = [];
    let err = '';
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => { err += d; });
    child.on('exit', (code) => {
      children.delete(child);
      const lines = Buffer.concat(out).toString('utf8').split('\n').filter((l) => l.trim());
      const records = lines.map((l) => JSON.parse(l));
      const summary = records.find((r) => r.type === 'summary');
      if (!summary) return reject(new Error(`arbiter verify ${file} (exit ${code}) printed no summary: ${err}`));
      resolvePromise({ verdicts: records.filter((r) => ['verdict', 'error', 'skipped'].includes(r.type)), summary });
    });
  });
}

// ---- The browser.

let browser;
let server;
let origin;
const reference = {};

before(async () => {
  server = await startServer('plain');
  origin = `http://127.0.0.1:${server.port}`;
  browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    acceptInsecureCerts: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--no-first-run'],
  });
  // The command line's verdicts, computed while the first cases run.
  reference.few = cliVerify(fewGames);
  reference.small = cliVerify(smallFile);
  reference.lichess = reference.small.then(() => cliVerify(lichessFile));
  for (const p of Object.values(reference)) p.catch(() => {});
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

// A page with its problems recorded: console errors, uncaught exceptions,
// Content-Security-Policy violations, and any request that leaves `base`.
async function openPage(viewport = { width: 1200, height: 900 }, base = origin) {
  const page = await browser.newPage();
  await page.setViewport(viewport);
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(base) && !url.startsWith('data:')) problems.push(`request outside the server: ${url}`);
  });
  await page.evaluateOnNewDocument(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.cspViolations.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  page.problems = problems;
  page.allowedProblems = [];
  return page;
}

async function closePage(page) {
  const csp = await page.evaluate(() => window.cspViolations || []).catch(() => []);
  const problems = [...page.problems, ...csp.map((v) => `CSP violation: ${v}`)]
    .filter((p) => !page.allowedProblems.some((re) => re.test(p)));
  await page.close();
  assert.deepEqual(problems, [], 'the page logged problems');
}

// The whole page; with a dialog open, the viewport (the dialog's backdrop
// covers only that).
async function shot(page, name) {
  const dialogOpen = await page.$('dialog[open]');
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: !dialogOpen });
}

const pieceAt = (page, square) => page.evaluate((sq) => {
  const root = document.querySelector('dialog[open]') || document;
  const g = root.querySelector(`svg.board g[data-square="${sq}"]`);
  return g ? g.dataset.piece : null;
}, square);

const text = (page, selector) => page.$eval(selector, (e) => e.textContent.replace(/\s+/g, ' ').trim());

async function rule(page, input) {
  await page.$eval('#text', (t, v) => { t.value = v; t.dispatchEvent(new Event('input')); }, input);
  await page.click('#rule-text');
}

async function waitForSummary(page, timeout) {
  await page.waitForFunction(() => !document.getElementById('summary').hidden
    || !document.getElementById('error').hidden, { timeout, polling: 250 });
  const error = await page.$eval('#error', (e) => (e.hidden ? '' : e.textContent));
  assert.equal(error, '', 'the run failed');
}

// The summary as the page shows it: {Games: n, ...} and {rule: n}.
async function pageSummary(page) {
  return page.evaluate(() => {
    const counts = {};
    for (const c of document.querySelectorAll('#summary-counts .count'))
      counts[c.dataset.count] = Number(c.querySelector('dd').textContent.replace(/,/g, ''));
    const byRule = {};
    for (const r of document.querySelectorAll('#by-rule tbody tr'))
      byRule[r.dataset.rule] = Number(r.querySelector('td').textContent.replace(/,/g, ''));
    return { counts, byRule };
  });
}

function assertSameSummary(shown, cli) {
  assert.equal(shown.counts.Games, cli.games, 'games');
  assert.equal(shown.counts.Agree, cli.agree, 'agree');
  assert.equal(shown.counts.Disagree, cli.disagree, 'disagree');
  assert.equal(shown.counts['Could not be read'], cli.errors, 'errors');
  for (const [variant, n] of Object.entries(cli.skipped_variants))
    assert.equal(shown.counts[`Skipped: ${variant}`], n, `skipped ${variant}`);
  assert.deepEqual(shown.byRule, cli.by_rule, 'games by rule');
}

const visibleRows = (page) => page.$$eval('#games-table tbody tr', (rows) => rows.map((r) => ({
  game: r.dataset.game, cells: Array.from(r.cells).map((c) => c.textContent.trim()),
})));

async function filterBy(page, { show, rule: ruleValue, text: textValue }) {
  if (show !== undefined) await page.select('#filter-show', show);
  if (ruleValue !== undefined) await page.select('#filter-rule', ruleValue);
  if (textValue !== undefined) {
    await page.$eval('#filter-text', (e, v) => { e.value = v; e.dispatchEvent(new Event('input')); }, textValue);
    await new Promise((r) => setTimeout(r, 400));  // the filter waits for typing to pause
  }
}

// Text contrast on the page (or in the open dialog): {failures, checked}.
const checkContrast = (page) => page.evaluate(() => {
  const rgba = (s) => { const m = s.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const luminance = ([r, g, b]) => {
    const c = [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const background = (e) => {
    const layers = [];
    for (let n = e; n; n = n.parentElement) {
      const bg = rgba(getComputedStyle(n).backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let color = [255, 255, 255];
    for (const [r, g, b, a] of layers.reverse()) color = [r * a + color[0] * (1 - a), g * a + color[1] * (1 - a), b * a + color[2] * (1 - a)];
    return color;
  };
  const failures = [];
  let checked = 0;
  const root = document.querySelector('dialog[open]') || document.body;
  for (const e of root.querySelectorAll('*')) {
    if (e.closest('svg') || e.closest('[hidden]')) continue;
    const own = Array.from(e.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const style = getComputedStyle(e);
    if (style.visibility === 'hidden' || style.display === 'none' || !e.getClientRects().length) continue;
    const fg = rgba(style.color);
    const bg = background(e);
    const fgMixed = [0, 1, 2].map((i) => fg[i] * fg[3] + bg[i] * (1 - fg[3]));
    const [l1, l2] = [luminance(fgMixed), luminance(bg)].sort((a, b) => b - a);
    const ratio = (l1 + 0.05) / (l2 + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    checked += 1;
    if (ratio < (large ? 3 : 4.5)) failures.push(`${e.tagName.toLowerCase()}.${e.className} "${e.textContent.trim().slice(0, 30)}": ${ratio.toFixed(2)}`);
  }
  return { failures, checked };
});

async function apiAnalyze(fen) {
  const response = await fetch(`${origin}/v1/analyze?fen=${encodeURIComponent(fen)}`);
  assert.equal(response.status, 200);
  return response.json();
}

const KQK = '8/8/8/8/8/4k3/8/4K2Q w - - 0 1';
const KQK_BLACK_50 = '8/8/8/4k3/8/8/8/K6Q b - - 0 50';  // White forces mate within fifty moves
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const KRP_K = '8/8/4k3/8/8/8/3PK3/7R w - - 0 40';  // the bare black king cannot mate
const CURSED_WIN = '8/8/8/8/8/8/8/KBNk4 w - - 60 50';  // K+B+N v K, the win 45 plies away at clock 60

// The query strings of the page's analyze and verify requests, as sent.
function recordRequests(page) {
  const sent = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (/^\/v1\/(analyze|verify)$/.test(url.pathname)) sent.push({ path: url.pathname, params: Object.fromEntries(url.searchParams) });
  });
  return sent;
}

// A FEN with a claim chosen in the form ({claim, claimant, claimed}).
async function ruleClaim(page, fen, { claim, claimant, claimed }) {
  await page.$eval('#text', (t, v) => { t.value = v; t.dispatchEvent(new Event('input')); }, fen);
  await page.select('#claim', claim);
  if (claimant !== undefined) await page.select('#claimant', claimant);
  if (claimed !== undefined) await page.select('#claimed', claimed);
  await page.click('#rule-text');
  await page.waitForSelector('#single article[data-kind="assessment"] .claim');
}

// What the page shows of a claim: {answer, badge, line, reason, facts: {term: text}}.
const claimShown = (page, selector) => page.$eval(selector, (c) => ({
  answer: c.dataset.answer,
  kind: c.dataset.kind,
  title: c.querySelector('.claim-title').textContent,
  badge: c.querySelector('.claim-badge').textContent,
  badgeClass: c.querySelector('.claim-badge').className,
  line: c.querySelector('.claim-answer').textContent.replace(/\s+/g, ' ').trim(),
  reason: c.querySelector('.claim-reason') ? c.querySelector('.claim-reason').textContent : '',
  facts: Object.fromEntries(Array.from(c.querySelectorAll('.fact')).map((f) => [f.querySelector('dt').textContent,
    f.querySelector('dd').textContent.replace(/\s+/g, ' ').trim()])),
}));

// The server's reason as the page shows it: a sentence ending in a period.
const sentence = (reason) => (/[.!?]$/.test(reason) ? reason : `${reason}.`);

// ---- The cases.

test('the page loads under its Content-Security-Policy, with a label on every control', async () => {
  const page = await openPage();
  const response = await page.goto(`${origin}/`);
  assert.equal(response.status(), 200);
  assert.match(response.headers()['content-security-policy'], /default-src 'self'/);
  assert.equal(await text(page, 'h1'), 'Arbiter');
  const unlabelled = await page.evaluate(() => Array.from(document.querySelectorAll('input, select, textarea, button'))
    .filter((e) => {
      const name = (e.labels && Array.from(e.labels).map((l) => l.textContent).join(' ').trim())
        || e.getAttribute('aria-label') || (e.tagName === 'BUTTON' && e.textContent.trim());
      return !name;
    }).map((e) => e.outerHTML));
  assert.deepEqual(unlabelled, []);
  await shot(page, '01-start');
  await closePage(page);
});

test('a FEN (K+Q v K): White can mate with a line, Black cannot (proof: material)', async () => {
  const page = await openPage();
  await page.goto(`${origin}/`);
  await rule(page, KQK);
  await page.waitForSelector('#single article[data-kind="assessment"]');
  const white = await page.$eval('[data-side="white"] .mate-ability', (e) => ({ answer: e.dataset.answer, text: e.textContent }));
  const black = await page.$eval('[data-side="black"] .mate-ability', (e) => ({ answer: e.dataset.answer, proof: e.dataset.proof, text: e.textContent }));
  assert.equal(white.answer, 'yes');
  assert.match(white.text, /Can mate: a line of \d+ moves/);
  assert.equal(black.answer, 'no');
  assert.equal(black.proof, 'material');
  assert.match(black.text, /Proof: material/);
  assert.match(await text(page, '#status'), /White can mate; Black cannot mate \(proof: material\)/);
  const api = await apiAnalyze(KQK);
  const moves = await page.$$eval('.moves button', (bs) => bs.map((b) => b.textContent));
  assert.equal(moves.length, api.white.line.length);
  // SAN when the server gives it, UCI otherwise.
  const spelled = api.white.line_san && api.white.line_san.length === api.white.line.length ? api.white.line_san : api.white.line;
  moves.forEach((m, i) => assert.ok(m.endsWith(` ${spelled[i]}`), `move ${i + 1}: "${m}" shows ${spelled[i]}`));
  // The board: the FEN's pieces on their squares.
  assert.equal(await pieceAt(page, 'e1'), 'K');
  assert.equal(await pieceAt(page, 'h1'), 'Q');
  assert.equal(await pieceAt(page, 'e3'), 'k');
  // The board speaks: its accessible name lists the men.
  assert.match(await page.$eval('#single svg.board', (b) => b.getAttribute('aria-label')),
    /White: king e1, queen h1\. Black: king e3\. White to move\./);
  await shot(page, '02-fen-verdict');
  await closePage(page);
});

test('stepping through the mating line moves the pieces (buttons and arrow keys)', async () => {
  const page = await openPage();
  await page.goto(`${origin}/`);
  await rule(page, KQK);
  await page.waitForSelector('#single .stepper');
  const line = (await apiAnalyze(KQK)).white.line;
  const squares = (uci) => [uci.slice(0, 2), uci.slice(2, 4)];
  // Next: the first move's piece leaves its square for the target square.
  const [from1, to1] = squares(line[0]);
  const moved1 = await pieceAt(page, from1);
  assert.ok(moved1, `a piece stands on ${from1}`);
  await page.click('#single .stepper button:nth-child(3)');
  assert.equal(await pieceAt(page, to1), moved1, `${line[0]} puts ${moved1} on ${to1}`);
  assert.equal(await pieceAt(page, from1), null, `${line[0]} empties ${from1}`);
  assert.match(await text(page, '#single .move-status'), /move 1 of/);
  // The arrow key on the focused board: the second move.
  const [from2, to2] = squares(line[1]);
  const moved2 = await pieceAt(page, from2);
  await page.$eval('#single svg.board', (svg) => svg.focus());  // an SVGElement: page.focus refuses it
  await page.keyboard.press('ArrowRight');
  assert.equal(await pieceAt(page, to2), moved2);
  assert.equal(await pieceAt(page, from2), null);
  assert.equal(await page.$eval('#single .viewer', (v) => v.dataset.ply), '2');
  // End: the mate; the last move is marked as the current one.
  await page.keyboard.press('End');
  assert.match(await text(page, '#single .move-status'), new RegExp(`move ${line.length} of ${line.length}\\): checkmate`));
  const current = await page.$$eval('.moves button', (bs) => bs.findIndex((b) => b.getAttribute('aria-current') === 'step'));
  assert.equal(current, line.length - 1);
  const [, toLast] = squares(line[line.length - 1]);
  assert.ok(await pieceAt(page, toLast), `the mating move lands on ${toLast}`);
  await shot(page, '03-fen-line-end');
  // Left steps back; Home returns to the ruled position.
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.$eval('#single .viewer', (v) => v.dataset.ply), String(line.length - 1));
  await page.keyboard.press('Home');
  assert.equal(await pieceAt(page, 'h1'), 'Q');
  assert.equal(await pieceAt(page, 'e3'), 'k');
  // A move of the list jumps to it.
  await page.click('.moves li:nth-child(3) button');
  assert.equal(await page.$eval('#single .viewer', (v) => v.dataset.ply), '3');
  await closePage(page);
});

test('SAN beside UCI: line_san (of each side, and of a verdict\'s winner) labels the moves when present', async () => {
  // The server's answers with SAN fields set (made-up spellings, so that the
  // labels show which field they came from): the page must prefer them.
  const san = (line) => line.map((m) => `S${m.toUpperCase()}`);
  const page = await openPage();
  await page.setRequestInterception(true);
  page.on('request', async (request) => {
    const url = request.url();
    if (!url.includes('/v1/analyze') && !url.includes('/v1/verify')) return request.continue();
    const response = await fetch(url, { method: request.method(), body: request.postData(), headers: request.headers() });
    let body = await response.text();
    if (url.includes('/v1/analyze')) {
      const a = JSON.parse(body);
      for (const side of [a.white, a.black]) if (side && side.line) side.line_san = san(side.line);
      body = JSON.stringify(a);
    } else {
      body = body.split('\n').filter((l) => l).map((l) => {
        const v = JSON.parse(l);
        if (v.winner && v.winner.line) v.winner.line_san = san(v.winner.line);
        return JSON.stringify(v);
      }).join('\n') + '\n';
    }
    request.respond({ status: response.status, contentType: response.headers.get('content-type'), body });
  });
  await page.goto(`${origin}/`);
  await rule(page, KQK);
  await page.waitForSelector('#single .stepper');
  const line = (await apiAnalyze(KQK)).white.line;
  let labels = await page.$$eval('.moves button', (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(labels.map((l) => l.split(' ').pop()), san(line));
  assert.doesNotMatch(await text(page, '#single .line-title'), /UCI/);
  await rule(page, readFileSync(fewGames, 'utf8'));
  await waitForSummary(page, 60_000);
  await page.click('#games-table tr[data-game="3"] button');
  await page.waitForSelector('dialog[open] .stepper');
  labels = await page.$$eval('dialog .moves button', (bs) => bs.map((b) => b.textContent));
  assert.deepEqual(labels.map((l) => l.split(' ').pop()), san((await reference.few).verdicts[2].winner.line));
  await page.keyboard.press('Escape');
  await closePage(page);
});

test('the move applier: castling (standard and Chess960), en passant, promotion', async () => {
  const page = await openPage();
  await page.goto(`${origin}/`);
  const results = await page.evaluate(async () => {
    const { parseFen, applyUci, squareIndex } = await import('/board.js');
    const play = (fen, moves, chess960 = false) => {
      let p = parseFen(fen);
      for (const m of moves) p = applyUci(p, m, chess960).position;
      const board = {};
      p.board.forEach((piece, i) => { if (piece) board['abcdefgh'[i % 8] + (Math.floor(i / 8) + 1)] = piece; });
      return { board, turn: p.turn, ep: p.ep };
    };
    void squareIndex;
    return {
      castle: play('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', ['e1g1', 'e8c8']),
      castleLong: play('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', ['e1c1', 'e8g8']),
      chess960: play('1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1', ['e1g1', 'e8b8'], true),
      chess960KingStays: play('4k3/8/8/8/8/8/8/5RK1 w F - 0 1', ['g1f1'], true),
      chess960KingStaysKingside: play('4k3/8/8/8/8/8/8/6KR w H - 0 1', ['g1h1'], true),
      enPassant: play('4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2', ['e5d6']),
      doublePush: play('4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1', ['d7d5']),
      promotion: play('r3k3/1P6/8/8/8/8/p7/4K3 w - - 0 1', ['b7a8n', 'a2a1q']),
    };
  });
  assert.deepEqual(results.castle.board, { g1: 'K', f1: 'R', a1: 'R', c8: 'k', d8: 'r', h8: 'r' });
  assert.deepEqual(results.castleLong.board, { c1: 'K', d1: 'R', h1: 'R', g8: 'k', f8: 'r', a8: 'r' });
  assert.deepEqual(results.chess960.board, { g1: 'K', f1: 'R', b1: 'R', c8: 'k', d8: 'r', g8: 'r' });
  assert.deepEqual(results.chess960KingStays.board, { c1: 'K', d1: 'R', e8: 'k' });
  assert.deepEqual(results.chess960KingStaysKingside.board, { g1: 'K', f1: 'R', e8: 'k' });
  assert.deepEqual(results.enPassant.board, { d6: 'P', e8: 'k', e1: 'K' });
  assert.equal(results.doublePush.ep, 'd6');
  assert.deepEqual(results.promotion.board, { a8: 'N', e8: 'k', a1: 'q', e1: 'K' });
  assert.equal(results.promotion.turn, 'w');
  await closePage(page);
});

test('a pasted PGN of four games: the summary of arbiter verify, the table, a ruling with its board', async () => {
  const page = await openPage();
  await page.goto(`${origin}/`);
  await rule(page, readFileSync(fewGames, 'utf8'));
  await waitForSummary(page, 60_000);
  const cli = (await reference.few).summary;
  assertSameSummary(await pageSummary(page), cli);
  const rows = await visibleRows(page);
  assert.deepEqual(rows.map((r) => r.game), ['1', '2', '3', '4'], 'all four games are listed');
  assert.match(await text(page, '#status'), /Ruled 4 games of the pasted PGN: 2 agree, 2 disagree/);
  await shot(page, '04-pgn-summary');
  // Game 2: 2...Qh4# declared 1-0; the board shows the mate.
  await page.click('#games-table tr[data-game="2"] button');
  await page.waitForSelector('dialog[open] svg.board');
  assert.match(await text(page, '#dialog-title'), /^Game 2: 0–1 \(Black wins\) by Checkmate/);
  assert.match(await text(page, 'dialog .verdict-line'), /Disagrees Declared 1–0 \(White wins\); ruled 0–1 \(Black wins\) by Checkmate, FIDE Laws, Article 5\.1\.1/);
  assert.equal(await pieceAt(page, 'h4'), 'q');
  assert.equal(await pieceAt(page, 'g4'), 'P');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'dialog-title', 'the dialog takes the focus');
  await shot(page, '05-pgn-dialog');
  await page.keyboard.press('Escape');
  assert.equal(await page.$('dialog[open]'), null);
  assert.equal(await page.evaluate(() => document.activeElement.closest('tr')?.dataset.game), '2', 'the focus returns to the row');
  // Game 4: the flag fell for White, but Black's bare king cannot mate.
  await page.click('#games-table tr[data-game="4"] button');
  await page.waitForSelector('dialog[open] .mate-ability');
  assert.equal(await page.$eval('dialog [data-side="black"] .mate-ability', (e) => e.dataset.proof), 'material');
  assert.match(await text(page, 'dialog .verdict-line'), /by Flag fall, but the opponent cannot mate, FIDE Laws, Article 6\.9/);
  await shot(page, '06-pgn-cannot-mate');
  await page.click('#dialog-close');
  // Game 3: White's flag-fall win, with its mating line to step through.
  await page.click('#games-table tr[data-game="3"] button');
  await page.waitForSelector('dialog[open] .stepper');
  const line = (await reference.few).verdicts[2].winner.line;
  assert.ok(line.length > 0, 'arbiter verify gives a winner line for game 3');
  const [from, to] = [line[0].slice(0, 2), line[0].slice(2, 4)];
  const piece = await pieceAt(page, from);
  await page.keyboard.press('ArrowRight');  // the dialog steps its line
  assert.equal(await pieceAt(page, to), piece);
  await page.keyboard.press('Escape');
  // "List" beside a rule of the summary lists that rule's games.
  await page.click('#by-rule tr[data-rule="flag_fall"] button');
  assert.deepEqual((await visibleRows(page)).map((r) => r.game), ['3']);
  assert.equal(await page.$eval('#filter-rule', (s) => s.value), 'flag_fall');
  await closePage(page);
});

test('tablebases: the category of the position, and of each game\'s final position', { timeout: 180_000 }, async () => {
  const syzygy = join(shared, 'syzygy');
  assert.ok(existsSync(join(syzygy, 'KQvK.rtbw')), `the shared Syzygy tables are missing from ${syzygy}`);
  const withTables = await startServer('syzygy', ['--syzygy', syzygy]);
  const base = `http://127.0.0.1:${withTables.port}`;
  try {
    const page = await openPage({ width: 1200, height: 900 }, base);
    await page.goto(`${base}/`);
    await page.click('#options summary');
    await page.click('#opt-tablebase');
    await rule(page, KQK);
    await page.waitForSelector('#single .tablebase');
    assert.equal(await page.$eval('#single .tablebase', (e) => e.dataset.category), 'win');
    assert.match(await text(page, '#single .tablebase'), /^win for White \(to move\), DTZ \d+/);
    // Both readings of the value, the move that keeps the win inside fifty
    // moves, and which tables answered.
    const api = await (await fetch(`${base}/v1/analyze?fen=${encodeURIComponent(KQK)}&tablebase=true`)).json();
    let tb = await page.$eval('#single .tablebase', (e) => ({ ...e.dataset, text: e.textContent.replace(/\s+/g, ' ') }));
    assert.equal(api.tablebase_source, 'syzygy');
    assert.equal(tb.source, 'syzygy');
    assert.equal(tb.fifty, 'win');
    assert.equal(tb.unlimited, 'win');
    assert.ok(api.tablebase.move_within_50, 'the server names the move that keeps the win');
    // Shown in SAN, as the tables' list of moves spells it.
    const keep = api.tablebase.moves.find((m) => m.uci === api.tablebase.move_within_50);
    assert.ok(keep && keep.san, `${api.tablebase.move_within_50} is among the moves, with its SAN`);
    assert.match(tb.text, new RegExp(`The move that keeps the win within fifty moves: ${keep.san}`));
    assert.match(tb.text, /Source: the Syzygy tables/);
    await shot(page, '18-tablebase-fen');
    // A cursed win: a draw with the fifty-move rule, a win without it.
    await rule(page, CURSED_WIN);
    await page.waitForSelector('#single .tablebase');
    tb = await page.$eval('#single .tablebase', (e) => ({ ...e.dataset, text: e.textContent.replace(/\s+/g, ' ') }));
    assert.equal(tb.category, 'cursed-win');
    assert.equal(tb.fifty, 'draw');
    assert.equal(tb.unlimited, 'win');
    assert.match(tb.text, /With the fifty-move rule \(over the board\): a draw/);
    assert.match(tb.text, /Without it \(ICCF tablebase claims\): White wins/);
    assert.doesNotMatch(tb.text, /keeps the win/);
    await rule(page, readFileSync(fewGames, 'utf8'));
    await waitForSummary(page, 60_000);
    const counts = (await pageSummary(page)).counts;
    assert.equal(counts['Covered by the tablebase'], 2);
    await page.click('#games-table tr[data-game="4"] button');
    await page.waitForSelector('dialog[open] .tablebase');
    assert.equal(await page.$eval('dialog .tablebase', (e) => e.dataset.category), 'win');
    await shot(page, '19-tablebase-game');
    await closePage(page);
  } finally {
    await withTables.stop();
  }
});

test('a quickplay-finish claim the tables reject: the answer, the reason, the evidence (retrograde tables)', async () => {
  const page = await openPage();
  const sent = recordRequests(page);
  await page.goto(`${origin}/`);
  await page.select('#rules', 'uscf');  // choosing the claim puts its own rules back
  await ruleClaim(page, KQK_BLACK_50, { claim: 'quickplay_finish' });
  assert.equal(await page.$eval('#rules', (s) => s.value), 'fide', 'a quickplay finish is a claim of the FIDE Laws');
  assert.deepEqual(sent.at(-1).params, { fen: KQK_BLACK_50, rules: 'fide', claim: 'quickplay_finish' });
  const api = (await (await fetch(`${origin}/v1/analyze?${new URLSearchParams(sent.at(-1).params)}`)).json()).claim;
  assert.equal(api.answer, 'rejected');
  const shown = await claimShown(page, '#single .claim');
  assert.equal(shown.answer, 'rejected');
  assert.equal(shown.badge, 'Rejected');
  assert.match(shown.title, /Quickplay finish \(FIDE Guidelines III\.5\)/);
  assert.equal(shown.line, "Rejected Black's claim of a draw is rejected.");
  assert.equal(shown.reason, sentence(api.reason));
  assert.match(shown.reason, /retrograde tables: White forces a win within the fifty-move rule/);
  assert.equal(shown.facts.Claimant, 'Black');
  assert.equal(shown.facts.Article, 'FIDE Guidelines III.5');
  assert.equal(shown.facts.Rules, 'FIDE Laws of Chess');
  // The evidence: White can mate, with the line on the board first; the
  // tables' value, both readings, DTZ and which tables answered.
  assert.match(shown.facts['Can White still mate?'], /^Can mate: a line of \d+ moves ends in checkmate \(step through it on the board\)/);
  assert.match(await text(page, '#single .line-title'), /^White's mating line: \d+ moves/);
  const tb = await page.$eval('#single .claim .tablebase', (e) => ({ ...e.dataset, text: e.textContent.replace(/\s+/g, ' ') }));
  assert.equal(api.tablebase_source, 'retrograde');
  assert.equal(tb.source, 'retrograde');
  assert.equal(tb.category, 'loss');
  assert.equal(tb.fifty, 'loss');
  assert.equal(tb.unlimited, 'loss');
  assert.match(tb.text, new RegExp(`^loss for Black \\(to move\\), DTZ ${api.tablebase.precise_dtz} \\(exact\\)`));
  assert.match(tb.text, /With the fifty-move rule \(over the board\): White wins/);
  assert.match(tb.text, /Without it \(ICCF tablebase claims\): White wins/);
  assert.match(tb.text, /Source: Arbiter's retrograde tables/);
  assert.match(await text(page, '#status'), /^Analysed: the claim \(quickplay finish\) is rejected; White can mate/);
  await shot(page, '21-claim-rejected');
  // Stepping the line: the claim's evidence on the board.
  await page.click('#single .stepper button:nth-child(4)');
  assert.match(await text(page, '#single .move-status'), /: checkmate\.$/);
  await closePage(page);
});

test('a claim the evidence does not decide reads as left to the arbiter, not as a ruling (a phone, 360 px)', async () => {
  const page = await openPage({ width: 360, height: 780, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const sent = recordRequests(page);
  await page.goto(`${origin}/`);
  await ruleClaim(page, START, { claim: 'quickplay_finish' });
  assert.equal(sent.at(-1).params.claim, 'quickplay_finish');
  assert.equal(sent.at(-1).params.claimant, undefined, 'the side to move claims unless another is named');
  const shown = await claimShown(page, '#single .claim');
  assert.equal(shown.answer, 'arbiter_judgment');
  assert.equal(shown.badge, 'Left to the arbiter');
  assert.match(shown.line, /^Left to the arbiter Not a ruling\. The evidence does not decide White's claim of a draw: the arbiter judges it\.$/);
  assert.doesNotMatch(shown.line, /upheld|rejected/i);
  assert.doesNotMatch(shown.badgeClass, /upheld|rejected/);
  assert.match(shown.reason, /is the arbiter's judgment/);
  assert.match(shown.facts['Can Black still mate?'], /^Can mate/);
  // No table covers the position: the reason says why (a claim's record
  // has no tablebase value then).
  assert.match(shown.reason, /no table covers the position \(more than 4 men/);
  assert.equal(shown.facts.Tablebase, undefined);
  // Not styled as a ruling: neither the upheld green nor the rejected red,
  // a dashed edge.
  const style = await page.$eval('#single .claim', (c) => {
    const s = getComputedStyle(c);
    const badge = getComputedStyle(c.querySelector('.claim-badge'));
    return { edge: s.borderLeftStyle, badgeColor: badge.color, badgeBorder: badge.borderTopStyle };
  });
  assert.equal(style.edge, 'dashed');
  assert.equal(style.badgeBorder, 'dashed');
  assert.ok(!['rgb(20, 83, 45)', 'rgb(139, 26, 26)'].includes(style.badgeColor), `the badge is ${style.badgeColor}`);
  assert.match(await text(page, '#status'), /the claim \(quickplay finish\) is left to the arbiter \(not a ruling\)/);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth) <= 0, 'the claim fits 360 px');
  assert.deepEqual((await checkContrast(page)).failures, []);
  await shot(page, '22-phone-claim-judgment');
  await closePage(page);
});

test('an insufficient-losing-chances claim is upheld under the US Chess rules; a tablebase claim of a win under ICCF', async () => {
  const page = await openPage();
  const sent = recordRequests(page);
  await page.goto(`${origin}/`);
  await ruleClaim(page, KRP_K, { claim: 'insufficient_losing_chances' });
  assert.equal(await page.$eval('#rules', (s) => s.value), 'uscf');
  assert.deepEqual(sent.at(-1).params, { fen: KRP_K, rules: 'uscf', claim: 'insufficient_losing_chances' });
  let shown = await claimShown(page, '#single .claim');
  assert.equal(shown.answer, 'upheld');
  assert.equal(shown.badge, 'Upheld');
  assert.equal(shown.line, "Upheld White's claim of a draw is upheld: ½–½ (draw).");
  assert.equal(shown.facts.Rules, 'US Chess');
  assert.equal(shown.facts.Article, 'US Chess 14H');
  assert.equal(await page.$eval('#single .claim .claim-mate .mate-ability', (e) => e.dataset.proof), 'material');
  assert.match(shown.facts['Can Black still mate?'], /^Cannot mate\. Proof: material/);
  await shot(page, '23-claim-upheld-uscf');
  // The claimant and, for a tablebase claim, what is claimed.
  assert.equal(await page.$eval('#claimed-field', (e) => e.hidden), true, 'only a tablebase claim claims a win');
  await ruleClaim(page, KQK_BLACK_50, { claim: 'tablebase_claim', claimant: 'white', claimed: 'win' });
  assert.deepEqual(sent.at(-1).params, { fen: KQK_BLACK_50, rules: 'iccf', claim: 'tablebase_claim', claimant: 'white', claimed: 'win' });
  shown = await claimShown(page, '#single .claim');
  assert.equal(shown.answer, 'upheld');
  assert.equal(shown.line, "Upheld White's claim of a win is upheld: 1–0 (White wins).");
  assert.equal(shown.facts.Rules, 'ICCF (correspondence)');
  assert.equal(await page.$eval('#single .claim .tablebase', (e) => e.dataset.source), 'retrograde');
  // Other rules drop a claim that is not theirs.
  await page.select('#rules', 'fide');
  assert.equal(await page.$eval('#claim', (s) => s.value), '');
  assert.match(await text(page, '#claim-hint'), /was dropped: it is not a claim of these rules/);
  await closePage(page);
});

test('a pasted PGN with [%claim] comments: each verdict\'s claims in the game view, under the rules chosen', async () => {
  const pgn = `[Event "Rapid: a quickplay-finish claim"]
[Site "claim-game"]
[Result "1/2-1/2"]
[TimeControl "1500"]

1. e4 e5 2. Nf3 Nc6 {[%claim quickplay_finish]} 1/2-1/2

[Event "US Chess: insufficient losing chances"]
[Site "ilc-game"]
[SetUp "1"]
[FEN "${KRP_K}"]
[Result "1/2-1/2"]
[Termination "insufficient losing chances"]

40. Rh6+ Kd5 1/2-1/2
`;
  const apiClaims = async (rules) => {
    const body = await (await fetch(`${origin}/v1/verify?rules=${rules}`, { method: 'POST', body: pgn })).text();
    return body.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)).filter((v) => v.type === 'verdict')
      .map((v) => v.claims);
  };
  const page = await openPage();
  const sent = recordRequests(page);
  await page.goto(`${origin}/`);
  assert.equal(await page.$eval('#claim-fields', (e) => e.hidden), false);
  await rule(page, pgn);
  assert.equal(await page.$eval('#claim-fields', (e) => e.hidden), true, 'a claim is asked of a position only');
  await waitForSummary(page, 60_000);
  assert.equal(sent.at(-1).params.rules, 'fide');
  let api = await apiClaims('fide');
  await page.click('#games-table tr[data-game="1"] button');
  await page.waitForSelector('dialog[open] .claim');
  let shown = await claimShown(page, 'dialog .claim');
  assert.equal(shown.answer, api[0][0].answer);
  assert.equal(shown.answer, 'arbiter_judgment');
  assert.equal(shown.title, 'Quickplay finish (FIDE Guidelines III.5), after ply 4');
  assert.equal(shown.badge, 'Left to the arbiter');
  assert.equal(shown.facts.Claimant, 'White');
  assert.equal(shown.reason, sentence(api[0][0].reason));
  assert.equal(shown.facts.Position, api[0][0].fen);
  assert.match(await text(page, 'dialog .verdict-line'), /Uncertain/);
  await shot(page, '24-claim-in-game');
  // The claim's position is the ruled one: Black's mating line is on the board.
  assert.match(await page.$eval('dialog .line-title', (e) => e.textContent), /^Black's mating line \(the claim\)/);
  await page.keyboard.press('Escape');
  // Game 2 under the FIDE Laws: a claim of other rules, rejected.
  await page.click('#games-table tr[data-game="2"] button');
  await page.waitForSelector('dialog[open] .claim');
  shown = await claimShown(page, 'dialog .claim');
  assert.equal(shown.answer, 'rejected');
  assert.equal(shown.facts.Grounds, 'not a claim of these rules');
  await page.keyboard.press('Escape');
  // The same games under US Chess: the claim is upheld.
  await page.select('#rules', 'uscf');
  await page.click('#rule-text');
  await waitForSummary(page, 60_000);
  assert.equal(sent.at(-1).params.rules, 'uscf');
  api = await apiClaims('uscf');
  await page.click('#games-table tr[data-game="2"] button');
  await page.waitForSelector('dialog[open] .claim');
  shown = await claimShown(page, 'dialog .claim');
  assert.equal(shown.answer, api[1][0].answer);
  assert.equal(shown.answer, 'upheld');
  assert.equal(shown.title, 'Insufficient losing chances (US Chess 14H), after ply 2');
  assert.equal(shown.facts.Claimant, 'White');
  assert.equal(shown.reason, sentence(api[1][0].reason));
  assert.match(await text(page, 'dialog .verdict-line'), /by Insufficient-losing-chances claim, US Chess 14H\./);
  const facts = await page.$$eval('dialog .evidence > .facts .fact', (fs) => Object.fromEntries(fs.map((f) => [f.querySelector('dt').textContent, f.querySelector('dd').textContent])));
  assert.equal(facts.Rules, 'US Chess');
  await shot(page, '25-claim-upheld-in-game');
  await page.keyboard.press('Escape');
  await closePage(page);
});

test('Chess 99: a FEN-9 is analysed under its rules; a chess FEN under Chess 99 is pointed out', async () => {
  const page = await openPage();
  const sent = recordRequests(page);
  await page.goto(`${origin}/`);
  const fen9 = '9/9/9/2N6/3Kk4/9/2b6/9/9 w - - 0 60';
  await page.$eval('#text', (t, v) => { t.value = v; t.dispatchEvent(new Event('input')); }, fen9);
  assert.match(await text(page, '#text-kind'), /Chess 99 FEN-9/);
  assert.equal(await page.$eval('#claim-fields', (e) => e.hidden), true, 'claims are chess claims');
  await page.click('#rule-text');
  await page.waitForSelector('#single article[data-kind="assessment"]');
  assert.equal(sent.at(-1).params.rules, 'chess99');
  assert.match(await text(page, '#single'), /Chess 99 position: ongoing\..*White can win ?yes/);
  await page.select('#rules', 'chess99');
  await page.$eval('#text', (t, v) => { t.value = v; t.dispatchEvent(new Event('input')); }, KQK);
  assert.match(await text(page, '#text-kind'), /rules chosen are Chess 99 \(9 × 9\): choose other rules/);
  await closePage(page);
});

test('a .pgn.zst file (otb_kasparov_2128): progress, then the summary of arbiter verify', { timeout: 300_000 }, async () => {
  const page = await openPage();
  await page.goto(`${origin}/`);
  await page.evaluate(() => {
    window.progressSeen = [];
    new MutationObserver(() => {
      const box = document.getElementById('progress');
      if (!box.hidden) window.progressSeen.push(document.getElementById('progress-text').textContent);
    }).observe(document.getElementById('results'), { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const input = await page.$('#file');
  await input.uploadFile(smallFile);
  await waitForSummary(page, 240_000);
  const seen = await page.evaluate(() => window.progressSeen);
  assert.ok(seen.some((t) => /^Sending otb_kasparov_2128\.pgn\.zst: 317 kB/.test(t)), `the upload was shown: ${seen.slice(0, 3)}`);
  assert.ok(seen.some((t) => /Sent 317 kB\. Ruled [\d,]+ games/.test(t)), `the games ruled were counted: ${seen.slice(-3)}`);
  const cli = (await reference.small).summary;
  assertSameSummary(await pageSummary(page), cli);
  assert.equal(await page.$eval('#progress', (e) => e.hidden), true, 'the progress indicator goes away');
  assert.match(await text(page, '#status'), new RegExp(`Ruled ${cli.games.toLocaleString('en')} games of otb_kasparov_2128.pgn.zst`));
  await shot(page, '07-upload-summary');
  await closePage(page);
});

test('a .pgn file dropped on the page is ruled, its games counted beforehand', async () => {
  const page = await openPage();
  await page.goto(`${origin}/`);
  await page.evaluate(() => {
    window.progressSeen = [];
    new MutationObserver(() => window.progressSeen.push(document.getElementById('progress-text').textContent))
      .observe(document.getElementById('progress'), { subtree: true, childList: true, characterData: true });
  });
  await page.evaluate((pgn) => {
    const data = new DataTransfer();
    data.items.add(new File([pgn], 'dropped.pgn', { type: 'application/x-chess-pgn' }));
    const zone = document.getElementById('drop-zone');
    zone.dispatchEvent(new DragEvent('dragenter', { dataTransfer: data, bubbles: true }));
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, readFileSync(fewGames, 'utf8'));
  await waitForSummary(page, 60_000);
  assertSameSummary(await pageSummary(page), (await reference.few).summary);
  const seen = await page.evaluate(() => window.progressSeen);
  assert.ok(seen.some((t) => /Ruled \d+ of about 4 games/.test(t)), `a plain PGN's games are counted: ${seen}`);
  assert.equal(await page.$eval('#drop-zone', (z) => z.classList.contains('dragging')), false);
  assert.match(await text(page, '#status'), /Ruled 4 games of dropped\.pgn/);
  await closePage(page);
});

test('Stop ends the run of a file part-way, and says how far it got', { timeout: 300_000 }, async () => {
  const page = await openPage();
  await page.goto(`${origin}/`);
  await (await page.$('#file')).uploadFile(lichessFile);
  await page.waitForFunction(() => /Ruled [1-9][\d,]* game/.test(document.getElementById('progress-text').textContent),
    { timeout: 240_000, polling: 50 });
  await page.click('#stop');
  await page.waitForFunction(() => /^Stopped after/.test(document.getElementById('status').textContent), { timeout: 30_000 });
  assert.equal(await page.$eval('#progress', (e) => e.hidden), true);
  assert.equal(await page.$eval('#error', (e) => e.hidden), true, 'stopping is not an error');
  const stoppedAt = Number((await text(page, '#status')).match(/Stopped after ([\d,]+)/)[1].replace(/,/g, ''));
  assert.ok(stoppedAt > 0 && stoppedAt < 37221, `stopped after ${stoppedAt} games`);
  await closePage(page);
});

test('the Lichess file: the disagreements, filtered by rule and by text', { timeout: 600_000 }, async () => {
  const page = await openPage();
  await page.goto(`${origin}/`);
  const input = await page.$('#file');
  await input.uploadFile(lichessFile);
  // Progress while it streams: games ruled so far.
  await page.waitForFunction(() => /Ruled [\d,]+ game/.test(document.getElementById('progress-text').textContent)
    && !document.getElementById('progress').hidden, { timeout: 240_000, polling: 100 });
  await shot(page, '08-upload-progress');
  await waitForSummary(page, 540_000);
  const { verdicts, summary: cli } = await reference.lichess;
  assertSameSummary(await pageSummary(page), cli);
  assert.ok(cli.disagree > 0, 'the Lichess file has disagreements');
  // The table lists the disagreements (the default filter for a file).
  const disagreements = verdicts.filter((v) => v.type === 'verdict' && v.agrees === false);
  let rows = await visibleRows(page);
  assert.deepEqual(rows.map((r) => r.game), disagreements.map((v) => String(v.game)));
  await shot(page, '09-disagreements');
  // By rule.
  const byRule = {};
  for (const v of disagreements) byRule[v.rule] = (byRule[v.rule] || 0) + 1;
  const [someRule] = Object.entries(byRule).sort((a, b) => b[1] - a[1])[0];
  await filterBy(page, { rule: someRule });
  rows = await visibleRows(page);
  assert.deepEqual(rows.map((r) => r.game), disagreements.filter((v) => v.rule === someRule).map((v) => String(v.game)));
  // By text: one game's site.
  const one = disagreements[disagreements.length - 1];
  const siteId = one.site.split('/').pop();
  await filterBy(page, { rule: '', text: siteId });
  rows = await visibleRows(page);
  assert.deepEqual(rows.map((r) => r.game), [String(one.game)]);
  assert.match(await text(page, '#games-count'), /^1 of 37,221 games match/);
  await shot(page, '10-filter-text');
  // Games that could not be read: as many as the summary's errors; games
  // of other variants: as many as it skipped, each variant counted.
  await filterBy(page, { show: 'error', text: '' });
  assert.match(await text(page, '#games-count'), cli.errors
    ? new RegExp(`^${cli.errors} of 37,221 games match`)
    : /^No game of the 37,221 matches\.$/);
  await filterBy(page, { show: 'skipped', text: '' });
  assert.match(await text(page, '#games-count'), new RegExp(`^${cli.skipped} of 37,221 games match`));
  assert.ok(cli.skipped > 0, 'the shared Lichess file has games of other variants');
  // And a game opens its ruling, with its board.
  await filterBy(page, { show: 'disagree', text: siteId });
  await page.click(`#games-table tr[data-game="${one.game}"] button`);
  await page.waitForSelector('dialog[open] svg.board g[data-piece]');
  assert.match(await text(page, '#dialog-title'), new RegExp(`^Game ${one.game}:`));
  const placement = one.end_fen.split(' ')[0];
  const pieces = await page.$$eval('dialog svg.board g[data-piece]', (gs) => gs.length);
  assert.equal(pieces, placement.replace(/[^a-zA-Z]/g, '').length, 'every man of end_fen is drawn');
  await shot(page, '11-disagreement-ruling');
  await page.keyboard.press('Escape');
  await closePage(page);
});

test('keyboard only: every tab stop shows its focus; a FEN, a PGN and a ruling without the mouse', async () => {
  const page = await openPage();
  await page.goto(`${origin}/`);
  const focusInfo = () => page.evaluate(() => {
    const e = document.activeElement;
    const style = getComputedStyle(e);
    return {
      id: e.id, tag: e.tagName.toLowerCase(), text: (e.textContent || '').trim().slice(0, 40),
      cls: e.getAttribute('class') || '',
      outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
      inDialog: !!e.closest('dialog'),
    };
  });
  // Tabs to `predicate`, checking each stop's focus indicator.
  const tabTo = async (predicate, limit = 60, shift = false) => {
    for (let i = 0; i < limit; i += 1) {
      if (shift) {
        await page.keyboard.down('Shift');
        await page.keyboard.press('Tab');
        await page.keyboard.up('Shift');
      } else {
        await page.keyboard.press('Tab');
      }
      const f = await focusInfo();
      assert.ok(f.outline, `the focus on <${f.tag} id="${f.id}" class="${f.cls}"> "${f.text}" is visible`);
      if (predicate(f)) return f;
    }
    throw new Error('the keyboard did not reach the control');
  };
  const skip = await tabTo(() => true);
  assert.equal(skip.text, 'Skip to the rulings', 'the first tab stop is the skip link');
  await tabTo((f) => f.id === 'text');
  await page.keyboard.type(KQK);
  await tabTo((f) => f.id === 'rule-text');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#single .stepper');
  await tabTo((f) => f.tag === 'svg');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.$eval('#single .viewer', (v) => v.dataset.ply), '2');
  await shot(page, '12-keyboard-board');
  // The options open with Enter; the token field takes text.
  await page.keyboard.down('Shift');
  for (let i = 0; i < 30; i += 1) {
    await page.keyboard.press('Tab');
    if ((await focusInfo()).tag === 'summary') break;
  }
  await page.keyboard.up('Shift');
  assert.equal((await focusInfo()).tag, 'summary');
  await page.keyboard.press('Enter');
  assert.equal(await page.$eval('#options', (d) => d.open), true);
  // A PGN typed into the text area, ruled with Enter on the button.
  await tabTo((f) => f.id === 'text', 30, true);
  await page.keyboard.down('Control');
  await page.keyboard.press('KeyA');
  await page.keyboard.up('Control');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(readFileSync(fewGames, 'utf8'));
  await tabTo((f) => f.id === 'rule-text');
  await page.keyboard.press('Enter');
  await waitForSummary(page, 60_000);
  // The filter, then a game's ruling in the dialog, stepped with the arrows.
  await tabTo((f) => f.id === 'filter-show');
  await tabTo((f) => f.tag === 'button' && f.text === '3');
  await page.keyboard.press('Enter');
  await page.waitForSelector('dialog[open] .stepper');
  assert.equal((await focusInfo()).inDialog, true, 'the focus moves into the dialog');
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.$eval('dialog .viewer', (v) => v.dataset.ply), '1');
  await tabTo((f) => f.tag === 'button' && f.text === 'Next ›');
  await page.keyboard.press('Enter');
  assert.equal(await page.$eval('dialog .viewer', (v) => v.dataset.ply), '2');
  // End at the end of the line keeps the focus on it (it is not disabled).
  await tabTo((f) => f.tag === 'button' && f.text === 'End »');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  const end = await focusInfo();
  assert.equal(end.text, 'End »', 'the focus stays on End');
  end.ply = await page.$eval('dialog .viewer', (v) => v.dataset.ply);
  assert.equal(end.ply, String(await page.$$eval('dialog .moves button', (b) => b.length)));
  await page.keyboard.down('Shift');
  await page.keyboard.press('Tab');
  await page.keyboard.up('Shift');
  await page.keyboard.press('Enter');  // Next, at the end of the line: nothing moves
  assert.equal((await focusInfo()).text, 'Next ›');
  assert.equal(await page.$eval('dialog .viewer', (v) => v.dataset.ply), end.ply);
  await shot(page, '13-keyboard-dialog');
  await page.keyboard.press('Escape');
  const back = await focusInfo();
  assert.equal(back.text, '3', 'Escape closes the dialog and the focus returns to the row');
  await closePage(page);
});

test('a phone, 360 px wide: no sideways scrolling, the board fits, the dialog fits', async () => {
  const page = await openPage({ width: 360, height: 780, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  await page.goto(`${origin}/`);
  const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(await overflow() <= 0, 'the start page fits');
  await rule(page, KQK);
  await page.waitForSelector('#single svg.board');
  const board = await page.$eval('#single svg.board', (b) => b.getBoundingClientRect().toJSON());
  assert.ok(board.width >= 280 && board.right <= 360, `the board is ${board.width} px wide at x ${board.left}`);
  assert.ok(await overflow() <= 0, `the ruling fits (overflow ${await overflow()} px)`);
  const small = await page.$$eval('#single button', (bs) => bs.map((b) => b.getBoundingClientRect())
    .filter((r) => r.width < 24 || r.height < 24).length);
  assert.equal(small, 0, 'every button is at least 24 × 24 px');
  await shot(page, '14-phone-fen');
  await rule(page, readFileSync(fewGames, 'utf8'));
  await waitForSummary(page, 60_000);
  assert.ok(await overflow() <= 0, 'the summary and the table fit (the table scrolls in its box)');
  await shot(page, '15-phone-summary');
  await page.click('#games-table tr[data-game="2"] button');
  await page.waitForSelector('dialog[open] svg.board');
  const dialogBox = await page.$eval('dialog[open]', (d) => d.getBoundingClientRect().toJSON());
  assert.ok(dialogBox.left >= 0 && dialogBox.right <= 360, `the dialog fits: ${JSON.stringify(dialogBox)}`);
  const dialogBoard = await page.$eval('dialog svg.board', (b) => b.getBoundingClientRect().toJSON());
  assert.ok(dialogBoard.right <= 360 && dialogBoard.width >= 260, `the dialog's board fits: ${JSON.stringify(dialogBoard)}`);
  await page.screenshot({ path: join(screenshots, '16-phone-dialog.png') });
  await closePage(page);
});

test('text contrast is at least 4.5:1 (3:1 for large text), and headings nest, on a page full of rulings', async () => {
  const page = await openPage();
  await page.goto(`${origin}/`);
  await rule(page, readFileSync(fewGames, 'utf8'));
  await waitForSummary(page, 60_000);
  await page.click('#options summary');
  // Headings go down one level at a time (h1, h2, h3...), on the page and
  // in the dialog (whose title is an h2).
  const headingSkips = (rootSelector, start) => page.$$eval(`${rootSelector} :is(h1, h2, h3, h4, h5, h6)`, (hs, first) => {
    const skips = [];
    let previous = first;
    for (const h of hs) {
      if (!h.getClientRects().length) continue;
      const level = Number(h.tagName[1]);
      if (level > previous + 1) skips.push(`${h.tagName} "${h.textContent}" after h${previous}`);
      previous = level;
    }
    return skips;
  }, start);
  assert.deepEqual(await headingSkips('body', 0), []);
  const pageResult = await checkContrast(page);
  assert.ok(pageResult.checked > 40, `checked ${pageResult.checked} elements`);
  assert.deepEqual(pageResult.failures, []);
  await page.click('#games-table tr[data-game="4"] button');
  await page.waitForSelector('dialog[open] svg.board');
  assert.deepEqual(await headingSkips('dialog[open]', 1), []);
  const dialogResult = await checkContrast(page);
  assert.deepEqual(dialogResult.failures, []);
  await closePage(page);
});

test('an access token: asked for on 401, kept in session storage, sent as a Bearer token', { timeout: 180_000 }, async () => {
  const certs = join(work, 'certs');
  execFileSync(join(sourceDir, 'scripts', 'make-test-certs.sh'), [certs], { stdio: 'ignore' });
  const token = readFileSync(join(certs, 'token'), 'utf8').trim();
  const secure = await startServer('tokens', ['--tls-cert', join(certs, 'coordinator.pem'),
    '--tls-key', join(certs, 'coordinator.key'), '--tokens', join(certs, 'tokens')]);
  const base = `https://127.0.0.1:${secure.port}`;
  try {
    const page = await openPage({ width: 1200, height: 900 }, base);
    page.allowedProblems.push(/401 \(Unauthorized\)/);  // the first, tokenless call
    const authorizations = [];
    page.on('request', (r) => { if (r.url().includes('/v1/')) authorizations.push(r.headers().authorization || ''); });
    await page.goto(`${base}/`);
    // A file is not sent while the token is missing.
    await (await page.$('#file')).uploadFile(smallFile);
    await page.waitForSelector('#error:not([hidden])');
    assert.match(await text(page, '#error'), /needs an access token, and none was given/);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'token', 'the focus goes to the token field');
    await rule(page, KQK);
    await page.waitForSelector('#error:not([hidden])');
    assert.match(await text(page, '#error'), /needs an access token, and none was given/);
    assert.equal(await page.$eval('#options', (d) => d.open), true, 'the options open to show the token field');
    await shot(page, '17-token-asked');
    await page.type('#token', token);
    assert.equal(await page.evaluate(() => sessionStorage.getItem('arbiter.token')), token);
    await page.click('#rule-text');
    await page.waitForSelector('#single article[data-kind="assessment"]');
    assert.deepEqual(authorizations, ['', '', `Bearer ${token}`]);
    // Kept for the tab: a reload still has it.
    await page.reload();
    assert.equal(await page.$eval('#token', (e) => e.value), token);
    await page.click('#options summary');
    await page.click('#forget-token');
    assert.equal(await page.evaluate(() => sessionStorage.getItem('arbiter.token')), null);
    await closePage(page);
  } finally {
    await secure.stop();
  }
});

test('an HTML report of verify (arbiter verify --report FILE.html) in the browser', async () => {
  // The four games of few_games.pgn, and one whose tags try to inject a
  // script: the report lists the disputed ones (a checkmate declared the
  // wrong way; a flag fall the bare king cannot win), each with its board,
  // and shows the tags as text.
  const input = join(work, 'report-input.pgn');
  writeFileSync(input, readFileSync(fewGames, 'utf8') + `
[Event "<script>window.injected = 1</script>"]
[Site "https://lichess.org/abcdEFGH"]
[White "<img src=x onerror=window.injected=2>"]
[Result "1-0"]

1. f3 e5 2. g4 Qh4# 1-0
`);
  const report = join(work, 'report.html');
  execFileSync(arbiter, ['verify', input, '--report', report], { stdio: 'ignore' });
  const page = await openPage({ width: 1200, height: 900 }, 'file://');
  await page.goto(`file://${report}`, { waitUntil: 'load' });
  assert.equal(await page.evaluate(() => document.scripts.length), 0, 'the report has no scripts');
  assert.equal(await page.evaluate(() => window.injected), undefined, 'a tag ran as code');
  const games = await page.$$eval('article.game', (all) => all.map((a) => ({
    id: a.id,
    heading: a.querySelector('h2').textContent,
    text: a.textContent.replace(/\s+/g, ' '),
    board: !!a.querySelector('svg.board'),
    link: a.querySelector('a') ? a.querySelector('a').href : null,
  })));
  const byId = Object.fromEntries(games.map((g) => [g.id, g]));
  assert.deepEqual(Object.keys(byId).sort(), ['game-2', 'game-4', 'game-5'], JSON.stringify(games));
  assert.match(byId['game-2'].text, /0-1 by checkmate \(FIDE 5\.1\.1\)/);
  assert.match(byId['game-4'].text, /1\/2-1\/2 by flag_fall_cannot_mate \(FIDE 6\.9\)/);
  assert.match(byId['game-4'].text, /Black cannot mate: too little material for any series of legal moves to mate \(proof: material\)/);
  assert.match(byId['game-5'].text, /<script>window\.injected = 1<\/script>/);
  assert.equal(byId['game-5'].link, 'https://lichess.org/abcdEFGH#4');
  for (const g of games) assert.ok(g.board, `${g.id} has no board`);
  const summary = await text(page, 'section.summary');
  assert.match(summary, /games\s*5agree\s*2disagree\s*3/);
  assert.match(summary, /Disputed: 3/);
  assert.ok(await page.$('section.summary svg.chart'), 'the summary has its chart');
  await shot(page, '20-report');
  await closePage(page);
});
