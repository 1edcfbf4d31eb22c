// Package cnpjsim is the local stand-in of the CNPJ registry services: an HTTP
// server speaking BrasilAPI's shape (GET /api/cnpj/v1/{cnpj}) and ReceitaWS's
// (GET /v1/cnpj/{cnpj}), so `make run`, demos and tests work with any valid CNPJ
// and no network.
//
// Every CNPJ with valid check digits (numeric or alphanumeric) is a deterministic
// fictitious company: a pt-BR name, a real municipality of a real state (from
// package geo), a street and a CEP inside that state's span. The same root (first
// 8 characters) is the same company; each branch has its own address.
//
// Reserved range: every CNPJ whose 8-character root starts with "999" (masked
// 99.9xx.xxx/xxxx-xx, e.g. 99.900.000/0001-05) is unknown: BrasilAPI shape 404,
// ReceitaWS shape {"status":"ERROR"}. Wrong check digits: BrasilAPI shape 400,
// ReceitaWS shape {"status":"ERROR","message":"CNPJ inválido"}.
package cnpjsim

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/go-chi/chi/v5"
	"golang.org/x/text/unicode/norm"

	"oportuna/cnpj"
	"oportuna/geo"
)

// ReservedPrefix starts the roots the stand-in does not know.
const ReservedPrefix = "999"

// Errors of Company.
var (
	ErrInvalid  = errors.New("cnpjsim: invalid CNPJ")
	ErrReserved = errors.New("cnpjsim: reserved CNPJ (root starts with 999): not found")
)

// Record is a fictitious company as the registry writes it: upper case, no
// accents, the street type apart from its name.
type Record struct {
	CNPJ           string   // 14 characters
	RazaoSocial    string   // "DISTRIBUIDORA ANDRADE COMERCIO DE ALIMENTOS LTDA"
	NomeFantasia   string   // "DISTRIBUIDORA ANDRADE"; empty for some companies
	TipoLogradouro string   // "RUA"
	Logradouro     string   // "DAS FLORES"
	Numero         string   // "1234"
	Complemento    string   // "SALA 2" or empty
	Bairro         string   // "CENTRO"
	CEP            string   // 8 digits, inside the state's span
	UF             string   // "MG"
	Municipio      string   // "BELO HORIZONTE"
	City           geo.City // the municipality (IBGE name and code)
	Matriz         bool     // order 0001
	Abertura       string   // opening date, yyyy-mm-dd
}

// Company is the fictitious company of a CNPJ (masked or not).
func Company(s string) (Record, error) {
	n := cnpj.Normalize(s)
	if !cnpj.Valid(n) {
		return Record{}, ErrInvalid
	}
	if strings.HasPrefix(n[:8], ReservedPrefix) {
		return Record{}, ErrReserved
	}
	root := newRand(n[:8])
	branch := newRand(n)

	kind := kinds[root.intn(len(kinds))]
	family := families[root.intn(len(families))]
	fantasy := kind.word + " " + family
	legal := fantasy + " " + kind.activity + " " + suffixes[root.intn(len(suffixes))]
	if root.intn(10) == 0 {
		fantasy = "" // some companies register no trade name
	}

	states := geo.States()
	state := states[branch.intn(len(states))]
	city, _ := geo.Capital(state.Sigla)
	if branch.intn(5) >= 2 { // 60% elsewhere in the state
		list, _ := geo.Cities(state.Sigla)
		city = list[branch.intn(len(list))]
	}
	ranges := geo.CEPRanges(state.Sigla)
	span := ranges[branch.intn(len(ranges))]
	prefix := span.From + branch.intn(span.To-span.From+1)
	cep := fmt.Sprintf("%05d%03d", prefix, branch.intn(1000))
	st := streets[branch.intn(len(streets))]
	complement := ""
	if c := branch.intn(len(complements) * 2); c < len(complements) {
		complement = fmt.Sprintf(complements[c], 1+branch.intn(20))
	}
	opened := time.Date(1975, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, root.intn(50*365))

	return Record{
		CNPJ:           n,
		RazaoSocial:    registry(legal),
		NomeFantasia:   registry(fantasy),
		TipoLogradouro: registry(st.kind),
		Logradouro:     registry(st.name),
		Numero:         fmt.Sprint(1 + branch.intn(2999)),
		Complemento:    registry(complement),
		Bairro:         registry(districts[branch.intn(len(districts))]),
		CEP:            cep,
		UF:             state.Sigla,
		Municipio:      registry(city.Nome),
		City:           city,
		Matriz:         n[8:12] == "0001",
		Abertura:       opened.Format("2006-01-02"),
	}, nil
}

// registry writes text as the Receita Federal does: upper case without accents.
func registry(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// rnd is a small deterministic generator (splitmix64) seeded by a text.
type rnd struct{ state uint64 }

func newRand(seed string) *rnd {
	h := fnv.New64a()
	_, _ = h.Write([]byte(seed))
	return &rnd{state: h.Sum64()}
}

func (r *rnd) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *rnd) intn(n int) int { return int(r.next() % uint64(n)) }

// DefaultRetryAfter is the Retry-After of the stand-in's 429 answers: the
// providers' free tiers count requests per minute.
const DefaultRetryAfter = "60"

// Server is the stand-in's HTTP handler.
type Server struct {
	router     chi.Router
	failure    atomic.Int32
	requests   atomic.Int64
	retryAfter atomic.Value // string
}

