import { apis, serviceVersion, type ApiName } from '../api/api-names.js';
import type { Json } from './json-schema.js';

/** The APIs.json version this document follows (apisjson.org, the `apis-json/api-json` spec). */
export const apisJsonVersion = '0.19';

/**
 * apis.json: the service's APIs, each with its OpenAPI document, the Postman collection and
 * the human pages, in the APIs.json 0.19 format (its own fields only; extensions start `X-`).
 */
export function buildApisJson(baseUrl: string): Json {
  const page = (anchor = '') => `${baseUrl}/${anchor}`;
  return {
    aid: 'sitelens',
    name: 'SiteLens',
    description: 'Website analysis and visual rendering over HTTP: broken links, SEO, screenshots, HTML to image, charts, performance, tech stack, TLS and audits.',
    url: `${baseUrl}/apis.json`,
    image: `${baseUrl}/favicon.svg`,
    specificationVersion: apisJsonVersion,
    tags: ['website analysis', 'broken links', 'SEO', 'screenshots', 'charts', 'TLS'],
    apis: (Object.keys(apis) as ApiName[]).map((name) => ({
      aid: `sitelens:${name}`,
      name: apis[name].title,
      description: `${apis[name].title} API of SiteLens (version ${apis[name].version}).`,
      image: `${baseUrl}/favicon.svg`,
      baseURL: `${baseUrl}${apis[name].path}`,
      humanURL: page(),
      version: apis[name].version,
      tags: [name],
      properties: [
        { type: 'OpenAPI', url: `${baseUrl}/openapi/${name}`, mediaType: 'application/json' },
        { type: 'PostmanCollection', url: `${baseUrl}/postman.json`, mediaType: 'application/json' },
        { type: 'Documentation', url: page() },
      ],
    })),
    common: [
      { type: 'GettingStarted', url: page('#getting-started') },
      { type: 'Signup', url: page('#getting-started'), description: 'Create a key with POST /api/keys; no sign-up form.' },
      { type: 'Pricing', url: page('#pricing') },
      { type: 'RateLimits', url: page('#pricing') },
      { type: 'StatusPage', url: `${baseUrl}/api/health` },
    ],
    maintainers: [{ FN: 'SiteLens', url: page() }],
    'X-service': { version: serviceVersion },
  };
}
