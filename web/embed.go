// Package web embeds the built web app: web/dist, made by `npm run build`
// (`make web`, `make build`, the Dockerfile's node stage).
//
// The pattern also takes the committed web/dist-placeholder, so that the
// package compiles where web/dist is absent (a fresh clone before npm has
// run: go vet, the unit tests). A binary built there holds no web app: App
// answers ErrNotBuilt and the API refuses to start.
package web

import (
	"embed"
	"errors"
	"io/fs"
)

//go:embed all:dist*
var files embed.FS

// ErrNotBuilt is the answer of App in a binary built without web/dist.
var ErrNotBuilt = errors.New("this oportuna was built without the web app (web/dist is missing): " +
	"build it with `make build` (npm run build in web/, then go build)")

// App is the web app's files, index.html at the root; ErrNotBuilt when the
// binary was built without it.
func App() (fs.FS, error) { return app(files) }

func app(fsys fs.FS) (fs.FS, error) {
	if _, err := fs.Stat(fsys, "dist/index.html"); err != nil {
		return nil, ErrNotBuilt
	}
	return fs.Sub(fsys, "dist")
}
