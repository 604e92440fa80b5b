import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { packageRoot } from './package-root.js';

let assets: { script: string; rules: unknown } | undefined;

/** The content script and CMP rules shipped in @duckduckgo/autoconsent (MPL-2.0), read once. */
function loadAssets() {
  if (!assets) {
    const root = packageRoot('@duckduckgo/autoconsent');
    assets = {
      script: fs.readFileSync(path.join(root, 'dist/autoconsent.playwright.js'), 'utf8'),
      rules: JSON.parse(fs.readFileSync(path.join(root, 'rules/rules.json'), 'utf8')),
    };
  }
  return assets;
}

const config = {
  enabled: true,
  autoAction: 'optOut',
  disabledCmps: [],
  enablePrehide: true,
  enableCosmeticRules: true,
  enableGeneratedRules: true,
  detectRetries: 20,
  isMainWorld: false,
  prehideTimeout: 2000,
  enableHeuristicDetection: true,
  heuristicMode: 'tier2',
  logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: false, messages: false, waits: false },
};

/**
 * Opts out of consent dialogs (OneTrust, Cookiebot, …) the way docs/puppeteer.md of the
 * package shows: the page talks to Node through an exposed function.
 */
export async function enableAutoconsent(page: Page): Promise<void> {
  const { script, rules } = loadAssets();
  const reply = (msg: unknown) =>
    page
      .evaluate((m) => (window as unknown as { autoconsentReceiveMessage?: (x: unknown) => unknown }).autoconsentReceiveMessage?.(m), msg)
      .catch(() => undefined); // the page may have navigated away
  await page.exposeFunction('autoconsentSendMessage', async (message: { type?: string; id?: string; code?: string }) => {
    if (!message || typeof message !== 'object') return;
    if (message.type === 'init') return reply({ type: 'initResp', config, rules });
    if (message.type === 'eval' && typeof message.code === 'string') {
      const result = await page.evaluate(message.code).catch(() => false);
      return reply({ type: 'evalResp', id: message.id, result });
    }
  });
  await page.evaluateOnNewDocument(script);
}
