import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import type { Logger } from '../../log.js';

export interface BrowsersOptions {
  chromePath: string;
  /** Renders after which the browser is relaunched. */
  recycleAfter: number;
  /** Longest CDP command, in ms. */
  protocolTimeoutMs: number;
  extraArgs?: string[];
  log?: Logger;
}

/** One Chromium process and the leases that use it. */
export interface Instance {
  browser: Browser;
  userAgent: string;
  renders: number;
  leases: number;
  /** No new leases; closes after its last. */
  retiring: boolean;
  /** The process went away without being asked (killed, crashed). */
  crashed: boolean;
  /** Profile directory, removed when the browser is gone. */
  profileDir: string;
}

/** Flags that work offline, headless and as root (see notes/dependency-probes.md §1, §6). */
const baseArgs = [
  '--no-sandbox',
  '--disable-gpu',
  // Shared memory in /tmp, not /dev/shm: a container's /dev/shm is 64 MB by default, and a long
  // page's renderer crashes there.
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--disable-breakpad',
  '--disable-domain-reliability',
  '--disable-features=Translate,OptimizationHints,MediaRouter,InterestFeedContentSuggestions,CertificateTransparencyComponentUpdater,AutofillServerCommunication',
  '--no-first-run',
  '--no-default-browser-check',
  '--metrics-recording-only',
  '--mute-audio',
  '--hide-scrollbars',
  '--no-pings',
  '--force-color-profile=srgb',
  // WebRTC UDP would not go through the safety proxy.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** Profile directories are named for the process that owns them, so a successor can sweep a dead one's. */
export const profilePrefix = 'sitelens-chromium-';

/**
 * The pool's Chromium processes: one current browser, launched on first use, relaunched
 * after `recycleAfter` renders or when it dies. Chromium talks to us over the DevTools pipe
 * (fds 3 and 4, not a port), so it quits when this process goes, however it goes: no
 * orphaned browser after a SIGKILL.
 */
export class Browsers {
  private current: Promise<Instance> | undefined;
  private latest: Instance | undefined;
  private readonly alive = new Set<Instance>();
  launches = 0;

  constructor(private readonly opts: BrowsersOptions) {
    void sweepDeadProfiles(opts.log);
  }

  /** The current browser, launching one if there is none (or it died). */
  async instance(): Promise<Instance> {
    this.current ??= this.launch().catch((err: unknown) => {
      this.current = undefined;
      throw err;
    });
    const inst = await this.current;
    if (inst.retiring || !inst.browser.connected) {
      this.retire(inst);
      return this.instance();
    }
    return inst;
  }

  /** The newest browser if it can take work, without launching one. */
  ready(): Instance | undefined {
    const inst = this.latest;
    return inst && !inst.retiring && inst.browser.connected ? inst : undefined;
  }

  /** Counts one render; past `recycleAfter` the browser retires. */
  countRender(inst: Instance): void {
    inst.renders++;
    if (inst.renders >= this.opts.recycleAfter) this.retire(inst);
  }

  /** No new work goes to `inst`; it closes after its last lease. */
  retire(inst: Instance): void {
    inst.retiring = true;
    if (this.latest === inst) this.latest = undefined;
    void this.current?.then((i) => {
      if (i === inst) this.current = undefined;
    }, () => undefined);
    if (inst.leases === 0) void this.closeInstance(inst);
  }

  /** One user of `inst` is done; a retired browser closes after its last. */
  async endUse(inst: Instance): Promise<void> {
    inst.leases--;
    if (inst.retiring && inst.leases === 0) await this.closeInstance(inst);
  }

  pid(): number | undefined {
    return this.ready()?.browser.process()?.pid;
  }

  async close(): Promise<void> {
    const pending = await this.current?.catch(() => undefined);
    this.current = undefined;
    if (pending) this.alive.add(pending);
    await Promise.all([...this.alive].map((inst) => this.closeInstance(inst)));
  }

  private async launch(): Promise<Instance> {
    const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), `${profilePrefix}${process.pid}-`));
    const browser = await puppeteer.launch({
      executablePath: this.opts.chromePath,
      headless: true,
      pipe: true,
      userDataDir: profileDir,
      args: [...baseArgs, ...(this.opts.extraArgs ?? [])],
      defaultViewport: null,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      protocolTimeout: this.opts.protocolTimeoutMs,
    }).catch(async (err: unknown) => {
      await fs.promises.rm(profileDir, { recursive: true, force: true });
      throw err;
    });
    this.launches++;
    // Sites refuse "HeadlessChrome"; present the plain Chrome token.
    const userAgent = (await browser.userAgent()).replace('HeadlessChrome', 'Chrome');
    const inst: Instance = { browser, userAgent, renders: 0, leases: 0, retiring: false, crashed: false, profileDir };
    this.alive.add(inst);
    this.latest = inst;
    browser.on('disconnected', () => {
      if (!inst.retiring) {
        inst.crashed = true;
        this.opts.log?.warn({ pid: browser.process()?.pid }, 'browser disconnected; relaunching on next render');
      }
      this.retire(inst);
    });
    return inst;
  }

  private async closeInstance(inst: Instance): Promise<void> {
    if (!this.alive.delete(inst)) return;
    inst.retiring = true;
    await inst.browser.close().catch((err: unknown) => {
      if (!inst.crashed) this.opts.log?.warn({ err }, 'closing a retired browser failed');
    });
    // Off the event loop: a profile is thousands of files, and renders go on meanwhile.
    await fs.promises.rm(inst.profileDir, { recursive: true, force: true });
  }
}

/**
 * Removes profile directories left by pool processes that no longer run (killed with SIGKILL),
 * in the background: start-up does not wait for it.
 */
async function sweepDeadProfiles(log?: Logger): Promise<void> {
  let entries: string[];
  try {
    entries = (await fs.promises.readdir(os.tmpdir())).filter((e) => e.startsWith(profilePrefix));
  } catch {
    return; // no temp dir to sweep
  }
  for (const entry of entries) {
    const pid = Number(entry.slice(profilePrefix.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    await fs.promises.rm(path.join(os.tmpdir(), entry), { recursive: true, force: true }).catch((err: unknown) => {
      log?.debug({ err, entry }, 'could not remove a stale browser profile');
    });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
