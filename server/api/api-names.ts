/** The APIs with their own OpenAPI document, version and path (contract "Versioning"). */
export const apis = {
  deadlinks: { version: '2.5.0', path: '/api/deadlinks', title: 'Dead-link checker' },
  seo: { version: '1.0.0', path: '/api/seo', title: 'SEO audit' },
  screenshot: { version: '2.0.0', path: '/api/screenshot', title: 'Screenshots' },
  perf: { version: '1.0.0', path: '/api/perf', title: 'Performance check' },
  techstack: { version: '1.0.0', path: '/api/techstack', title: 'Tech-stack detection' },
  ssl: { version: '1.0.0', path: '/api/ssl', title: 'TLS certificate check' },
  html2image: { version: '1.0.0', path: '/api/html2image', title: 'HTML to image' },
  audit: { version: '1.0.0', path: '/api/audit', title: 'Audit bundle' },
  charts: { version: '1.0.0', path: '/api/charts/render', title: 'Chart rendering' },
  keys: { version: '1.0.0', path: '/api/keys', title: 'API keys, usage and service' },
  compare: { version: '1.0.0', path: '/api/compare', title: 'Preview report: two deployments compared' },
} as const;

export type ApiName = keyof typeof apis;
export const serviceVersion = '3.0.0';
