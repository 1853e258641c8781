# Production image: the compiled service and its production dependencies, run as the unprivileged
# `node` user. It never starts a database of its own: NEO4J_URI must point at one (see
# docker-compose.yml). test/deployment.test.ts keeps this file consistent with the code.

FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src src
RUN npm run build

FROM node:20-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=4000
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist dist
# What the service reads at run time: the GraphQL typeDefs, the Cypher schema files, the
# explorer page's own script and styles.
COPY typeDefs typeDefs
COPY cypher cypher
COPY src/explorer/browser src/explorer/browser
USER node
EXPOSE 4000
# Liveness only (no dependency checks); orchestrators ask /readyz before sending traffic.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--enable-source-maps", "dist/src/main.js"]
