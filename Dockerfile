# One image for every shard of an experiment and for the merge: the same retrystorm build and
# the same Node.js in every pod, which is what makes shards merge into the bytes one machine
# would write (docs/experiments.md, "Running on a cluster").
#
#   docker build -t retrystorm:0.1.0 .
#   docker run --rm -v "$PWD/results:/results" retrystorm:0.1.0 \
#     run scenarios/retry-storm.yaml --shard 1/8 --out /results/shard-1
#
# Pin the Node.js version: a different Node.js may round a float differently, and shards of
# two builds must not be merged.
ARG NODE_VERSION=20.20.2

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the "prepare" build needs the sources, which are copied below.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY src src
COPY bench bench
COPY scripts/bundle.mjs scripts/bundle.mjs
RUN npx tsc -p tsconfig.build.json && node scripts/bundle.mjs && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules node_modules
# The CLI runs from the bundle; dist/src is what its build digest (runs.json's "tool") is of.
COPY --from=build /app/dist/src dist/src
COPY --from=build /app/dist/bundle dist/bundle
COPY package.json ./
COPY bin bin
COPY scenarios scenarios
RUN chmod +x bin/retrystorm.js && ln -s /app/bin/retrystorm.js /usr/local/bin/retrystorm
# V8's code caches of the bundle (src/cli/code-cache.ts) for what a shard and the merge run:
# written here, by root, since the node user below cannot write the image's files.
RUN retrystorm run scenarios/distributed-rate-limiting.yaml --out /tmp/prime --quiet > /dev/null \
 && retrystorm merge /tmp/prime --out /tmp/prime-merged > /dev/null && rm -rf /tmp/prime /tmp/prime-merged
# Results go to a mounted volume; nothing needs root.
USER node
ENTRYPOINT ["retrystorm"]
CMD ["--help"]
