package cnpj

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"oportuna/geo"
)

// ReceitaWS is the client of ReceitaWS: GET {BaseURL}/v1/cnpj/{14 characters},
// with "Authorization: Bearer {Token}" when a token is set (paid plans).
//
// ReceitaWS answers most errors with HTTP 200 and {"status":"ERROR","message":...}:
// a message about too many requests → ErrRateLimited, any other → ErrNotFound
// ("CNPJ inválido", "CNPJ rejeitado pela Receita Federal"). HTTP 429 → ErrRateLimited
// (both a *RateLimitError with the answer's Retry-After);
// 404 and 400 → ErrNotFound; 401 and 403 (token refused), 5xx (504 when it gives
// up waiting for the registry), a timeout or an unreadable body → ErrUnavailable.
type ReceitaWS struct {
	BaseURL string // e.g. https://receitaws.com.br
	Token   string
	HTTP    *http.Client
}

// Name implements Provider.
func (*ReceitaWS) Name() string { return ProviderReceitaWS }

type receitaWSAnswer struct {
	Status      string   `json:"status"`
	Message     string   `json:"message"`
	Nome        string   `json:"nome"`
	Fantasia    string   `json:"fantasia"`
	Logradouro  string   `json:"logradouro"`
	Numero      flexText `json:"numero"`
	Complemento string   `json:"complemento"`
	Bairro      string   `json:"bairro"`
	Municipio   string   `json:"municipio"`
	UF          string   `json:"uf"`
	CEP         flexText `json:"cep"`
}

// Fetch implements Provider.
func (c *ReceitaWS) Fetch(ctx context.Context, cnpj string) (Company, error) {
	url := strings.TrimRight(c.BaseURL, "/") + "/v1/cnpj/" + cnpj
	res, body, err := get(ctx, c.HTTP, url, c.Token)
	if err != nil {
		return Company{}, err
	}
	var a receitaWSAnswer
	switch res.StatusCode {
	case http.StatusOK:
		if err := json.Unmarshal(body, &a); err != nil {
			return Company{}, fmt.Errorf("%w: receitaws: unreadable answer for %s", ErrUnavailable, cnpj)
		}
	case http.StatusTooManyRequests:
		return Company{}, rateLimited("receitaws", res, "")
	case http.StatusNotFound, http.StatusBadRequest:
		_ = json.Unmarshal(body, &a)
		return Company{}, fmt.Errorf("%w: receitaws %d: %s", ErrNotFound, res.StatusCode, a.Message)
	default:
		return Company{}, fmt.Errorf("%w: receitaws answered %d", ErrUnavailable, res.StatusCode)
	}
	if strings.EqualFold(a.Status, "ERROR") {
		if saysTooMany(a.Message) {
			return Company{}, rateLimited("receitaws", res, a.Message)
		}
		return Company{}, fmt.Errorf("%w: receitaws: %s", ErrNotFound, a.Message)
	}
	if strings.TrimSpace(a.Nome) == "" {
		return Company{}, fmt.Errorf("%w: receitaws: answer without a company (status %q)", ErrUnavailable, a.Status)
	}
	return finish(cnpj, Company{
		NomeFantasia: a.Fantasia, RazaoSocial: a.Nome,
		Rua: street("", a.Logradouro, string(a.Numero)), Numero: string(a.Numero),
		Complemento: a.Complemento, Bairro: a.Bairro, CEP: string(a.CEP),
		Cidade: a.Municipio, Estado: a.UF,
	}), nil
}

func saysTooMany(msg string) bool {
	m := geo.Fold(msg)
	for _, k := range []string{"TOOMANY", "LIMITE", "RATELIMIT", "MUITASREQUISICOES", "MUITASCONSULTAS"} {
		if strings.Contains(m, k) {
			return true
		}
	}
	return false
}
