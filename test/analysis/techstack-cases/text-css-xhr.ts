import type { TechCase } from '../support/techstack-cases.js';

const page = (head: string, body = '') => `<!doctype html><html><head><title>Case</title>${head}</head><body>${body}</body></html>`;

export const textCases: TechCase[] = [
  {
    title: 'the text a reader sees, white space collapsed; not scripts, comments, attributes, <noscript> or hidden elements',
    technologies: { 'Australia Post': { text: '\\bAustralia Post\\b' }, BRT: { text: '\\bBRT\\b' } },
    page: page(
      '',
      '<p>Shipping with Australia\n   Post</p><script>var carrier = "BRT";</script><!-- BRT --><noscript>BRT</noscript><div hidden>BRT</div><img alt="BRT" src="data:,">',
    ),
    expect: [{ name: 'Australia Post', confidence: 100 }],
  },
  {
    title: 'text a script writes counts when rendered',
    technologies: { Boxtal: { text: '\\bBoxtal\\b' } },
    page: page('', '<p id="carrier"></p><script>document.getElementById("carrier").textContent = "Packed by Boxtal";</script>'),
    expect: { fetch: [], render: [{ name: 'Boxtal', confidence: 100 }] },
  },
];

export const cssCases: TechCase[] = [
  {
    title: 'a <style> element, in both modes; one of two patterns is enough',
    technologies: { 'Material UI': { css: ['\\.MuiPaper-root', '\\.Mui-disabled'] }, 'Monaco Editor': { css: '\\.monaco-editor' } },
    page: page('<style>.MuiPaper-root { background: white }</style>', '<p class="monaco-editor-like">no</p>'),
    expect: [{ name: 'Material UI', confidence: 100 }],
  },
  {
    title: 'a linked style sheet is read in the browser (its rules, as the browser parsed them)',
    technologies: { 'Monaco Editor': { css: '\\.monaco-editor' } },
    page: page('<link rel="stylesheet" href="/app.css">'),
    files: { '/app.css': { body: '.monaco-editor { display: block }', type: 'text/css' } },
    expect: { fetch: [], render: [{ name: 'Monaco Editor', confidence: 100 }] },
  },
];

export const xhrCases: TechCase[] = [
  {
    title: 'the host of each XHR and fetch request the page made, never its path (rendered only)',
    engine: { render: 'the engine keeps XHR requests only, so the fetch() host is missed there' },
    technologies: {
      'Cart API': { xhr: '^127\\.0\\.0\\.1$' },
      'Search API': { xhr: '^localhost$' },
      'Path pattern': { xhr: 'cart\\.json' },
    },
    page: page(
      '',
      '<script>var x = new XMLHttpRequest(); x.open("GET", "/api/cart.json"); x.send(); fetch("http://localhost:" + location.port + "/api/search.json").catch(function () {});</script>',
    ),
    files: { '/api/cart.json': { body: '{}', type: 'application/json' } },
    expect: {
      fetch: [],
      render: [
        { name: 'Cart API', confidence: 100 },
        { name: 'Search API', confidence: 100 },
      ],
    },
  },
];
