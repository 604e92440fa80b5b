/** SEO fixture pages; `origin` is the fixture site's own origin (canonical, og:url). */

export const goodSeoPage = (origin: string) => `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Handmade Oak Furniture | Fixture Workshop</title>
<meta name="description" content="Tables, chairs and shelves made by hand from local oak, built to last for generations and delivered across the country.">
<link rel="canonical" href="${origin}/good">
<meta property="og:title" content="Handmade Oak Furniture">
<meta property="og:description" content="Tables, chairs and shelves made by hand from local oak.">
<meta property="og:image" content="${origin}/og.png">
<meta property="og:url" content="${origin}/good">
<meta name="twitter:card" content="summary_large_image">
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Organization","name":"Fixture Workshop","url":"${origin}/"}</script>
</head><body>
<h1>Handmade oak furniture</h1>
<h2>Tables</h2><p>Solid oak tables.</p><img src="/table.jpg" alt="An oak dining table">
<h3>Dining tables</h3><p>Seats up to ten.</p>
<h2>Chairs</h2><img src="/divider.png" alt="">
<p><a href="/tables">Browse our oak tables</a></p>
</body></html>`;

export const poorSeoPage = `<!doctype html>
<html><head>
<meta name="robots" content="noindex, nofollow">
<title>Hi</title>
<link rel="canonical" href="/poor">
<script type="application/ld+json">{"@context": "https://schema.org", broken</script>
</head><body>
<h1>First</h1><h1>Second</h1>
<h4>Jumped to h4</h4>
<img src="/a.jpg"><img src="/b.jpg">
<p>For details <a href="/x">click here</a> or <a href="/y">read more</a>.</p>
</body></html>`;

/** A single-page app: the server sends an empty shell; the title and content come from script. */
export const spaShell = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title></title></head>
<body><div id="root"></div><script>
document.title = 'Rendered by JavaScript on the client';
const h = document.createElement('h1'); h.textContent = 'Client-side heading';
document.getElementById('root').append(h);
</script></body></html>`;

export const sitemapXml = (origin: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/good</loc></url></urlset>`;
