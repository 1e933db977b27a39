# syntax=docker/dockerfile:1
# One image runs either app: the payout service (default) or the provider sandbox
# (command: node dist/apps/provider-sandbox/src/main.js).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY apps apps
COPY libs libs
COPY migrations migrations
COPY test test
COPY scripts scripts
RUN npx tsc -p tsconfig.build.json

FROM node:24-bookworm-slim AS runtime
# The image is what production runs: it refuses the development defaults unless told otherwise
# (DEPLOYMENT_MODE=development, as docker-compose.yml does; docs/OPERATIONS.md "Deployment mode").
ENV NODE_ENV=production DEPLOYMENT_MODE=production
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund --omit=dev && npm cache clean --force
COPY --from=build /app/dist ./dist
# The web console is served as written (plain ES modules, no build): /console reads this folder.
COPY apps/payout-service/console ./apps/payout-service/console
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.HTTP_PORT||3000)+'/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# V8 flags: apps/payout-service/src/node-flags.ts (the service's memory; a test keeps them in step).
CMD ["node", "--max-semi-space-size=16", "--max-old-space-size=384", "dist/apps/payout-service/src/main.js"]
