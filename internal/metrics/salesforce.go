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

// SalesforceAppUsage is a SalesforceUsage that also reports the connected
// app's own quota (Sforce-Limit-Info per-app-api-usage, when the org sets one).
type SalesforceAppUsage interface {
	AppAPIUsage() (app string, used, limit int64, ok bool)
}

var (
	sfAppUsageDesc = prometheus.NewDesc("oportuna_salesforce_app_api_usage",
		"API requests the connected app used of its own quota, as the last Salesforce answer reported (Sforce-Limit-Info per-app-api-usage).", []string{"app"}, nil)
	sfAppLimitDesc = prometheus.NewDesc("oportuna_salesforce_app_api_limit",
		"The connected app's API request quota, as the last Salesforce answer reported (Sforce-Limit-Info per-app-api-usage).", []string{"app"}, nil)
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
//	oportuna_salesforce_app_api_usage{app}, oportuna_salesforce_app_api_limit{app}
//
// read at scrape time from the client; nothing is exposed before an answer
// carried the header, and the app's gauges only while the last one carried
// per-app-api-usage. Register it where the process talks to Salesforce.
type Salesforce struct {
	src SalesforceUsage
}

// NewSalesforce returns the collector of src's usage.
func NewSalesforce(src SalesforceUsage) *Salesforce { return &Salesforce{src: src} }

func (c *Salesforce) Describe(ch chan<- *prometheus.Desc) {
	ch <- sfUsageDesc
	ch <- sfLimitDesc
	ch <- sfReadDesc
	ch <- sfAppUsageDesc
	ch <- sfAppLimitDesc
}

func (c *Salesforce) Collect(ch chan<- prometheus.Metric) {
	used, limit, at, ok := c.src.APIUsage()
	if !ok {
		return
	}
	ch <- prometheus.MustNewConstMetric(sfUsageDesc, prometheus.GaugeValue, float64(used))
	ch <- prometheus.MustNewConstMetric(sfLimitDesc, prometheus.GaugeValue, float64(limit))
	ch <- prometheus.MustNewConstMetric(sfReadDesc, prometheus.GaugeValue, float64(at.UnixNano())/1e9)
	if a, ok := c.src.(SalesforceAppUsage); ok {
		if app, used, limit, ok := a.AppAPIUsage(); ok {
			ch <- prometheus.MustNewConstMetric(sfAppUsageDesc, prometheus.GaugeValue, float64(used), app)
			ch <- prometheus.MustNewConstMetric(sfAppLimitDesc, prometheus.GaugeValue, float64(limit), app)
		}
	}
}
