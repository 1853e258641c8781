# Production image: compiled service, production dependencies only. It never starts a database
# of its own: NEO4J_URI must point at one (see docker-compose.yml).
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
COPY typeDefs typeDefs
COPY cypher cypher
COPY src/explorer/browser src/explorer/browser
USER node
EXPOSE 4000
CMD ["node", "--enable-source-maps", "dist/src/main.js"]
