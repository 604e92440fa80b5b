/** The page at `/`: a short getting-started and the API reference (Swagger UI over /openapi/{name}). */
export function docsPage(base: string, names: string[]): string {
  const urls = JSON.stringify(names.map((n) => ({ url: `${base}/openapi/${n}`, name: n })));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>SiteLens: website analysis and rendering API</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/docs/ui/swagger-ui.css">
<style>
body{margin:0;font:16px/1.55 system-ui,sans-serif;color:#1f2328}
header{max-width:60rem;margin:0 auto;padding:2rem 1rem 0}
header pre{background:#f6f8fa;padding:.8rem;border-radius:6px;overflow:auto}
table{border-collapse:collapse}.swagger-ui .topbar{background:#1f2328}td,th{border:1px solid #d0d7de;padding:.3rem .6rem;text-align:left}
/* Swagger UI's version pills: white on its light grey and light green is under 4.5:1. */
.swagger-ui .info .title small{background:#1f2328;font-size:12px;padding:2px 6px}
.swagger-ui .info .title small.version-stamp{background:#1a7f37}
</style></head>
<body>
<header>
<h1>Website analysis and rendering API</h1>
<p>Broken links, SEO, screenshots, HTML to image, charts, performance, tech stack, TLS and audits over HTTP.</p>
<h2 id="getting-started">Getting started</h2>
<ol>
<li>Create a key (no sign-up): <pre>curl -X POST ${base}/api/keys</pre></li>
<li>Call an API with it: <pre>curl -H "X-API-Key: YOUR_KEY" "${base}/api/deadlinks?url=https://example.com&amp;mode=quick"</pre></li>
<li>Check your quota: <pre>curl -H "X-API-Key: YOUR_KEY" ${base}/api/usage</pre></li>
</ol>
<p>Without a key every API still works under strict per-IP limits. Machine-readable: <a href="/openapi/deadlinks">/openapi/{name}</a>, <a href="/postman.json">Postman collection</a>, <a href="/apis.json">apis.json</a>, <a href="/api/health">health</a>.</p>
<h2 id="pricing">Tiers</h2>
<table><tr><th>Tier</th><th>Per minute</th><th>Per day</th></tr>
<tr><td>free (anonymous key)</td><td>5</td><td>20</td></tr><tr><td>free (email verified)</td><td>5</td><td>50</td></tr>
<tr><td>starter</td><td>15</td><td>200</td></tr><tr><td>pro</td><td>30</td><td>1000</td></tr><tr><td>business</td><td>60</td><td>5000</td></tr></table>
<h2>Reference</h2>
</header>
<div id="ui"></div>
<script src="/docs/ui/swagger-ui-bundle.js"></script>
<script src="/docs/ui/swagger-ui-standalone-preset.js"></script>
<script>
window.ui = SwaggerUIBundle({ urls: ${urls}, 'urls.primaryName': 'deadlinks', dom_id: '#ui', deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: 'StandaloneLayout' });
</script>
</body></html>`;
}
