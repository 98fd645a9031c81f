# ruff: noqa: E501  (HTML and JavaScript text)
"""Minimal pages to drive the server until the real ones (``bgclock/web``) exist.

Plain HTML and a few lines of JavaScript speaking docs/protocol.md.  The
secret and the token stay in the page's URL; the script sends them in
``hello``.
"""

from __future__ import annotations

_COMMON_JS = """
const params = new URLSearchParams(location.search);
const proto = location.protocol === 'https:' ? 'wss' : 'ws';
let ws, lastSeq = {}, rtt = [], n = 0;
const lag = () => rtt.length ? Math.round(Math.min(...rtt) / 2) : 0;
function connect(hello) {
  ws = new WebSocket(`${proto}://${location.host}/ws`);
  ws.onopen = () => { ws.send(JSON.stringify(hello())); ping(); };
  ws.onmessage = (m) => { const msg = JSON.parse(m.data);
    if (msg.type === 'pong') { rtt.push(performance.now() - msg.t); rtt = rtt.slice(-5); return; }
    if (msg.seq !== undefined && msg.table) lastSeq[msg.table] = msg.seq;
    show(msg); };
  ws.onclose = () => setTimeout(() => connect(hello), 1000);
}
function ping() { if (ws.readyState === 1) ws.send(JSON.stringify({type: 'ping', t: performance.now()})); }
setInterval(ping, 5000);
function send(cmd) {
  cmd.type = 'cmd'; cmd.id = `${Date.now().toString(36)}-${n++}`; cmd.lag_ms = lag();
  ws.send(JSON.stringify(cmd));
}
function fmt(ms) { const s = Math.max(0, Math.ceil(ms / 1000)); return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`; }
"""

_STYLE = """
body { font-family: sans-serif; margin: 1em; }
.big { font-size: 3em; width: 45%; height: 40vh; margin: 1%; }
.running { background: #fd6; }
pre { font-size: 0.8em; }
.err { color: #b00; }
"""


def table_page(table_id: int) -> str:
    return f"""<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Table {table_id}</title><style>{_STYLE}</style></head><body>
<h1>Table {table_id} <small id="phase"></small></h1>
<button class="big" id="A" onclick="send({{do: 'hit', side: 'A'}})">A</button>
<button class="big" id="B" onclick="send({{do: 'hit', side: 'B'}})">B</button>
<p>
<button onclick="roll()">opening roll</button>
<button onclick="send({{do: 'stop', side: 'A', reason: 'other'}})">stop</button>
<button onclick="send({{do: 'resume'}})">resume</button>
</p>
<p class="err" id="err"></p>
<pre id="state"></pre>
<script>{_COMMON_JS}
const table = {table_id};
function roll() {{
  let a, b; do {{ a = 1 + Math.floor(Math.random() * 6); b = 1 + Math.floor(Math.random() * 6); }} while (a === b);
  send({{do: 'opening_roll', dice: [a, b]}});
}}
function show(msg) {{
  if (msg.type === 'error') {{ document.getElementById('err').textContent = msg.message; return; }}
  if (!msg.state) return;
  const s = msg.state;
  document.getElementById('err').textContent = '';
  document.getElementById('phase').textContent = s.phase + (s.stopped_reason ? ' (' + s.stopped_reason + ')' : '');
  for (const side of ['A', 'B']) {{
    const el = document.getElementById(side);
    el.textContent = `${{side}} ${{fmt(s[side].reserve_ms)}} +${{Math.ceil(s[side].delay_ms / 1000)}}`;
    el.className = 'big' + (s[side].running ? ' running' : '');
  }}
  document.getElementById('state').textContent = JSON.stringify(s, null, 1);
}}
connect(() => ({{type: 'hello', token: params.get('token'), last_seq: lastSeq[table]}}));
</script></body></html>"""


def director_page() -> str:
    return f"""<!doctype html>
<html><head><meta charset="utf-8"><title>Director</title><style>{_STYLE}</style></head><body>
<h1>Director</h1>
<p>Command (JSON, e.g. <code>{{"table": 1, "do": "resume"}}</code>):
<input id="cmd" size="60"> <button onclick="send(JSON.parse(document.getElementById('cmd').value))">send</button></p>
<p class="err" id="err"></p>
<table border="1" id="tables"><tr><th>table</th><th>phase</th><th>A</th><th>B</th><th>score</th><th>attention</th></tr></table>
<script>{_COMMON_JS}
const rows = {{}};
function show(msg) {{
  if (msg.type === 'error') {{ document.getElementById('err').textContent = `table ${{msg.table}}: ${{msg.message}}`; return; }}
  if (!msg.state) return;
  let row = rows[msg.table];
  if (!row) {{ row = rows[msg.table] = document.getElementById('tables').insertRow(); for (let i = 0; i < 6; i++) row.insertCell(); }}
  const s = msg.state;
  const cells = [msg.table, s.phase + (s.stopped_reason ? ' (' + s.stopped_reason + ')' : ''),
    fmt(s.A.reserve_ms) + (s.A.running ? ' *' : ''), fmt(s.B.reserve_ms) + (s.B.running ? ' *' : ''),
    s.score.join('-'), s.stopped_reason === 'restart' ? 'RESTARTED: resume' : ''];
  cells.forEach((c, i) => row.cells[i].textContent = c);
}}
connect(() => ({{type: 'hello', key: params.get('key'), since: lastSeq}}));
</script></body></html>"""


def index_page() -> str:
    return """<!doctype html><html><head><meta charset="utf-8"><title>bgclock</title></head>
<body><h1>bgclock</h1><p>Tournament clock server. Open your table's link, or the
director's link printed when the server started.</p></body></html>"""
