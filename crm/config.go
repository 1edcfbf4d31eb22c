package crm

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"oportuna/opportunity"
)

// Token flows of the Salesforce connected app.
const (
	FlowClientCredentials = "client_credentials"
	FlowJWT               = "jwt"
)

// Defaults of the Salesforce settings (docs/integrations-crm.md).
const (
	DefaultAPIVersion = "v61.0"
	// DefaultTimeout bounds each HTTP call; it stays under the workflow's
	// per-attempt cap (15 s), so a slow call fails as a typed, retryable
	// ErrUnavailable within the attempt.
	DefaultTimeout            = 10 * time.Second
	DefaultJWTAudience        = "https://login.salesforce.com"
	SandboxJWTAudience        = "https://test.salesforce.com"
	DefaultGenericProductCode = "OPORTUNA-ITEM"
	// DefaultBackgroundCeiling: background syncs pause while the org's API
	// usage is at or above 90 % of its limit.
	DefaultBackgroundCeiling = 0.9
	// DefaultBackgroundPause: how long a reading of that usage holds them back
	// before one call goes through and reads it anew.
	DefaultBackgroundPause = 10 * time.Minute
)

// ErrNotConfigured: CRM_URL is empty (development runs the stand-in instead).
var ErrNotConfigured = errors.New("crm: CRM_URL is not set")

// Fields are the API names of the fields the client reads and writes. An empty
// name means the field is not used (set the variable to "-").
type Fields struct {
	AccountCNPJ           string // Account field holding the CNPJ (masked or not)
	OpportunityExternalID string // Opportunity external-id field holding our id (required)
	OpportunityBrand      string // Opportunity field receiving the brand slug
	OpportunityReseller   string // Opportunity field receiving the reseller's name
	OpportunitySeller     string // Opportunity lookup receiving the seller's User id (OwnerId by default)
	UserBrand             string // User field holding the brand slug; sellers are the active users with it
	UserCompany           string // User field shown as the seller's company
}

// DefaultFields are the field names of docs/integrations-crm.md.
func DefaultFields() Fields {
	return Fields{
		AccountCNPJ:           "CNPJ__c",
		OpportunityExternalID: "Oportuna_Id__c",
		OpportunityBrand:      "Brand__c",
		OpportunityReseller:   "Reseller__c",
		OpportunitySeller:     "OwnerId",
		UserBrand:             "Brand__c",
		UserCompany:           "CompanyName",
	}
}

// DefaultStages maps our statuses to the standard Salesforce stages.
func DefaultStages() map[opportunity.Status]string {
	return map[opportunity.Status]string{
		opportunity.Analysis:           "Prospecting",
		opportunity.Approved:           "Qualification",
		opportunity.Renovation:         "Qualification",
		opportunity.AwaitingRenovation: "Qualification",
		opportunity.Expired:            "Closed Lost",
		opportunity.Disapproved:        "Closed Lost",
	}
}

// SalesforceConfig is the configuration of the Salesforce client.
type SalesforceConfig struct {
	URL          string          // CRM_URL: login / My Domain base URL, e.g. https://acme.my.salesforce.com
	Flow         string          // SALESFORCE_AUTH_FLOW: client_credentials or jwt
	ClientID     string          // SALESFORCE_CLIENT_ID: the connected app's consumer key
	ClientSecret string          // SALESFORCE_CLIENT_SECRET (client_credentials)
	Username     string          // SALESFORCE_USERNAME: the integration user (jwt)
	PrivateKey   *rsa.PrivateKey // SALESFORCE_PRIVATE_KEY or SALESFORCE_PRIVATE_KEY_FILE (jwt)
	JWTAudience  string          // SALESFORCE_JWT_AUDIENCE
	APIVersion   string          // SALESFORCE_API_VERSION, "v61.0"
	Timeout      time.Duration   // SALESFORCE_TIMEOUT: deadline of each HTTP call
	Fields       Fields
	PricebookID  string // SALESFORCE_PRICEBOOK_ID: empty for the standard price book
	// GenericProductCode is the ProductCode of the product that carries lines
	// whose part number is not in the price book (SALESFORCE_GENERIC_PRODUCT_CODE).
	GenericProductCode string
	Stages             map[opportunity.Status]string // SALESFORCE_STAGE_MAP
	// BackgroundCeiling (share of the org's API limit, default 0.9) and
	// BackgroundPause (default 10 min) pace the background syncs (BackgroundWait).
	BackgroundCeiling float64
	BackgroundPause   time.Duration
}

var (
	apiName    = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)
	apiVersion = regexp.MustCompile(`^v?[0-9]{2,3}\.[0-9]$`)
	recordID   = regexp.MustCompile(`^[a-zA-Z0-9]{15}([a-zA-Z0-9]{3})?$`)
)

