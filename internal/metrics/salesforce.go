package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// SalesforceUsage reports the Salesforce org's API usage as its last answer
// told it in the Sforce-Limit-Info header (crm.Salesforce.APIUsage).
type SalesforceUsage interface {
	APIUsage() (used, limit int64, at time.Time, ok bool)
}

var (
	sfUsageDesc = prometheus.NewDesc("oportuna_salesforce_api_usage",
		"API requests the Salesforce org used in the last 24 hours, as its last answer reported (Sforce-Limit-Info api-usage).", nil, nil)
	sfLimitDesc = prometheus.NewDesc("oportuna_salesforce_api_limit",
		"The Salesforce org's API request limit for 24 hours, as its last answer reported (Sforce-Limit-Info api-usage).", nil, nil)
	sfReadDesc = prometheus.NewDesc("oportuna_salesforce_api_usage_read_timestamp_seconds",
		"When the process last read the Salesforce org's API usage (Unix time).", nil, nil)
)

// Salesforce exposes the org's API usage:
//
//	oportuna_salesforce_api_usage, oportuna_salesforce_api_limit,
//	oportuna_salesforce_api_usage_read_timestamp_seconds
//
// read at scrape time from the client; nothing is exposed before an answer
// carried the header. Register it where the process talks to Salesforce.
type Salesforce struct {
	src SalesforceUsage
}

// NewSalesforce returns the collector of src's usage.
func NewSalesforce(src SalesforceUsage) *Salesforce { return &Salesforce{src: src} }

func (c *Salesforce) Describe(ch chan<- *prometheus.Desc) {
	ch <- sfUsageDesc
	ch <- sfLimitDesc
	ch <- sfReadDesc
}

func (c *Salesforce) Collect(ch chan<- prometheus.Metric) {
	used, limit, at, ok := c.src.APIUsage()
	if !ok {
		return
	}
	ch <- prometheus.MustNewConstMetric(sfUsageDesc, prometheus.GaugeValue, float64(used))
	ch <- prometheus.MustNewConstMetric(sfLimitDesc, prometheus.GaugeValue, float64(limit))
	ch <- prometheus.MustNewConstMetric(sfReadDesc, prometheus.GaugeValue, float64(at.UnixNano())/1e9)
}
