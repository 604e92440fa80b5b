import { expect } from 'chai';
import { freePort, startTestService, type TestService } from '../support/service.js';
import { html, startFixtureSite } from './support/fixture-site.js';
import { plainPage, vueAppHeaders, vueAppPage, wordpressHeaders, wordpressPage } from './fixtures.js';

type Tech = { name: string; version: string | null; confidence: number; evidence: Array<{ type: string; name?: string; value: string }> };

describe('GET /api/techstack', function () {
  let svc: TestService;
  let site: Awaited<ReturnType<typeof startFixtureSite>>;
  let key: string;

  before(async function () {
    site = await startFixtureSite({
      '/blog': (_req, res) => {
        res.setHeader('set-cookie', ['PHPSESSID=abc123; path=/', '_ga_TEST123=GS1.1; path=/']);
        html(wordpressPage, wordpressHeaders)(_req, res);
      },
      '/app': html(vueAppPage, vueAppHeaders),
      '/plain': html(plainPage),
      '/scripted': html(`<!doctype html><html lang="en"><head><title>Scripted</title></head><body data-bs-theme="dark">
<script>window.jQuery = function () {}; window.jQuery.fn = { jquery: '3.6.4' };</script></body></html>`),
    });
    svc = await startTestService();
    key = await svc.newKey('business');
  });

  after(async function () {
    await svc?.close();
    await site?.close();
  });

  const detect = (path: string) => svc.call(`/api/techstack?url=${encodeURIComponent(site.url + path)}`, { headers: { 'X-API-Key': key } });
  const find = (report: { technologies: Record<string, Tech[]> }, category: string, name: string) =>
    (report.technologies[category] ?? []).find((t) => t.name === name);

  it('on a WordPress page behind nginx and Cloudflare, detects each technology in its category with versions and evidence', async function () {
    const r = await detect('/blog');

    expect(r.status, r.text).to.equal(200);
    const b = r.body;
    expect(find(b, 'CMS', 'WordPress')).to.include({ version: '6.4.2', confidence: 100 });
    expect(find(b, 'CMS', 'WordPress')?.evidence).to.deep.include({ type: 'meta', name: 'generator', value: 'WordPress 6.4.2' });
    expect(find(b, 'Web servers', 'Nginx')).to.include({ version: '1.25.3' });
    expect(find(b, 'Programming languages', 'PHP')).to.include({ version: '8.2.1' });
    expect(find(b, 'Databases', 'MySQL')?.evidence).to.deep.include({ type: 'implied', value: 'WordPress' });
    expect(find(b, 'JavaScript libraries', 'jQuery')).to.include({ version: '3.7.1' });
    expect(find(b, 'Analytics', 'Google Analytics')).to.not.equal(undefined);
    expect(find(b, 'Tag managers', 'Google Tag Manager')).to.not.equal(undefined);
    expect(find(b, 'CDN', 'Cloudflare')?.evidence[0]).to.include({ type: 'header', name: 'cf-ray' });
    expect(b.headers).to.include({ server: 'nginx/1.25.3', 'x-powered-by': 'PHP/8.2.1' });
    expect(b.headers['set-cookie']).to.match(/PHPSESSID=abc123/);
    expect(b).to.include({ url: `${site.url}/blog`, final_url: `${site.url}/blog`, status_code: 200, method: 'http' });
    expect(b.technology_count).to.be.at.least(8);
  });

  it('on a Vue app served by Express through CloudFront, detects the framework with its version and the CDN', async function () {
    const r = await detect('/app');

    expect(r.status, r.text).to.equal(200);
    expect(find(r.body, 'JavaScript frameworks', 'Vue.js')).to.include({ version: '3.4.21' });
    expect(find(r.body, 'Web frameworks', 'Express')).to.not.equal(undefined);
    expect(find(r.body, 'Programming languages', 'Node.js')?.evidence).to.deep.include({ type: 'implied', value: 'Express' });
    expect(find(r.body, 'CDN', 'Amazon CloudFront')).to.not.equal(undefined);
  });

  it('with render=true, matches JavaScript globals and DOM patterns in Chromium that plain HTML cannot show', async function () {
    const plain = await detect('/scripted');
    const rendered = await svc.call(`/api/techstack?url=${encodeURIComponent(`${site.url}/scripted`)}&render=true`, { headers: { 'X-API-Key': key } });

    expect(plain.body.technologies).to.not.have.property('JavaScript libraries');
    expect(rendered.status, rendered.text).to.equal(200);
    expect(rendered.body.method).to.equal('browser');
    const jquery = find(rendered.body, 'JavaScript libraries', 'jQuery');
    expect(jquery).to.include({ version: '3.6.4' });
    expect(jquery?.evidence[0]).to.include({ type: 'js', name: 'jQuery.fn.jquery' });
    expect(find(rendered.body, 'UI frameworks', 'Bootstrap')?.evidence[0]).to.include({ type: 'dom', name: 'body[data-bs-theme]' });
  });

  it('on a plain page, detects nothing', async function () {
    const r = await detect('/plain');

    expect(r.status, r.text).to.equal(200);
    expect(r.body.technologies).to.deep.equal({});
    expect(r.body.technology_count).to.equal(0);
  });

  it('when the port is closed, answers 502 naming the target and the refusal, in both modes', async function () {
    const target = `127.0.0.1:${await freePort()}`;
    for (const render of ['false', 'true']) {
      const r = await svc.call(`/api/techstack?url=${encodeURIComponent(`http://${target}/`)}&render=${render}`, { headers: { 'X-API-Key': key } });
      expect(r.status, `render=${render}: ${r.text}`).to.equal(502);
      expect(r.body.error, `render=${render}`).to.match(new RegExp(`^${target.replaceAll('.', '\\.')} (is unreachable|could not be loaded): the connection was refused`));
    }
  });
});
