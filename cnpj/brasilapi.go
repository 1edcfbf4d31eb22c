package cnpj

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// maxAnswer bounds what is read from a provider.
const maxAnswer = 1 << 20

// BrasilAPI is the client of BrasilAPI's CNPJ service:
// GET {BaseURL}/api/cnpj/v1/{14 characters}.
//
//	200 → the company; 404 and 400 → ErrNotFound (unknown or refused number);
//	429 → a *RateLimitError (ErrRateLimited) with its Retry-After; anything else, a timeout or an unreadable body → ErrUnavailable.
type BrasilAPI struct {
	BaseURL string       // e.g. https://brasilapi.com.br
	HTTP    *http.Client // with a timeout
}

// Name implements Provider.
func (*BrasilAPI) Name() string { return ProviderBrasilAPI }

type brasilAPIAnswer struct {
	RazaoSocial    string   `json:"razao_social"`
	NomeFantasia   string   `json:"nome_fantasia"`
	TipoLogradouro string   `json:"descricao_tipo_de_logradouro"`
	TipoAlt        string   `json:"descricao_tipo_logradouro"`
	Logradouro     string   `json:"logradouro"`
	Numero         flexText `json:"numero"`
	Complemento    string   `json:"complemento"`
	Bairro         string   `json:"bairro"`
	CEP            flexText `json:"cep"`
	UF             string   `json:"uf"`
	Municipio      string   `json:"municipio"`
	CodigoIBGE     flexText `json:"codigo_municipio_ibge"`
	Message        string   `json:"message"`
}

// Fetch implements Provider.
func (c *BrasilAPI) Fetch(ctx context.Context, cnpj string) (Company, error) {
	url := strings.TrimRight(c.BaseURL, "/") + "/api/cnpj/v1/" + cnpj
	res, body, err := get(ctx, c.HTTP, url, "")
	if err != nil {
		return Company{}, err
	}
	var a brasilAPIAnswer
	switch {
	case res.StatusCode == http.StatusOK:
		if err := json.Unmarshal(body, &a); err != nil || strings.TrimSpace(a.RazaoSocial) == "" {
			return Company{}, fmt.Errorf("%w: brasilapi: unreadable answer for %s", ErrUnavailable, cnpj)
		}
	case res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusBadRequest:
		_ = json.Unmarshal(body, &a)
		return Company{}, fmt.Errorf("%w: brasilapi %d: %s", ErrNotFound, res.StatusCode, a.Message)
	case res.StatusCode == http.StatusTooManyRequests:
		return Company{}, rateLimited("brasilapi", res, "")
	default:
		return Company{}, fmt.Errorf("%w: brasilapi answered %d", ErrUnavailable, res.StatusCode)
	}
	kind := a.TipoLogradouro
	if kind == "" {
		kind = a.TipoAlt
	}
	ibge, _ := strconv.Atoi(string(a.CodigoIBGE))
	return finish(cnpj, Company{
		NomeFantasia: a.NomeFantasia, RazaoSocial: a.RazaoSocial,
		Rua: street(kind, a.Logradouro, string(a.Numero)), Numero: string(a.Numero),
		Complemento: a.Complemento, Bairro: a.Bairro, CEP: string(a.CEP),
		Cidade: a.Municipio, Estado: a.UF, CodigoIBGE: ibge,
	}), nil
}

// get sends a GET with the context's deadline and reads at most maxAnswer bytes;
// a failure to reach the provider or read its answer is ErrUnavailable.
func get(ctx context.Context, hc *http.Client, url, bearer string) (*http.Response, []byte, error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "oportuna-cnpj/1")
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := hc.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxAnswer))
	if err != nil {
		return nil, nil, fmt.Errorf("%w: reading the answer: %v", ErrUnavailable, err)
	}
	return res, body, nil
}
