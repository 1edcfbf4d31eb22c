package deploy

import _ "embed"

// The Temporal server's files, for the clusters started outside Docker (make
// cluster, the tests, make loadtest; internal/stack/cluster): the same bytes
// docker-compose.yml mounts, so the two cannot differ.
var (
	// TemporalConfig is temporal/config.yaml, the static config template of every service.
	//go:embed temporal/config.yaml
	TemporalConfig []byte
	// TemporalDynamicConfig is temporal/dynamicconfig.yaml.
	//go:embed temporal/dynamicconfig.yaml
	TemporalDynamicConfig []byte
	// TemporalSchemaScript is temporal/schema.sh: the databases and their schema.
	//go:embed temporal/schema.sh
	TemporalSchemaScript []byte
	// TemporalSetupScript is temporal/setup.sh: the namespace and its search attributes.
	//go:embed temporal/setup.sh
	TemporalSetupScript []byte
)
