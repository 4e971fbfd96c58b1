'use strict';
// Sends the FEN to GET /v1/analyze and shows the answer.
document.getElementById('analyze-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const fen = document.getElementById('fen').value.trim();
  const out = document.getElementById('verdict');
  const response = await fetch('/v1/analyze?fen=' + encodeURIComponent(fen));
  const body = await response.json();
  out.textContent = response.ok ? JSON.stringify(body, null, 2) : body.error.message;
});
