package main

import (
	"oportuna/config"
	"oportuna/worker"
)

// workerSettings are the worker's queues, rate limits, slots and pollers from
// the configuration (docs/operations.md, Task queues).
func workerSettings(c config.WorkerConfig) worker.Settings {
	return worker.Settings{Queues: c.Queues, DBSlots: c.DBSlots, CRMPerSecond: c.CRMPerSecond, CRMSlots: c.CRMSlots,
		MailPerSecond: c.MailPerSecond, MailSlots: c.MailSlots, MaxPollers: c.MaxPollers}
}
