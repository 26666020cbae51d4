document.getElementById('upload').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const status = document.getElementById('status');
  const moves = document.getElementById('moves');
  const img = document.getElementById('annotated');
  status.className = ''; status.textContent = 'Reading and solving…';
  moves.innerHTML = ''; img.removeAttribute('src');
  const body = new FormData();
  body.append('image', document.getElementById('image').files[0]);
  const fast = document.getElementById('fast').checked ? '?fast=1' : '';
  try {
    const res = await fetch('/api/solve' + fast, { method: 'POST', body });
    const doc = await res.json();
    if (!res.ok) {
      status.className = 'error';
      status.textContent = doc.error.message + ' (' + doc.error.code + ')';
      return;
    }
    const n = doc.moves.length;
    status.textContent = doc.status === 'solved'
      ? (doc.optimal ? 'Shortest plan: ' : 'Plan: ') + n + ' pours'
      : doc.status === 'unsolvable' ? 'This position cannot be solved.' : 'No plan found in time.';
    for (const m of doc.moves) {
      const li = document.createElement('li');
      li.textContent = (m.from + 1) + ' → ' + (m.to + 1) + ' (' + m.count + ' ' + m.color + ')';
      moves.appendChild(li);
    }
    if (doc.annotated_png) img.src = 'data:image/png;base64,' + doc.annotated_png;
  } catch (e) {
    status.className = 'error'; status.textContent = 'Request failed: ' + e;
  }
});