// New builds the stand-in. Mount it anywhere (chi Mount or http.StripPrefix) and
// point CNPJ_URL at that base: it routes on /api/cnpj/v1/{cnpj} and /v1/cnpj/{cnpj}.
func New() *Server {
	s := &Server{}
	s.retryAfter.Store(DefaultRetryAfter)
	r := chi.NewRouter()
	r.Get("/api/cnpj/v1/{cnpj}", s.brasilAPI)
	r.Get("/v1/cnpj/{cnpj}", s.receitaWS)
	s.router = r
	return s
}

// ServeHTTP implements http.Handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	s.router.ServeHTTP(w, r)
}

// Fail makes every lookup answer the HTTP status (503 an outage, 429 a rate
// limit with Retry-After, 504 a registry timeout); 0 restores normal answers.
func (s *Server) Fail(status int) { s.failure.Store(int32(status)) }

// SetRetryAfter sets the Retry-After header of the 429 answers (Fail(429)):
// delay-seconds ("42") or an HTTP-date, as RFC 9110 §10.2.3 allows; "" leaves
// the header out. The default is DefaultRetryAfter.
func (s *Server) SetRetryAfter(v string) { s.retryAfter.Store(v) }

// fail answers the failure status, if one is set (a 429 with Retry-After, as
// the providers send it); false when there is none.
func (s *Server) fail(w http.ResponseWriter, f int, body map[string]string) bool {
	if f == 0 {
		return false
	}
	if v := s.retryAfter.Load().(string); f == http.StatusTooManyRequests && v != "" {
		w.Header().Set("Retry-After", v)
	}
	writeJSON(w, f, body)
	return true
}

// Requests counts the requests served so far.
func (s *Server) Requests() int64 { return s.requests.Load() }

// Serve starts a stand-in on addr ("127.0.0.1:0" picks a free port) and returns
// it, its base URL (the value for CNPJ_URL) and a function that stops it.
func Serve(addr string) (*Server, string, func(context.Context) error, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", nil, err
	}
	sim := New()
	srv := &http.Server{Handler: sim, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return sim, "http://" + ln.Addr().String(), srv.Shutdown, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) brasilAPI(w http.ResponseWriter, r *http.Request) {
	param := chi.URLParam(r, "cnpj")
	f := int(s.failure.Load())
	if s.fail(w, f, map[string]string{"message": http.StatusText(f), "type": "service_error", "name": "ServiceError"}) {
		return
	}
	rec, err := Company(param)
	switch {
	case errors.Is(err, ErrInvalid):
		writeJSON(w, http.StatusBadRequest, map[string]string{"message": "CNPJ " + param + " inválido.", "type": "bad_request", "name": "BadRequestError"})
		return
	case err != nil:
		writeJSON(w, http.StatusNotFound, map[string]string{"message": "CNPJ " + cnpj.Normalize(param) + " não encontrado.", "type": "not_found", "name": "NotFoundError"})
		return
	}
	matriz, desc := 2, "FILIAL"
	if rec.Matriz {
		matriz, desc = 1, "MATRIZ"
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"cnpj":                         rec.CNPJ,
		"identificador_matriz_filial":  matriz,
		"descricao_matriz_filial":      desc,
		"razao_social":                 rec.RazaoSocial,
		"nome_fantasia":                rec.NomeFantasia,
		"situacao_cadastral":           2,
		"descricao_situacao_cadastral": "ATIVA",
		"data_inicio_atividade":        rec.Abertura,
		"descricao_tipo_de_logradouro": rec.TipoLogradouro,
		"logradouro":                   rec.Logradouro,
		"numero":                       rec.Numero,
		"complemento":                  rec.Complemento,
		"bairro":                       rec.Bairro,
		"cep":                          rec.CEP,
		"uf":                           rec.UF,
		"codigo_municipio_ibge":        rec.City.ID,
		"municipio":                    rec.Municipio,
		"pais":                         nil,
	})
}

func (s *Server) receitaWS(w http.ResponseWriter, r *http.Request) {
	f := int(s.failure.Load())
	if s.fail(w, f, map[string]string{"status": "ERROR", "message": http.StatusText(f)}) {
		return
	}
	rec, err := Company(chi.URLParam(r, "cnpj"))
	switch {
	case errors.Is(err, ErrInvalid):
		writeJSON(w, http.StatusOK, map[string]string{"status": "ERROR", "message": "CNPJ inválido"})
		return
	case err != nil:
		writeJSON(w, http.StatusOK, map[string]string{"status": "ERROR", "message": "CNPJ rejeitado pela Receita Federal"})
		return
	}
	tipo := "FILIAL"
	if rec.Matriz {
		tipo = "MATRIZ"
	}
	opened, _ := time.Parse("2006-01-02", rec.Abertura)
	writeJSON(w, http.StatusOK, map[string]any{
		"status":      "OK",
		"cnpj":        cnpj.Format(rec.CNPJ),
		"tipo":        tipo,
		"abertura":    opened.Format("02/01/2006"),
		"nome":        rec.RazaoSocial,
		"fantasia":    rec.NomeFantasia,
		"situacao":    "ATIVA",
		"logradouro":  rec.TipoLogradouro + " " + rec.Logradouro,
		"numero":      rec.Numero,
		"complemento": rec.Complemento,
		"bairro":      rec.Bairro,
		"municipio":   rec.Municipio,
		"uf":          rec.UF,
		"cep":         rec.CEP[:2] + "." + rec.CEP[2:5] + "-" + rec.CEP[5:],
	})
}
