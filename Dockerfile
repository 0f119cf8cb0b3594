# The back-office API with the built web app, on Node 24 (docs/OPERATIONS.md section 8,
# decision 0021). Not built on the development machine: it cannot pull images.
#
#   docker build -t token-backoffice .
#   docker run -p 3000:3000 -v tokens-data:/data token-backoffice              # embedded PGlite
#   docker run -p 3000:3000 -e DATABASE_URL=postgres://… -e ADMIN_USERNAME=… token-backoffice

# --- build: every dependency, then the web app and the API's bundle -------------------------------
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/contract packages/contract
COPY apps/web apps/web
COPY apps/api apps/api
RUN npm run build -w apps/web && npm run build -w apps/api

# --- runtime: production dependencies of the API only, run as a non-root user --------------------
FROM node:24-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
# The API's workspace only: React and the rest of the web app's packages stay out.
RUN npm ci --omit=dev --workspace apps/api --no-audit --no-fund && npm cache clean --force
COPY packages/contract packages/contract
COPY apps/api apps/api
COPY --from=build /app/apps/api/dist apps/api/dist
COPY --from=build /app/apps/web/dist apps/web/dist
# The embedded database (no DATABASE_URL) and its TOTP key file live in /data.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself is PID 1's command (no npm, no shell): SIGTERM reaches the server, which drains
# (decision 0019). It runs the API's bundle (decision 0041: ~75 MiB less resident memory than
# loading the sources through tsx, which stays a production dependency for the ops scripts).
CMD ["node", "--enable-source-maps", "--max-semi-space-size=8", "--heap-growing-percent=25", "apps/api/dist/server.mjs"]
