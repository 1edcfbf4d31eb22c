// Package web embeds the built web app (web/dist, made by `npm run build`).
package web

import "embed"

// Dist is the production build of the web app; its root is "dist".
//
//go:embed all:dist
var Dist embed.FS
