# The Quire service in a container: `quire serve` on port 8080, its SQLite database (and the
# master key for stored certificates, kept beside it) in the volume /data. Not used by the tests.
#
#   docker build -t quire .
#   docker run -d -p 8080:8080 -v quire-data:/data --name quire quire
#   docker exec quire quire account create --email ada@example.com   # prints the first API key

# --- build: every dependency, the TypeScript compiled and the CLI bundled -------------------------
FROM node:24-bookworm-slim AS build
# better-sqlite3 is compiled here from its sources, never downloaded prebuilt from outside the
# npm registry (npm_config_build_from_source below).
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# Dependencies first, so that a change to the sources does not download them again.
COPY package.json package-lock.json ./
COPY engine/package.json ./engine/
RUN npm ci --ignore-scripts
COPY . .
# The install scripts skipped above (native addons, esbuild), then the build (`prepare`).
RUN npm_config_build_from_source=true npm rebuild && npm run build && npm prune --omit=dev

# --- run: Node, the built service and its production dependencies -------------------------------
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    QUIRE_DB=/data/quire.db
WORKDIR /app
COPY --from=build --chown=root:root /app/package.json ./
COPY --from=build --chown=root:root /app/bin ./bin
COPY --from=build --chown=root:root /app/dist ./dist
COPY --from=build --chown=root:root /app/engine/package.json ./engine/
COPY --from=build --chown=root:root /app/engine/dist ./engine/dist
COPY --from=build --chown=root:root /app/engine/fonts ./engine/fonts
COPY --from=build --chown=root:root /app/node_modules ./node_modules
# `quire` on the PATH for the administration commands (docker exec … quire account create …).
RUN ln -s /app/bin/quire /usr/local/bin/quire \
 && mkdir -p /data && chown node:node /data && chmod 0700 /data
# The image's own unprivileged user; the code is root's and read-only to it.
USER node
VOLUME ["/data"]
EXPOSE 8080
# /healthz answers 200 while the process serves (src/observability/operator-routes.ts). Node has
# fetch built in, so the slim image needs no curl. With QUIRE_OPERATOR_PORT set, /healthz moves to
# that port: override the HEALTHCHECK to match.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM lets renders in flight finish (QUIRE_SHUTDOWN_GRACE_S, default 30 s): give `docker stop`
# at least that long (`docker stop -t 40`).
STOPSIGNAL SIGTERM
CMD ["quire", "serve"]
