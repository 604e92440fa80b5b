import fs from 'node:fs';
import { profilePrefix } from '../../../server/render/pool/browsers.js';

/**
 * Process groups of the Chromium browsers started by the pool of process `ownerPid`. A
 * browser is found by the profile directory on its command line; it leads its own process
 * group (puppeteer starts it detached), which its renderer, GPU and utility processes share
 * (they rewrite their command lines, so the group is how to find them).
 */
export function browserGroupsOf(ownerPid: number): number[] {
  const profile = `${profilePrefix}${ownerPid}-`;
  return processes()
    .filter((p) => p.args.some((a) => a.startsWith('--user-data-dir=') && a.includes(profile)))
    .map((p) => p.pgrp);
}

/** Live processes (not zombies) in any of `groups`. */
export function processesIn(groups: number[]): number[] {
  return processes()
    .filter((p) => groups.includes(p.pgrp) && p.state !== 'Z')
    .map((p) => p.pid);
}

interface Proc {
  pid: number;
  pgrp: number;
  state: string;
  args: string[];
}

function processes(): Proc[] {
  const found: Proc[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // stat: "pid (comm) state ppid pgrp …"; comm may hold spaces, so split after its ')'.
      const [state, , pgrp] = fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ').slice(-1)[0].split(' ');
      const args = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      found.push({ pid: Number(entry), pgrp: Number(pgrp), state, args });
    } catch {
      continue; // the process ended while we looked
    }
  }
  return found;
}
