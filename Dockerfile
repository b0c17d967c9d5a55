# One image for the project's Node services; the compose file picks the command per service.
# Services run their TypeScript with tsx (decision 002), which is a production dependency of
# the root for that reason; the portal and the mini-app ship as Vite production builds.
# Node is the version CI and `npm start` run on: the root devDependency `node` (decision 026).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

# The workspaces' manifests and the lockfile alone, so both stages below install from a layer
# that changes only when dependencies do.
FROM ${NODE_IMAGE} AS manifests
WORKDIR /app
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY hasura/engine/package.json hasura/engine/
COPY hasura/actions/package.json hasura/actions/
COPY auth-service/package.json auth-service/
COPY bot/package.json bot/
COPY client/package.json client/
COPY web/package.json web/
COPY miniapp/package.json miniapp/
COPY watchers/package.json watchers/
COPY tests/package.json tests/

# Build: every dependency, then the portal (web/build) and the mini-app (miniapp/dist).
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY --from=manifests /app ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build -w web && npm run build -w miniapp

# Runtime: production dependencies only, the sources, the two builds; read-only to the
# non-root user that runs it.
FROM ${NODE_IMAGE} AS runtime
WORKDIR /app
ENV NODE_ENV=production
COPY --from=manifests /app ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY . .
COPY --from=build /app/web/build web/build
COPY --from=build /app/miniapp/dist miniapp/dist
USER node
