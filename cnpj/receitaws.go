package cnpj

import (
	"context"
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
	Status   string `json:"status"`
	Nome     string `json:"nome"`
	Fantasia string `json:"fantasia"`
	commonAnswer
}

// Fetch implements Provider.
func (c *ReceitaWS) Fetch(ctx context.Context, cnpj string) (Company, error) {
	url := strings.TrimRight(c.BaseURL, "/") + "/v1/cnpj/" + cnpj
	var a receitaWSAnswer
	res, err := getAnswer(ctx, c.HTTP, "receitaws", url, c.Token, cnpj, &a, &a.Message)
	if err != nil {
		return Company{}, err
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
	return finish(cnpj, a.company(a.Nome, a.Fantasia, "")), nil
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
