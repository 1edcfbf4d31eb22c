package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"oportuna/config"
	"oportuna/internal/payloadcodec"
)

// runCodecServer serves Temporal's remote codec protocol on CODEC_ADDR so the
// Temporal UI (and `temporal --codec-endpoint`) show payloads decrypted. It
// decodes only, for the browser origins CODEC_CORS_ORIGIN and the namespace
// TEMPORAL_NAMESPACE; whoever reaches it reads every payload, so it listens
// where the Temporal UI is reachable and nowhere else (docs/security-payloads.md).
func runCodecServer(ctx context.Context, cfg config.Config) error {
	if len(cfg.PayloadKeys) == 0 {
		return errors.New("codec-server: no payload key: set PAYLOAD_KEYS or PAYLOAD_KEY_FILE, as on the api and the worker")
	}
	codec, err := payloadcodec.New(cfg.PayloadKeys, payloadcodec.Options{AcceptPlaintext: true})
	if err != nil {
		return err
	}
	if len(cfg.CodecCORSOrigins) == 0 {
		slog.Warn("CODEC_CORS_ORIGIN is not set: browsers (the Temporal UI) are refused, only the CLI's --codec-endpoint works")
	}
	ln, err := net.Listen("tcp", cfg.CodecAddr)
	if err != nil {
		return fmt.Errorf("codec-server: %w", err)
	}
	srv := &http.Server{Handler: payloadcodec.Handler(codec, payloadcodec.ServerOptions{
		AllowedOrigins: cfg.CodecCORSOrigins, Namespace: cfg.TemporalNamespace,
	}), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	slog.Info("codec server listening", "addr", ln.Addr().String(), "origins", cfg.CodecCORSOrigins, "namespace", cfg.TemporalNamespace)
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
