// Package deploy holds what docker-compose.yml needs besides the image (the
// Temporal server's config, dynamic config, schema and setup scripts in
// temporal/, which make cluster runs too (embedded: temporal.go), the
// Prometheus config in prometheus/, env.example) and the tests that check the
// compose file (and that it runs the Temporal server make cluster runs), the
// Dockerfile and .dockerignore against the code, since no Docker engine runs
// where the tests do: every variable the app reads is set on the api and the
// worker, addresses and ports match the services, start order and health checks
// are consistent, images are pinned, and the binary answers the probes compose
// runs. See docs/operations.md.
package deploy
