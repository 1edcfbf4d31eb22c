# syntax=docker/dockerfile:1
# Oportuna: one image, one binary (api, worker, migrate, …; docs/operations.md).
#   docker build -t oportuna:$(cat VERSION) .
# Stage 1 builds the web app, stage 2 the Go binary with the web app embedded
# (web/embed.go), stage 3 is the runtime: distroless, non-root, the binary only.
# The binary is the default build, the production build: the stand-ins
# (internal/dev/: the Salesforce and CNPJ lookup stand-ins) are left out
# (docs/integrations-crm.md); a demo image that runs them (CRM_SIM=on) builds
# with --build-arg GO_TAGS=dev.

FROM node:20.20-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
RUN --mount=type=cache,target=/root/.npm \
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

FROM golang:1.26.10 AS go
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
RUN rm -rf web/dist
COPY --from=web /src/web/dist ./web/dist
ARG GO_TAGS=
RUN --mount=type=cache,target=/go/pkg/mod --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 GOFLAGS=-buildvcs=false go build -trimpath -tags "$GO_TAGS" -ldflags="-s -w" -o /out/oportuna ./cmd/oportuna

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=go /out/oportuna /oportuna
USER nonroot:nonroot
# PORT (HTTP: portal, API, /healthz, /readyz) and METRICS_PORT (/metrics, probes)
EXPOSE 8080 9464
ENTRYPOINT ["/oportuna"]
CMD ["api"]
