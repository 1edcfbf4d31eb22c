package cnpj

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"oportuna/geo"
)

// Company is the lookup result of spec §3 ("Company lookup result": nome_fantasia,
// razao_social, rua, cep, cidade, estado) plus the address details the providers give.
type Company struct {
	CNPJ         string `json:"cnpj"`          // 14 characters, no mask
	NomeFantasia string `json:"nome_fantasia"` // trade name; may be empty (the form shows 'N/C')
	RazaoSocial  string `json:"razao_social"`  // legal name, as registered
	Rua          string `json:"rua"`           // street line with its number: "AVENIDA PAULISTA, 1578"
	Numero       string `json:"numero"`
	Complemento  string `json:"complemento"`
	Bairro       string `json:"bairro"`
	CEP          string `json:"cep"`    // 8 digits
	Cidade       string `json:"cidade"` // the IBGE name when it matches one ("São Paulo")
	Estado       string `json:"estado"` // UF sigla ("SP")
	CodigoIBGE   int    `json:"codigo_ibge,omitempty"`
}

// Errors of a lookup; the HTTP handler maps each to an answer.
var (
	// ErrInvalid: not a CNPJ (length, characters or check digits). Answered 400.
	ErrInvalid = errors.New("cnpj: invalid")
	// ErrNotFound: the provider does not know the company. Answered 404.
	ErrNotFound = errors.New("cnpj: not found")
	// ErrRateLimited: the provider refused for too many requests. Answered 429.
	ErrRateLimited = errors.New("cnpj: provider rate limit")
	// ErrUnavailable: outage, timeout, refused credentials or an unreadable answer. Answered 502.
	ErrUnavailable = errors.New("cnpj: provider unavailable")
)

// Provider fetches a company from a registry service.
type Provider interface {
	// Name identifies the provider ("brasilapi", "receitaws").
	Name() string
	// Fetch looks up a normalized, valid 14-character CNPJ.
	Fetch(ctx context.Context, cnpj string) (Company, error)
}

// flexText reads a JSON string, number or null as text (BrasilAPI has sent the
// CEP and codes both ways).
type flexText string

func (f *flexText) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*f = flexText(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil {
		*f = flexText(n.String())
		return nil
	}
	if string(b) == "null" {
		*f = ""
		return nil
	}
	return fmt.Errorf("cnpj: expected text, got %s", b)
}

// clean trims and collapses inner spaces.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

// street joins the street type (when the name lacks it), the name and the number.
func street(kind, name, number string) string {
	kind, name, number = clean(kind), clean(name), clean(number)
	if words, kw := strings.Fields(name), strings.Fields(kind); len(kw) > 0 &&
		(len(words) < len(kw) || geo.Fold(strings.Join(words[:len(kw)], " ")) != geo.Fold(kind)) {
		name = clean(kind + " " + name)
	}
	if number != "" && name != "" {
		return name + ", " + number
	}
	return name
}

// finish puts what every provider answers into one form: the CNPJ as asked,
// the CEP as 8 digits, the state as its sigla, the city by its IBGE name.
func finish(cnpj string, c Company) Company {
	c.CNPJ = cnpj
	c.NomeFantasia, c.RazaoSocial = clean(c.NomeFantasia), clean(c.RazaoSocial)
	c.Numero, c.Complemento, c.Bairro = clean(c.Numero), clean(c.Complemento), clean(c.Bairro)
	if d, ok := geo.ParseCEP(c.CEP); ok {
		c.CEP = d
	} else {
		c.CEP = strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, c.CEP)
	}
	if s, ok := geo.StateByUF(c.Estado); ok {
		c.Estado = s.Sigla
	} else {
		c.Estado = strings.ToUpper(clean(c.Estado))
	}
	if city, ok := geo.CityByID(c.CodigoIBGE); ok && city.UF == c.Estado {
		c.Cidade = city.Nome
	} else if city, ok := geo.CityByName(c.Estado, c.Cidade); ok {
		c.Cidade, c.CodigoIBGE = city.Nome, city.ID
	} else {
		c.Cidade, c.CodigoIBGE = titleCase(clean(c.Cidade)), 0
	}
	return c
}

// titleCase writes an upper-case registry name the way people do
// ("SANTA RITA DO PASSA QUATRO" → "Santa Rita do Passa Quatro").
func titleCase(s string) string {
	words := strings.Fields(strings.ToLower(s))
	for i, w := range words {
		switch w {
		case "de", "da", "do", "das", "dos", "e", "d'":
			if i > 0 {
				continue
			}
		}
		r := []rune(w)
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}