// ConfigFromEnv reads the SALESFORCE_* variables and CRM_URL (getenv is
// os.Getenv in production). It answers ErrNotConfigured when CRM_URL is empty.
func ConfigFromEnv(getenv func(string) string) (SalesforceConfig, error) {
	env := func(name, def string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		return def
	}
	c := SalesforceConfig{
		URL:                strings.TrimRight(env("CRM_URL", ""), "/"),
		Flow:               env("SALESFORCE_AUTH_FLOW", FlowClientCredentials),
		ClientID:           env("SALESFORCE_CLIENT_ID", ""),
		ClientSecret:       getenv("SALESFORCE_CLIENT_SECRET"),
		Username:           env("SALESFORCE_USERNAME", ""),
		JWTAudience:        env("SALESFORCE_JWT_AUDIENCE", ""),
		APIVersion:         env("SALESFORCE_API_VERSION", DefaultAPIVersion),
		Timeout:            DefaultTimeout,
		Fields:             FieldsFromEnv(getenv),
		PricebookID:        env("SALESFORCE_PRICEBOOK_ID", ""),
		GenericProductCode: GenericProductFromEnv(getenv),
	}
	if c.URL == "" {
		return c, ErrNotConfigured
	}
	var err error
	if c.Stages, err = StagesFromEnv(getenv); err != nil {
		return c, err
	}
	if v := getenv("SALESFORCE_TIMEOUT"); v != "" {
		t, err := time.ParseDuration(v)
		if err != nil || t <= 0 {
			return c, fmt.Errorf("SALESFORCE_TIMEOUT: %q is not a positive duration", v)
		}
		c.Timeout = t
	}
	if c.Flow == FlowJWT {
		pemText := strings.ReplaceAll(getenv("SALESFORCE_PRIVATE_KEY"), `\n`, "\n")
		if file := getenv("SALESFORCE_PRIVATE_KEY_FILE"); pemText == "" && file != "" {
			b, err := os.ReadFile(file)
			if err != nil {
				return c, fmt.Errorf("SALESFORCE_PRIVATE_KEY_FILE: %w", err)
			}
			pemText = string(b)
		}
		if pemText == "" {
			return c, errors.New("SALESFORCE_AUTH_FLOW=jwt needs SALESFORCE_PRIVATE_KEY or SALESFORCE_PRIVATE_KEY_FILE")
		}
		key, err := ParsePrivateKey([]byte(pemText))
		if err != nil {
			return c, fmt.Errorf("SALESFORCE_PRIVATE_KEY: %w", err)
		}
		c.PrivateKey = key
	}
	return c, c.Validate()
}

// FieldsFromEnv reads the SALESFORCE_*_FIELD variables ("-" leaves a field unused).
func FieldsFromEnv(getenv func(string) string) Fields {
	d := DefaultFields()
	field := func(name, def string) string {
		switch v := strings.TrimSpace(getenv(name)); v {
		case "":
			return def
		case "-":
			return ""
		default:
			return v
		}
	}
	return Fields{
		AccountCNPJ:           field("SALESFORCE_ACCOUNT_CNPJ_FIELD", d.AccountCNPJ),
		OpportunityExternalID: field("SALESFORCE_OPPORTUNITY_EXTERNAL_ID_FIELD", d.OpportunityExternalID),
		OpportunityBrand:      field("SALESFORCE_OPPORTUNITY_BRAND_FIELD", d.OpportunityBrand),
		OpportunityReseller:   field("SALESFORCE_OPPORTUNITY_RESELLER_FIELD", d.OpportunityReseller),
		OpportunitySeller:     field("SALESFORCE_OPPORTUNITY_SELLER_FIELD", d.OpportunitySeller),
		UserBrand:             field("SALESFORCE_USER_BRAND_FIELD", d.UserBrand),
		UserCompany:           field("SALESFORCE_USER_COMPANY_FIELD", d.UserCompany),
	}
}

// GenericProductFromEnv reads SALESFORCE_GENERIC_PRODUCT_CODE ("-": none).
func GenericProductFromEnv(getenv func(string) string) string {
	switch v := strings.TrimSpace(getenv("SALESFORCE_GENERIC_PRODUCT_CODE")); v {
	case "":
		return DefaultGenericProductCode
	case "-":
		return ""
	default:
		return v
	}
}

