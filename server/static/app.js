// decant's phone page. A player picks, pastes or drops a screenshot; the page sends it to
// POST /api/solve, draws the level that was read, and walks through the plan one pour at a
// time. Misread colours are fixed by tapping a unit; the edited level is solved again as a
// level document. Positions are replayed here with the game's rule (a pour moves the top run
// of one colour as far as it fits), so stepping needs no server round trip. A level with hidden
// units or curtains gets a partial plan: the pours up to the one that reveals something; at its
// end the page asks what appeared ("!" units in next_level), writes it in, and posts the next
// level for the next segment: the loop is stateless on the server.
'use strict';

(() => {
  // The names the screenshot reader gives colours (vision/color.go), drawn in their colours.
  // Other names (from level files) get a colour derived from the name.
  const PALETTE = {
    red: '#dc2828', 'dark-red': '#8c141e', orange: '#fa8214', yellow: '#fadc28', lime: '#a0dc3c',
    green: '#28aa46', 'dark-green': '#146432', olive: '#828228', teal: '#1e968c', cyan: '#3cd2e6',
    sky: '#6eb4f0', blue: '#2850dc', navy: '#1e2878', purple: '#823cb4', violet: '#aa78e6',
    magenta: '#d23caa', pink: '#fa82aa', peach: '#fac3a5', brown: '#824b23', beige: '#dcc896',
    grey: '#808080', 'dark-grey': '#46464b', white: '#f0f0f0', black: '#191919', mint: '#96e6b4',
    slate: '#4b7396', gold: '#d7aa28',
  };
  const HIDDEN = '?';
  const PENDING = '!'; // a unit just revealed, whose colour the player tells
  const unknown = (c) => c === HIDDEN || c === PENDING;
  const MAX_PER_ROW = 7;

  const $ = (id) => document.getElementById(id);
  const SVG = 'http://www.w3.org/2000/svg';

  const state = {
    level: null, // the level of the current plan: {capacity, tubes: [[names...] | {curtain}]}
    plan: null, // {status, optimal, moves}
    positions: [], // positions[k]: the tubes after k pours
    step: 0,
    mode: 'idle', // 'idle' | 'plan' | 'edit'
    edited: null, // the level being fixed, in edit mode
    chosen: null, // {tube, unit} the chooser is open for; unit null adds a unit
    pending: null, // the next level of a partial plan, its "!" units being told
    urls: {}, // object URLs to revoke: png, gif
    answers: 0,
  };

  // ---- colours ----

  function colourOf(name) {
    if (PALETTE[name]) return PALETTE[name];
    const base = name.replace(/-\d+$/, '');
    if (PALETTE[base]) return PALETTE[base];
    let h = 0;
    for (const ch of name) h = (h * 31 + ch.codePointAt(0)) >>> 0;
    return `hsl(${h % 360} ${55 + (h >> 9) % 30}% ${42 + (h >> 5) % 20}%)`;
  }

  // levelColours lists the colour names a level uses, in order of first appearance.
  function levelColours(level) {
    const seen = new Set();
    for (const t of level.tubes) {
      if (isCurtain(t)) seen.add(t.curtain);
      else for (const c of t) if (!unknown(c)) seen.add(c);
    }
    return [...seen];
  }

  const isCurtain = (t) => !Array.isArray(t);
  const cloneLevel = (l) => ({ capacity: l.capacity, tubes: l.tubes.map((t) => (isCurtain(t) ? { ...t } : [...t])) });
  const tubeNo = (i) => i + 1;

  // ---- the pour rule ----

  // pour applies move m to tubes (copied) and returns the new tubes, or throws naming the fault.
  function pour(tubes, m, capacity) {
    const n = tubes.length;
    const where = `pour ${tubeNo(m.from)} → ${tubeNo(m.to)}`;
    if (!(m.from >= 0 && m.from < n && m.to >= 0 && m.to < n) || m.from === m.to) throw new Error(`${where}: no such tubes`);
    const a = tubes[m.from];
    const b = tubes[m.to];
    if (isCurtain(a) || isCurtain(b)) throw new Error(`${where}: a tube is behind a curtain`);
    if (a.length === 0) throw new Error(`${where}: tube ${tubeNo(m.from)} is empty`);
    const c = a[a.length - 1];
    if (unknown(c)) throw new Error(`${where}: the top unit is hidden`);
    if (b.length >= capacity) throw new Error(`${where}: tube ${tubeNo(m.to)} is full`);
    if (b.length > 0 && b[b.length - 1] !== c) throw new Error(`${where}: ${c} cannot go onto ${b[b.length - 1]}`);
    let run = 1;
    while (run < a.length && a[a.length - 1 - run] === c) run++;
    const k = Math.min(run, capacity - b.length);
    if (k !== m.count || c !== m.color) throw new Error(`${where}: moves ${k} ${c}, the plan says ${m.count} ${m.color}`);
    const out = tubes.slice();
    out[m.from] = a.slice(0, a.length - k);
    out[m.to] = b.concat(Array(k).fill(c));
    return out;
  }

  // replay returns the positions after 0, 1, ..., n pours.
  function replay(level, moves) {
    const out = [level.tubes];
    for (const m of moves) out.push(pour(out[out.length - 1], m, level.capacity));
    return out;
  }

  // ---- talking to the API ----

  // call fetches and returns {ok, doc | blob} or {ok: false, error: {code, message}}.
  async function call(url, init) {
    let res;
    try {
      res = await fetch(url, init);
    } catch (e) {
      return { ok: false, error: { code: 'network', message: `decant could not be reached (${e.message}).` } };
    }
    const type = res.headers.get('Content-Type') || '';
    let doc = null;
    if (type.includes('json')) {
      try {
        doc = await res.json();
      } catch {
        doc = null;
      }
    }
    if (res.ok) return doc ? { ok: true, doc } : { ok: true, blob: await res.blob() };
    const e = doc && doc.error ? doc.error : {};
    let message = e.message || `The server answered ${res.status} ${res.statusText}.`;
    const retry = res.headers.get('Retry-After');
    if (retry) message += ` Try again in ${retry} s.`;
    return { ok: false, status: res.status, error: { code: e.code || `http_${res.status}`, message } };
  }

  const HINTS = {
    no_puzzle: 'Is the whole level on the screenshot? Menus, victory screens and ads have no tubes to read.',
    low_confidence: 'Try a sharper screenshot of the whole level, without anything drawn over it.',
    image_too_small: 'Send the screenshot as the phone saved it, not a thumbnail.',
    unreadable_image: 'Send a PNG or JPEG screenshot.',
    image_too_large: 'Send the screenshot as the phone saved it.',
    invalid_level: 'Every colour needs exactly as many units as a tube holds: see the counts above the buttons.',
    hidden_units: 'In the game a tube\'s top unit always shows: tap that ? (or !) and choose the colour you see.',
    budget_exhausted: 'The server is busy or the search ran out of time: try again, or tick the fast search.',
    network: 'Check the connection and try again.',
  };

  // showError shows an API error's message, with a hint (for its code, unless given), just
  // before near (the control the player used) or else under the picker, and scrolls it into view.
  function showError(err, what, near, hint = HINTS[err.code]) {
    const box = $('error');
    if (near) near.before(box);
    else $('status').after(box);
    box.replaceChildren();
    const head = document.createElement('strong');
    head.textContent = what || 'That did not work.';
    const msg = document.createElement('span');
    msg.textContent = ` ${err.message}`;
    box.append(head, msg);
    if (hint) {
      const p = document.createElement('p');
      p.textContent = hint;
      box.append(p);
    }
    box.dataset.code = err.code;
    box.hidden = false;
    box.scrollIntoView({ block: 'nearest' });
  }

  function clearError() {
    $('error').hidden = true;
    $('error').replaceChildren();
  }

  // setStatus shows what the page is doing; an outcome shown elsewhere is only announced.
  function setStatus(text, shown = true) {
    $('status').textContent = text;
    $('status').classList.toggle('visually-hidden', !shown);
  }

  function answered() {
    state.answers++;
    document.body.dataset.answers = String(state.answers);
  }

  function busy(on) {
    for (const id of ['file', 'solve-again', 'gif', 'edit']) $(id).disabled = on;
    for (const b of $('reveal').querySelectorAll('button')) b.disabled = on;
    document.body.setAttribute('aria-busy', on ? 'true' : 'false');
  }

  const fastQuery = () => ($('fast').checked ? '?fast=1' : '');

  // ---- screenshots in: pick, paste, drop ----

  async function solveImage(file) {
    if (!file) return;
    if (file.type && !file.type.startsWith('image/')) {
      clearError();
      showError({ code: 'unreadable_image', message: `${file.name || 'That file'} is not an image.` });
      return;
    }
    clearError();
    setStatus('Reading the screenshot and solving…');
    $('result').hidden = true;
    $('stepper').hidden = true;
    busy(true);
    const form = () => {
      const f = new FormData();
      f.append('image', file, file.name || 'screenshot.png');
      return f;
    };
    const r = await call(`/api/solve${fastQuery()}`, { method: 'POST', body: form() });
    if (r.ok) {
      showPlan(r.doc, 'image');
    } else {
      setStatus('');
      showError(r.error, 'The screenshot could not be solved.');
      // A reading that the solver refuses (hidden units, broken counts) can still be fixed.
      if (r.status === 422 && r.error.code !== 'no_puzzle') {
        const read = await call('/api/read', { method: 'POST', body: form() });
        if (read.ok) startEdit(read.doc.level, true);
      }
    }
    busy(false);
    answered();
  }

  function setupInputs() {
    $('pick').addEventListener('submit', (ev) => ev.preventDefault());
    $('file').addEventListener('change', () => {
      const f = $('file').files[0];
      $('file').value = '';
      solveImage(f);
    });
    document.addEventListener('paste', (ev) => {
      const files = [...(ev.clipboardData ? ev.clipboardData.files : [])];
      const img = files.find((f) => f.type.startsWith('image/'));
      if (!img) {
        if (files.length) showError({ code: 'unreadable_image', message: 'The clipboard holds no image.' });
        return;
      }
      ev.preventDefault();
      solveImage(img);
    });
    const overlay = $('drop-overlay');
    const hasFiles = (ev) => ev.dataTransfer && [...ev.dataTransfer.types].includes('Files');
    window.addEventListener('dragover', (ev) => {
      if (!hasFiles(ev)) return;
      ev.preventDefault();
      overlay.hidden = false;
    });
    overlay.addEventListener('dragleave', () => {
      overlay.hidden = true;
    });
    window.addEventListener('drop', (ev) => {
      overlay.hidden = true;
      if (!ev.dataTransfer || !ev.dataTransfer.files.length) return;
      ev.preventDefault();
      solveImage(ev.dataTransfer.files[0]);
    });
  }

  // ---- the plan ----

  const pours = (n) => `${n} pour${n === 1 ? '' : 's'}`;

  function summaryOf(doc) {
    const n = doc.moves.length;
    switch (doc.status) {
      case 'solved':
        if (n === 0) return 'This level is already solved.';
        return doc.optimal ? `Shortest plan: ${pours(n)}.` : `A plan of ${pours(n)} (not proven the shortest).`;
      case 'partial':
        return `Some units are hidden. Play ${n === 1 ? 'this pour' : `these ${n} pours`}${revealClause(doc)}.${chance(doc)}`;
      case 'unsolvable':
        return 'This position cannot be solved: no sequence of pours sorts it. If a colour was misread, fix it and solve again.';
      default:
        if (doc.next_level && n) {
          return `No sure way on was found: ${n === 1 ? 'this pour is' : `these ${n} pours are`} a guess${revealClause(doc)}.${chance(doc)}`;
        }
        return n
          ? `The search stopped on its time limit; the best plan it found has ${pours(n)} (maybe not the shortest).`
          : 'The search stopped on its time limit before finding a plan. Try the fast search.';
    }
  }

  // revealClause says which pour of a partial plan reveals what, and that decant asks about it.
  function revealClause(doc) {
    if (!doc.reveal) return '';
    const t = tubeNo(doc.reveal.tube);
    const which = doc.moves.length === 1 ? 'it' : 'the last one';
    const what = isCurtain(doc.level.tubes[doc.reveal.tube]) ? `opens the curtain on tube ${t}` : `shows a hidden unit in tube ${t}`;
    return `: ${which} ${what}, and then decant asks what appeared`;
  }

  function chance(doc) {
    if (typeof doc.p_success !== 'number') return '';
    const how = doc.p_samples ? ` (estimated from ${doc.p_samples} guesses at the hidden units)` : '';
    return ` Chance of finishing: ${Math.round(doc.p_success * 100)}%${how}.`;
  }

  // showPlan shows an answer of POST /api/solve; how is 'image' (a screenshot), 'edited' (the
  // player's fixed level) or 'revealed' (the next segment, after the player told what appeared).
  function showPlan(doc, how) {
    const fromImage = how === 'image';
    let positions;
    try {
      positions = replay(doc.level, doc.moves);
    } catch (e) {
      setStatus('');
      showError({ code: 'invalid_plan', message: `The plan does not replay on the level: ${e.message}` });
      return;
    }
    state.level = doc.level;
    state.plan = { status: doc.status, optimal: doc.optimal, moves: doc.moves, nextLevel: doc.next_level || null, reveal: doc.reveal || null };
    state.pending = null;
    state.positions = positions;
    state.step = 0;
    revoke('gif');
    $('gif-link').hidden = true;
    revoke('png');
    if (fromImage && doc.annotated_png) {
      const bytes = Uint8Array.from(atob(doc.annotated_png), (ch) => ch.charCodeAt(0));
      state.urls.png = URL.createObjectURL(new Blob([bytes], { type: 'image/png' }));
      $('png-link').href = state.urls.png;
      $('annotated').src = state.urls.png;
    }
    $('png-link').hidden = !state.urls.png;
    $('gif').hidden = doc.moves.length === 0;

    let summary = summaryOf(doc);
    if (doc.reading) {
      summary += ` Read with confidence ${Math.round(doc.reading.confidence * 100)}%.`;
      if (doc.reading.reasons && doc.reading.reasons.length) summary += ` Note: ${doc.reading.reasons.join('; ')}.`;
    }
    if (how === 'edited') summary += ' (Solved from your fixed colours.)';
    $('summary').textContent = summary;
    setStatus(summaryOf(doc), false);

    const list = $('moves');
    list.replaceChildren();
    doc.moves.forEach((m, i) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = `${tubeNo(m.from)} → ${tubeNo(m.to)} (${m.count} ${m.color})`;
      b.addEventListener('click', () => goTo(i));
      li.append(b);
      list.append(li);
    });
    showResult();
    setMode('plan');
  }

  // showResult shows the result card, shrinks the picker and brings the board into view.
  function showResult() {
    const first = !document.body.classList.contains('has-result');
    document.body.classList.add('has-result');
    $('pick-label').textContent = 'Another screenshot';
    $('result').hidden = false;
    if (first) $('result').scrollIntoView({ block: 'start' });
  }

  function describe(m) {
    return `pour ${m.count} ${m.color} from tube ${tubeNo(m.from)} into tube ${tubeNo(m.to)}`;
  }

  function goTo(k) {
    const n = state.plan.moves.length;
    state.step = Math.max(0, Math.min(n, k));
    drawStep();
  }

  function drawStep() {
    const { moves } = state.plan;
    const n = moves.length;
    const k = state.step;
    const next = k < n ? moves[k] : null;
    // At the end of a partial plan the server's next position shows what was revealed as "!"
    // units; the player tells their colours, which are drawn in as they are told.
    const reveal = !next && n > 0 && state.plan.nextLevel !== null;
    if (reveal && !state.pending) state.pending = cloneLevel(state.plan.nextLevel);
    const asked = reveal ? firstPending(state.pending) : null;
    const opened = reveal && state.plan.reveal ? state.plan.reveal.tube : -1;
    drawBoard(reveal ? state.pending.tubes : state.positions[k], state.level.capacity, { next, asked, opened });
    $('counter').textContent = `pour ${k} of ${n}`;
    $('prev').disabled = k === 0;
    $('next').disabled = k >= n;
    const text = $('step-text');
    text.replaceChildren();
    // The counter is not announced on its own: the step's text carries it for screen readers.
    const where = document.createElement('span');
    where.className = 'visually-hidden';
    where.textContent = `Pour ${k} of ${n}. `;
    if (state.plan.status !== 'solved' && n === 0) {
      text.append('The level as read.');
    } else if (next) {
      text.append(where, `${k === 0 ? 'Start. ' : ''}Next: ${describe(next)}.`);
    } else if (reveal) {
      text.append(where, revealText());
    } else {
      const done = document.createElement('span');
      done.className = 'done';
      done.textContent = state.plan.status === 'solved' ? 'Sorted! Every tube is one colour.' : 'The end of the best plan found.';
      text.append(where, done);
    }
    [...$('moves').children].forEach((li, i) => li.classList.toggle('current', i === k));
    showRevealPrompt(reveal, asked);
  }

  // ---- hidden units: the player tells what a pour revealed, and the level is planned on ----

  const hasPending = (level) => level.tubes.some((t) => !isCurtain(t) && t.includes(PENDING));

  // firstPending returns the "!" unit to ask about: the lowest in the first tube that has one.
  function firstPending(level) {
    const tube = level.tubes.findIndex((t) => !isCurtain(t) && t.includes(PENDING));
    return tube < 0 ? null : { tube, unit: level.tubes[tube].indexOf(PENDING) };
  }

  // wasCurtain reports whether tube i was behind a curtain at the start of the plan: it opened,
  // and how many units it holds is the planner's guess.
  const wasCurtain = (i) => i < state.level.tubes.length && isCurtain(state.level.tubes[i]);

  function revealText() {
    const r = state.plan.reveal;
    if (r && wasCurtain(r.tube)) return `The curtain on tube ${tubeNo(r.tube)} opens now.`;
    return hasPending(state.plan.nextLevel) ? 'A hidden unit shows now.' : 'The plan goes on from here.';
  }

  // showRevealPrompt asks for the colour of the asked unit, or, when nothing is left to tell,
  // offers to plan on.
  function showRevealPrompt(on, asked) {
    const box = $('reveal');
    const appearing = on && box.hidden;
    box.hidden = !on;
    if (!on) return;
    $('reveal-ask').hidden = !asked;
    $('reveal-go').hidden = !!asked;
    if (!asked) {
      const r = state.plan.reveal;
      const t = r ? state.pending.tubes[r.tube] : null;
      $('reveal-title').textContent = t && !isCurtain(t) && t.length === 0
        ? `Tube ${tubeNo(r.tube)} opened, and it is empty.`
        : 'Nothing new shows: plan on from here.';
    } else {
      const several = wasCurtain(asked.tube) || state.plan.nextLevel.tubes[asked.tube].filter((c) => c === PENDING).length > 1;
      $('reveal-title').textContent = several
        ? `Tube ${tubeNo(asked.tube)}: which colour is unit ${asked.unit + 1} from the bottom?`
        : `Which colour appeared in tube ${tubeNo(asked.tube)}?`;
      // A curtain's contents are a guess at how many units it holds: the player can say there
      // are no more.
      $('reveal-none').hidden = !wasCurtain(asked.tube);
      $('reveal-none').textContent = asked.unit === 0 ? `Tube ${tubeNo(asked.tube)} is empty` : `No more units in tube ${tubeNo(asked.tube)}`;
      // The colours that can still appear first: those with fewer units showing than a tube
      // holds; then the level's complete colours and every other colour, in case of a misread.
      const level = { capacity: state.pending.capacity, tubes: [...state.level.tubes, ...state.pending.tubes] };
      const known = levelColours(level);
      const shown = new Map();
      for (const tube of state.pending.tubes) {
        if (isCurtain(tube)) continue;
        for (const c of tube) if (!unknown(c)) shown.set(c, (shown.get(c) || 0) + 1);
      }
      const open = known.filter((c) => (shown.get(c) || 0) < state.pending.capacity);
      const rest = [...known.filter((c) => !open.includes(c)), ...Object.keys(PALETTE).filter((c) => !known.includes(c))];
      $('reveal-swatches').replaceChildren();
      for (const c of open) swatch(c, null, $('reveal-swatches'), revealed);
      $('reveal-more').replaceChildren();
      for (const c of rest) swatch(c, null, $('reveal-more'), revealed);
      $('reveal-more-box').open = open.length === 0;
    }
    if (appearing) box.scrollIntoView({ block: 'nearest' });
  }

  // revealed writes the colour in place of the asked "!" and, once none is left, plans on.
  function revealed(colour) {
    const { tube, unit } = firstPending(state.pending);
    state.pending.tubes[tube][unit] = colour;
    askedOrPlan();
  }

  // noMoreUnits drops the asked "!" and those above it: the opened tube holds fewer units.
  function noMoreUnits() {
    const { tube, unit } = firstPending(state.pending);
    state.pending.tubes[tube].length = unit;
    askedOrPlan();
  }

  function askedOrPlan() {
    if (hasPending(state.pending)) {
      drawStep();
      const first = $('reveal-swatches').firstElementChild || $('reveal-more').firstElementChild;
      first.focus();
      return;
    }
    planOn();
  }

  // planOn sends the next level, everything that appeared written in, for the next pours.
  async function planOn() {
    clearError();
    setStatus('Planning the next pours…');
    busy(true);
    const r = await call(`/api/solve${fastQuery()}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(state.pending),
    });
    busy(false);
    if (r.ok) {
      showPlan(r.doc, 'revealed');
      $('step-text').focus();
    } else {
      // Ask again from the first unit: one of the colours told may be wrong.
      state.pending = null;
      setStatus('');
      drawStep();
      const told = 'A colour told cannot be there: each colour has exactly as many units as a tube holds. Tell them again.';
      showError(r.error, 'The next pours could not be planned.', $('reveal'), r.error.code === 'invalid_level' ? told : HINTS[r.error.code]);
    }
    answered();
  }

  function setupStepping() {
    $('prev').addEventListener('click', () => goTo(state.step - 1));
    $('next').addEventListener('click', () => goTo(state.step + 1));
    document.addEventListener('keydown', (ev) => {
      if (state.mode !== 'plan' || $('chooser').open || ev.altKey || ev.ctrlKey || ev.metaKey) return;
      if (ev.target.closest && ev.target.closest('input, textarea, select, summary')) return;
      const to = { ArrowRight: state.step + 1, ArrowLeft: state.step - 1, Home: 0, End: Infinity }[ev.key];
      if (to === undefined) return;
      ev.preventDefault();
      goTo(to);
    });
    // Swipe left for the next pour, right for the previous one.
    const board = $('board');
    let start = null;
    board.addEventListener('pointerdown', (ev) => {
      start = state.mode === 'plan' ? { x: ev.clientX, y: ev.clientY } : null;
    });
    board.addEventListener('pointercancel', () => {
      start = null;
    });
    board.addEventListener('pointerup', (ev) => {
      if (!start) return;
      const dx = ev.clientX - start.x;
      const dy = ev.clientY - start.y;
      start = null;
      if (Math.abs(dx) < 40 || Math.abs(dx) < 1.5 * Math.abs(dy)) return;
      goTo(state.step + (dx < 0 ? 1 : -1));
    });
  }

  // ---- drawing ----

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (parent) parent.append(e);
    return e;
  }

  // layout places tubes in rows of at most MAX_PER_ROW, balanced, as the games do.
  function layout(n, capacity) {
    const rows = Math.max(1, Math.ceil(n / MAX_PER_ROW));
    const perRow = Math.max(1, Math.ceil(n / rows));
    const cell = 64;
    const tubeW = 44;
    const unitH = Math.min(40, Math.floor(176 / capacity));
    const top = 36; // room for the pour arrow
    const bodyH = capacity * unitH + 8;
    const rowH = top + bodyH + 30;
    const width = perRow * cell;
    const at = (i) => {
      const row = Math.floor(i / perRow);
      const inRow = Math.min(perRow, n - row * perRow);
      const x = (width - inRow * cell) / 2 + (i - row * perRow) * cell + (cell - tubeW) / 2;
      const y = row * rowH + top; // the tube's top edge
      return { x, y, bottom: y + bodyH - 4 };
    };
    return { width, height: rows * rowH, tubeW, unitH, bodyH, at };
  }

  // drawBoard draws tubes; opts.next highlights a pour, opts.opened the tube a pour revealed
  // something in, opts.asked the unit whose colour the player is asked for, opts.edit makes
  // units buttons.
  function drawBoard(tubes, capacity, opts) {
    const board = $('board');
    board.replaceChildren();
    const g = layout(tubes.length, capacity);
    board.setAttribute('viewBox', `0 0 ${g.width} ${g.height}`);
    const next = opts.next;
    if (opts.edit) {
      board.setAttribute('role', 'group');
      board.setAttribute('aria-label', 'The level: choose a unit to change its colour');
    } else {
      board.setAttribute('role', 'img');
      board.removeAttribute('aria-label');
      const title = el('title', {}, board);
      title.textContent = describePosition(tubes, next);
    }
    const defs = el('defs', {}, board);
    const marker = el('marker', { id: 'head', viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }, marker);

    tubes.forEach((t, i) => {
      const p = g.at(i);
      const tube = el('g', { 'data-tube': i }, board);
      if (next && next.from === i) tube.classList.add('from');
      if (next && next.to === i) tube.classList.add('to');
      if (opts.opened === i || (!isCurtain(t) && t.includes(PENDING))) tube.classList.add('to');
      const unitX = p.x + 4;
      const unitW = g.tubeW - 8;
      const unitY = (j) => p.bottom - (j + 1) * g.unitH;
      if (isCurtain(t)) {
        const c = el('rect', { x: unitX, y: p.y + 4, width: unitW, height: g.bodyH - 8, rx: 6, class: 'curtain', 'data-curtain': t.curtain }, tube);
        const label = el('text', { x: p.x + g.tubeW / 2, y: p.y + g.bodyH / 2, class: 'curtain-label' }, tube);
        label.textContent = t.curtain;
        if (opts.edit) editable(c, tube, i, null, `Tube ${tubeNo(i)}: a curtain until ${t.curtain} is complete`);
      } else {
        t.forEach((name, j) => {
          const unit = el('g', { 'data-unit': j }, tube);
          const r = el('rect', {
            x: unitX, y: unitY(j), width: unitW, height: g.unitH - 1, rx: j === 0 ? 8 : 2,
            class: 'unit', fill: unknown(name) ? '#33353d' : colourOf(name), 'data-color': name,
          }, unit);
          if (unknown(name)) el('text', { x: p.x + g.tubeW / 2, y: unitY(j) + g.unitH / 2, class: 'glyph' }, unit).textContent = name;
          if (next && next.from === i && j >= t.length - next.count) r.classList.add('moving');
          if (name === PENDING) r.classList.add('moving');
          if (opts.asked && opts.asked.tube === i && opts.asked.unit === j) r.classList.add('asked');
          if (opts.edit) editable(r, unit, i, j, `Tube ${tubeNo(i)}, unit ${j + 1} from the bottom: ${unknown(name) ? 'hidden' : name}`);
        });
        if (next && next.to === i) {
          for (let j = t.length; j < t.length + next.count; j++) {
            el('rect', { x: unitX + 2, y: unitY(j) + 2, width: unitW - 4, height: g.unitH - 5, rx: 2, class: 'ghost' }, tube);
          }
        }
        if (opts.edit && t.length < capacity) {
          const slot = el('g', {}, tube);
          const j = t.length;
          const r = el('rect', { x: unitX + 2, y: unitY(j) + 2, width: unitW - 4, height: g.unitH - 5, rx: 4, class: 'slot' }, slot);
          el('text', { x: p.x + g.tubeW / 2, y: unitY(j) + g.unitH / 2, class: 'plus' }, slot).textContent = '+';
          editable(r, slot, i, null, `Tube ${tubeNo(i)}: add a unit${t.length ? '' : ' (the tube is empty)'}`);
        }
      }
      el('rect', { x: p.x, y: p.y, width: g.tubeW, height: g.bodyH, rx: 10, class: 'tube-outline' }, tube);
      el('text', { x: p.x + g.tubeW / 2, y: p.y + g.bodyH + 22, class: 'num' }, tube).textContent = String(tubeNo(i));
    });

    if (next) {
      const a = g.at(next.from);
      const b = g.at(next.to);
      const x1 = a.x + g.tubeW / 2;
      const x2 = b.x + g.tubeW / 2;
      const y1 = a.y - 4;
      const y2 = b.y - 6;
      const lift = Math.min(a.y, b.y) - 30;
      el('path', { d: `M${x1},${y1} Q${(x1 + x2) / 2},${lift} ${x2},${y2}`, class: 'arrow', 'marker-end': 'url(#head)' }, board);
    }
  }

  function describePosition(tubes, next) {
    const parts = tubes.map((t, i) => {
      if (isCurtain(t)) return `tube ${tubeNo(i)} behind a curtain until ${t.curtain}`;
      const say = (c) => (c === HIDDEN ? 'hidden' : c === PENDING ? 'just revealed' : c);
      return `tube ${tubeNo(i)}: ${t.length ? t.map(say).join(', ') : 'empty'}`;
    });
    let text = `Tubes, units from the bottom up: ${parts.join('; ')}.`;
    if (next) text += ` Next: ${describe(next)}.`;
    return text;
  }

  // editable makes a drawn unit (or slot, or curtain) a button that opens the colour chooser.
  function editable(shape, group, tube, unit, label) {
    group.setAttribute('role', 'button');
    group.setAttribute('tabindex', '0');
    group.setAttribute('aria-label', label);
    group.dataset.edit = `${tube}:${unit === null ? 'add' : unit}`;
    const open = () => openChooser(tube, unit);
    group.addEventListener('click', open);
    // Open on the key's release, as buttons do: opened on its press, the dialog would take the
    // rest of the key stroke and choose its first colour.
    const activates = (ev) => ev.key === 'Enter' || ev.key === ' ';
    group.addEventListener('keydown', (ev) => {
      if (activates(ev)) ev.preventDefault();
    });
    group.addEventListener('keyup', (ev) => {
      if (activates(ev)) {
        ev.preventDefault();
        open();
      }
    });
  }

  // ---- fixing the reading ----

  function setMode(mode) {
    state.mode = mode;
    const edit = mode === 'edit';
    $('edit-tools').hidden = !edit;
    $('actions').hidden = edit;
    $('shot').hidden = edit || !state.urls.png;
    if (edit) $('reveal').hidden = true;
    $('all-pours').hidden = edit || !state.plan || state.plan.moves.length === 0;
    $('stepper').hidden = mode !== 'plan' || !state.plan || state.plan.moves.length === 0;
    $('result-title').textContent = edit ? 'Fix the colours' : 'The plan';
    if (edit) drawEdit();
    else if (mode === 'plan') {
      $('summary').hidden = false;
      drawStep();
    }
  }

  // startEdit opens the editor on a level (the current plan's when none is given).
  function startEdit(level, fromError) {
    state.edited = cloneLevel(level || state.level);
    state.chosen = null;
    // The plan's summary does not describe the level being fixed.
    $('summary').hidden = !fromError;
    if (fromError) {
      state.plan = null;
      $('summary').textContent = 'This is what decant read. Fix what it got wrong, then solve again.';
    }
    showResult();
    setMode('edit');
  }

  function drawEdit() {
    drawBoard(state.edited.tubes, state.edited.capacity, { edit: true });
    $('step-text').textContent = 'Tap a unit to change its colour, or a dashed slot to add a unit.';
    showCounts();
  }

  function showCounts() {
    const { capacity, tubes } = state.edited;
    const counts = new Map();
    let hidden = 0;
    for (const t of tubes) {
      if (isCurtain(t)) continue;
      for (const c of t) {
        if (unknown(c)) hidden++;
        else counts.set(c, (counts.get(c) || 0) + 1);
      }
    }
    const off = [...counts].filter(([, n]) => (hidden ? n > capacity : n !== capacity));
    const p = $('counts');
    p.replaceChildren();
    if (!off.length) {
      p.textContent = hidden ? `${hidden} hidden units; every visible colour fits.` : `Every colour has ${capacity} units.`;
      return;
    }
    p.append(`Each colour needs ${capacity} units: `);
    off.forEach(([c, n], i) => {
      const s = document.createElement('span');
      s.className = 'bad';
      s.textContent = `${c} has ${n}`;
      p.append(i ? ', ' : '', s);
    });
    p.append('.');
  }

  function swatch(name, current, parent, onChoose = (c) => applyChoice({ color: c })) {
    const b = document.createElement('button');
    b.type = 'button';
    b.dataset.color = name;
    b.setAttribute('aria-pressed', String(name === current));
    const chip = document.createElement('span');
    chip.className = 'chip';
    chip.style.background = colourOf(name);
    chip.setAttribute('aria-hidden', 'true');
    b.append(chip, name === current ? `${name} (now)` : name);
    b.addEventListener('click', () => onChoose(name));
    parent.append(b);
  }

  function openChooser(tube, unit) {
    const t = state.edited.tubes[tube];
    state.chosen = { tube, unit };
    const curtain = isCurtain(t);
    const current = curtain ? t.curtain : unit === null ? null : t[unit];
    $('chooser-title').textContent = curtain
      ? `Tube ${tubeNo(tube)}: curtain until ${t.curtain}`
      : unit === null
        ? `Tube ${tubeNo(tube)}: add a unit`
        : `Tube ${tubeNo(tube)}, unit ${unit + 1} from the bottom`;
    const known = new Set([...levelColours(state.level || state.edited), ...levelColours(state.edited)]);
    $('swatches').replaceChildren();
    for (const c of known) swatch(c, current, $('swatches'));
    $('more-swatches').replaceChildren();
    for (const c of Object.keys(PALETTE)) if (!known.has(c)) swatch(c, current, $('more-swatches'));
    $('more-colours').open = false;
    $('set-hidden').hidden = curtain;
    $('remove-unit').hidden = curtain || unit === null;
    $('remove-tube').textContent = `Remove tube ${tubeNo(tube)}`;
    $('remove-tube').disabled = state.edited.tubes.length <= 1;
    $('chooser').showModal();
  }

  function applyChoice(choice) {
    const { tube, unit } = state.chosen;
    const tubes = state.edited.tubes;
    const t = tubes[tube];
    let focus = `${tube}:${unit === null ? 'add' : unit}`;
    if (choice.removeTube) {
      tubes.splice(tube, 1);
      state.chosen = null;
      focus = null;
    } else if (isCurtain(t)) {
      if (choice.color) t.curtain = choice.color;
    } else if (choice.removeUnit) {
      t.splice(unit, 1);
      focus = `${tube}:add`;
    } else {
      const c = choice.hidden ? HIDDEN : choice.color;
      if (unit === null) {
        t.push(c);
        focus = `${tube}:${t.length - 1}`;
      } else t[unit] = c;
    }
    $('chooser').close();
    drawEdit();
    const target = focus && $('board').querySelector(`[data-edit="${focus}"]`);
    (target || $('add-tube')).focus();
  }

  async function solveEdited() {
    clearError();
    setStatus('Solving your fixed level…');
    busy(true);
    const r = await call(`/api/solve${fastQuery()}`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(state.edited),
    });
    busy(false);
    if (r.ok) {
      showPlan(r.doc, 'edited');
    } else {
      setStatus('');
      showError(r.error, 'The fixed level could not be solved.', $('solve-again'));
    }
    answered();
  }

  function setupEditing() {
    $('edit').addEventListener('click', () => startEdit());
    $('cancel-edit').addEventListener('click', () => {
      clearError();
      if (state.plan) setMode('plan');
      else {
        $('result').hidden = true;
        setMode('idle');
      }
    });
    $('add-tube').addEventListener('click', () => {
      state.edited.tubes.push([]);
      drawEdit();
    });
    $('solve-again').addEventListener('click', solveEdited);
    $('reveal-none').addEventListener('click', noMoreUnits);
    $('reveal-go').addEventListener('click', planOn);
    $('set-hidden').addEventListener('click', () => applyChoice({ hidden: true }));
    $('remove-unit').addEventListener('click', () => applyChoice({ removeUnit: true }));
    $('remove-tube').addEventListener('click', () => applyChoice({ removeTube: true }));
  }

  // ---- downloads ----

  function revoke(key) {
    if (state.urls[key]) URL.revokeObjectURL(state.urls[key]);
    delete state.urls[key];
  }

  async function makeGIF() {
    clearError();
    setStatus('Drawing the GIF, one frame per pour…');
    busy(true);
    const r = await call('/api/gif', {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ level: state.level, moves: state.plan.moves }),
    });
    busy(false);
    answered();
    if (!r.ok) {
      setStatus('');
      showError(r.error, 'The GIF could not be made.', $('actions'));
      return;
    }
    revoke('gif');
    state.urls.gif = URL.createObjectURL(r.blob);
    const link = $('gif-link');
    link.href = state.urls.gif;
    link.textContent = `Save the GIF (${Math.max(1, Math.round(r.blob.size / 1024))} kB)`;
    link.hidden = false;
    setStatus('The GIF is ready.', false);
    link.focus();
  }

  // The pour rule, for the browser tests and the curious.
  window.decant = { replay };

  document.addEventListener('DOMContentLoaded', () => {
    setupInputs();
    setupStepping();
    setupEditing();
    $('gif').addEventListener('click', makeGIF);
  });
})();
