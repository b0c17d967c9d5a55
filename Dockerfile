# One image for the project's Node services; the compose file picks the command per service.
# Services run their TypeScript with tsx, as in development (no separate build step to drift).
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY shared/package.json shared/
COPY hasura/engine/package.json hasura/engine/
COPY hasura/actions/package.json hasura/actions/
COPY auth-service/package.json auth-service/
COPY bot/package.json bot/
COPY web/package.json web/
COPY miniapp/package.json miniapp/
COPY tests/package.json tests/
RUN npm ci --include=dev --no-audit --no-fund
COPY . .
# The portal and the mini-app ship as production builds (web/build, miniapp/dist).
RUN npm run build -w web && npm run build -w miniapp
USER node