// StagesFromEnv reads SALESFORCE_STAGE_MAP ("approved=Qualification;expired=Closed Lost")
// over DefaultStages.
func StagesFromEnv(getenv func(string) string) (map[opportunity.Status]string, error) {
	stages := DefaultStages()
	v := strings.TrimSpace(getenv("SALESFORCE_STAGE_MAP"))
	if v == "" {
		return stages, nil
	}
	for _, pair := range strings.Split(v, ";") {
		if strings.TrimSpace(pair) == "" {
			continue
		}
		k, stage, ok := strings.Cut(pair, "=")
		st := opportunity.Status(strings.TrimSpace(k))
		if !ok || !st.Valid() || strings.TrimSpace(stage) == "" {
			return stages, fmt.Errorf("SALESFORCE_STAGE_MAP: %q is not status=Stage (statuses: analysis, approved, renovation, awaiting_renovation, expired, disapproved)", pair)
		}
		stages[st] = strings.TrimSpace(stage)
	}
	return stages, nil
}

// Validate checks that the configuration can work and fills the defaults.
func (c *SalesforceConfig) Validate() error {
	u, err := url.Parse(c.URL)
	if c.URL == "" {
		return ErrNotConfigured
	}
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("CRM_URL: %q is not an http(s) URL", c.URL)
	}
	c.URL = strings.TrimRight(c.URL, "/")
	if c.APIVersion == "" {
		c.APIVersion = DefaultAPIVersion
	}
	if !apiVersion.MatchString(c.APIVersion) {
		return fmt.Errorf("SALESFORCE_API_VERSION: %q is not a version such as v61.0", c.APIVersion)
	}
	if !strings.HasPrefix(c.APIVersion, "v") {
		c.APIVersion = "v" + c.APIVersion
	}
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Stages == nil {
		c.Stages = DefaultStages()
	}
	if c.BackgroundCeiling <= 0 {
		c.BackgroundCeiling = DefaultBackgroundCeiling
	}
	if c.BackgroundPause <= 0 {
		c.BackgroundPause = DefaultBackgroundPause
	}
	if c.JWTAudience == "" {
		c.JWTAudience = DefaultJWTAudience
		if h := u.Hostname(); strings.HasSuffix(h, "test.salesforce.com") || strings.Contains(h, ".sandbox.") {
			c.JWTAudience = SandboxJWTAudience
		}
	}
	if c.ClientID == "" {
		return errors.New("SALESFORCE_CLIENT_ID is required")
	}
	switch c.Flow {
	case FlowClientCredentials:
		if c.ClientSecret == "" {
			return errors.New("SALESFORCE_CLIENT_SECRET is required by the client_credentials flow")
		}
	case FlowJWT:
		if c.Username == "" || c.PrivateKey == nil {
			return errors.New("the jwt flow needs SALESFORCE_USERNAME and SALESFORCE_PRIVATE_KEY")
		}
	default:
		return fmt.Errorf("SALESFORCE_AUTH_FLOW: %q is neither client_credentials nor jwt", c.Flow)
	}
	if c.Fields.OpportunityExternalID == "" || c.Fields.AccountCNPJ == "" {
		return errors.New("SALESFORCE_ACCOUNT_CNPJ_FIELD and SALESFORCE_OPPORTUNITY_EXTERNAL_ID_FIELD are required")
	}
	for name, v := range map[string]string{
		"SALESFORCE_ACCOUNT_CNPJ_FIELD": c.Fields.AccountCNPJ, "SALESFORCE_OPPORTUNITY_EXTERNAL_ID_FIELD": c.Fields.OpportunityExternalID,
		"SALESFORCE_OPPORTUNITY_BRAND_FIELD": c.Fields.OpportunityBrand, "SALESFORCE_OPPORTUNITY_RESELLER_FIELD": c.Fields.OpportunityReseller,
		"SALESFORCE_OPPORTUNITY_SELLER_FIELD": c.Fields.OpportunitySeller, "SALESFORCE_USER_BRAND_FIELD": c.Fields.UserBrand,
		"SALESFORCE_USER_COMPANY_FIELD": c.Fields.UserCompany,
	} {
		if v != "" && !apiName.MatchString(v) {
			return fmt.Errorf("%s: %q is not a Salesforce API name", name, v)
		}
	}
	if c.PricebookID != "" && !recordID.MatchString(c.PricebookID) {
		return fmt.Errorf("SALESFORCE_PRICEBOOK_ID: %q is not a Salesforce id", c.PricebookID)
	}
	return nil
}

// ParsePrivateKey reads an RSA private key in PEM (PKCS #1 or PKCS #8).
func ParsePrivateKey(pemBytes []byte) (*rsa.PrivateKey, error) {
	block, _ := pem.Decode(pemBytes)
	if block == nil {
		return nil, errors.New("no PEM block")
	}
	if k, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("not an RSA private key: %w", err)
	}
	rk, ok := k.(*rsa.PrivateKey)
	if !ok {
		return nil, errors.New("not an RSA private key")
	}
	return rk, nil
}
