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
	CodigoIBGE     flexText `json:"codigo_municipio_ibge"`
	commonAnswer
}

// commonAnswer is what BrasilAPI and ReceitaWS both answer under the same
// keys: the address, and the message of a refusal.
type commonAnswer struct {
	Logradouro  string   `json:"logradouro"`
	Numero      flexText `json:"numero"`
	Complemento string   `json:"complemento"`
	Bairro      string   `json:"bairro"`
	CEP         flexText `json:"cep"`
	UF          string   `json:"uf"`
	Municipio   string   `json:"municipio"`
	Message     string   `json:"message"`
}

// company is the answer's company of the names given, its street's name
// preceded by kind (Rua, Avenida...) when the name does not start with it;
// for finish.
func (a commonAnswer) company(razaoSocial, nomeFantasia, kind string) Company {
	return Company{
		NomeFantasia: nomeFantasia, RazaoSocial: razaoSocial,
		Rua: street(kind, a.Logradouro, string(a.Numero)), Numero: string(a.Numero),
		Complemento: a.Complemento, Bairro: a.Bairro, CEP: string(a.CEP),
		Cidade: a.Municipio, Estado: a.UF,
	}
}

// Fetch implements Provider.
func (c *BrasilAPI) Fetch(ctx context.Context, cnpj string) (Company, error) {
	url := strings.TrimRight(c.BaseURL, "/") + "/api/cnpj/v1/" + cnpj
	var a brasilAPIAnswer
	if _, err := getAnswer(ctx, c.HTTP, "brasilapi", url, "", cnpj, &a, &a.Message); err != nil {
		return Company{}, err
	}
	if strings.TrimSpace(a.RazaoSocial) == "" {
		return Company{}, fmt.Errorf("%w: brasilapi: unreadable answer for %s", ErrUnavailable, cnpj)
	}
	kind := a.TipoLogradouro
	if kind == "" {
		kind = a.TipoAlt
	}
	company := a.company(a.RazaoSocial, a.NomeFantasia, kind)
	company.CodigoIBGE, _ = strconv.Atoi(string(a.CodigoIBGE))
	return finish(cnpj, company), nil
}

// getAnswer fetches a provider's answer about cnpj (get) and decodes its JSON
// into answer. A 404 or 400 is ErrNotFound with the answer's message (read
// into *message), a 429 is rate limited, any other status than 200 or an
// unreadable 200 is ErrUnavailable. The response is for the caller's own
// checks of the answer.
func getAnswer(ctx context.Context, hc *http.Client, provider, url, bearer, cnpj string, answer any, message *string) (*http.Response, error) {
	res, body, err := get(ctx, hc, url, bearer)
	if err != nil {
		return nil, err
	}
	switch res.StatusCode {
	case http.StatusOK:
		if err := json.Unmarshal(body, answer); err != nil {
			return nil, fmt.Errorf("%w: %s: unreadable answer for %s", ErrUnavailable, provider, cnpj)
		}
		return res, nil
	case http.StatusNotFound, http.StatusBadRequest:
		_ = json.Unmarshal(body, answer)
		return nil, fmt.Errorf("%w: %s %d: %s", ErrNotFound, provider, res.StatusCode, *message)
	case http.StatusTooManyRequests:
		return nil, rateLimited(provider, res, "")
	default:
		return nil, fmt.Errorf("%w: %s answered %d", ErrUnavailable, provider, res.StatusCode)
	}
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
