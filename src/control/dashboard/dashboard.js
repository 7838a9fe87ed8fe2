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
  // PnL and rewards over time: one line chart each (lightweight-charts, served by this server)
  const pnlChart = lineChart('pnl-chart', 'pnl-now', '#2962ff', 4, (p) => p.pnl);
  const rewardsChart = lineChart('rewards-chart', 'rewards-now', '#2e7d32', 6, (p) => p.total);

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
    if (state.readOnly) {
      const li = document.createElement('li');
      li.textContent = state.health.since === null ? 'no health journaled in this store' : 'as journaled at ' + new Date(state.health.since).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';
      $('reasons').appendChild(li);
    }
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
    pnlChart.set(state.pnl);
    rewardsChart.set(state.rewards);
    $('rewards-note').textContent = state.readOnly ? 'a store keeps the latest estimate only' + (state.rewards.length ? ' (' + time(state.rewards[0].at) + ')' : ': none yet') : '';
    renderBudget(state.rateBudget);
    const logs = $('logs');
    logs.replaceChildren();
    for (const line of state.logs) addLog(line);
  }

  function renderBudget(budget) {
    const body = document.createElement('tbody');
    $('budget').dataset.windows = budget ? String(budget.windows.length) : '';
    $('budget-note').textContent = budget === null ? 'not kept in a store file' : budget.paused.map((p) => p.route + ' paused after a 429 until ' + time(p.until)).join('; ');
    for (const w of budget ? budget.windows : []) {
      const tr = document.createElement('tr');
      tr.dataset.window = w.name;
      cell(tr, w.name);
      const meter = document.createElement('meter');
      meter.min = 0;
      meter.max = 1;
      meter.optimum = 0;
      meter.high = 0.8;
      meter.value = w.share;
      const use = cell(tr, (w.share * 100).toFixed(1) + '% ');
      use.appendChild(meter);
      cell(tr, w.used);
      cell(tr, w.inFlight);
      cell(tr, w.limit);
      cell(tr, w.windowMs >= 60000 ? w.windowMs / 60000 + ' min' : w.windowMs / 1000 + ' s');
      body.appendChild(tr);
    }
    $('budget').tBodies[0].replaceWith(body);
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
  function chartPoints(points, valueOf) {
    const out = [];
    for (const p of points) {
      const t = Math.floor(p.at / 1000);
      const v = Number(valueOf(p));
      if (out.length && out[out.length - 1].time === t) out[out.length - 1].value = v;
      else if (!out.length || t > out[out.length - 1].time) out.push({ time: t, value: v });
    }
    return out;
  }

  // a line chart in element `id` (made on first use), its newest value in element `nowId`;
  // the element's data-points says how many points it draws
  function lineChart(id, nowId, color, precision, valueOf) {
    let series;
    let last = 0;
    let count = 0;
    function ensure() {
      if (series || typeof LightweightCharts === 'undefined') return;
      const chart = LightweightCharts.createChart($(id), {
        autoSize: true,
        layout: { background: { color: '#ffffff' }, textColor: '#1d2733', attributionLogo: false },
        timeScale: { timeVisible: true, secondsVisible: true },
        rightPriceScale: { borderVisible: false },
      });
      const minMove = Math.pow(10, -precision);
      series = chart.addSeries(LightweightCharts.LineSeries, { color: color, lineWidth: 2, priceFormat: { type: 'price', precision: precision, minMove: minMove } });
    }
    function shown() {
      $(id).dataset.points = String(count);
    }
    return {
      set(points) {
        ensure();
        const data = chartPoints(points, valueOf);
        if (series) series.setData(data);
        last = data.length ? data[data.length - 1].time : 0;
        count = data.length;
        shown();
        if (points.length) $(nowId).textContent = valueOf(points[points.length - 1]);
      },
      add(point) {
        ensure();
        const t = Math.floor(point.at / 1000);
        if (t < last || !series) return;
        series.update({ time: t, value: Number(valueOf(point)) });
        if (t > last) count++;
        last = t;
        shown();
        $(nowId).textContent = valueOf(point);
      },
    };
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
          pnlChart.add(m.point);
          break;
        case 'rewards':
          rewardsChart.add(m.point);
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
