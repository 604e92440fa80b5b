/**
 * The embeddable dead-link widget served at `/widget.js`:
 * `<script async src="{base}/widget.js" data-url="https://site" data-theme="light|dark">`.
 * It reads the cached status endpoint (never starts a crawl of its own beyond the
 * endpoint's cached quick check) and renders into its own shadow root. Dark is the default
 * theme. Plain ES2017, no dependencies.
 *
 * Isolation from the host page: the host is a custom element (no `div`/`span` rule matches it),
 * and the shadow root's `:host` rule resets every property with `all: initial !important`.
 * Page styles win over `:host` for normal declarations, but for `!important` ones the shadow
 * tree's own rule wins (CSS Cascade 4, "context"), so not even a page's `!important` reaches
 * the box. Nothing inside is exposed as a `::part`. Only the page's white space around the box
 * and its ancestors' transforms can still move or scale it.
 */
export const widgetScript = String.raw`(function () {
  'use strict';
  var script = document.currentScript;
  if (!script) {
    var all = document.querySelectorAll('script[src*="widget.js"][data-url]');
    script = all[all.length - 1];
  }
  if (!script) return;
  var base = new URL(script.src, location.href).origin + new URL(script.src, location.href).pathname.replace(/\/widget\.js$/, '');
  var site = script.getAttribute('data-url') || location.href;
  var theme = script.getAttribute('data-theme') === 'light' ? 'light' : 'dark';
  var host = document.createElement('sitelens-deadlinks-widget');
  host.className = 'sitelens-deadlinks-widget';
  host.setAttribute('data-theme', theme);
  script.parentNode.insertBefore(host, script.nextSibling);
  var root = host.attachShadow({ mode: 'open' });
  var colors = theme === 'light'
    ? { bg: '#ffffff', fg: '#1f2328', muted: '#59636e', border: '#d1d9e0' }
    : { bg: '#0d1117', fg: '#e6edf3', muted: '#9198a1', border: '#3d444d' };
  root.innerHTML = '<style>:host{all:initial!important;display:inline-block!important;direction:ltr!important;' +
    'unicode-bidi:isolate!important;zoom:1!important;vertical-align:middle!important}' +
    ':host::before,:host::after{content:none!important;display:none!important}' +
    '.card{font:13px/1.4 system-ui,-apple-system,Segoe UI,sans-serif;background:' + colors.bg + ';color:' + colors.fg +
    ';border:1px solid ' + colors.border + ';border-radius:8px;padding:8px 12px;display:inline-flex;gap:10px;align-items:center}' +
    '.score{font-weight:700;font-size:15px}.muted{color:' + colors.muted + '}a{color:inherit}' +
    '.dot{width:10px;height:10px;border-radius:50%;display:inline-block}</style>' +
    '<div class="card"><span class="dot"></span><span class="score">…</span>' +
    '<span class="broken muted">checking links</span><a class="details" target="_blank" rel="noopener">details</a></div>';
  var statusUrl = base + '/api/deadlinks/status?url=' + encodeURIComponent(site);
  var details = root.querySelector('.details');
  details.href = statusUrl + '&format=html'; // a page a person reads, not the JSON the widget reads
  function show(score, text, color) {
    root.querySelector('.score').textContent = score;
    root.querySelector('.broken').textContent = text;
    root.querySelector('.dot').style.background = color;
  }
  fetch(statusUrl, { credentials: 'omit' })
    .then(function (r) { return r.json().then(function (b) { return { ok: r.ok, body: b }; }); })
    .then(function (r) {
      if (!r.ok) { show('?', 'link status unavailable', '#9f9f9f'); return; }
      var s = r.body;
      var color = s.health_score >= 99 ? '#2da44e' : s.health_score >= 90 ? '#d4a72c' : '#cf222e';
      show(s.health_score + '%', s.broken_count + ' broken of ' + s.total_links_checked + ' links', color);
    })
    .catch(function () { show('?', 'link status unavailable', '#9f9f9f'); });
})();
`;
