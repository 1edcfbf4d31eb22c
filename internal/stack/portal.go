package stack

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// APIRequest is a call to the portal's API as the holder of token at brand:
// body, when not nil, sent as JSON; key, when set, as its Idempotency-Key.
func APIRequest(ctx context.Context, method, url, token, brand, key string, body any) (*http.Request, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("company", brand)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	return req, nil
}

// Login signs user in at brand as the web app does (GET
// /authenticator/login?brand= with Basic auth) and answers the access token
// and the HTTP status (0: no answer). host, when set, is the Host header.
func Login(ctx context.Context, hc *http.Client, base, host, brand, user, password string) (string, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/authenticator/login?brand="+url.QueryEscape(brand), nil)
	if err != nil {
		return "", 0, err
	}
	if host != "" {
		req.Host = host
	}
	req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(user+":"+password)))
	res, err := hc.Do(req)
	if err != nil {
		return "", 0, fmt.Errorf("login %s: %w", user, err)
	}
	defer res.Body.Close()
	var tokens struct {
		Data struct {
			Data struct {
				AccessToken string `json:"access_token"`
			} `json:"data"`
		} `json:"data"`
	}
	_ = json.NewDecoder(res.Body).Decode(&tokens)
	if res.StatusCode != http.StatusOK || tokens.Data.Data.AccessToken == "" {
		return "", res.StatusCode, fmt.Errorf("login %s at %s: HTTP %d", user, brand, res.StatusCode)
	}
	return tokens.Data.Data.AccessToken, res.StatusCode, nil
}

// Registration is the body the registration form posts (spec §5) for the
// customer doc (a valid CNPJ) named name, at brand.
func Registration(brand, doc, name string) map[string]any {
	return map[string]any{
		"cnpj": doc, "contact": "Ana Souza", "network": "Não", "email": "ana@cliente.com.br",
		"fantasyName": name, "corporateName": name + " Ltda",
		"street": "Rua A, 1", "cep": "01310100", "city": "São Paulo", "state": "SP",
		"probabilityClosing": 25, "acceptedTerm": "true", "country": "Brasil", "phone": "11987654321", "seller": "Vanessa",
		"company": brand, "opportunityOrigin": "Partner",
		"projects": []any{map[string]any{"aplication": "Inventário", "specification": "Coletor", "homologated": true, "haveCollector": false,
			"partner": false, "opportunityType": "private", "conclusionDate": time.Now().AddDate(0, 2, 0).Format("2006-01-02")}},
		"products": []any{map[string]any{"partNumber": "CT-40", "description": "Coletor", "amount": 2, "price": "1.000,00"}},
	}
}

// AdminURLFromEnv is the PostgreSQL server the drivers create their database
// on: $OPORTUNA_TEST_DATABASE_URL, else $DATABASE_URL.
func AdminURLFromEnv(getenv func(string) string) string {
	if u := getenv("OPORTUNA_TEST_DATABASE_URL"); u != "" {
		return u
	}
	return getenv("DATABASE_URL")
}
