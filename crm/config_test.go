package crm_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"oportuna/crm"
	"oportuna/opportunity"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestConfigFromEnvDefaults(t *testing.T) {
	if _, err := crm.ConfigFromEnv(envOf(nil)); !errors.Is(err, crm.ErrNotConfigured) {
		t.Fatalf("without CRM_URL: %v, want ErrNotConfigured", err)
	}
	c, err := crm.ConfigFromEnv(envOf(map[string]string{"CRM_URL": "https://acme.my.salesforce.com/",
		"SALESFORCE_CLIENT_ID": "3MVG9", "SALESFORCE_CLIENT_SECRET": "s3cr3t"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.URL != "https://acme.my.salesforce.com" || c.Flow != crm.FlowClientCredentials || c.APIVersion != "v61.0" ||
		c.Timeout != 10*time.Second || c.Fields != crm.DefaultFields() || c.JWTAudience != crm.DefaultJWTAudience ||
		c.GenericProductCode != "OPORTUNA-ITEM" || c.Stages[opportunity.Approved] != "Qualification" || c.PricebookID != "" {
		t.Errorf("defaults %+v", c)
	}
}

func TestConfigFromEnvOverrides(t *testing.T) {
	key, _ := rsa.GenerateKey(rand.Reader, 2048)
	pkcs8, _ := x509.MarshalPKCS8PrivateKey(key)
	pemText := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8}))
	file := filepath.Join(t.TempDir(), "key.pem")
	if err := os.WriteFile(file, []byte(pemText), 0o600); err != nil {
		t.Fatal(err)
	}
	base := map[string]string{"CRM_URL": "https://acme--uat.sandbox.my.salesforce.com", "SALESFORCE_AUTH_FLOW": "jwt",
		"SALESFORCE_CLIENT_ID": "3MVG9", "SALESFORCE_USERNAME": "integracao@acme.com.br",
		"SALESFORCE_API_VERSION": "62.0", "SALESFORCE_TIMEOUT": "5s", "SALESFORCE_OPPORTUNITY_BRAND_FIELD": "-",
		"SALESFORCE_ACCOUNT_CNPJ_FIELD": "Documento__c", "SALESFORCE_STAGE_MAP": "approved=Negotiation/Review; expired=Closed Lost",
		"SALESFORCE_PRICEBOOK_ID": "01s5e000000AbCdAAA"}
	for name, keyVars := range map[string]map[string]string{
		"inline key with escaped newlines": {"SALESFORCE_PRIVATE_KEY": strings.ReplaceAll(pemText, "\n", `\n`)},
		"key file":                         {"SALESFORCE_PRIVATE_KEY_FILE": file},
	} {
		vars := map[string]string{}
		for k, v := range base {
			vars[k] = v
		}
		for k, v := range keyVars {
			vars[k] = v
		}
		c, err := crm.ConfigFromEnv(envOf(vars))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !c.PrivateKey.Equal(key) || c.APIVersion != "v62.0" || c.Timeout != 5*time.Second || c.Fields.OpportunityBrand != "" ||
			c.Fields.AccountCNPJ != "Documento__c" || c.Stages[opportunity.Approved] != "Negotiation/Review" ||
			c.Stages[opportunity.Analysis] != "Prospecting" || c.JWTAudience != crm.SandboxJWTAudience || c.PricebookID != "01s5e000000AbCdAAA" {
			t.Errorf("%s: %+v", name, c)
		}
	}
}

func TestConfigFromEnvRejectsWhatCannotWork(t *testing.T) {
	ok := map[string]string{"CRM_URL": "https://acme.my.salesforce.com", "SALESFORCE_CLIENT_ID": "id", "SALESFORCE_CLIENT_SECRET": "s"}
	for name, change := range map[string]map[string]string{
		"no client id":         {"SALESFORCE_CLIENT_ID": ""},
		"no secret":            {"SALESFORCE_CLIENT_SECRET": ""},
		"unknown flow":         {"SALESFORCE_AUTH_FLOW": "password"},
		"jwt without key":      {"SALESFORCE_AUTH_FLOW": "jwt", "SALESFORCE_USERNAME": "u"},
		"jwt with a bad key":   {"SALESFORCE_AUTH_FLOW": "jwt", "SALESFORCE_USERNAME": "u", "SALESFORCE_PRIVATE_KEY": "not a key"},
		"jwt missing key file": {"SALESFORCE_AUTH_FLOW": "jwt", "SALESFORCE_USERNAME": "u", "SALESFORCE_PRIVATE_KEY_FILE": "/nonexistent.pem"},
		"field injection":      {"SALESFORCE_USER_BRAND_FIELD": "Brand__c = 'x' OR Name"},
		"no external id field": {"SALESFORCE_OPPORTUNITY_EXTERNAL_ID_FIELD": "-"},
		"bad version":          {"SALESFORCE_API_VERSION": "latest"},
		"not a URL":            {"CRM_URL": "acme.my.salesforce.com"},
		"bad stage map":        {"SALESFORCE_STAGE_MAP": "aprovada=Qualification"},
		"bad timeout":          {"SALESFORCE_TIMEOUT": "soon"},
		"bad price book":       {"SALESFORCE_PRICEBOOK_ID": "standard"},
	} {
		vars := map[string]string{}
		for k, v := range ok {
			vars[k] = v
		}
		for k, v := range change {
			vars[k] = v
		}
		if _, err := crm.ConfigFromEnv(envOf(vars)); err == nil || errors.Is(err, crm.ErrNotConfigured) {
			t.Errorf("%s: accepted (%v)", name, err)
		}
	}
}

func TestSOQLQuoteEscapesLiterals(t *testing.T) {
	if got := crm.Quote(`O'Brien \ "x"`); got != `'O\'Brien \\ \"x\"'` {
		t.Errorf("Quote = %s", got)
	}
}
