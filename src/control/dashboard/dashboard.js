// The clobot dashboard (issue 23 point 3): reads /api/state once, then lives on the message
// WebSocket (/api/messages); actions are POSTs to /api after a confirmation. The token comes from
// the URL's fragment (#token=..., never sent to the server, removed from the address bar at once)
// or the form, and stays in this tab (sessionStorage). Every value from the run is shown as text.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const TOKEN_KEY = 'clobot.controlToken';
  const FILLS_SHOWN = 50;
  const LOGS_SHOWN = 200;
  let token = takeToken();
  let readOnly = true;
  let socket;
  let chart;
  let pnlSeries;
  let lastPnlTime = 0;
  let pnlPoints = 0;

  function takeToken() {
    const m = /(?:^#|&)token=([^&]+)/.exec(location.hash);
    if (m) {
      const t = decodeURIComponent(m[1]);
      sessionStorage.setItem(TOKEN_KEY, t);
      history.replaceState(null, '', location.pathname + location.search);
      return t;
    }
    return sessionStorage.getItem(TOKEN_KEY) || '';
  }

  function headers(extra) {
    const h = Object.assign({}, extra);
    if (token) h.authorization = 'Bearer ' + token;
    return h;
  }

  async function api(method, path, body) {
    const res = await fetch(path, {
      method: method,
      headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status === 401) {
      askToken();
      throw new Error('the control token was refused');
    }
    const json = await res.json();
    return { status: res.status, body: json };
  }

  function askToken() {
    $('token-form').hidden = false;
    setLink('no token', 'bad');
  }

  $('token-entry').addEventListener('submit', (e) => {
    e.preventDefault();
    token = $('token').value.trim();
    sessionStorage.setItem(TOKEN_KEY, token);
    $('token').value = '';
    $('token-form').hidden = true;
    start();
  });

  function setLink(text, kind) {
    const el = $('link');
    el.textContent = text;
    el.className = 'badge ' + (kind || '');
  }

  function cell(tr, text, cls) {
    const td = document.createElement('td');
    td.textContent = text === undefined || text === null ? '' : String(text);
    if (cls) td.className = cls;
    tr.appendChild(td);
    return td;
  }

  function fillTable(id, rows, columns) {
    const body = $(id).tBodies[0];
    const next = document.createElement('tbody');
    for (const row of rows) {
      const tr = document.createElement('tr');
      for (const c of columns) cell(tr, typeof c === 'function' ? c(row) : row[c], c === 'tokenId' ? 'token' : '');
      next.appendChild(tr);
    }
    body.replaceWith(next);
  }

  function time(ms) {
    return new Date(ms).toISOString().slice(11, 19);
  }

  function badge(id, label, value, kinds) {
    const el = $(id);
    el.textContent = label + ': ' + value;
    el.className = 'badge ' + (kinds[value] || '');
    el.dataset.value = value;
  }

  function renderHealth(h) {
    badge('health', 'health', h.health, { normal: 'good', degraded: 'warn', atRisk: 'bad', halted: 'bad' });
    badge('permission', 'permission', h.permission, { allowed: 'good', reduceOnly: 'warn', cancelOnly: 'warn', blocked: 'bad' });
    const reasons = $('reasons');
    reasons.replaceChildren();
    for (const r of h.reasons) {
      const li = document.createElement('li');
      li.textContent = r.text || r.kind;
      reasons.appendChild(li);
    }
  }

  function render(state) {
    readOnly = state.readOnly;
    document.body.dataset.source = state.source;
    $('run-name').textContent = state.run.name || state.run.id;
    $('source').textContent = state.readOnly ? 'read-only: ' + (state.run.store || 'store') : state.source;
    renderHealth(state.health);
    const halts = $('halts');
    halts.textContent = state.halts.length ? 'halted: ' + state.halts.map((h) => h.name + ' (' + h.reason + ')').join(', ') : '';
    halts.className = 'badge bad';
    document.body.dataset.halted = state.halts.length ? 'yes' : 'no';
    $('controls').hidden = state.readOnly;
    const acc = $('account');
    acc.replaceChildren();
    for (const k of ['cash', 'equity', 'realized', 'unrealized', 'fees', 'reserved', 'free']) {
      if (state.account[k] === undefined) continue;
      const tr = document.createElement('tr');
      cell(tr, k);
      cell(tr, state.account[k]);
      acc.appendChild(tr);
    }
    fillTable('positions', state.positions, ['strategyId', 'tokenId', 'size', 'avgPrice', 'realized']);
    fillTable('orders', state.openOrders, ['strategyId', 'tokenId', 'side', 'price', 'size', 'filled', 'status']);
    const fills = document.createElement('tbody');
    for (const f of state.fills.slice(0, FILLS_SHOWN)) fills.appendChild(fillRow(f));
    $('fills').tBodies[0].replaceWith(fills);
    $('fills').dataset.count = String(state.fills.length);
    const denials = Object.keys(state.denials).map((code) => ({ code: code, n: state.denials[code] }));
    fillTable('denials', denials, ['code', 'n']);
    renderStrategies(state.strategies);
    setPnl(state.pnl);
    const logs = $('logs');
    logs.replaceChildren();
    for (const line of state.logs) addLog(line);
  }

  function renderStrategies(strategies) {
    const body = document.createElement('tbody');
    for (const s of strategies) {
      const tr = document.createElement('tr');
      tr.dataset.strategy = s.id;
      cell(tr, s.id);
      cell(tr, s.state);
      cell(tr, s.fills);
      cell(tr, s.pnl);
      cell(tr, s.fees);
      const params = document.createElement('pre');
      params.className = 'params';
      params.textContent = s.params === null ? '' : JSON.stringify(s.params, null, 1);
      cell(tr, '').appendChild(params);
      const actions = cell(tr, '');
      if (!readOnly) {
        actions.appendChild(button(s.state === 'RUNNING' ? 'Stop' : 'Start', () =>
          act(s.state === 'RUNNING' ? 'stop strategy ' + s.id : 'start strategy ' + s.id, '/api/strategies/' + encodeURIComponent(s.id) + (s.state === 'RUNNING' ? '/stop' : '/start'), {})));
        if (s.updatable.length > 0) {
          const b = button('Params…', () => editParams(s));
          b.dataset.params = s.id;
          actions.appendChild(b);
        }
      }
      body.appendChild(tr);
    }
    $('strategies').tBodies[0].replaceWith(body);
  }

  function button(text, onClick) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.addEventListener('click', onClick);
    return b;
  }

  function addLog(line, fresh) {
    const li = document.createElement('li');
    li.className = line.level;
    li.textContent = time(line.at) + ' ' + line.level + ' ' + line.msg + (Object.keys(line.fields).length ? ' ' + JSON.stringify(line.fields) : '');
    const logs = $('logs');
    logs.appendChild(li);
    while (logs.children.length > LOGS_SHOWN) logs.removeChild(logs.firstChild);
    if (fresh) logs.scrollTop = logs.scrollHeight;
  }

  function fillRow(f) {
    const tr = document.createElement('tr');
    tr.dataset.trade = f.tradeId;
    for (const v of [time(f.at), f.strategyId, f.tokenId, f.side, f.price, f.size, f.fee, f.liquidity]) cell(tr, v, '');
    tr.children[2].className = 'token';
    return tr;
  }

  function addFill(f) {
    const tbody = $('fills').tBodies[0];
    if (tbody.querySelector('tr[data-trade="' + CSS.escape(f.tradeId) + '"]')) return;
    const tr = fillRow(f);
    tr.className = 'fresh';
    tbody.insertBefore(tr, tbody.firstChild);
    while (tbody.children.length > FILLS_SHOWN) tbody.removeChild(tbody.lastChild);
    const fills = $('fills');
    fills.dataset.count = String(Number(fills.dataset.count || '0') + 1);
    fills.dataset.lastTrade = f.tradeId;
  }

  // lightweight-charts wants strictly increasing times in whole seconds: one point a second, the newest
  function chartPoints(points) {
    const out = [];
    for (const p of points) {
      const t = Math.floor(p.at / 1000);
      const v = Number(p.pnl);
      if (out.length && out[out.length - 1].time === t) out[out.length - 1].value = v;
      else if (!out.length || t > out[out.length - 1].time) out.push({ time: t, value: v });
    }
    return out;
  }

  function ensureChart() {
    if (chart || typeof LightweightCharts === 'undefined') return;
    const el = $('pnl-chart');
    chart = LightweightCharts.createChart(el, {
      autoSize: true,
      layout: { background: { color: '#ffffff' }, textColor: '#1d2733', attributionLogo: false },
      timeScale: { timeVisible: true, secondsVisible: true },
      rightPriceScale: { borderVisible: false },
    });
    pnlSeries = chart.addSeries(LightweightCharts.LineSeries, { color: '#2962ff', lineWidth: 2, priceFormat: { type: 'price', precision: 4, minMove: 0.0001 } });
  }

  function setPnl(points) {
    ensureChart();
    const data = chartPoints(points);
    if (pnlSeries) pnlSeries.setData(data);
    lastPnlTime = data.length ? data[data.length - 1].time : 0;
    pnlPoints = data.length;
    $('pnl-chart').dataset.points = String(pnlPoints);
    if (points.length) $('pnl-now').textContent = points[points.length - 1].pnl;
  }

  function addPnl(point) {
    ensureChart();
    const t = Math.floor(point.at / 1000);
    if (t < lastPnlTime || !pnlSeries) return;
    pnlSeries.update({ time: t, value: Number(point.pnl) });
    if (t > lastPnlTime) pnlPoints++;
    lastPnlTime = t;
    $('pnl-chart').dataset.points = String(pnlPoints);
    $('pnl-now').textContent = point.pnl;
  }

  function confirmAction(text, paramsText) {
    return new Promise((resolve) => {
      const dialog = $('confirm');
      $('confirm-text').textContent = text;
      const area = $('confirm-params');
      area.hidden = paramsText === undefined;
      area.value = paramsText || '';
      dialog.onclose = () => resolve(dialog.returnValue === 'ok' ? area.value : undefined);
      dialog.returnValue = '';
      dialog.showModal();
    });
  }

  async function act(what, path, body, paramsText) {
    const answer = await confirmAction('Really ' + what + '?', paramsText);
    if (answer === undefined) return;
    let sent = body;
    if (paramsText !== undefined) {
      try {
        sent = { params: JSON.parse(answer) };
      } catch (err) {
        $('answer').textContent = 'params: not JSON (' + err.message + ')';
        return;
      }
    }
    $('answer').textContent = what + '…';
    try {
      const res = await api('POST', path, sent);
      $('answer').textContent = (res.body.ok ? 'done: ' : 'refused: ') + res.body.message;
      $('answer').dataset.ok = String(res.body.ok);
      void refresh();
    } catch (err) {
      $('answer').textContent = err.message;
    }
  }

  function editParams(s) {
    const current = {};
    for (const k of s.updatable) if (s.params && k in s.params) current[k] = s.params[k];
    void act('set params of ' + s.id, '/api/strategies/' + encodeURIComponent(s.id) + '/params', undefined, JSON.stringify(current, null, 1));
  }

  for (const b of document.querySelectorAll('#controls button[data-action]')) {
    b.addEventListener('click', () => {
      const action = b.dataset.action;
      if (action === 'halt') void act('halt trading (manual halt; resting orders cancelled)', '/api/halt', { reason: 'dashboard' });
      else if (action === 'resume') void act('resume trading (lift the manual halt)', '/api/resume', {});
      else if (action === 'cancel-all') void act('cancel every open order', '/api/cancel-all', {});
      else if (action === 'flatten') {
        const band = Number($('band').value);
        void act('flatten: halt, cancel, and sell every position within ' + band + ' cent(s) of the best bid', '/api/flatten', { bandCents: band });
      }
    });
  }

  async function refresh() {
    const res = await api('GET', '/api/state');
    if (res.status === 200) render(res.body);
  }

  function connect() {
    const protocols = ['clobot.v1'];
    if (token) protocols.push('bearer.' + token);
    socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/messages', protocols);
    socket.onopen = () => setLink('live', 'good');
    socket.onclose = () => {
      setLink('disconnected: retrying', 'warn');
      setTimeout(connect, 2000);
    };
    socket.onmessage = (e) => {
      const m = JSON.parse(e.data);
      switch (m.type) {
        case 'hello':
        case 'state':
          render(m.state);
          break;
        case 'fill':
          addFill(m.fill);
          break;
        case 'pnl':
          addPnl(m.point);
          break;
        case 'log':
          addLog(m.line, true);
          break;
        case 'health':
          renderHealth(m.health);
          break;
        case 'command':
          void refresh();
          break;
      }
    };
  }

  async function start() {
    try {
      await refresh();
      connect();
    } catch (err) {
      setLink(err.message, 'bad');
    }
  }

  void start();
})();
