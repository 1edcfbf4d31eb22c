package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"os/exec"
	"strings"
	"time"

	"oportuna/internal/stack"
)

// startTarget starts the stack under test with pairs api/worker pairs.
func startTarget(ctx context.Context, o options, pairs int) (_ *target, err error) {
	st, err := stack.Start(ctx, stack.Options{Bin: o.bin, TemporalCLI: o.temporalCLI, AdminURL: o.databaseURL, Dir: o.dir, Prefix: "oportuna_loadtest", TemporalDB: o.temporalDB, Engine: o.engine})
	if err != nil {
		return nil, err
	}
	var stops []func()
	t := &target{temporalAddress: st.TemporalAddr, namespace: st.Namespace, databaseURL: st.DB.URL}
	t.close = func() {
		for i := len(stops) - 1; i >= 0; i-- {
			stops[i]()
		}
		st.Close(o.keep)
	}
	defer func() {
		if err != nil {
			t.close()
		}
	}()
	slog.Info("stack", "engine", o.engine, "temporal", st.TemporalAddr, "database", st.DB.Name, "logs", o.dir)
	if out, err := exec.CommandContext(ctx, o.bin, "version").Output(); err == nil {
		t.version = "oportuna " + string(out)
	}
	// The demo data of every brand: its reseller, sellers and representative.
	if out, err := stack.RunBin(ctx, o.bin, "seed", append(st.Env, "CRM_SIM=on", "CRM_URL=")); err != nil {
		return nil, fmt.Errorf("oportuna seed: %w\n%s", err, out)
	}
	smtp, err := stack.StartSMTP()
	if err != nil {
		return nil, err
	}
	stops = append(stops, smtp.Close)

	// The Salesforce stand-in on its own, as a deployment with several
	// workers would share one CRM; every process gets the same settings.
	secret := make([]byte, 24)
	_, _ = rand.Read(secret)
	crmAddr := fmt.Sprintf("127.0.0.1:%d", stack.FreePort())
	env := append(st.Env, "JWT_SECRET="+hex.EncodeToString(secret),
		"CRM_URL=http://"+crmAddr, "CRM_SIM=off", "SALESFORCE_CLIENT_ID=oportuna-loadtest", "SALESFORCE_CLIENT_SECRET="+hex.EncodeToString(secret[:12]),
		"SMTP_HOST="+smtp.Host, fmt.Sprintf("SMTP_PORT=%d", smtp.Port), "SMTP_TLS=none", "SMTP_FROM=nao-responda@oportuna.localhost", "MAILBOX=off")
	env = env[:len(env):len(env)]
	argv := strings.Fields(o.crmSim)
	if len(argv) == 0 {
		argv = []string{o.bin, "crm-sim"}
	}
	sim := stack.NewCommand("crm-sim", argv, o.dir, append(env, "CRM_SIM_ADDR="+crmAddr))
	sim.ReadyURL = "http://" + crmAddr + "/__sim/"
	if err := sim.Start(ctx); err != nil {
		return nil, err
	}
	stops = append(stops, func() { sim.Stop(10 * time.Second) })

	n := 0
	t.addPair = func(ctx context.Context) (string, error) {
		n++
		w := stack.NewProc(fmt.Sprintf("worker%d", n), o.bin, "worker", o.dir, env, false)
		if err := w.Start(ctx); err != nil {
			return "", err
		}
		stops = append(stops, func() { w.Stop(30 * time.Second) })
		a := stack.NewProc(fmt.Sprintf("api%d", n), o.bin, "api", o.dir, env, true)
		if err := a.Start(ctx); err != nil {
			return "", err
		}
		stops = append(stops, func() { a.Stop(30 * time.Second) })
		slog.Info("api and worker running", "pair", n, "api", a.Base())
		return a.Base(), nil
	}
	for range pairs {
		base, err := t.addPair(ctx)
		if err != nil {
			return nil, err
		}
		t.apis = append(t.apis, base)
	}
	return t, nil
}
